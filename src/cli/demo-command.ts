import { createLogUpdate } from 'log-update'
import { filter, map, type Observable, Subscription, scan, share } from 'rxjs'
import { applyBookEvent, type BookEvent, createVenue, type OrderBook } from '../index.js'
import {
  crossover,
  ema,
  imbalance,
  microprice,
  mid,
  spread,
  tradeFlowImbalance,
  vwap,
} from '../signals/index.js'
import { startSimulator } from '../simulator/index.js'
import { requestMeter } from '../transport/request-meter.js'
import { integerOption, parseWithPositionals, quotedWords, UsageError } from './args.js'
import { DemoBoard } from './demo-board.js'
import { startDemoStrategy } from './demo-strategy.js'
import { coinSymbol } from './render.js'
import { painter } from './style.js'
import { untilStopped } from './until-signal.js'

export const DEMO_USAGE = `Usage: venue-rx demo [options]

Starts the embedded venue simulator and reads it through venue-rx's streams: the order
book ladder (changed levels marked), the trade tape, a demo strategy's orders and fills,
balances, the mid price and signals, the health board with each stream's polls a second
and estimated staleness, and the request budget in use.
On a terminal the screen redraws in place until Ctrl-C; piped, it prints one line per
event for --seconds (default 10).

Options:
  --pool ID       pool to show (default 0)
  --seed N        the simulated market's seed (default 1)
  --tick-ms N     simulated ms per tick, also its real interval (default 250)
  --poll-ms N     longest wait between two polls of a stream (default 500); the
                  request budget is spent where the market moves
  --seconds N     stop after N seconds (0 = until Ctrl-C; default 0 on a terminal, 10 piped)
  --plain         one line per event even on a terminal
  --outage-every N  seconds between two outages of the trades route (default 20): it
                  answers 503 for a fifth of that, at most 2 s, first 2 s after the
                  start, so the health board shows a stream retrying and healing
  --no-faults     no outages
  -h, --help      this help
`

const DEFAULT_PIPED_SECONDS = 10
/** The demo's outages: the route of public trades fails for a while, now and then. */
const OUTAGE_ROUTE = '/api/v1/latest-trades/v2'
const MAX_OUTAGE_MS = 2_000
/**
 * The first outage comes this soon, so that a short run (the piped default of 10 s) shows
 * a stream retrying and healing, not only a calm market.
 */
const FIRST_OUTAGE_MS = 2_000
/**
 * Retries of the demo's streams: at most a second apart, so a stream heals within about a
 * second of the route coming back, well inside a short run (the library's default waits
 * grow to 30 s).
 */
const DEMO_BACKOFF = { initialMs: 250, maxMs: 1_000 }
/** Frames per second at most on a terminal. */
const FRAME_MS = 200

/**
 * `venue-rx demo`: the embedded simulator read through the streams, as a live screen on
 * a terminal or event lines on a pipe.
 */
export async function demoCommand(argv: readonly string[]): Promise<void> {
  const { values, positionals } = parseWithPositionals(
    argv,
    ['pool', 'seed', 'tick-ms', 'poll-ms', 'seconds', 'outage-every'],
    ['plain', 'no-faults'],
  )
  if (values['help'] === true) {
    process.stdout.write(DEMO_USAGE)
    return
  }
  if (positionals.length > 0) {
    throw new UsageError(`demo takes no argument (got ${quotedWords(positionals)})`)
  }
  const live = process.stdout.isTTY === true && values['plain'] !== true
  const poolId = integerOption(values, 'pool', 0, 0, 1_000_000)
  const seconds = integerOption(values, 'seconds', live ? 0 : DEFAULT_PIPED_SECONDS, 0, 86_400)
  const pollIntervalMs = integerOption(values, 'poll-ms', 500, 50, 60_000)
  const outageEveryMs = integerOption(values, 'outage-every', 20, 1, 3_600) * 1000
  const outageMs = Math.min(MAX_OUTAGE_MS, outageEveryMs / 5)
  const simulator = await startSimulator({
    seed: integerOption(values, 'seed', 1, 0, 2 ** 31 - 1),
    tickMs: integerOption(values, 'tick-ms', 250, 1, 60_000),
  })
  const meter = requestMeter()
  const venue = createVenue({
    baseUrl: simulator.url,
    apiKey: simulator.apiKey,
    pollIntervalMs,
    backoff: DEMO_BACKOFF,
    dispatcher: meter.dispatcher,
  })
  // Ctrl-C, or a reader that went away (`| head`): the demo ends quietly either way.
  const stop = untilStopped()
  const subscriptions = new Subscription()
  let stopStrategy = () => {}
  let redraw: ReturnType<typeof setInterval> | undefined
  const outages = new Set<ReturnType<typeof setTimeout>>()
  const screen = live ? createLogUpdate(process.stdout) : undefined
  try {
    const pools = await venue.rest.pools()
    const pool = pools.find((p) => p.pool_id === poolId)
    if (pool === undefined) {
      throw new UsageError(
        `no pool ${poolId} on the simulator (its pools: ${pools.map((p) => p.pool_id).join(', ')})`,
      )
    }
    const detail = await venue.rest.pool(poolId)
    const pair = `${coinSymbol(pool.base_coin)}/${coinSymbol(pool.quote_coin)}`
    const rate = venue.settings.maxRequestsPerSecond
    const board = new DemoBoard(
      `simulator ${simulator.url}  pool ${poolId} ${pair}`,
      rate,
      // The venue's token bucket holds one second's worth (TokenBucket's default capacity).
      Math.max(1, rate),
    )
    // Plain mode prints each event's line; live mode only redraws.
    const print = live
      ? () => {}
      : (line: string | readonly string[]) => {
          for (const l of typeof line === 'string' ? [line] : line) process.stdout.write(`${l}\n`)
        }

    const books: Observable<readonly [BookEvent, OrderBook]> = venue.watchDepth(poolId).pipe(
      scan<BookEvent, readonly [BookEvent, OrderBook] | undefined>(
        (last, event) => [event, applyBookEvent(last?.[1], event)],
        undefined,
      ),
      filter((pair): pair is readonly [BookEvent, OrderBook] => pair !== undefined),
      share(),
    )
    const bookViews = books.pipe(map(([, book]) => book))
    const trades = venue.watchTrades(poolId).pipe(share())
    const tradeValues = trades.pipe(
      filter((event) => event.type === 'trade'),
      map((event) => event.trade),
    )
    // A signal is null while the book has an empty side: shown as '-'.
    const signal = (name: keyof DemoBoard['signals'], values: Observable<string | null>) =>
      subscriptions.add(
        values.subscribe((value) => {
          board.signals = { ...board.signals, [name]: value ?? undefined }
        }),
      )

    subscriptions.add(books.subscribe(([event, book]) => print(board.onBook(event, book))))
    subscriptions.add(
      trades.subscribe((event) =>
        print(
          event.type === 'trade'
            ? board.onTrade(event.trade)
            : board.onTradeGap(event.since, event.until),
        ),
      ),
    )
    signal('spreadBps', bookViews.pipe(spread({ unit: 'bps', places: 2 })))
    signal('microprice', bookViews.pipe(microprice({ places: detail.price_precision + 2 })))
    signal('imbalance', bookViews.pipe(imbalance(5, { places: 4 })))
    signal('vwap', tradeValues.pipe(vwap(30_000, { places: detail.price_precision + 2 })))
    signal('flow', tradeValues.pipe(tradeFlowImbalance(30_000, { places: 4 })))
    subscriptions.add(
      bookViews.pipe(mid(), crossover(ema(5), ema(20))).subscribe((event) => {
        board.signals = { ...board.signals, cross: { type: event.type, at: Date.now() } }
        print(`signal ema 5/20 ${event.type}: ${event.fast} vs ${event.slow}`)
      }),
    )
    subscriptions.add(venue.watchFills().subscribe((fill) => print(board.onFill(fill))))
    subscriptions.add(venue.watchBalances().subscribe((update) => print(board.onBalances(update))))
    subscriptions.add(venue.health.subscribe((report) => print(board.onHealth(report))))
    subscriptions.add(
      venue.freshness.subscribe((report) => {
        board.freshness = report
      }),
    )

    stopStrategy = startDemoStrategy(
      simulator,
      venue,
      {
        placed: (id, placement) => print(board.onPlaced(Date.now(), id, placement)),
        event: (event) => print(board.onOrderEvent(Date.now(), event)),
        error: (text) => print(board.onStrategyError(Date.now(), text)),
      },
      { poolId, minAmount: detail.min_amount, everyMs: 2_000, cancelAfterMs: 8_000 },
    )

    if (values['no-faults'] !== true) {
      const outage = () => {
        simulator.faults.set({ errorRate: 1 }, OUTAGE_ROUTE)
        board.fault = `${OUTAGE_ROUTE} answers 503`
        print(`fault  ${OUTAGE_ROUTE} answers 503 for ${outageMs / 1000} s`)
        later(outageMs, () => {
          simulator.faults.clear(OUTAGE_ROUTE)
          board.fault = undefined
          print(`fault  ${OUTAGE_ROUTE} answers again`)
        })
        later(outageEveryMs, outage)
      }
      const later = (ms: number, run: () => void) => {
        const timer = setTimeout(() => {
          outages.delete(timer)
          run()
        }, ms)
        outages.add(timer)
      }
      later(Math.min(FIRST_OUTAGE_MS, outageEveryMs), outage)
    }

    const paint = painter(process.stdout)
    let lastSummary = Date.now()
    redraw = setInterval(() => {
      board.requestsPerSecond = meter.perSecond()
      if (screen !== undefined) {
        const rows = process.stdout.rows ?? 24
        const frame = board.frame(paint, process.stdout.columns ?? 100, Date.now(), rows)
        // Every frame as tall as the terminal allows: log-update patches a frame that
        // shrank by the lines it shares with the last one, wherever they moved, and a
        // layout that changes as streams come and go (a watchOrder's look-ups) would leave
        // old lines behind, or push the title off the screen.
        while (frame.length < rows - 1) frame.push('')
        screen(frame.join('\n'))
      } else if (Date.now() - lastSummary >= 1000) {
        lastSummary = Date.now()
        print(board.summary())
      }
    }, FRAME_MS)

    await (seconds === 0
      ? stop
      : Promise.race([stop, new Promise((resolve) => setTimeout(resolve, seconds * 1000).unref())]))
    if (!live) print(`done   ${meter.total()} requests in all`)
  } finally {
    clearInterval(redraw)
    for (const timer of outages) clearTimeout(timer)
    stopStrategy()
    subscriptions.unsubscribe()
    // Leave the last frame on the screen, with the cursor back, below it.
    screen?.done()
    await venue.close()
    await meter.close()
    await simulator.close()
  }
}
