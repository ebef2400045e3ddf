/**
 * Chaos run: every kind of fault the simulator can inject, at once, while the market keeps
 * moving, against the streams that promise correctness: the exactly-once feeds
 * (`watchMyTrades`, `watchTransfers`), the public trades (`watchTrades`, gaps only when
 * reported), the order books (`watchDepth`, V2 for every pool and one V1) and the order
 * streams (`watchOrder` on orders the run places).
 *
 * What it proves, counted against the simulator's ground truth after the faults are cleared
 * and the feeds caught up:
 * - own trades and transfers: none lost, none repeated, none out of order, none unexpected,
 *   every record equal to the truth;
 * - public trades: every trade since the first window delivered once, in order, except
 *   inside reported `gap`s;
 * - books: applying every `BookEvent` with `applyBookEvent` gives, at every event, exactly
 *   the book the simulator served for that poll (share equal must be 100 %);
 * - orders: every `watchOrder` ends `done` (none fails, none hangs) with the truth's status
 *   and the order's trades as its fills, in order, reconciled (the orders still working
 *   when the faults stop are canceled then);
 * - no unhandled rejection and no uncaught exception during the run;
 * - the faults really happened (the simulator's counters, 500 and 503 both).
 *
 * `tsx test/long/chaos.ts --polls 10000 --seed 7 [--fault-rate 0.2]` prints the report and
 * exits 1 when a count is wrong; `runChaos` is the same run for tests. The pieces live in
 * `chaos/` (faults, ground truth, counting, books, report) and `support/` (run-support.ts,
 * run-report.ts).
 */
import type { Subscription } from 'rxjs'
import type { Venue } from '../../src/index.js'
import { createVenue } from '../../src/index.js'
import type { FaultStats } from '../../src/simulator/index.js'
import { startSimulator } from '../../src/simulator/index.js'
import { BookCheck, tick } from './chaos/books.js'
import { countFeed, countPublicTrades, type PublicEvent } from './chaos/counting.js'
import { chaosFaults } from './chaos/faults.js'
import { OrderChecks } from './chaos/orders.js'
import { type ChaosReport, chaosFailures, formatChaosReport } from './chaos/report.js'
import {
  deliveredFill,
  deliveredTrade,
  deliveredTransfer,
  type Keyed,
  publicTradeText,
  truePublicTradeText,
  truthFills,
  truthTrades,
  truthTransfers,
} from './chaos/truth.js'
import { describeError, runScript, startRun, waitUntil } from './support/run-support.js'

export { countFeed, countPublicTrades, type PublicEvent } from './chaos/counting.js'
export { CHAOS_FAULT_KINDS, chaosFaults } from './chaos/faults.js'
export type { OrderCounts } from './chaos/orders.js'
export {
  type BookCounts,
  type ChaosReport,
  chaosFailures,
  type FeedCounts,
  formatChaosReport,
  type PublicTradeCounts,
} from './chaos/report.js'
export type { Keyed } from './chaos/truth.js'

// --- settings --------------------------------------------------------------------------------

/** Settings of {@link runChaos}. */
export interface ChaosOptions {
  /** Seed of the market, of the fault decisions and of the run's own choices. */
  readonly seed: number
  /** Requests (every route, faulty or not, counted at the simulator) before the faults stop. */
  readonly polls: number
  /** Share of requests that fail one way or another (split across the kinds); default 0.2. */
  readonly faultRate?: number
  /**
   * The faults also last until every book stream has had this many events (default 0):
   * how many polls that takes depends on how the market's steps and the polls interleave,
   * which a busy machine changes.
   */
  readonly minBookEvents?: number
  /** Progress lines. */
  readonly log?: (line: string) => void
}

/** Ticks of history before the streams start (~570 own trades, ~300 transfers at seed 7). */
const HISTORY_TICKS = 2_000
/** The market moves every this many ms of real time while the run lasts ... */
const ADVANCE_EVERY_MS = 5
/** ... by 1 to this many ticks (pool 0 has ~1.3 public trades a tick). */
const MAX_TICKS_PER_STEP = 3
/** How long the feeds may take to catch up once the faults are cleared. */
const CATCH_UP_TIMEOUT_MS = 15_000
/** Requests after the catch-up (a few more polls of every stream) before the counts. */
const EXTRA_POLLS_PER_STREAM = 4
/** The pool of `watchTrades`. */
const TRADES_POOL = 0
/** An order placed (and followed by `watchOrder`) every this many market steps ... */
const ORDER_EVERY_STEPS = 6
/** ... up to this many. */
const MAX_ORDERS = 120
/** How long the order streams may take to end once the faults are cleared. */
const ORDERS_END_TIMEOUT_MS = 15_000

// --- the run ---------------------------------------------------------------------------------

/**
 * Runs the chaos: see the file comment. Resolves with every count (it does not throw on a
 * wrong count: `failures` lists them); rejects only when the run cannot be set up.
 */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const { seed, polls, faultRate = 0.2, minBookEvents = 0, log = () => {} } = options
  if (!Number.isSafeInteger(seed)) throw new RangeError(`runChaos: seed must be an integer`)
  if (!Number.isSafeInteger(polls) || polls < 1)
    throw new RangeError(`runChaos: polls must be >= 1`)
  if (!(faultRate >= 0 && faultRate <= 1)) throw new RangeError(`runChaos: faultRate is 0..1`)
  const started = performance.now()
  const failures: string[] = []
  const { unhandled, random } = startRun(seed)
  const sim = await startSimulator({ seed, faultSeed: seed, clock: 'manual' })
  let venue: Venue | undefined
  let advancer: NodeJS.Timeout | undefined
  const subscriptions: Subscription[] = []
  const streamErrors: string[] = []

  // Requests per route and injected 5xx per status: the fault controller decides once per request.
  const perRoute: Record<string, number> = {}
  const errorStatuses: Record<string, number> = {}
  const decide = sim.faults.decide.bind(sim.faults)
  sim.faults.decide = (pathname: string) => {
    const plan = decide(pathname)
    // One order's look-ups count under one route for all orders.
    const route = pathname.replace(/^\/api\/v1\/orders\/(?!client-id\/).*/, '/api/v1/orders/{id}')
    perRoute[route] = (perRoute[route] ?? 0) + 1
    if (plan.action === 'error') {
      errorStatuses[plan.errorStatus] = (errorStatuses[plan.errorStatus] ?? 0) + 1
    }
    return plan
  }

  const myTrades: Keyed[] = []
  const fills: Keyed[] = []
  const transfers: Keyed[] = []
  const publicEvents: PublicEvent[] = []
  let lastPublic: string | undefined
  let ticks = 0
  let faultsAtStop: FaultStats = sim.faults.stats()
  let requestsAtStop = 0
  let caughtUp = false
  let truth: { trades: Keyed[]; fills: Keyed[]; transfers: Keyed[]; tape: string[] } = {
    trades: [],
    fills: [],
    transfers: [],
    tape: [],
  }
  const books: BookCheck[] = []
  let orders: OrderChecks | undefined
  let ordersEnded = false

  try {
    sim.advance(HISTORY_TICKS)
    const account = sim.market.account(sim.apiKey)?.info().chain_account
    if (account === undefined) throw new Error('chaos: the demo account is missing')
    const pools = sim.market.poolSummaries()
    for (const pool of pools) {
      const precision = tick(pool.price_precision)
      books.push(
        new BookCheck(
          {
            name: `v2 pool ${pool.pool_id}, 20 @ ${precision}`,
            poolId: pool.pool_id,
            source: 'v2',
            limit: 20,
            precision,
          },
          sim,
        ),
      )
    }
    const first = pools[0]
    if (first === undefined) throw new Error('chaos: the market has no pool')
    // V1, coarser than the tick: the grouping is checked too.
    const grouped = tick(first.price_precision - 1)
    books.push(
      new BookCheck(
        {
          name: `v1 pool ${first.pool_id}, 10 @ ${grouped}`,
          poolId: first.pool_id,
          source: 'v1',
          limit: 10,
          precision: grouped,
        },
        sim,
      ),
    )
    for (const book of books) book.record()

    const spec = chaosFaults(faultRate)
    sim.faults.set(spec)
    sim.faults.resetStats()
    log(`chaos: seed ${seed}, ${polls} polls, fault rate ${faultRate}, ${books.length + 3} streams`)

    const client = createVenue({
      baseUrl: sim.url,
      apiKey: sim.apiKey,
      pollIntervalMs: 5,
      // Generous: a hang costs its stream this long, and an answer a busy machine delays
      // must not turn into a timeout of its own.
      requestTimeoutMs: 1_000,
      maxRequestsPerSecond: 100_000,
      backoff: { initialMs: 1, maxMs: 20, factor: 2 },
    })
    venue = client
    const placing = new OrderChecks(sim, client, MAX_ORDERS)
    orders = placing
    const failed = (stream: string) => (error: unknown) => {
      streamErrors.push(`${stream}: ${describeError(error)}`)
    }
    subscriptions.push(
      client.watchMyTrades().subscribe({
        next: (trade) => myTrades.push(deliveredTrade(trade)),
        error: failed('watchMyTrades'),
      }),
      client.watchFills().subscribe({
        next: (fill) => fills.push(deliveredFill(fill)),
        error: failed('watchFills'),
      }),
      client.watchTransfers().subscribe({
        next: (transfer) => transfers.push(deliveredTransfer(transfer)),
        error: failed('watchTransfers'),
      }),
      client.watchTrades(TRADES_POOL).subscribe({
        next: (event) => {
          if (event.type === 'gap') {
            publicEvents.push(undefined)
          } else {
            lastPublic = publicTradeText(event.trade)
            publicEvents.push(lastPublic)
          }
        },
        error: failed('watchTrades'),
      }),
      ...books.map((book) =>
        client
          .watchDepth(book.stream.poolId, {
            limit: book.stream.limit,
            precision: book.stream.precision,
            source: book.stream.source,
          })
          .subscribe({
            next: (event) => book.check(event),
            error: failed(`watchDepth ${book.stream.name}`),
          }),
      ),
    )

    // The market moves on a timer; the injected 5xx alternate between 503 and 500.
    let step = 0
    advancer = setInterval(() => {
      step += 1
      sim.faults.set({ ...spec, errorStatus: step % 2 === 0 ? 503 : 500 })
      if (step % ORDER_EVERY_STEPS === 0) placing.placeNext()
      const n = 1 + Math.floor(random() * MAX_TICKS_PER_STEP)
      sim.advance(n)
      ticks += n
      for (const book of books) book.record()
    }, ADVANCE_EVERY_MS)

    const requests = () => sim.faults.stats().requests
    let lastLog = performance.now()
    const reached = await waitUntil(
      () => {
        if (performance.now() - lastLog > 2_000) {
          lastLog = performance.now()
          log(`  ${requests()} of ${polls} polls, ${ticks} ticks, ${myTrades.length} own trades`)
        }
        return (
          (requests() >= polls && books.every((book) => book.events >= minBookEvents)) ||
          streamErrors.length > 0
        )
      },
      10_000 + polls * 20,
    )
    clearInterval(advancer)
    advancer = undefined
    faultsAtStop = sim.faults.stats()
    requestsAtStop = faultsAtStop.requests
    sim.faults.clear()
    if (!reached) log(`  only ${requestsAtStop} of ${polls} polls were made in time`)
    log(`  faults cleared at ${requestsAtStop} polls; catching up`)

    // The market stands still now: the truth is final.
    truth = {
      trades: truthTrades(sim, account),
      fills: truthFills(sim, account),
      transfers: truthTransfers(sim, account),
      tape: sim.truth.publicTrades(TRADES_POOL).map(truePublicTradeText),
    }
    // sim.truth keeps the last 50,000 engine trades: it must still hold every trade of the
    // account (the account's own list is complete), or the counts would mean nothing.
    const accountTrades = sim.market.account(sim.apiKey)?.trades().length ?? 0
    if (accountTrades !== truth.trades.length) {
      failures.push(
        `ground truth: sim.truth.trades() holds ${truth.trades.length} of the account's ${accountTrades} trades`,
      )
    }
    const lastTrade = truth.trades.at(-1)?.key
    const lastTransfer = truth.transfers.at(-1)?.key
    const feedDone = (items: readonly Keyed[], want: number, last: string | undefined) =>
      items.length >= want && items.at(-1)?.key === last
    caughtUp = await waitUntil(
      () =>
        streamErrors.length > 0 ||
        (feedDone(myTrades, truth.trades.length, lastTrade) &&
          feedDone(fills, truth.fills.length, truth.fills.at(-1)?.key) &&
          feedDone(transfers, truth.transfers.length, lastTransfer) &&
          lastPublic === truth.tape.at(-1) &&
          books.every((book) => book.atLatest())),
      CATCH_UP_TIMEOUT_MS,
    )
    caughtUp &&= streamErrors.length === 0
    if (!caughtUp) {
      failures.push(
        `not caught up within ${CATCH_UP_TIMEOUT_MS} ms: own trades ${myTrades.length}/${truth.trades.length}, ` +
          `fills ${fills.length}/${truth.fills.length}, ` +
          `transfers ${transfers.length}/${truth.transfers.length}, ` +
          `public trades at the last one: ${lastPublic === truth.tape.at(-1)}, ` +
          `books at the last one: ${books.map((book) => book.atLatest()).join(',')}`,
      )
    }
    // A few more polls of every stream: nothing more may come.
    const atCatchUp = requests()
    const streams = subscriptions.length
    await waitUntil(() => requests() >= atCatchUp + EXTRA_POLLS_PER_STREAM * streams, 5_000)
    // The orders still working end now: every order stream must come to its done.
    placing.cancelWorking()
    for (const book of books) book.record()
    // The cancels moved the books: every book stream must show the last book again too.
    ordersEnded = await waitUntil(
      () => placing.allEnded() && books.every((book) => book.atLatest()),
      ORDERS_END_TIMEOUT_MS,
    )
    log(`  ${placing.placed} orders followed; all ended: ${ordersEnded}`)
  } finally {
    if (advancer !== undefined) clearInterval(advancer)
    for (const subscription of subscriptions) subscription.unsubscribe()
    orders?.unsubscribe()
    await venue?.close()
    await sim.close()
    // Rejections are reported after a turn of the event loop.
    await new Promise((done) => setImmediate(done))
    unhandled.stop()
  }

  const myTradeCounts = countFeed(myTrades, truth.trades)
  const transferCounts = countFeed(transfers, truth.transfers)
  const publicTrades = countPublicTrades(TRADES_POOL, publicEvents, truth.tape)
  const bookCounts = books.map((book) => book.counts())
  const events = bookCounts.reduce((sum, book) => sum + book.events, 0)
  const equal = bookCounts.reduce((sum, book) => sum + book.equal, 0)
  const report: Omit<ChaosReport, 'failures'> = {
    seed,
    faultRate,
    durationMs: Math.round(performance.now() - started),
    ticks,
    polls: { target: polls, atStop: requestsAtStop, total: sim.faults.stats().requests, perRoute },
    faults: faultsAtStop,
    errorStatuses,
    caughtUp,
    myTrades: myTradeCounts,
    transfers: transferCounts,
    publicTrades,
    books: bookCounts,
    bookEqualShare: events === 0 ? 0 : equal / events,
    unhandledRejections: unhandled.rejections(),
    uncaughtExceptions: unhandled.exceptions(),
    streamErrors: [...streamErrors, ...unhandled.messages],
    fills: countFeed(fills, truth.fills),
    orders: orders?.counts() ?? emptyOrderCounts,
  }
  return { ...report, failures: [...failures, ...chaosFailures(report)] }
}

const emptyOrderCounts = {
  placed: 0,
  refused: 0,
  done: 0,
  failed: 0,
  notDone: 0,
  wrongStatus: 0,
  wrongFills: 0,
  unreconciled: 0,
  examples: [],
}

runScript(import.meta.url, ['polls', 'seed', 'fault-rate'], async (flags) => {
  const report = await runChaos({
    seed: flags.number('seed', 7),
    polls: flags.number('polls', 10_000),
    faultRate: flags.number('fault-rate', 0.2),
    log: (line) => console.log(line),
  })
  console.log(formatChaosReport(report))
  return report.failures.length === 0 ? 0 : 1
})
