import type { Subscription } from 'rxjs'
import { KLINE_INTERVALS, type KlineInterval } from '../schemas/kline.js'
import {
  integerOption,
  parseWithPositionals,
  quotedWords,
  UsageError,
  unexpectedArguments,
} from './args.js'
import { apiKeyFromEnv, venueArgs, withVenue } from './cli-venue.js'
import { didYouMean } from './did-you-mean.js'
import { toCliError } from './failure.js'
import { type CliIo, untilStopped } from './io.js'
import { painter } from './style.js'
import {
  ACCOUNT_KINDS,
  POOL_KINDS,
  WATCH_KINDS,
  type WatchArgs,
  type WatchKind,
  watchView,
} from './watch-views.js'

export const WATCH_USAGE = `Usage: venue-rx watch <${WATCH_KINDS.join('|')}> [order-id] [options]

Prints each event of a stream: a readable line or table per event, or one NDJSON line
with --json (decimals stay exact strings, times are epoch ms).

  book        the order book of --pool: a snapshot, then deltas (--limit levels)
  trades      public trades of --pool
  klines      candles of --pool (--interval)
  my-trades   the account's trades (all pools, or --pool)       needs VENUE_API_KEY
  fills       the account's fills (all pools, or --pool)        needs VENUE_API_KEY
  transfers   the account's deposits and withdrawals            needs VENUE_API_KEY
  balances    the account's balance changes                     needs VENUE_API_KEY
  order ID    one order's fills, updates and end (id {pool}-{order}-{side})  needs VENUE_API_KEY

Options:
  --json            one JSON object per line
  --count N         stop after N events (0 = no limit, the default)
  --base-url URL    the venue (default $VENUE_URL or http://127.0.0.1:8787)
  --pool N          pool id (default 0 for book, trades, klines; all pools otherwise)
  --interval I      candle interval for klines: ${KLINE_INTERVALS.join(', ')} (default 1m)
  --limit N         book depth (default 10)
  --poll-ms N       longest wait between two polls, ms (default 1000)
  --settle-ms N     how late the venue may show a trade, fill or transfer, ms: one shown
                    after a later one still comes, marked late (default 1000; 0: off)
  --replay FILE     show a recording (venue-rx record) instead of the venue: the stream
                    as it was, ending where the recording ends (no key needed)
  --speed S         with --replay: times real time (default 1), or max
  -h, --help        this help

Exit codes: 0 done (--count reached, stream ended, Ctrl-C), 1 runtime failure, 2 usage error.
`

/** `venue-rx watch <kind>`: prints a stream's events until --count, its end or Ctrl-C. */
export async function watchCommand(argv: readonly string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseWithPositionals(
    argv,
    ['base-url', 'pool', 'interval', 'limit', 'count', 'poll-ms', 'settle-ms', 'replay', 'speed'],
    ['json'],
  )
  if (values['help'] === true) {
    io.stdout.write(WATCH_USAGE)
    return
  }
  const { kind, args, count, connection } = checkArguments(values, positionals, io)
  const json = values['json'] === true
  const replay = replayArgs(values)
  if (replay !== undefined) {
    await replayWatch(replay, connection, (venue) => follow(venue, kind, args, count, json, io))
    return
  }
  const apiKey = ACCOUNT_KINDS.has(kind) ? apiKeyFromEnv(`watch ${kind}`, io.env) : undefined
  // An order's pool is checked too: an unknown one fails at once, not after the wait for
  // the order to show.
  const orderPool = args.orderId === undefined ? undefined : Number(args.orderId.split('-')[0])
  await withVenue(
    connection,
    {
      apiKey,
      poolId: POOL_KINDS.has(kind) || args.poolId !== undefined ? (args.poolId ?? 0) : orderPool,
    },
    io.stderr,
    (venue) => follow(venue, kind, args, count, json, io),
  )
}

/** `--replay FILE` and `--speed S`: the recording to show, and how fast. */
function replayArgs(
  values: Record<string, string | boolean | undefined>,
): { readonly file: string; readonly speed: number | 'max' } | undefined {
  const file = values['replay']
  if (file === undefined) {
    if (values['speed'] !== undefined) throw new UsageError('--speed goes with --replay FILE')
    return undefined
  }
  if (typeof file !== 'string' || file === '') throw new UsageError('--replay takes a journal file')
  const given = values['speed'] ?? '1'
  const speed = given === 'max' ? 'max' : Number(given)
  if (speed !== 'max' && !(Number.isFinite(speed) && speed > 0)) {
    throw new UsageError(`--speed must be a positive number or max (got ${String(given)})`)
  }
  return { file, speed }
}

/**
 * Runs `body` on a venue replaying the recording: nothing is checked at the venue (it is
 * not asked), and a failure comes out as a one-line CliError as a live watch's does.
 */
async function replayWatch(
  replay: { readonly file: string; readonly speed: number | 'max' },
  connection: ReturnType<typeof venueArgs>,
  body: (venue: Parameters<typeof follow>[0]) => Promise<void>,
): Promise<void> {
  try {
    const { createVenue } = await import('../venue.js')
    const venue = createVenue({
      replay,
      pollIntervalMs: connection.pollMs,
      settleMs: connection.settleMs,
      lingerMs: 1,
    })
    try {
      await body(venue)
    } finally {
      await venue.close()
    }
  } catch (error) {
    throw toCliError(error, connection)
  }
}

/** An order's composite id, as the venue's order endpoints take it. */
const ORDER_ID = /^(0|[1-9]\d{0,8})-(0|[1-9]\d{0,19})-[01]$/

function checkArguments(
  values: Record<string, string | boolean | undefined>,
  positionals: string[],
  io: CliIo,
) {
  const [kindName, ...rest] = positionals
  if (kindName === undefined) throw new UsageError('watch: which stream? (book, trades, ...)')
  if (!(WATCH_KINDS as readonly string[]).includes(kindName)) {
    throw new UsageError(
      `watch: unknown stream ${quotedWords([kindName])}${didYouMean(kindName, WATCH_KINDS)}`,
    )
  }
  const kind = kindName as WatchKind
  const wanted = kind === 'order' ? 1 : 0
  if (rest.length !== wanted) {
    throw new UsageError(
      kind === 'order'
        ? 'watch order takes one order id, e.g. 0-25-1'
        : `watch ${kind}: ${unexpectedArguments(rest)}`,
    )
  }
  if (kind === 'order' && !ORDER_ID.test(rest[0] ?? '')) {
    throw new UsageError(
      `watch order: "${rest[0]}" is no order id: {pool}-{order}-{side}, side 0 buy or 1 sell, e.g. 0-25-1`,
    )
  }
  const interval = String(values['interval'] ?? '1m')
  if (!(KLINE_INTERVALS as readonly string[]).includes(interval)) {
    throw new UsageError(
      `--interval must be one of ${KLINE_INTERVALS.join(', ')} (got ${interval})`,
    )
  }
  const args: WatchArgs = {
    poolId:
      values['pool'] === undefined ? undefined : integerOption(values, 'pool', 0, 0, 2 ** 31 - 1),
    limit: integerOption(values, 'limit', 10, 1, 1000),
    interval: interval as KlineInterval,
    orderId: rest[0],
  }
  if (
    args.poolId !== undefined &&
    (kind === 'transfers' || kind === 'balances' || kind === 'order')
  ) {
    throw new UsageError(`watch ${kind} takes no --pool`)
  }
  const count = integerOption(values, 'count', 0, 0, Number.MAX_SAFE_INTEGER)
  return { kind, args, count, connection: venueArgs(values, io.env) }
}

/** Prints the events until `count` of them, the stream's end, Ctrl-C or a closed stdout. */
function follow(
  venue: Parameters<typeof watchView>[0],
  kind: WatchKind,
  args: WatchArgs,
  count: number,
  json: boolean,
  io: CliIo,
): Promise<void> {
  const view = watchView(venue, kind, args)
  const paint = painter(io.stdout, io.env)
  return new Promise<void>((resolve, reject) => {
    let seen = 0
    let started = false
    let done = false
    let subscription: Subscription | undefined
    const out = (text: string) => io.stdout.write(text)
    subscription = view.events.subscribe({
      next: (event) => {
        if (done) return
        if (json) {
          out(`${JSON.stringify(view.json(event))}\n`)
        } else {
          if (!started && view.header.length > 0) out(`${paint('bold', view.header.join('\n'))}\n`)
          const lines = view.text(event, paint)
          if (lines.length > 0) out(`${lines.join('\n')}\n`)
        }
        started = true
        seen += 1
        if (count > 0 && seen >= count) stop()
      },
      error: (error: unknown) => {
        done = true
        reject(error)
      },
      complete: () => stop(),
    })
    if (done) subscription.unsubscribe()
    function stop() {
      done = true
      subscription?.unsubscribe()
      resolve()
    }
    // Ctrl-C, or a closed pipe (`| head`): the watch ends quietly.
    void untilStopped(io).then(stop)
  })
}
