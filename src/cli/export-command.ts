import { resolve } from 'node:path'
import type { Observable, Subscription } from 'rxjs'
import { isCursorPosition } from '../core/cursor-position.js'
import type { CursorProgress } from '../core/paginate-cursor.js'
import { compareIds } from '../decimal.js'
import { VenueInputError } from '../errors/venue-input-error.js'
import { type Checkpoint, fileCheckpoint } from '../streams/checkpoint.js'
import { compareFillCursors } from '../streams/fills.js'
import type { Venue } from '../venue.js'
import { parseWithPositionals, quotedWords, UsageError, unexpectedArguments } from './args.js'
import { apiKeyFromEnv, venueArgs, withVenue } from './cli-venue.js'
import { didYouMean } from './did-you-mean.js'
import { type Appender, EXPORT_KINDS, type ExportKind, openAppender } from './export-file.js'
import { CliError, toCliError } from './failure.js'
import type { CliIo } from './io.js'
import { type ProgressLine, progressLine } from './progress.js'

export const EXPORT_USAGE = `Usage: venue-rx export <${EXPORT_KINDS.join('|')}> --out FILE --checkpoint FILE [options]

Appends the account's trades, transfers or fills to FILE, each exactly once, oldest
first, and keeps its place in the checkpoint file: a second run appends only what is new.
Needs VENUE_API_KEY.

Options:
  --out FILE          FILE.ndjson (one JSON object per line) or FILE.csv (header once)
  --checkpoint FILE   where the cursor is kept (JSON; each save appended, crash-safe)
  --follow            keep appending new items until Ctrl-C (default: stop when caught up)
  --base-url URL      the venue (default $VENUE_URL or http://127.0.0.1:8787)
  --poll-ms N         longest wait between two polls, ms (default 1000)
  --settle-ms N       hold the newest items N ms, so that one the venue shows late
                      still comes in order (default 1000; 0: off)
  -h, --help          this help

Progress goes to stderr: items and rate, and for trades and transfers a bar, the
percentage and an ETA when the venue counts exactly what is left to fetch. Each item is
appended, then its cursor saved: a crash between the two repeats at most that one line
on the next run, never loses one.

Exit codes: 0 done (caught up, Ctrl-C), 1 runtime failure, 2 usage error.
`

/** `venue-rx export <kind>`: appends a cursor feed to a file, resumably. */
export async function exportCommand(argv: readonly string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseWithPositionals(
    argv,
    ['out', 'checkpoint', 'base-url', 'poll-ms', 'settle-ms'],
    ['follow'],
  )
  if (values['help'] === true) {
    io.stdout.write(EXPORT_USAGE)
    return
  }
  const { kind, out, checkpointPath, connection } = checkArguments(values, positionals, io)
  const apiKey = apiKeyFromEnv(`export ${kind}`, io.env)
  const follow = values['follow'] === true
  const saved = fileCheckpoint<string>(checkpointPath)
  let start: string | undefined
  try {
    const loaded = await saved.load()
    // The count runs from the watermark (items above it may be counted once more).
    start = isCursorPosition<string>(loaded) ? (loaded.watermark ?? '0') : loaded
  } catch (error) {
    // A damaged checkpoint file: one line, no stack.
    if (error instanceof VenueInputError) throw new CliError(error.message, CHECKPOINT_HINT)
    throw toCliError(error, connection)
  }
  const progress = progressLine(io.stderr)
  await withVenue(
    connection,
    { apiKey },
    io.stderr,
    async (venue) => {
      const file = openAppender(out, kind)
      try {
        if (start === undefined && file.hadItems) {
          throw new CliError(
            `${out} already holds items but ${checkpointPath} does not exist: they would be written again`,
            'give the checkpoint this file was written with, or a new --out file',
          )
        }
        progress.setTotal(await itemsToFetch(venue, kind, start))
        progress.begin()
        await run(venue, kind, file, saved, follow, progress, io)
      } catch (error) {
        // A cursor of another form (say a fills cursor "7/1" given to a transfers export).
        if (error instanceof VenueInputError && error.argument === 'cursor') {
          throw new CliError(`${checkpointPath}: ${error.message}`, CHECKPOINT_HINT)
        }
        throw error
      } finally {
        file.close()
      }
    },
    progress.clear,
  )
}

const CHECKPOINT_HINT =
  'give the checkpoint file this export wrote, or a new one with a new --out file'

/** How long the count of {@link itemsToFetch} may take before the export starts without it. */
const COUNT_TIMEOUT_MS = 3000

/**
 * How many items the export has to fetch after `cursor`, when the venue tells it exactly;
 * `undefined` otherwise (the progress then shows no percentage and no ETA). One request
 * of one item for the list's `meta.total` (with a cursor, one more for the whole list's):
 * taken only when it is a count, 0 exactly when the answer is empty, the answer's item
 * comes after the cursor (the venue applied the filter) and, with a cursor, it is smaller
 * than the whole list's (the cursor's own item is in the list, so a count that is not
 * smaller also counts items before the cursor). Fills have none: a self-trade gives two
 * fills, so the trades' count is not theirs. Within {@link COUNT_TIMEOUT_MS} or none.
 */
export async function itemsToFetch(
  venue: Venue,
  kind: ExportKind,
  cursor: string | number | undefined,
): Promise<number | undefined> {
  if (kind === 'fills') return undefined
  const signal = AbortSignal.timeout(COUNT_TIMEOUT_MS)
  const count = async (after: string | undefined) => {
    let total: unknown
    const onMeta = (meta: Readonly<Record<string, unknown>>) => {
      total = meta['total']
    }
    const first =
      kind === 'trades'
        ? (
            await venue.rest.trades({ afterSeq: after, sort: 'asc', limit: 1 }, { onMeta, signal })
          )[0]?.global_seq
        : (
            await venue.rest.transfers(
              { afterId: after, sort: 'asc', limit: 1 },
              { onMeta, signal },
            )
          )[0]?.sid
    if (typeof total !== 'number' || !Number.isSafeInteger(total) || total < 0) return undefined
    if ((total === 0) !== (first === undefined)) return undefined
    if (after !== undefined && first !== undefined && compareIds(first, after) <= 0)
      return undefined
    return total
  }
  try {
    const after = cursor === undefined ? undefined : String(cursor)
    const left = await count(after)
    if (after === undefined || left === undefined) return left
    const all = await count(undefined)
    return all !== undefined && left < all ? left : undefined
  } catch {
    return undefined // no count in time (a bad cursor fails the feed itself, with its message)
  }
}

function checkArguments(
  values: Record<string, string | boolean | undefined>,
  positionals: string[],
  io: CliIo,
) {
  const fail = (message: string): never => {
    throw new UsageError(message)
  }
  const [kindName, ...rest] = positionals
  if (kindName === undefined) return fail('export: what? (trades, transfers or fills)')
  if (!(EXPORT_KINDS as readonly string[]).includes(kindName)) {
    const hint = didYouMean(kindName, EXPORT_KINDS) || ' (trades, transfers or fills)'
    fail(`export: unknown feed ${quotedWords([kindName])}${hint}`)
  }
  if (rest.length > 0) fail(`export: ${unexpectedArguments(rest)}`)
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
    connection: venueArgs(values, io.env),
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
  progress: ProgressLine,
  io: CliIo,
): Promise<void> {
  let appendFailed = false
  const checkpoint: Checkpoint<string> = {
    load: () => saved.load(),
    save: (cursor) => (appendFailed ? undefined : saved.save(cursor)),
  }
  return new Promise<void>((resolvePromise, reject) => {
    let items = 0
    let note = 'backfilling'
    let done = false
    let subscription: Subscription | undefined
    const finish = (last: string, error?: unknown) => {
      if (done) return
      done = true
      subscription?.unsubscribe()
      if (error === undefined) {
        progress.done(items, last)
        resolvePromise()
      } else {
        progress.clear() // a failure is one line: main prints it
        reject(error)
      }
    }
    // Caught up: everything the feed saw when it first reached the tail is delivered (the
    // newest items wait until the watermark passes them).
    let target: string | undefined
    const onProgress = ({ phase, cursor, newest }: CursorProgress<string>) => {
      if (phase === 'tail') {
        if (!follow) {
          target ??= newest
          const reached =
            target === undefined ||
            (cursor !== undefined && compareFillCursors(cursor, target) >= 0)
          if (reached) return finish(`caught up, ${kind} appended`)
          return progress.update(items, 'settling')
        }
        progress.setTotal(undefined) // following: no end to estimate
        note = 'caught up, following'
      }
      progress.update(items, note)
    }
    // In cursor order: the file reads as the venue's history, and the checkpoint stays a
    // plain cursor.
    const options = { checkpoint, onProgress, order: 'ascending' as const }
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
        progress.update(items, note)
      },
      error: (error: unknown) => finish('stopped', error),
      complete: () => finish('the venue closed'),
    })
    if (done) subscription.unsubscribe()
    void io.untilSignal().then(() => finish('interrupted'))
  })
}
