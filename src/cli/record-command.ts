import { stat } from 'node:fs/promises'
import { createLogUpdate } from 'log-update'
import type { Observable, Subscription } from 'rxjs'
import { isAccountStream, parseRelayStream, type RelayStream } from '../redis/stream-names.js'
import type { Venue } from '../venue.js'
import { integerOption, parseWithPositionals, UsageError, unexpectedArguments } from './args.js'
import { toCliError } from './failure.js'
import type { CliIo, CliOutput } from './io.js'
import { streamsArgument } from './relay-command.js'

export const RECORD_USAGE = `Usage: venue-rx record FILE --streams NAME[,NAME...] [--seconds N] [options]

Reads the named streams from the venue for N seconds and records every answer the venue
gives to FILE, a journal (gzip-compressed JSON lines; docs/replay.md), which a venue
replays with createVenue({ replay: { file } }). Without --base-url (and VENUE_URL) it
records the embedded simulator. Ctrl-C stops early; the journal is whole either way.

Streams (--streams, comma-separated): the relay's names (venue-rx relay --help):
  depth:POOL  trades:POOL  klines:POOL:INTERVAL  pools  pool:POOL  tokens  system-info
  account  my-trades  transfers  fills  balances  open-orders (the account's: they need
  VENUE_API_KEY with --base-url)

Options:
  --streams LIST    the streams to read (required)
  --seconds N       how long to record (default 60, from 1 to 86400)
  --base-url URL    the venue (default $VENUE_URL, or the embedded simulator)
  --poll-ms N       longest wait between two polls, ms (default 1000)
  --settle-ms N     hold the newest trades, fills and transfers N ms (default 1000)
  -h, --help        this help

Never recorded: request headers, so never the API key.

While it runs, stderr shows the seconds left, the answers recorded and the file's size
(one line redrawn on a terminal; a line every 5 s otherwise); at the end, a summary.

Example:
  venue-rx record session.journal --seconds 30 --streams depth:0,trades:0,my-trades

Exit codes: 0 recorded, 1 runtime failure, 2 usage error.
`

/** How often the progress line is drawn, ms: on a terminal, and otherwise. */
const REDRAW_MS = 250
export const PIPE_LINE_MS = 5_000

interface RecordArgs {
  readonly file: string
  readonly seconds: number
  readonly streams: readonly string[]
  /** `undefined`: the embedded simulator. */
  readonly baseUrl: string | undefined
  readonly pollMs: number
  readonly settleMs: number
}

/** `venue-rx record`: the streams read for N seconds, every answer in a journal. */
export async function recordCommand(argv: readonly string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseWithPositionals(
    argv,
    ['streams', 'seconds', 'base-url', 'poll-ms', 'settle-ms'],
    [],
  )
  if (values['help'] === true) {
    io.stdout.write(RECORD_USAGE)
    return
  }
  const args = checkArguments(values, positionals, io.env)
  const parsed = args.streams.map(parseRelayStream)
  const needsKey = parsed.some(isAccountStream)
  let apiKey: string | undefined
  if (args.baseUrl !== undefined && needsKey) apiKey = apiKeyForRecord(args.streams, io.env)
  const stopped = io.untilSignal()
  // Loaded only when it runs: recording a real venue does not load the simulator.
  const simulator =
    args.baseUrl === undefined
      ? await (await import('../simulator/index.js')).startSimulator({ seed: 1 })
      : undefined
  const baseUrl = simulator?.url ?? (args.baseUrl as string)
  try {
    await record(
      args,
      parsed,
      baseUrl,
      apiKey ?? (needsKey ? simulator?.apiKey : undefined),
      stopped,
      io.stderr,
    )
  } catch (error) {
    throw toCliError(error, { baseUrl })
  } finally {
    await simulator?.close()
  }
}

async function record(
  args: RecordArgs,
  streams: readonly RelayStream[],
  baseUrl: string,
  apiKey: string | undefined,
  stopped: Promise<void>,
  stderr: CliOutput,
): Promise<void> {
  const { createRelayVenue } = await import('../venue.js')
  const { relayedEntry } = await import('../streams/catalogue.js')
  let requests = 0
  // A venue that counts the requests it sends: each is one answer in the journal (but one
  // aborted when the streams stop, which the summary, read from the journal, leaves out).
  const { venue } = createRelayVenue(
    {
      baseUrl,
      ...(apiKey === undefined ? {} : { apiKey }),
      pollIntervalMs: args.pollMs,
      settleMs: args.settleMs,
      lingerMs: 1,
      record: { file: args.file },
    },
    () => {
      requests += 1
    },
  )
  const startedAt = performance.now()
  const progress = progressOf(args, () => requests, startedAt, stderr)
  let failed: unknown
  let fail: () => void = () => {}
  const failure = new Promise<void>((resolve) => {
    fail = resolve
  })
  const subscriptions: Subscription[] = []
  try {
    await venue.rest.ping()
    for (const stream of streams) {
      const { method, relay } = relayedEntry(stream.kind)
      const named = stream as unknown as Readonly<Record<string, unknown>>
      const open = venue[method] as unknown as (...params: unknown[]) => Observable<unknown>
      subscriptions.push(
        open(...relay.params.map((param) => named[param])).subscribe({
          error: (error: unknown) => {
            failed ??= error
            fail()
          },
        }),
      )
    }
    let timer: NodeJS.Timeout | undefined
    await Promise.race([
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, args.seconds * 1000)
      }),
      stopped,
      failure,
    ])
    clearTimeout(timer)
  } finally {
    for (const subscription of subscriptions) subscription.unsubscribe()
    progress.stop()
    await closeVenue(venue, failed)
  }
  if (failed !== undefined) throw failed
  const summary = await summarize(args.file)
  stderr.write(
    `recorded ${summary.answers} answer${summary.answers === 1 ? '' : 's'} in ${((performance.now() - startedAt) / 1000).toFixed(1)} s to ${args.file}: ` +
      `${formatBytes(summary.bytes)}, ${percent(summary.bytes, summary.json)} of the answers' JSON (${formatBytes(summary.json)})\n`,
  )
}

/** Closes `venue` (the journal with it); a close failure is the one reported when nothing failed before. */
async function closeVenue(venue: Venue, failed: unknown): Promise<void> {
  try {
    await venue.close()
  } catch (error) {
    if (failed === undefined) throw error
  }
}

/** The answers of the journal, its size, and the size of the bodies it holds. */
async function summarize(file: string): Promise<{ answers: number; bytes: number; json: number }> {
  const { openJournalReader } = await import('../replay/journal.js')
  const reader = await openJournalReader(file)
  let answers = 0
  let json = 0
  try {
    for await (const answer of reader) {
      answers += 1
      if (answer.type === 'response') json += Buffer.byteLength(answer.body)
    }
  } finally {
    await reader.close()
  }
  return { answers, bytes: (await stat(file)).size, json }
}

/**
 * The progress line on stderr: seconds left, answers recorded, the file's size (read by
 * `sizeOf`); redrawn in place on a terminal, a line every few seconds otherwise. Nothing
 * is drawn after `stop`.
 */
export function progressOf(
  args: Pick<RecordArgs, 'file' | 'seconds'>,
  answers: () => number,
  startedAt: number,
  stderr: CliOutput,
  sizeOf: (file: string) => Promise<number> = async (file) => (await stat(file)).size,
): { stop(): void } {
  const tty = stderr.isTTY === true
  // A terminal is a process's stderr.
  const redraw = tty ? createLogUpdate(stderr as NodeJS.WriteStream) : undefined
  let bytes = 0
  let stopped = false
  const show = () => {
    // A size asked for before the stop may come after it: the line is not drawn again.
    if (stopped) return
    const left = Math.max(0, args.seconds - (performance.now() - startedAt) / 1000)
    const text = `recording ${args.file}: ${Math.ceil(left)} s left, ${answers()} answers, ${formatBytes(bytes)}`
    if (redraw !== undefined) redraw(text)
    else stderr.write(`${text}\n`)
  }
  // The file's size as it is now (the journal is written as answers come), then the line.
  const measure = () => {
    sizeOf(args.file).then((size) => {
      bytes = size
      show()
    }, show)
  }
  const timer = setInterval(measure, tty ? REDRAW_MS : PIPE_LINE_MS)
  return {
    stop() {
      stopped = true
      clearInterval(timer)
      if (redraw !== undefined) {
        redraw.clear()
        redraw.done()
      }
    },
  }
}

function checkArguments(
  values: Record<string, string | boolean | undefined>,
  positionals: readonly string[],
  env: CliIo['env'],
): RecordArgs {
  const [file, ...rest] = positionals
  if (file === undefined || file.trim() === '') {
    throw new UsageError(
      'record: the journal FILE is required (venue-rx record FILE --streams ...)',
    )
  }
  if (rest.length > 0) throw new UsageError(`record: ${unexpectedArguments(rest)}`)
  const streams = streamsArgument(values['streams'], 'record')
  const raw = values['base-url'] ?? env['VENUE_URL']
  let baseUrl: string | undefined
  if (raw !== undefined) {
    baseUrl = String(raw)
    if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
      throw new UsageError(`--base-url must be an http(s) URL (got ${baseUrl})`)
    }
  }
  return {
    file,
    seconds: integerOption(values, 'seconds', 60, 1, 86_400),
    streams,
    baseUrl,
    pollMs: integerOption(values, 'poll-ms', 1000, 10, 3_600_000),
    settleMs: integerOption(values, 'settle-ms', 1000, 0, 3_600_000),
  }
}

/** The API key for the account streams, from `VENUE_API_KEY`; a usage error without it. */
function apiKeyForRecord(streams: readonly string[], env: CliIo['env']): string {
  const key = env['VENUE_API_KEY']
  if (key === undefined || key.trim() === '') {
    const account = streams.filter((name) => isAccountStream(parseRelayStream(name)))
    throw new UsageError(
      `record: ${account.join(', ')} ${account.length === 1 ? 'is' : 'are'} of the account and need${account.length === 1 ? 's' : ''} an API key: set VENUE_API_KEY, or leave out --base-url to record the embedded simulator`,
    )
  }
  return key.trim()
}

/** `76.2 kB`, `1.3 MB`, `512 B`. */
function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`
  return `${(bytes / 1_000_000).toFixed(1)} MB`
}

/** `part` as a percentage of `whole`: `6.1%`. */
function percent(part: number, whole: number): string {
  return whole === 0 ? '--' : `${((part / whole) * 100).toFixed(1)}%`
}
