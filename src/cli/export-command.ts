import { resolve } from 'node:path'
import type { Observable, Subscription } from 'rxjs'
import type { CursorProgress } from '../core/paginate-cursor.js'
import { type Checkpoint, fileCheckpoint } from '../streams/checkpoint.js'
import type { Venue } from '../venue.js'
import { parseWithPositionals, UsageError } from './args.js'
import { apiKeyFromEnv, venueArgs, withVenue } from './cli-venue.js'
import { type Appender, EXPORT_KINDS, type ExportKind, openAppender } from './export-file.js'
import { CliError, toCliError } from './failure.js'
import { progressLine } from './progress.js'
import { untilSignal } from './until-signal.js'

export const EXPORT_USAGE = `Usage: venue-rx export <${EXPORT_KINDS.join('|')}> --out FILE --checkpoint FILE [options]

Appends the account's trades, transfers or fills to FILE, each exactly once, oldest
first, and keeps its place in the checkpoint file: a second run appends only what is new.
Needs VENUE_API_KEY.

Options:
  --out FILE          FILE.ndjson (one JSON object per line) or FILE.csv (header once)
  --checkpoint FILE   where the cursor is kept (JSON, replaced atomically)
  --follow            keep appending new items until Ctrl-C (default: stop when caught up)
  --base-url URL      the venue (default $VENUE_URL or http://127.0.0.1:8787)
  --poll-ms N         poll interval in ms (default 1000)
  -h, --help          this help

Progress (items, rate) goes to stderr. Each item is appended, then its cursor saved: a
crash between the two repeats at most that one line on the next run, never loses one.
`

/** `venue-rx export <kind>`: appends a cursor feed to a file, resumably. */
export async function exportCommand(argv: readonly string[]): Promise<void> {
  const { values, positionals } = parseWithPositionals(
    argv,
    ['out', 'checkpoint', 'base-url', 'poll-ms'],
    ['follow'],
    EXPORT_USAGE,
  )
  if (values['help'] === true) {
    process.stdout.write(EXPORT_USAGE)
    return
  }
  const { kind, out, checkpointPath, connection } = checkArguments(values, positionals)
  const apiKey = apiKeyFromEnv(`export ${kind}`)
  const follow = values['follow'] === true
  const saved = fileCheckpoint<string>(checkpointPath)
  let start: string | undefined
  try {
    start = await saved.load()
  } catch (error) {
    throw toCliError(error, connection) // a damaged checkpoint file: one line, no stack
  }
  const progress = progressLine()
  await withVenue(
    connection,
    { apiKey },
    async (venue) => {
      const file = openAppender(out, kind)
      try {
        if (start === undefined && file.hadItems) {
          throw new CliError(
            `${out} already holds items but ${checkpointPath} does not exist: they would be written again`,
            'give the checkpoint this file was written with, or a new --out file',
          )
        }
        await run(venue, kind, file, saved, follow, progress)
      } finally {
        file.close()
      }
    },
    progress.clear,
  )
}

function checkArguments(
  values: Record<string, string | boolean | undefined>,
  positionals: string[],
) {
  const fail = (message: string): never => {
    throw new UsageError(message, EXPORT_USAGE)
  }
  const [kindName, ...rest] = positionals
  if (kindName === undefined) fail('export: what? (trades, transfers or fills)')
  if (!(EXPORT_KINDS as readonly string[]).includes(kindName as string)) {
    fail(`export: unknown feed "${kindName}" (trades, transfers or fills)`)
  }
  if (rest.length > 0) fail(`export: unexpected argument "${rest[0]}"`)
  const out = values['out']
  if (typeof out !== 'string' || out === '') return fail('export: --out FILE is required')
  if (!/\.(ndjson|csv)$/.test(out)) fail(`--out must end in .ndjson or .csv (got ${out})`)
  const checkpointPath = values['checkpoint']
  if (typeof checkpointPath !== 'string' || checkpointPath === '') {
    return fail('export: --checkpoint FILE is required')
  }
  if (resolve(checkpointPath) === resolve(out)) fail('--checkpoint must not be the --out file')
  return {
    kind: kindName as ExportKind,
    out,
    checkpointPath,
    connection: venueArgs(values, EXPORT_USAGE),
  }
}

/**
 * Runs the feed: each item appended (one synchronous write), then its cursor saved by the
 * feed. A failed append saves nothing, so the item comes again on the next run.
 */
function run(
  venue: Venue,
  kind: ExportKind,
  file: Appender,
  saved: Checkpoint<string>,
  follow: boolean,
  progress: ReturnType<typeof progressLine>,
): Promise<void> {
  let appendFailed = false
  const checkpoint: Checkpoint<string> = {
    load: () => saved.load(),
    save: (cursor) => (appendFailed ? undefined : saved.save(cursor)),
  }
  return new Promise<void>((resolvePromise, reject) => {
    let items = 0
    let done = false
    let subscription: Subscription | undefined
    const finish = (note: string, error?: unknown) => {
      if (done) return
      done = true
      subscription?.unsubscribe()
      progress.done(items, note)
      if (error === undefined) resolvePromise()
      else reject(error)
    }
    const onProgress = ({ phase }: CursorProgress<string>) => {
      progress.update(items, phase === 'tail' ? 'caught up' : 'backfilling')
      if (phase === 'tail' && !follow) finish(`caught up, ${kind} appended`)
    }
    const options = { checkpoint, onProgress }
    const feeds: Record<ExportKind, () => Observable<object>> = {
      trades: () => venue.watchMyTrades(options),
      transfers: () => venue.watchTransfers(options),
      fills: () => venue.watchFills(options),
    }
    subscription = feeds[kind]().subscribe({
      next: (item) => {
        if (done || appendFailed) return
        try {
          file.append(item)
        } catch (error) {
          appendFailed = true
          finish('stopped', error)
          return
        }
        items += 1
        progress.update(items)
      },
      error: (error: unknown) => finish('stopped', error),
      complete: () => finish('the venue closed'),
    })
    if (done) subscription.unsubscribe()
    void untilSignal().then(() => finish('interrupted'))
  })
}
