/**
 * Freshness per request: how stale the subscriber's view of ten polled streams is, for a
 * request budget, on a market that moves in bursts; the yardstick of every pacing of the
 * polls (`pacing`: a fixed interval, the streams taking turns, adaptive).
 *
 *   npx tsx bench/freshness.ts          the tables (about 7 minutes)
 *   npx tsx bench/freshness.ts 8        a scored window of 8 s instead of 24
 *   npx tsx bench/freshness.ts 24 20 40 the window, the warm-up (s) and the budgets (10,40)
 *   npx tsx bench/freshness.ts --json   bench-summary lines only
 *
 * The market: the simulator (in this process, manual clock, 10 ms ticks) with its bursty
 * regime (`bursts: {}`: each pool alternates bursts, a crowd action every 20-50 ms of
 * simulated time, and quiet spells of 2-8 s; the demo account trades at market every
 * 5-7 s) on four pools, seed {@link SEED}. A timer of the bench advances it so that
 * simulated time keeps up with real time (a late timer catches up tick by tick). Every
 * configuration gets a fresh simulator with the same seed: the same timeline of changes.
 *
 * Ground truth, read from `sim.market` after every tick (the real time of the tick is the
 * time of its changes):
 * - book of pool p: the depth the stream reads (v2, 100 levels, the pool's price tick)
 *   differs from the previous tick's;
 * - public trades of pool p: each record new in `latestTrades(p, 'v2', 100)` (found by
 *   object identity against the newest one known);
 * - own trades: each new trade of the demo account (by `global_seq`);
 * - balances: the demo account's holdings (coin, balance, locked, locks; not the
 *   valuation, which `watchBalances` ignores by default) differ from the previous tick's.
 *
 * Streams under test, on `createVenue({ baseUrl, apiKey, maxRequestsPerSecond: R, ... })`:
 * `watchDepth(p)` and `watchTrades(p)` for p = 0..3, `watchMyTrades()`, `watchBalances()`.
 *
 * Staleness of a change made at real time w: the time from w until the subscriber holds a
 * view at least as new as the change:
 * - book: the first event of `watchDepth(p)` whose `timestamp` (the simulated time the
 *   venue served it at) is at or after the change's tick. `watchDepth` emits only when a
 *   level changed, so a book that went A -> B -> A between two polls is credited at the
 *   next event (rare with random sizes; an overestimate);
 * - public trade: the `trade` event carrying it (matched by content, first unmatched
 *   first: trades carry no id);
 * - own trade: the trade with its `global_seq` (note `settleMs`, default 1,000: the feed
 *   holds its newest trades that long before delivery);
 * - balances: the first update whose holdings equal those of the change's tick or a later
 *   one.
 * Only changes in the scored window ({@link WINDOW_MS}, after {@link WARMUP_MS} of
 * warm-up) count; a change not seen {@link TAIL_MS} after the window is "missed" and left
 * out of the figures (the count is printed). Requests are counted at the simulator (its
 * fault controller decides once per request received) within the window, per route.
 *
 * Two square-root oracles, computed offline on the recorded timeline.
 *
 * One rate a stream. Stream i changes at
 * rate λᵢ (changes in the window / its length). A poller that polls stream i at even
 * intervals Tᵢ (random phase), with a round trip RTT, delivers a change made at a random
 * moment after a wait uniform on [0, Tᵢ) for the next poll, plus at most one round trip:
 * staleness ~ U[RTT, Tᵢ + RTT) (taking the venue's read at the request's start: the
 * conservative end; at the answer's end it would be U[0, Tᵢ)), mean Tᵢ/2 + RTT, whatever
 * the burstiness (the phase is independent of the changes). Over all changes the mean is
 *
 *     S = Σᵢ λᵢ (Tᵢ/2 + RTT) / Σᵢ λᵢ,  subject to the budget Σᵢ 1/Tᵢ = R.
 *
 * Minimising Σᵢ λᵢ Tᵢ under Σᵢ 1/Tᵢ = R (Lagrange: λᵢ = μ / Tᵢ²) gives polls in
 * proportion to the square root of the change rate: 1/Tᵢ = R √λᵢ / Σⱼ √λⱼ, hence
 * S = (Σᵢ √λᵢ)² / (2 R Σᵢ λᵢ) + RTT. The oracle's per-kind p50 and p95 are quantiles of
 * the mixture of those uniforms weighted by λᵢ. It is the best any poller with constant
 * per-stream rates can do on average; it ignores `settleMs` (own trades) and that a
 * poller which sees bursts coming could do better still. The rates are those of the scored
 * window: a short window (e.g. 3 s) leaves quiet streams at λ = 0 and lets the oracle
 * spend everything on the few bursting ones, so compare figures of equal windows only.
 * RTT is the median round trip of `venue.rest` calls to the four routes, measured first on
 * the same market.
 *
 * Rates per second. The same split made anew for every second s of the window with that
 * second's rates λᵢ(s) (a change in second s waits U[RTT, Tᵢ(s) + RTT)): a poller told
 * where the market moves one second at a time, bursts included from their first change.
 * No poller reaches it: it knows a burst before the burst shows, and it takes the polls
 * within a second as evenly spread, which at a few polls a second they cannot be. The
 * default pacing's goal is 1.25x this oracle and half the staleness of the best fixed
 * interval (the summary lines say whether it is met).
 *
 * Configurations: {@link VARIANTS} × {@link BUDGETS}. A new pacing mode is one more entry
 * of VARIANTS (its venue options for a budget R); the tables and summary lines follow.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { Subscription } from 'rxjs'
import { createVenue, type VenueOptions } from '../src/index.js'
import { type Simulator, startSimulator } from '../src/simulator/index.js'
import { DEFAULT_POOLS } from '../src/simulator/market/pool-spec.js'
import type { PoolConfig, PublicTradeRecord } from '../src/simulator/market/types.js'
import { positionalArgs, printColumns, SUMMARY_ONLY, summaryLine } from './support/measure.js'

const SEED = 7
const TICK_MS = 10
const WINDOW_MS = 1000 * Number(positionalArgs()[0] ?? 24)
/**
 * Warm-up before the scored window: long enough for an adaptive pacer to have seen a few
 * bursts of every pool (a bot runs for hours; its first seconds are not its steady state).
 */
const WARMUP_MS = 1000 * Number(positionalArgs()[1] ?? 20)
const TAIL_MS = 6_000
const BUDGETS = (positionalArgs()[2] ?? '10,40').split(',').map(Number)

/** The three default pools and a fourth. */
const POOLS: readonly PoolConfig[] = [
  ...DEFAULT_POOLS,
  {
    base: 'SOL',
    quote: 'USDT',
    price: '98.50',
    pricePrecision: 2,
    basePrecision: 3,
    quotePrecision: 6,
  },
]
const POOL_IDS = POOLS.map((_, id) => id)
/** Streams under test: a book and a trades stream per pool, own trades, balances. */
const STREAMS = 2 * POOLS.length + 2

/**
 * The pollIntervalMs that spends the budget: each of the N streams polls once per
 * interval (plus a round trip, ~1 ms here), so N / interval = R gives N·1000/R ms.
 */
const handTuned = (budget: number) => Math.round((STREAMS * 1000) / budget)

/** A configuration: its venue options for a budget R (requests/s). Add a pacing mode here. */
interface Variant {
  readonly name: string
  readonly options: (budget: number) => Partial<VenueOptions>
}

const VARIANTS: readonly Variant[] = [
  // Fixed intervals: each stream every pollIntervalMs, the budget only a ceiling.
  { name: 'interval 1000 ms', options: () => ({ pacing: 'interval' }) },
  {
    name: 'interval 10·1000/R (hand-tuned)',
    options: (budget) => ({ pacing: 'interval', pollIntervalMs: handTuned(budget) }),
  },
  // Budget pacing: one poll every 1000/R ms, the streams taking turns.
  { name: 'even (budget-paced)', options: () => ({ pacing: 'even' }) },
  // The default: budget pacing, shares by the square root of each stream's change rate.
  { name: 'adaptive (default)', options: () => ({}) },
]

type Kind = 'book' | 'trades' | 'myTrades' | 'balances'
const KINDS: readonly Kind[] = ['book', 'trades', 'myTrades', 'balances']

/** The route each kind polls. */
const ROUTES: Readonly<Record<string, Kind>> = {
  '/api/v1/depth/v2': 'book',
  '/api/v1/latest-trades/v2': 'trades',
  '/api/v1/trades': 'myTrades',
  '/api/v1/balances': 'balances',
}

/** One change of the ground truth. */
interface Change {
  readonly stream: string
  readonly kind: Kind
  /** Real time of the tick that made it, performance.now() ms. */
  readonly at: number
  /** The tick's simulated time (books), or the version index (balances). */
  readonly version: number
  /** Trades: the record's content; own trades: global_seq. */
  readonly key: string
}

/** What one configuration measured. */
interface RunResult {
  readonly staleness: Record<Kind, number[]>
  readonly requestsPerSecond: Record<Kind | 'other', number>
  /** Changes per stream in the window. */
  readonly changes: Map<string, number>
  /** Changes per stream in each second of the window. */
  readonly perSecond: Map<string, number[]>
  readonly missed: number
}

/** Decimal text without trailing zeros, so that '1.50' and '1.5' match. */
const norm = (text: string) => (text.includes('.') ? text.replace(/\.?0+$/, '') : text)

const tradeKey = (
  pool: number,
  sec: number,
  t: { price: string; quantity: string; side: string; buyer: string; seller: string },
) => [pool, sec, norm(t.price), norm(t.quantity), t.side, t.buyer, t.seller].join('|')

interface Holding {
  readonly coin: string
  readonly balance: string
  readonly locked: string
  readonly locks: readonly { readonly balance: string; readonly pool_id: number }[]
}

const holdingsKey = (balances: readonly Holding[]) =>
  JSON.stringify(
    balances
      .map((b) => [
        b.coin,
        norm(b.balance),
        norm(b.locked),
        b.locks.map((lock) => [lock.pool_id, norm(lock.balance)]),
      ])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
  )

const priceTick = (pool: PoolConfig) =>
  pool.pricePrecision === 0 ? '1' : `0.${'0'.repeat(pool.pricePrecision - 1)}1`

function startMarket(): Promise<Simulator> {
  return startSimulator({
    seed: SEED,
    clock: 'manual',
    tickMs: TICK_MS,
    bursts: {},
    pools: [...POOLS],
  })
}

/**
 * Drives `sim` in real time (one tick per TICK_MS of wall time, caught up when late) and
 * records every change after every tick.
 */
function drive(sim: Simulator): { changes: Change[]; balanceStates: string[]; stop(): void } {
  const { market } = sim
  const changes: Change[] = []
  const depthOf = (pool: number) => {
    const depth = market.depth(pool, 'v2', 100, priceTick(POOLS[pool] as PoolConfig))
    return JSON.stringify([depth?.bids, depth?.asks])
  }
  const books = POOL_IDS.map(depthOf)
  const newest: (PublicTradeRecord | undefined)[] = POOL_IDS.map(
    (pool) => market.latestTrades(pool, 'v2', 1)[0],
  )
  const account = market.account(sim.apiKey)
  const holdings = () => holdingsKey(account?.balances() ?? [])
  const balanceStates = [holdings()]
  let ownTrades = account?.trades().length ?? 0

  const scan = (at: number) => {
    const version = market.now()
    for (const pool of POOL_IDS) {
      const book = depthOf(pool)
      if (book !== books[pool]) {
        changes.push({ stream: `book ${pool}`, kind: 'book', at, version, key: '' })
        books[pool] = book
      }
      const latest = market.latestTrades(pool, 'v2', 100)
      const known = newest[pool]
      const index = known === undefined ? latest.length : latest.indexOf(known)
      // Oldest first; more than 100 in a tick never happens at this pace.
      for (const record of latest.slice(0, index < 0 ? latest.length : index).reverse()) {
        const key = tradeKey(pool, record.traded_at, record)
        changes.push({ stream: `trades ${pool}`, kind: 'trades', at, version, key })
      }
      newest[pool] = latest[0]
    }
    const trades = account?.trades() ?? []
    for (const trade of trades.slice(ownTrades)) {
      const key = String(trade.global_seq)
      changes.push({ stream: 'myTrades', kind: 'myTrades', at, version, key })
    }
    ownTrades = trades.length
    const held = holdings()
    if (held !== balanceStates.at(-1)) {
      balanceStates.push(held)
      const index = balanceStates.length - 1
      changes.push({ stream: 'balances', kind: 'balances', at, version: index, key: '' })
    }
  }

  const started = performance.now()
  let ticks = 0
  const timer = setInterval(() => {
    const due = Math.floor((performance.now() - started) / TICK_MS)
    while (ticks < due) {
      sim.advance(1)
      ticks += 1
      scan(performance.now())
    }
  }, 2)
  return { changes, balanceStates, stop: () => clearInterval(timer) }
}

/** Median round trip of venue.rest calls to the four routes the streams poll, ms. */
async function measureRtt(): Promise<number> {
  const sim = await startMarket()
  const { stop } = drive(sim)
  const venue = createVenue({ baseUrl: sim.url, apiKey: sim.apiKey, maxRequestsPerSecond: 1e6 })
  const samples: number[] = []
  const calls = [
    () => venue.rest.depth({ poolId: 1, source: 'v2' }),
    () => venue.rest.latestTrades({ poolId: 1, source: 'v2', limit: 100 }),
    () => venue.rest.trades({ limit: 100 }),
    () => venue.rest.balances(),
  ]
  for (let round = 0; round < 40; round += 1) {
    for (const call of calls) {
      const started = performance.now()
      await call()
      if (round >= 5) samples.push(performance.now() - started)
      await sleep(5)
    }
  }
  stop()
  await venue.close()
  await sim.close()
  return quantile(samples, 0.5)
}

async function run(budget: number, variant: Variant): Promise<RunResult> {
  const sim = await startMarket()
  const hits: { kind: Kind | 'other'; at: number }[] = []
  const decide = sim.faults.decide.bind(sim.faults)
  sim.faults.decide = (pathname: string) => {
    hits.push({ kind: ROUTES[pathname] ?? 'other', at: performance.now() })
    return decide(pathname)
  }
  const driver = drive(sim)
  const venue = createVenue({
    baseUrl: sim.url,
    apiKey: sim.apiKey,
    maxRequestsPerSecond: budget,
    ...variant.options(budget),
  })

  const bookEvents: { pool: number; timestamp: number; at: number }[] = []
  const tradeEvents: { key: string; at: number }[] = []
  const ownEvents: { key: string; at: number }[] = []
  const balanceEvents: { state: string; at: number }[] = []
  const subscriptions: Subscription[] = []
  for (const pool of POOL_IDS) {
    subscriptions.push(
      venue.watchDepth(pool).subscribe((event) => {
        bookEvents.push({ pool, timestamp: event.timestamp, at: performance.now() })
      }),
      venue.watchTrades(pool).subscribe((event) => {
        if (event.type !== 'trade') return
        const { trade } = event
        const key = tradeKey(pool, Math.floor(trade.traded_at / 1000), trade)
        tradeEvents.push({ key, at: performance.now() })
      }),
    )
  }
  subscriptions.push(
    venue.watchMyTrades().subscribe((trade) => {
      ownEvents.push({ key: String(trade.global_seq), at: performance.now() })
    }),
    venue.watchBalances().subscribe((update) => {
      balanceEvents.push({ state: holdingsKey(update.balances), at: performance.now() })
    }),
  )

  await sleep(WARMUP_MS)
  const from = performance.now()
  const until = from + WINDOW_MS
  await sleep(WINDOW_MS + TAIL_MS)
  for (const subscription of subscriptions) subscription.unsubscribe()
  driver.stop()
  await venue.close()
  await sim.close()

  const staleness: Record<Kind, number[]> = { book: [], trades: [], myTrades: [], balances: [] }
  const changes = new Map<string, number>()
  const perSecond = new Map<string, number[]>()
  let missed = 0
  const score = (change: Change, seenAt: number | undefined) => {
    if (change.at < from || change.at > until) return
    changes.set(change.stream, (changes.get(change.stream) ?? 0) + 1)
    const seconds =
      perSecond.get(change.stream) ?? new Array<number>(Math.ceil(WINDOW_MS / 1000)).fill(0)
    const second = Math.min(seconds.length - 1, Math.floor((change.at - from) / 1000))
    seconds[second] = (seconds[second] ?? 0) + 1
    perSecond.set(change.stream, seconds)
    if (seenAt === undefined) missed += 1
    else staleness[change.kind].push(seenAt - change.at)
  }

  // Trades and own trades: the event carrying each, first unmatched first.
  const byKey = new Map<string, number[]>()
  for (const [kind, events] of [
    ['trades', tradeEvents],
    ['myTrades', ownEvents],
  ] as const) {
    for (const event of events) {
      const id = `${kind}|${event.key}`
      const list = byKey.get(id) ?? []
      list.push(event.at)
      byKey.set(id, list)
    }
  }
  const seenBy = new Map<string, number>()
  for (const change of driver.changes) {
    if (change.kind === 'trades' || change.kind === 'myTrades') {
      const id = `${change.kind}|${change.key}`
      const used = seenBy.get(id) ?? 0
      seenBy.set(id, used + 1)
      score(change, byKey.get(id)?.[used])
    } else if (change.kind === 'book') {
      const pool = Number(change.stream.split(' ')[1])
      const seen = bookEvents.find((e) => e.pool === pool && e.timestamp >= change.version)
      score(change, seen?.at)
    }
  }

  // Balances: each update's holdings are those of a version of the truth (the newest
  // version with those holdings made before the update arrived).
  const versions = driver.changes.filter((c) => c.kind === 'balances')
  const versionOf = (event: { state: string; at: number }) => {
    for (let v = driver.balanceStates.length - 1; v >= 0; v -= 1) {
      const madeAt = v === 0 ? Number.NEGATIVE_INFINITY : (versions[v - 1]?.at ?? Infinity)
      if (madeAt <= event.at && driver.balanceStates[v] === event.state) return v
    }
    return -1
  }
  const seenVersions = balanceEvents.map((event) => ({ at: event.at, version: versionOf(event) }))
  for (const change of versions) {
    score(change, seenVersions.find((e) => e.at >= change.at && e.version >= change.version)?.at)
  }

  const requestsPerSecond = { book: 0, trades: 0, myTrades: 0, balances: 0, other: 0 }
  for (const hit of hits) {
    if (hit.at >= from && hit.at <= until) requestsPerSecond[hit.kind] += 1000 / WINDOW_MS
  }
  return { staleness, requestsPerSecond, changes, perSecond, missed }
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN
}

const mean = (values: readonly number[]) =>
  values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length

const kindOf = (stream: string) => stream.split(' ')[0] as Kind

/** Per kind: mean, p50, p95 staleness and requests/s of the square-root oracle. */
interface OracleKind {
  readonly mean: number
  readonly p50: number
  readonly p95: number
  readonly requestsPerSecond: number
}

/** The square-root oracle for budget R on change rates λ (per second), with round trip RTT (ms). */
function oracle(
  rates: ReadonlyMap<string, number>,
  budget: number,
  rttMs: number,
): { kinds: Record<Kind, OracleKind>; overall: number } {
  const streams = [...rates].filter(([, rate]) => rate > 0)
  const rootSum = streams.reduce((sum, [, rate]) => sum + Math.sqrt(rate), 0)
  // Tᵢ in ms: 1/Tᵢ = R √λᵢ / Σ √λⱼ.
  const period = new Map(
    streams.map(([stream, rate]) => [stream, (1000 * rootSum) / (budget * Math.sqrt(rate))]),
  )
  const meanOf = (list: typeof streams) =>
    list.reduce((s, [id, rate]) => s + rate * ((period.get(id) ?? 0) / 2 + rttMs), 0) /
    list.reduce((s, [, rate]) => s + rate, 0)
  const kinds = {} as Record<Kind, OracleKind>
  for (const kind of KINDS) {
    const list = streams.filter(([stream]) => kindOf(stream) === kind)
    const weight = list.reduce((s, [, rate]) => s + rate, 0)
    // The mixture of U[RTT, Tᵢ + RTT) weighted by λᵢ: its CDF, inverted by bisection.
    const cdf = (x: number) =>
      list.reduce((s, [id, rate]) => {
        const t = period.get(id) ?? 1
        return s + (rate / weight) * Math.min(1, Math.max(0, (x - rttMs) / t))
      }, 0)
    const inverse = (q: number) => {
      let low = 0
      let high = rttMs + Math.max(...list.map(([id]) => period.get(id) ?? 0))
      for (let i = 0; i < 60; i += 1) {
        const mid = (low + high) / 2
        if (cdf(mid) < q) low = mid
        else high = mid
      }
      return high
    }
    kinds[kind] = {
      mean: meanOf(list),
      p50: inverse(0.5),
      p95: inverse(0.95),
      requestsPerSecond: list.reduce((s, [id]) => s + 1000 / (period.get(id) ?? 1), 0),
    }
  }
  return { kinds, overall: meanOf(streams) }
}

/**
 * The square-root oracle with rates per second: a poller that knows, for every second of
 * the window, each stream's change rate in that second (the bursts included) and splits
 * the budget of that second by the square root of those rates. A change in second s
 * waits U[RTT, Tᵢ(s) + RTT). The best any poller can do that is told where the market
 * moves, one second at a time; a real one has to find each burst first.
 */
function oracleBySecond(
  perSecond: ReadonlyMap<string, readonly number[]>,
  budget: number,
  rttMs: number,
): { kinds: Record<Kind, OracleKind>; overall: number } {
  const seconds = Math.max(0, ...[...perSecond.values()].map((counts) => counts.length))
  // Each change stands for ten samples of its uniform wait (quantiles of the mixture).
  const samples: Record<Kind, number[]> = { book: [], trades: [], myTrades: [], balances: [] }
  const sums: Record<Kind, { cost: number; count: number; polls: number }> = {
    book: { cost: 0, count: 0, polls: 0 },
    trades: { cost: 0, count: 0, polls: 0 },
    myTrades: { cost: 0, count: 0, polls: 0 },
    balances: { cost: 0, count: 0, polls: 0 },
  }
  for (let s = 0; s < seconds; s += 1) {
    const rates = [...perSecond].map(([stream, counts]) => [stream, counts[s] ?? 0] as const)
    const rootSum = rates.reduce((sum, [, rate]) => sum + Math.sqrt(rate), 0)
    if (rootSum === 0) continue
    for (const [stream, rate] of rates) {
      if (rate === 0) continue
      const period = (1000 * rootSum) / (budget * Math.sqrt(rate))
      const kind = kindOf(stream)
      sums[kind].cost += rate * (period / 2 + rttMs)
      sums[kind].count += rate
      sums[kind].polls += 1000 / period / seconds
      for (let k = 0; k < 10; k += 1) {
        for (let n = 0; n < rate; n += 1) samples[kind].push(rttMs + (period * (k + 0.5)) / 10)
      }
    }
  }
  const kinds = {} as Record<Kind, OracleKind>
  for (const kind of KINDS) {
    const { cost, count, polls } = sums[kind]
    kinds[kind] = {
      mean: cost / count,
      p50: quantile(samples[kind], 0.5),
      p95: quantile(samples[kind], 0.95),
      requestsPerSecond: polls,
    }
  }
  const all = Object.values(sums)
  return {
    kinds,
    overall: all.reduce((s, k) => s + k.cost, 0) / all.reduce((s, k) => s + k.count, 0),
  }
}

const ms = (n: number) => (Number.isNaN(n) ? '-' : n >= 100 ? n.toFixed(0) : n.toFixed(1))
const triple = (m: number, p50: number, p95: number) => `${ms(m)}/${ms(p50)}/${ms(p95)}`

const rtt = await measureRtt()
if (!SUMMARY_ONLY) {
  console.log(
    `Freshness on a bursty market: seed ${SEED}, ${POOLS.length} pools, ${STREAMS} streams, window ${WINDOW_MS / 1000} s after ${WARMUP_MS / 1000} s of warm-up; median round trip ${rtt.toFixed(2)} ms`,
  )
  console.log('staleness in ms as mean/p50/p95; req/s counted at the simulator\n')
}
for (const budget of BUDGETS) {
  const results: { name: string; result: RunResult }[] = []
  for (const variant of VARIANTS) {
    results.push({ name: variant.name, result: await run(budget, variant) })
  }
  // λ per stream: the window's changes, averaged over the runs (the same timeline).
  const rates = new Map<string, number>()
  for (const { result } of results) {
    for (const [stream, count] of result.changes) {
      const rate = count / (WINDOW_MS / 1000) / results.length
      rates.set(stream, (rates.get(stream) ?? 0) + rate)
    }
  }
  const best = oracle(rates, budget, rtt)
  // Changes per stream and second: the first run's (every run has the same timeline).
  const bySecond = oracleBySecond(
    (results[0] as { result: RunResult }).result.perSecond,
    budget,
    rtt,
  )
  const header = [
    `R = ${budget}/s`,
    ...KINDS.flatMap((kind) => [kind, 'req/s']),
    'total req/s',
    'all mean',
    'x oracle/s',
    'x oracle',
  ]
  const rows = results.map(({ name, result }) => {
    const all = KINDS.flatMap((kind) => result.staleness[kind])
    const total = Object.values(result.requestsPerSecond).reduce((a, b) => a + b, 0)
    return [
      name,
      ...KINDS.flatMap((kind) => {
        const values = result.staleness[kind]
        return [
          triple(mean(values), quantile(values, 0.5), quantile(values, 0.95)),
          result.requestsPerSecond[kind].toFixed(1),
        ]
      }),
      total.toFixed(1),
      ms(mean(all)),
      (mean(all) / bySecond.overall).toFixed(2),
      (mean(all) / best.overall).toFixed(2),
    ]
  })
  for (const [name, oracleOf] of [
    ['√λ oracle, rates per second', bySecond],
    ['√λ oracle, one rate a stream', best],
  ] as const) {
    rows.push([
      name,
      ...KINDS.flatMap((kind) => {
        const k = oracleOf.kinds[kind]
        return [triple(k.mean, k.p50, k.p95), k.requestsPerSecond.toFixed(1)]
      }),
      budget.toFixed(1),
      ms(oracleOf.overall),
      (oracleOf.overall / bySecond.overall).toFixed(2),
      (oracleOf.overall / best.overall).toFixed(2),
    ])
  }
  if (!SUMMARY_ONLY) {
    printColumns(header, rows)
    const perKind = KINDS.map((kind) => {
      const rate = [...rates].filter(([s]) => kindOf(s) === kind).reduce((s, [, r]) => s + r, 0)
      return `${kind} ${rate.toFixed(2)}/s`
    })
    console.log(`changes (λ summed per kind): ${perKind.join(', ')}`)
    for (const { name, result } of results) {
      const other = result.requestsPerSecond.other
      console.log(
        `${name}: ${result.missed} changes not seen ${TAIL_MS / 1000} s after the window; other routes ${other.toFixed(1)} req/s`,
      )
    }
    console.log('')
  }
  if (SUMMARY_ONLY) {
    for (const [name, oracleOf] of [
      ['√λ oracle, rates per second', bySecond],
      ['√λ oracle, one rate a stream', best],
    ] as const) {
      console.log(
        summaryLine({
          figure: `freshness at ${budget} req/s, ${name}: mean staleness (best possible)`,
          value: oracleOf.overall,
          unit: 'ms',
          target: 'none (a yardstick)',
          met: true,
        }),
      )
    }
    const meanOf = (result: RunResult) => mean(KINDS.flatMap((kind) => result.staleness[kind]))
    const handTunedRow = results.find(({ name }) => name.includes('hand-tuned'))
    const handTuned = handTunedRow === undefined ? Number.NaN : meanOf(handTunedRow.result)
    for (const { name, result } of results) {
      const value = meanOf(result)
      const ratios = `${(value / bySecond.overall).toFixed(2)}x the per-second oracle, ${(value / best.overall).toFixed(2)}x the one-rate oracle, ${(value / handTuned).toFixed(2)}x hand-tuned`
      // The goal of the default pacing: within 1.25x of the per-second oracle, and at most
      // half the staleness of the best hand-tuned interval; the other rows are baselines.
      const isDefault = name.includes('default')
      console.log(
        summaryLine({
          figure: `freshness at ${budget} req/s, ${name}: mean staleness`,
          value,
          unit: `ms (${ratios})`,
          target: isDefault
            ? '<= 1.25x the per-second oracle, <= 0.5x hand-tuned'
            : 'none (a baseline)',
          met: isDefault ? value <= 1.25 * bySecond.overall && value <= 0.5 * handTuned : true,
        }),
      )
    }
  }
}
