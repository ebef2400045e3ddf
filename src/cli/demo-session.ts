/**
 * What `venue-rx demo` runs behind its board: the embedded simulator, a venue client on
 * it, every stream and signal wired to the board, the demo strategy and the outages.
 * Loaded by demo-command.ts once the first frame is on the screen: this module brings the
 * library, the simulator and the signals, most of the demo's start-up.
 */
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
import { UsageError } from './args.js'
import type { DemoBoard } from './demo-board.js'
import { startDemoStrategy } from './demo-strategy.js'
import { coinSymbol } from './render.js'

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

/** What the demo's command line chose. */
export interface DemoSettings {
  readonly poolId: number
  readonly seed: number
  readonly tickMs: number
  readonly pollIntervalMs: number
  /** Ms between two outages of the trades route; `undefined`: none (`--no-faults`). */
  readonly outageEveryMs: number | undefined
}

/** A running demo: its request counts, and how it ends. */
export interface DemoSession {
  /** Requests sent in the last second. */
  requestsPerSecond(): number
  /** Requests sent since the start. */
  totalRequests(): number
  /** Stops the streams, the strategy and the outages, then closes the venue and simulator. */
  close(): Promise<void>
}

/**
 * Starts the simulator and reads it into `board` (its title and budget once the venue is
 * known, then every stream's events), `print`ing one line per event (plain mode). Rejects
 * with a UsageError for a pool the simulator does not have, having closed what it started.
 */
export async function startDemoSession(
  settings: DemoSettings,
  board: DemoBoard,
  print: (line: string | readonly string[]) => void,
): Promise<DemoSession> {
  const { poolId } = settings
  const simulator = await startSimulator({ seed: settings.seed, tickMs: settings.tickMs })
  const meter = requestMeter()
  const venue = createVenue({
    baseUrl: simulator.url,
    apiKey: simulator.apiKey,
    pollIntervalMs: settings.pollIntervalMs,
    backoff: DEMO_BACKOFF,
    dispatcher: meter.dispatcher,
  })
  const subscriptions = new Subscription()
  const outages = new Set<ReturnType<typeof setTimeout>>()
  let stopStrategy = () => {}
  let closing: Promise<void> | undefined
  const close = () => {
    closing ??= (async () => {
      for (const timer of outages) clearTimeout(timer)
      stopStrategy()
      subscriptions.unsubscribe()
      await venue.close()
      await meter.close()
      await simulator.close()
    })()
    return closing
  }
  try {
    const pools = await venue.rest.pools()
    const pool = pools.find((p) => p.pool_id === poolId)
    if (pool === undefined) {
      throw new UsageError(
        `no pool ${poolId} on the simulator (its pools: ${pools.map((p) => p.pool_id).join(', ')})`,
      )
    }
    const detail = await venue.rest.pool(poolId)
    const rate = venue.settings.maxRequestsPerSecond
    board.title = `simulator ${simulator.url}  pool ${poolId} ${coinSymbol(pool.base_coin)}/${coinSymbol(pool.quote_coin)}`
    // The venue's token bucket holds one second's worth (TokenBucket's default capacity).
    board.budget = { perSecond: rate, burst: Math.max(1, rate) }

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

    const every = settings.outageEveryMs
    if (every !== undefined) {
      const outageMs = Math.min(MAX_OUTAGE_MS, every / 5)
      const outage = () => {
        simulator.faults.set({ errorRate: 1 }, OUTAGE_ROUTE)
        board.fault = `${OUTAGE_ROUTE} answers 503`
        print(`fault  ${OUTAGE_ROUTE} answers 503 for ${outageMs / 1000} s`)
        later(outageMs, () => {
          simulator.faults.clear(OUTAGE_ROUTE)
          board.fault = undefined
          print(`fault  ${OUTAGE_ROUTE} answers again`)
        })
        later(every, outage)
      }
      const later = (ms: number, run: () => void) => {
        const timer = setTimeout(() => {
          outages.delete(timer)
          run()
        }, ms)
        outages.add(timer)
      }
      later(Math.min(FIRST_OUTAGE_MS, every), outage)
    }
  } catch (error) {
    await close()
    throw error
  }
  return {
    requestsPerSecond: () => meter.perSecond(),
    totalRequests: () => meter.total(),
    close,
  }
}
