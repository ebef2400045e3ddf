/**
 * How soon the own-trades feeds deliver, at the library's defaults
 * (`createVenue({ baseUrl, apiKey })`: a budget of 10 requests/s, the default
 * `pollIntervalMs`, `pacing` and `settleMs`), and whether every run delivers each trade
 * exactly once.
 *
 *   npx tsx bench/feed-latency.ts [--json] [--patient]
 *
 * `--patient` waits up to two minutes for a run instead of the caps below (which keep the
 * whole script under about a minute even when a figure misses its target by far).
 *
 * Runs, each on a venue of its own (`createVenue` anew, so each has its own budget):
 *
 * 1. Latency, scripted venue (bench/support/scripted-trades-venue.ts, in this process):
 *    20 single trades, 300-700 ms apart (seeded random), each visible from a moment the
 *    bench picks. Latency of a trade: from that moment (the first request arriving after
 *    it sees the trade) to the trade reaching the subscriber, for `watchMyTrades()` and
 *    `watchFills()` subscribed together (they share one tail poller). Also shown: from the
 *    first answer that listed the trade to its delivery (what the feed holds it), the
 *    median gap between two `/api/v1/trades` requests (the poll turn), the requests a
 *    second the venue received (any path) and the median round trip of a bare undici
 *    request. Target: a median of at most one poll turn plus the round trip, and under
 *    200 ms.
 * 2. Latency, the embedded simulator (`startSimulator`, real-time clock): 20 market orders
 *    of the demo account (`sim.placeOrder`), 300-700 ms apart, each filled at once; the
 *    latency of each of their trades from the moment the simulator's truth holds it. The
 *    poll rate is `venue.freshness`'s (the simulator counts no requests). Target: a median
 *    under 200 ms.
 * 3. Dense backfill, scripted venue: 3,000 trades of the account an hour old, 1,000
 *    stamped in each of 3 seconds. A fresh `watchMyTrades()` (no cursor: from the first
 *    trade) until it delivered all 3,000, against a bare undici loop over the same pages
 *    (100 a page, ascending `global_seq`, bench/support/bare-trades.ts) held to the same
 *    budget (a token bucket of 10 a second, bursts of 10, as the venue's), and the same
 *    loop unpaced for reference. Target: the feed at least 0.9 of the paced loop's rate.
 * 4. Live burst, scripted venue: while both feeds tail, 1,000 trades stamped within one
 *    second (one wall-clock second) become visible, 100 every 100 ms. Figure: from the
 *    first being visible to the last delivered (by both feeds). Target: within 2 s.
 * 5. Late-visible trades, scripted venue: 400 trades, 20 every 100 ms, of which 20 (5%)
 *    are hidden until 300-800 ms after a later one became visible (their timestamps stay
 *    when they happened). Checks that none is lost or repeated, and counts how many came
 *    marked `late: true` (only a trade delivered after a later one can be).
 *
 * Every run is checked against what the venue holds, counted by `global_seq`: each trade
 * (each fill) delivered exactly once, none missing, none extra. A run still short of its
 * trades at its cap is shown as such (its missing ones are counted, not called lost).
 * With `--json` (npm run bench) it also prints the figures against their targets as
 * `bench-summary` lines.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { Subscription } from 'rxjs'
import { request } from 'undici'
import { createVenue, type Venue, type VenueSettings } from '../src/index.js'
import { startSimulator } from '../src/simulator/index.js'
import { mulberry32 } from '../test/helpers/random.js'
import { bareTradePages, tokenBucket } from './support/bare-trades.js'
import { printColumns, SUMMARY_ONLY, type Summary, summaryLine } from './support/measure.js'
import {
  type ScriptedTrade,
  type ScriptedVenue,
  startScriptedVenue,
} from './support/scripted-trades-venue.js'

const PATIENT = process.argv.includes('--patient')
/** A run's cap, ms (two minutes with `--patient`). */
const cap = (ms: number) => (PATIENT ? Math.max(ms, 120_000) : ms)

const LATENCY_TRADES = 20
const LATENCY_TARGET_MS = 200
const DENSE_TRADES = 3_000
const DENSE_PER_SECOND = 1_000
const DENSE_TARGET = 0.9
const BURST_TRADES = 1_000
const BURST_STEP = 100
const BURST_TARGET_S = 2
const LATE_TRADES = 400
const LATE_STEP = 20
const LATE_SHARE = 0.05
/** Old trades every scripted venue of a live run starts with (an hour old). */
const HISTORY = 10
const PAGE = 100
const BUDGET = 10
/** How long the feed may take over the dense backfill, ms. */
const DENSE_CAP_MS = 12_000
/** How long a live run may take after its last trade became visible, ms. */
const LIVE_CAP_MS = 6_000

const random = mulberry32(1)
const uniform = (low: number, high: number) => low + random() * (high - low)
const now = () => performance.now()
/** Unix seconds at `performance.now()` time `at`. */
const unixSeconds = (at: number) => Math.floor((performance.timeOrigin + at) / 1000)

/** The `q` quantile (0..1) of `values`, by linear interpolation; NaN for none. */
function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (sorted.length - 1) * q
  const low = Math.floor(at)
  const high = Math.ceil(at)
  const lowValue = sorted[low] ?? Number.NaN
  return lowValue + ((sorted[high] ?? lowValue) - lowValue) * (at - low)
}
const ms = (n: number) => (Number.isNaN(n) ? '-' : n.toFixed(0))

/** Waits until `done()` or until `deadline` (`performance.now()` ms); true when done. */
async function until(done: () => boolean, deadline: number): Promise<boolean> {
  while (!done()) {
    if (now() >= deadline) return false
    await sleep(5)
  }
  return true
}

/** What one feed delivered: the delivery times of each `global_seq`. */
class Deliveries {
  readonly times = new Map<string, number[]>()
  /** The `global_seq`s that came marked `late: true`. */
  readonly late = new Set<string>()
  count = 0
  error: unknown

  add(seq: string, late: boolean | undefined): void {
    const at = now()
    const list = this.times.get(seq)
    if (list === undefined) this.times.set(seq, [at])
    else list.push(at)
    this.count += 1
    if (late === true) this.late.add(seq)
  }

  /** When `seq` was first delivered. */
  first(seq: string | number): number | undefined {
    return this.times.get(String(seq))?.[0]
  }

  /** Whether every one of `seqs` was delivered. */
  has(seqs: readonly (string | number)[]): boolean {
    return seqs.every((seq) => this.times.has(String(seq)))
  }
}

/** `watchMyTrades()` and `watchFills()` on `venue`, recorded. */
interface Feeds {
  readonly trades: Deliveries
  readonly fills: Deliveries
  readonly subscription: Subscription
}

function follow(venue: Venue): Feeds {
  const trades = new Deliveries()
  const fills = new Deliveries()
  const subscription = venue.watchMyTrades().subscribe({
    next: (trade) => trades.add(trade.global_seq, (trade as { late?: boolean }).late),
    error: (error: unknown) => {
      trades.error = error
    },
  })
  subscription.add(
    venue.watchFills().subscribe({
      next: (fill) => fills.add(fill.globalSeq, (fill as { late?: boolean }).late),
      error: (error: unknown) => {
        fills.error = error
      },
    }),
  )
  return { trades, fills, subscription }
}

/** What {@link exactness} found of one run. */
interface Exactness {
  readonly exact: boolean
  readonly complete: boolean
  readonly text: string
}

/**
 * Whether `got` holds each `global_seq` of `expected` exactly as often as it says (once a
 * trade; a fill once, twice for a self-trade), and nothing else.
 */
function exactness(got: Deliveries, expected: ReadonlyMap<string, number>): Exactness {
  let missing = 0
  let repeated = 0
  let extra = 0
  for (const [seq, count] of expected) {
    const times = got.times.get(seq)?.length ?? 0
    if (times < count) missing += count - times
    if (times > count) repeated += times - count
  }
  for (const seq of got.times.keys()) if (!expected.has(seq)) extra += 1
  const total = [...expected.values()].reduce((a, b) => a + b, 0)
  const error = got.error === undefined ? '' : `, stream failed: ${String(got.error)}`
  if (repeated === 0 && extra === 0 && missing === 0 && got.error === undefined) {
    return { exact: true, complete: true, text: `yes (${total} of ${total} once)` }
  }
  const parts = [
    missing > 0 ? `${missing} of ${total} not delivered` : '',
    repeated > 0 ? `${repeated} repeated` : '',
    extra > 0 ? `${extra} not at the venue` : '',
  ].filter((part) => part !== '')
  return {
    exact: repeated === 0 && extra === 0 && got.error === undefined,
    complete: missing === 0,
    text: `${repeated === 0 && extra === 0 ? 'no repeat; ' : 'NO: '}${parts.join(', ')}${error}`,
  }
}

/** Each of `seqs` expected once. */
const once = (seqs: Iterable<number>) => new Map([...seqs].map((seq) => [String(seq), 1]))

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i)

/** `HISTORY` old trades, an hour old, visible from the start. */
function history(): ScriptedTrade[] {
  const second = unixSeconds(now()) - 3_600
  return range(1, HISTORY).map((seq) => ({ seq, timestampSec: second, visibleAt: 0 }))
}

/** A venue on `server` following both feeds, once both delivered the history (and 1 s more). */
async function tailing(server: ScriptedVenue): Promise<{ venue: Venue; feeds: Feeds }> {
  const venue = createVenue({ baseUrl: server.url, apiKey: server.apiKey })
  const feeds = follow(venue)
  const ready = await until(
    () => feeds.trades.count >= HISTORY && feeds.fills.count >= HISTORY,
    now() + cap(15_000),
  )
  if (!ready) throw new Error('the feeds did not deliver the scripted history in time')
  await sleep(1_000)
  return { venue, feeds }
}

/** Waits for the next whole second of the wall clock, plus `plus` ms. */
async function nextSecond(plus: number): Promise<void> {
  const wall = performance.timeOrigin + now()
  await sleep(1_000 - (wall % 1_000) + plus)
}

/** The median gap between `times` within [from, to], ms. */
function medianGap(times: readonly number[], from: number, to: number): number {
  const inside = times.filter((t) => t >= from && t <= to)
  return quantile(
    inside.slice(1).map((t, i) => t - (inside[i] as number)),
    0.5,
  )
}

/** Requests a second among `times` within [from, to]. */
function rate(times: readonly number[], from: number, to: number): number {
  return (times.filter((t) => t >= from && t <= to).length * 1000) / (to - from)
}

/** Latencies of `seqs` in `got` from `shownAt(seq)`, ms (delivered ones only). */
function latencies(
  got: Deliveries,
  seqs: readonly (string | number)[],
  shownAt: (seq: string | number) => number | undefined,
): number[] {
  const out: number[] = []
  for (const seq of seqs) {
    const delivered = got.first(seq)
    const shown = shownAt(seq)
    if (delivered !== undefined && shown !== undefined) out.push(delivered - shown)
  }
  return out
}

/** One row of the latency table. */
interface LatencyRow {
  readonly run: string
  readonly feed: string
  readonly values: readonly number[]
  readonly held: readonly number[]
  /** Median gap between two polls of the trades during the run, ms. */
  readonly pollGapMs: number
  /** Requests a second the venue received during the run (all paths). */
  readonly requestsPerSecond: number
  readonly exact: Exactness
}

function latencyCells(row: LatencyRow): string[] {
  return [
    row.run,
    row.feed,
    String(row.values.length),
    ms(quantile(row.values, 0.5)),
    ms(quantile(row.values, 0.95)),
    ms(row.values.length === 0 ? Number.NaN : Math.max(...row.values)),
    ms(quantile(row.held, 0.5)),
    ms(row.pollGapMs),
    row.requestsPerSecond.toFixed(1),
    row.exact.text,
  ]
}

// ---------------------------------------------------------------------------------------

/** Run 1: single trades on the scripted venue. */
async function latencyScripted() {
  const server = await startScriptedVenue()
  server.add(history())
  // The round trip of a bare request to this server, sockets warm.
  const trips: number[] = []
  for (let i = 0; i < 21; i++) {
    const started = now()
    const { body } = await request(`${server.url}/api/v1/trades?limit=1`, {
      headers: { authorization: server.apiKey },
    })
    await body.text()
    if (i > 0) trips.push(now() - started)
  }
  const requestsBefore = server.tradeRequests.length
  const { venue, feeds } = await tailing(server)
  const settings = venue.settings
  try {
    const trades: ScriptedTrade[] = []
    let at = now() + 100
    for (const seq of range(HISTORY + 1, LATENCY_TRADES)) {
      at += uniform(300, 700)
      trades.push({ seq, timestampSec: unixSeconds(at), visibleAt: at })
    }
    const start = trades[0]?.visibleAt ?? at
    server.add(trades)
    const seqs = trades.map((trade) => trade.seq)
    await until(() => feeds.trades.has(seqs) && feeds.fills.has(seqs), at + cap(5_000))
    const shown = (seq: string | number) => server.visibleAt(Number(seq))
    const served = (seq: string | number) => server.firstServedAt(Number(seq))
    const expected = once(range(1, HISTORY + LATENCY_TRADES))
    const pollGapMs = medianGap(server.tradeRequests.slice(requestsBefore), start, at)
    const requestsPerSecond = rate(server.requests, start, at)
    const rows: LatencyRow[] = [
      {
        run: 'single trades, scripted venue',
        feed: 'watchMyTrades',
        values: latencies(feeds.trades, seqs, shown),
        held: latencies(feeds.trades, seqs, served),
        pollGapMs,
        requestsPerSecond,
        exact: exactness(feeds.trades, expected),
      },
      {
        run: 'single trades, scripted venue',
        feed: 'watchFills',
        values: latencies(feeds.fills, seqs, shown),
        held: latencies(feeds.fills, seqs, served),
        pollGapMs,
        requestsPerSecond,
        exact: exactness(feeds.fills, expected),
      },
    ]
    return {
      rows,
      settings,
      pollGapMs,
      roundTripMs: quantile(trips, 0.5),
      unknownRoutes: server.unknownRoutes,
    }
  } finally {
    feeds.subscription.unsubscribe()
    await venue.close()
    await server.close()
  }
}

/** Run 2: market orders of the demo account on the simulator. */
async function latencySimulator() {
  const sim = await startSimulator({ seed: 1 })
  const demo = sim.market.account(sim.apiKey)
  const chain = demo?.info().chain_account
  if (demo === undefined || chain === undefined)
    throw new Error('the simulator has no demo account')
  const venue = createVenue({ baseUrl: sim.url, apiKey: sim.apiKey })
  const feeds = follow(venue)
  let pollsPerSecond = Number.NaN
  const freshness = venue.freshness.subscribe((report) => {
    const polls = report['watchMyTrades()']?.pollsPerSecond
    if (polls !== undefined) pollsPerSecond = polls
  })
  try {
    const before = demo.trades().length
    const ready = await until(
      () => feeds.trades.count >= before && feeds.fills.count >= before,
      now() + cap(15_000),
    )
    if (!ready) throw new Error('the feeds did not deliver the simulator history in time')
    await sleep(1_000)
    const shownAt = new Map<string, number>()
    let newest = Math.max(0, ...sim.truth.trades().map((trade) => trade.global_seq))
    const polls: number[] = []
    for (let order = 0; shownAt.size < LATENCY_TRADES && order < 3 * LATENCY_TRADES; order++) {
      await sleep(uniform(300, 700))
      // The order matches within this call: the truth holds its trades when it returns.
      const placed = sim.placeOrder({
        poolId: 0,
        side: order % 2 === 0 ? 'buy' : 'sell',
        type: 'market',
        amount: '1',
      })
      const at = now()
      const { id } = await placed
      const orderId = Number(id.split('-')[1])
      for (const trade of sim.truth.trades()) {
        if (trade.global_seq <= newest) continue
        if (trade.pool_id === 0 && trade.taker === chain && trade.taker_order_id === orderId) {
          shownAt.set(String(trade.global_seq), at)
        }
      }
      polls.push(pollsPerSecond)
      newest = Math.max(newest, ...sim.truth.trades().map((trade) => trade.global_seq))
    }
    const seqs = [...shownAt.keys()]
    const last = Math.max(...[...shownAt.values()])
    await until(() => feeds.trades.has(seqs) && feeds.fills.has(seqs), last + cap(5_000))
    // Every trade of the account up to the last one measured, and its fills (two for a
    // self-trade), each once.
    const upTo = Math.max(...seqs.map(Number))
    const tradesExpected = new Map<string, number>()
    const fillsExpected = new Map<string, number>()
    for (const trade of demo.trades()) {
      if (trade.global_seq > upTo) continue
      tradesExpected.set(String(trade.global_seq), 1)
      const fills = Number(trade.taker === chain) + Number(trade.maker === chain)
      fillsExpected.set(String(trade.global_seq), fills)
    }
    const shown = (seq: string | number) => shownAt.get(String(seq))
    const pollGapMs = 1_000 / quantile(polls, 0.5)
    // Polls of the trades only (venue.freshness): the simulator does not count requests.
    const requestsPerSecond = quantile(polls, 0.5)
    const rows: LatencyRow[] = [
      {
        run: 'single trades, simulator',
        feed: 'watchMyTrades',
        values: latencies(feeds.trades, seqs, shown),
        held: [],
        pollGapMs,
        requestsPerSecond,
        exact: exactness(feeds.trades, tradesExpected),
      },
      {
        run: 'single trades, simulator',
        feed: 'watchFills',
        values: latencies(feeds.fills, seqs, shown),
        held: [],
        pollGapMs,
        requestsPerSecond,
        exact: exactness(feeds.fills, fillsExpected),
      },
    ]
    return { rows, pollGapMs }
  } finally {
    freshness.unsubscribe()
    feeds.subscription.unsubscribe()
    await venue.close()
    await sim.close()
  }
}

/** One mode of the dense backfill. */
interface BackfillRow {
  readonly mode: string
  readonly delivered: number
  readonly requests: number
  readonly seconds: number
  readonly exact: Exactness
}

/** Run 3: 3,000 old trades, from the start. */
async function denseBackfill(): Promise<BackfillRow[]> {
  const server = await startScriptedVenue()
  const first = unixSeconds(now()) - 3_600
  server.add(
    range(1, DENSE_TRADES).map((seq) => ({
      seq,
      timestampSec: first + Math.floor((seq - 1) / DENSE_PER_SECOND),
      visibleAt: 0,
    })),
  )
  const expected = once(range(1, DENSE_TRADES))
  const rows: BackfillRow[] = []
  try {
    for (const [mode, pace] of [
      ['bare undici loop, unpaced', undefined],
      [`bare undici loop, ${BUDGET} requests/s`, tokenBucket(BUDGET)],
    ] as const) {
      const got = new Deliveries()
      const requests = server.tradeRequests.length
      const started = now()
      let doneAt = Number.NaN
      await bareTradePages(
        server.url,
        server.apiKey,
        PAGE,
        (page) => {
          for (const trade of page) got.add(String(trade.global_seq), undefined)
          if (got.count === DENSE_TRADES) doneAt = now()
        },
        pace,
      )
      rows.push({
        mode,
        delivered: got.count,
        requests: server.tradeRequests.length - requests,
        seconds: (doneAt - started) / 1000,
        exact: exactness(got, expected),
      })
    }
    const venue = createVenue({ baseUrl: server.url, apiKey: server.apiKey })
    const requests = server.tradeRequests.length
    const got = new Deliveries()
    const started = now()
    const subscription = venue.watchMyTrades().subscribe({
      next: (trade) => got.add(trade.global_seq, (trade as { late?: boolean }).late),
      error: (error: unknown) => {
        got.error = error
      },
    })
    try {
      const done = await until(
        () => got.times.size >= DENSE_TRADES || got.error !== undefined,
        started + cap(DENSE_CAP_MS),
      )
      const last = Math.max(...[...got.times.values()].map((times) => times[0] as number))
      rows.push({
        mode: 'watchMyTrades() from the start',
        delivered: got.times.size,
        requests: server.tradeRequests.length - requests,
        seconds: done ? (last - started) / 1000 : (now() - started) / 1000,
        exact: exactness(got, expected),
      })
    } finally {
      subscription.unsubscribe()
      await venue.close()
    }
    return rows
  } finally {
    await server.close()
  }
}

/** What a live run (4 or 5) found. */
interface LiveResult {
  readonly name: string
  readonly rows: LatencyRow[]
  /** From the first trade visible to the last delivered (both feeds), s; NaN if not all came. */
  readonly seconds: number
  readonly late: {
    readonly hidden: number
    /** Trades (fills) that came marked late, and how many of them were hidden ones. */
    readonly trades: number
    readonly tradesHidden: number
    readonly fills: number
  }
  readonly lateLatencies: readonly number[]
}

/**
 * A live run on a tailing venue: `count` trades, `step` of them every 100 ms from the start
 * of a wall-clock second, `lateShare` of them shown 300-800 ms after a later one.
 */
async function live(name: string, count: number, step: number, lateShare: number) {
  const server = await startScriptedVenue()
  server.add(history())
  const requestsBefore = server.tradeRequests.length
  const { venue, feeds } = await tailing(server)
  try {
    await nextSecond(20)
    const start = now()
    const onTime = range(0, count).map((k) => start + Math.floor(k / step) * 100)
    const hidden = new Set<number>()
    while (hidden.size < Math.round(count * lateShare)) {
      hidden.add(Math.floor(random() * (count - 1)))
    }
    const trades = range(0, count).map(
      (k): ScriptedTrade => ({
        seq: HISTORY + 1 + k,
        timestampSec: unixSeconds(onTime[k] as number),
        visibleAt: hidden.has(k)
          ? (onTime[k + 1] as number) + uniform(300, 800)
          : (onTime[k] as number),
      }),
    )
    server.add(trades)
    const seqs = trades.map((trade) => trade.seq)
    const lastVisible = Math.max(...trades.map((trade) => trade.visibleAt))
    const all = await until(
      () => feeds.trades.has(seqs) && feeds.fills.has(seqs),
      lastVisible + cap(LIVE_CAP_MS),
    )
    const lastDelivered = Math.max(
      ...seqs.flatMap((seq) => [feeds.trades.first(seq) ?? 0, feeds.fills.first(seq) ?? 0]),
    )
    const shown = (seq: string | number) => server.visibleAt(Number(seq))
    const served = (seq: string | number) => server.firstServedAt(Number(seq))
    const expected = once(range(1, HISTORY + count))
    const lateSeqs = [...hidden].map((k) => HISTORY + 1 + k)
    const end = all ? lastDelivered : now()
    const pollGapMs = medianGap(server.tradeRequests.slice(requestsBefore), start, end)
    const requestsPerSecond = rate(server.requests, start, end)
    const result: LiveResult = {
      name,
      rows: [
        {
          run: name,
          feed: 'watchMyTrades',
          values: latencies(feeds.trades, seqs, shown),
          held: latencies(feeds.trades, seqs, served),
          pollGapMs,
          requestsPerSecond,
          exact: exactness(feeds.trades, expected),
        },
        {
          run: name,
          feed: 'watchFills',
          values: latencies(feeds.fills, seqs, shown),
          held: latencies(feeds.fills, seqs, served),
          pollGapMs,
          requestsPerSecond,
          exact: exactness(feeds.fills, expected),
        },
      ],
      seconds: all ? (lastDelivered - start) / 1000 : Number.NaN,
      late: {
        hidden: hidden.size,
        trades: feeds.trades.late.size,
        tradesHidden: lateSeqs.filter((seq) => feeds.trades.late.has(String(seq))).length,
        fills: feeds.fills.late.size,
      },
      lateLatencies: latencies(feeds.trades, lateSeqs, shown),
    }
    return result
  } finally {
    feeds.subscription.unsubscribe()
    await venue.close()
    await server.close()
  }
}

// ---------------------------------------------------------------------------------------

const began = now()
const scripted = await latencyScripted()
const simulated = await latencySimulator()
const dense = await denseBackfill()
const burst = await live(
  `burst of ${BURST_TRADES.toLocaleString('en-US')} in 1 s`,
  BURST_TRADES,
  BURST_STEP,
  0,
)
const late = await live(
  `${LATE_TRADES} in 2 s, ${LATE_SHARE * 100}% late`,
  LATE_TRADES,
  LATE_STEP,
  LATE_SHARE,
)

const settings: VenueSettings = scripted.settings
console.log(
  `feed latency at the library's defaults: maxRequestsPerSecond ${settings.maxRequestsPerSecond}, ` +
    `pollIntervalMs ${settings.pollIntervalMs}, pacing '${settings.pacing}' ` +
    `(pollsPerSecond ${settings.pollsPerSecond}), settleMs ${settings.settleMs}; ` +
    `watchMyTrades() and watchFills() subscribed together (one tail poller)\n`,
)
printColumns(
  [
    'run',
    'feed',
    'trades',
    'p50 ms',
    'p95 ms',
    'max ms',
    'answered->event p50',
    'poll gap ms',
    'requests/s',
    'exactly once',
  ],
  [...scripted.rows, ...simulated.rows, ...burst.rows, ...late.rows].map(latencyCells),
)
const target = scripted.pollGapMs + scripted.roundTripMs
console.log(
  `\nlatency: from the trade's first moment at the venue to the subscriber (answered->event: ` +
    `from the first answer listing it)\npoll turn: median gap between /api/v1/trades requests ` +
    `${ms(scripted.pollGapMs)} ms (scripted venue); simulator: ${ms(simulated.pollGapMs)} ms ` +
    `(venue.freshness); bare round trip ${scripted.roundTripMs.toFixed(1)} ms; ` +
    `target p50 <= poll turn + round trip (${ms(target)} ms) and < ${LATENCY_TARGET_MS} ms`,
)

console.log(
  `\ndense backfill: ${DENSE_TRADES.toLocaleString('en-US')} trades an hour old, ` +
    `${DENSE_PER_SECOND.toLocaleString('en-US')} stamped in each of 3 seconds, pages of ${PAGE}\n`,
)
const pacedBare = dense[1] as BackfillRow
const feedRow = dense[2] as BackfillRow
printColumns(
  ['mode', 'delivered', 'requests', 'seconds', 'trades/s', 'ratio to paced bare', 'exactly once'],
  dense.map((row) => [
    row.mode,
    String(row.delivered),
    String(row.requests),
    row.seconds.toFixed(2),
    Math.round(row.delivered / row.seconds).toLocaleString('en-US'),
    (row.delivered / row.seconds / (pacedBare.delivered / pacedBare.seconds)).toFixed(2),
    row.exact.text,
  ]),
)
const denseRatio = feedRow.delivered / feedRow.seconds / (pacedBare.delivered / pacedBare.seconds)
if (!feedRow.exact.complete) {
  console.log(`(the feed had delivered ${feedRow.delivered} when its cap ran out: its rate so far)`)
}

console.log('')
for (const run of [burst, late]) {
  console.log(
    `${run.name}: first visible to last delivered ` +
      `${Number.isNaN(run.seconds) ? 'not all delivered within the cap' : `${run.seconds.toFixed(2)} s`}`,
  )
}
console.log(
  `late-visible: ${late.late.hidden} trades hidden until 300-800 ms after a later one; ` +
    `marked late: true: ${late.late.trades} trades (${late.late.tradesHidden} of them hidden ones), ` +
    `${late.late.fills} fills; ` +
    `their latency from visible p50 ${ms(quantile(late.lateLatencies, 0.5))} ms, ` +
    `p95 ${ms(quantile(late.lateLatencies, 0.95))} ms`,
)
const unknown = [...new Set(scripted.unknownRoutes)]
if (unknown.length > 0) console.log(`paths the scripted venue does not serve, asked: ${unknown}`)
const runs = [
  ...scripted.rows.map((row) => row.exact),
  ...simulated.rows.map((row) => row.exact),
  ...dense.map((row) => row.exact),
  ...burst.rows.map((row) => row.exact),
  ...late.rows.map((row) => row.exact),
]
const exactRuns = runs.filter((run) => run.exact && run.complete).length
const cutShort = runs.filter((run) => run.exact && !run.complete).length
console.log(
  `exactly once: ${exactRuns} of ${runs.length} runs checked whole and exact; ` +
    `${cutShort} cut short by their cap (no repeat among what came); ` +
    `${runs.length - exactRuns - cutShort} with a repeat, an extra or an error ` +
    `(whole script ${((now() - began) / 1000).toFixed(0)} s)`,
)

if (SUMMARY_ONLY) {
  const p50 = (rows: readonly LatencyRow[]) => quantile(rows[0]?.values ?? [], 0.5)
  const scriptedP50 = p50(scripted.rows)
  const simulatedP50 = p50(simulated.rows)
  const summaries: Summary[] = [
    {
      figure: 'watchMyTrades latency p50, scripted venue, defaults',
      value: scriptedP50,
      unit: 'ms',
      target: `<= poll turn + round trip (${ms(target)} ms), < ${LATENCY_TARGET_MS} ms`,
      met: scriptedP50 <= target && scriptedP50 < LATENCY_TARGET_MS,
    },
    {
      figure: 'watchMyTrades latency p50, simulator, defaults',
      value: simulatedP50,
      unit: 'ms',
      target: `< ${LATENCY_TARGET_MS} ms`,
      met: simulatedP50 < LATENCY_TARGET_MS,
    },
    {
      figure: `watchMyTrades dense backfill (${DENSE_TRADES} trades in 3 s) vs a bare loop at ${BUDGET} requests/s`,
      value: denseRatio,
      unit: 'of bare',
      target: `>= ${DENSE_TARGET}`,
      met: feedRow.exact.complete && denseRatio >= DENSE_TARGET,
    },
    {
      figure: `watchMyTrades live burst (${BURST_TRADES} in 1 s), first visible to last delivered`,
      value: Number.isNaN(burst.seconds) ? cap(LIVE_CAP_MS) / 1000 : burst.seconds,
      unit: Number.isNaN(burst.seconds) ? 's (cap, not all delivered)' : 's',
      target: `<= ${BURST_TARGET_S} s`,
      met: burst.seconds <= BURST_TARGET_S,
    },
    {
      figure: 'own-trades feeds exactly once (every run, late-visible trades included)',
      value: exactRuns,
      unit: `of ${runs.length} runs${cutShort > 0 ? ` (${cutShort} cut short)` : ''}`,
      target: 'all',
      met: exactRuns === runs.length,
    },
  ]
  for (const summary of summaries) console.log(summaryLine(summary))
}
