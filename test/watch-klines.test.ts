/**
 * `watchKlines` end to end: against the simulator on a manual clock (the market moves only
 * when a test advances it, so every request is served from one frozen state and each
 * candle the stream emits can be checked against the simulator's ground truth), and
 * against a scripted server for the cases the simulator never produces (a revised candle,
 * an empty bucket, month buckets). The local clock is moved hours away from the venue's
 * with a spy on `Date.now`; the simulator's own clock starts in 2023 or 2099.
 */
import type { Observable } from 'rxjs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createVenue, type Venue, VenueInputError } from '../src/index.js'
import { type Kline, type KlineInterval, klineSchema } from '../src/schemas/kline.js'
import {
  createMarket,
  type Market,
  type Simulator,
  type Source,
  startSimulator,
} from '../src/simulator/index.js'
import {
  KLINE_CLOSE_DELAY_MS,
  type KlineEvent,
  type KlinesStreamOptions,
} from '../src/streams/watch-klines.js'
import { onCleanup, runCleanups } from './helpers/cleanups.js'
import { ok, type RecordingServer, startRecordingServer } from './helpers/recording-server.js'
import { waitFor } from './helpers/wait-for.js'

/** The stream under test, as a bot calls it. */
function watch(
  venue: Venue,
  poolId: number,
  interval: KlineInterval,
  options?: KlinesStreamOptions,
): Observable<KlineEvent> {
  return venue.watchKlines(poolId, interval, options)
}

afterEach(async () => {
  await runCleanups()
  vi.restoreAllMocks()
})

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const LENGTH_MS: Partial<Record<KlineInterval, number>> = {
  '1m': MINUTE,
  '5m': 5 * MINUTE,
  '1h': HOUR,
}
const POOL = 0
/** A simulator clock far ahead of the machine's (2099); the default one starts in 2023. */
const YEAR_2099 = 4_070_908_800_000

/** Moves the machine's clock by `offsetMs` (it still runs): the stream must not care. */
function skewLocalClock(offsetMs: number): void {
  const realNow = Date.now.bind(Date)
  vi.spyOn(Date, 'now').mockImplementation(() => realNow() + offsetMs)
}

/** One `klines` read at the simulator, with the venue's time (Unix seconds) when it was served. */
interface KlinesRead {
  readonly source: Source
  readonly interval: string
  readonly start: number
  readonly end: number
  readonly nowSec: number
}

interface Rig {
  readonly sim: Simulator
  readonly venue: Venue
  readonly reads: KlinesRead[]
}

/** The market behind each spied one: the tests read the truth there, unrecorded. */
const unspied = new WeakMap<Market, Market>()

/** The market, with every `klines` read it serves recorded. */
function spyOnKlines(market: Market, reads: KlinesRead[]): Market {
  const spied: Market = {
    ...market,
    klines: (poolId, source, interval, start, end) => {
      reads.push({ source, interval, start, end, nowSec: Math.floor(market.now() / SECOND) })
      return market.klines(poolId, source, interval, start, end)
    },
  }
  unspied.set(spied, market)
  return spied
}

async function rig(
  settings: { seed?: number; tickMs?: number; startTime?: number; warmup?: number } = {},
): Promise<Rig> {
  const { seed = 1, tickMs = 5 * SECOND, startTime, warmup = 0 } = settings
  const reads: KlinesRead[] = []
  const sim = await startSimulator({
    seed,
    faultSeed: seed + 100,
    clock: 'manual',
    tickMs,
    ...(startTime === undefined ? {} : { startTime }),
    createMarket: (options) => spyOnKlines(createMarket(options), reads),
  })
  onCleanup(() => sim.close())
  sim.advance(warmup)
  const venue = createVenue({
    baseUrl: sim.url,
    pollIntervalMs: 5,
    lingerMs: 20,
    requestTimeoutMs: 2_000,
    maxRequestsPerSecond: 100_000,
    backoff: { initialMs: 1, maxMs: 10 },
  })
  onCleanup(() => venue.close())
  return { sim, venue, reads }
}

/** What the simulator holds now, split as the stream must see it at the venue's time. */
interface Truth {
  readonly candles: readonly Kline[]
  readonly closed: readonly Kline[]
  readonly open: Kline | undefined
}

function truth(sim: Simulator, source: Source, interval: KlineInterval): Truth {
  const market = unspied.get(sim.market) ?? sim.market
  const candles = klineSchema.array().parse(market.klines(POOL, source, interval, 0, 1e10))
  // What the venue's ping says: whole seconds.
  const now = Math.floor(sim.market.now() / SECOND) * SECOND
  const last = candles.at(-1)
  const length = LENGTH_MS[interval] as number
  const over = last !== undefined && now >= last.timestamp + length + KLINE_CLOSE_DELAY_MS
  return { candles, closed: over ? candles : candles.slice(0, -1), open: over ? undefined : last }
}

/** Every version of every candle the simulator has served, to check each emitted candle. */
class Witness {
  readonly #seen = new Set<string>()

  capture(sim: Simulator, source: Source, interval: KlineInterval): void {
    for (const candle of truth(sim, source, interval).candles)
      this.#seen.add(JSON.stringify(candle))
  }

  served(candle: Kline): boolean {
    return this.#seen.has(JSON.stringify(candle))
  }
}

interface Recorded {
  readonly events: KlineEvent[]
  readonly errors: unknown[]
  closed(): Kline[]
  lastUpdate(): Kline | undefined
}

function record(stream: Observable<KlineEvent>): Recorded {
  const events: KlineEvent[] = []
  const errors: unknown[] = []
  const subscription = stream.subscribe({
    next: (event) => events.push(event),
    error: (error: unknown) => errors.push(error),
  })
  onCleanup(() => subscription.unsubscribe())
  return {
    events,
    errors,
    closed: () => events.filter((e) => e.type === 'closed').map((e) => e.candle),
    lastUpdate: () => events.findLast((e) => e.type === 'update')?.candle,
  }
}

const same = (a: Kline | undefined, b: Kline | undefined) => JSON.stringify(a) === JSON.stringify(b)

/**
 * Waits until `rec` has delivered every closed candle of `now` that starts at or after
 * `from` and the open candle of `now`, then checks them exactly (the market is frozen, so
 * nothing else can come).
 */
async function converge(rec: Recorded, now: Truth, from: number, what: string): Promise<void> {
  const want = now.closed.filter((c) => c.timestamp >= from)
  const open = now.open !== undefined && now.open.timestamp >= from ? now.open : undefined
  await waitFor(
    () =>
      rec.errors.length > 0 ||
      (rec.closed().length >= want.length && (open === undefined || same(rec.lastUpdate(), open))),
    `${what}: ${want.length} closed candles and the open one`,
  )
  expect(rec.errors, what).toEqual([])
  expect(rec.closed(), `${what}: closed candles`).toEqual(want)
  if (open !== undefined) expect(rec.lastUpdate(), `${what}: open candle`).toEqual(open)
}

/** The laws of any event sequence: closed strictly ascending, no update of a closed bucket. */
function checkLaws(rec: Recorded, witness: Witness, what: string): void {
  let lastClosed = Number.NEGATIVE_INFINITY
  let lastUpdate = Number.NEGATIVE_INFINITY
  rec.events.forEach(({ type, candle }, n) => {
    const where = `${what}, event ${n} (${type} ${candle.timestamp})`
    expect(witness.served(candle), `${where}: a candle the simulator served`).toBe(true)
    if (type === 'closed') {
      expect(candle.timestamp, `${where}: closed in time order, once`).toBeGreaterThan(lastClosed)
      lastClosed = candle.timestamp
    } else {
      expect(candle.timestamp, `${where}: an update of a closed bucket`).toBeGreaterThan(lastClosed)
      expect(candle.timestamp, `${where}: updates go forward`).toBeGreaterThanOrEqual(lastUpdate)
      lastUpdate = candle.timestamp
    }
  })
}

/** Every read asked for a window ending at or before the venue's time, never the machine's. */
function checkWindows(reads: readonly KlinesRead[]): void {
  expect(reads.length).toBeGreaterThan(0)
  for (const read of reads) {
    expect(read.start).toBeLessThanOrEqual(read.end)
    expect(read.end).toBeLessThanOrEqual(read.nowSec)
  }
}

/** The first candle at or after `from` among the closed candles of `now`. */
function firstFrom(now: Truth, from: number): number {
  return now.closed.find((c) => c.timestamp >= from)?.timestamp ?? Number.POSITIVE_INFINITY
}

/** Waits for the first event of every stream; the start of each one's first candle. */
async function firstCandles<T extends readonly Recorded[]>(
  what: string,
  ...recs: T
): Promise<{ [K in keyof T]: number }> {
  await waitFor(() => recs.every((r) => r.events.length > 0), what)
  return recs.map((r) => (r.events[0] as KlineEvent).candle.timestamp) as { [K in keyof T]: number }
}

/** A stream held to the truth: its events, the series it follows (default v2 1m), where it starts. */
interface Followed {
  readonly rec: Recorded
  readonly from: number
  readonly what: string
  readonly source?: Source
  readonly interval?: KlineInterval
}

interface Steps {
  readonly steps: number
  /** Ticks the simulator advances each step. */
  readonly ticks: number
  /** Captures every series a stream follows, each step. */
  readonly witness?: Witness
  /** Runs at the end of each step. */
  readonly afterStep?: () => Promise<void>
}

/** `steps` times: advances the simulator, then converges each stream to the truth. */
async function advanceConverging(
  sim: Simulator,
  { steps, ticks, witness, afterStep }: Steps,
  streams: readonly Followed[],
): Promise<void> {
  for (let n = 0; n < steps; n += 1) {
    sim.advance(ticks)
    for (const { source = 'v2', interval = '1m' } of streams)
      witness?.capture(sim, source, interval)
    for (const { rec, from, what, source = 'v2', interval = '1m' } of streams)
      await converge(rec, truth(sim, source, interval), from, `${what}, step ${n}`)
    await afterStep?.()
  }
}

describe('watchKlines against the simulator', () => {
  it.each([
    { source: 'v2', interval: '1m', tickMs: 5 * SECOND, step: 13, steps: 14, skew: 6 * HOUR },
    {
      source: 'v1',
      interval: '1m',
      tickMs: 5 * SECOND,
      step: 11,
      steps: 14,
      skew: -6 * HOUR,
      startTime: YEAR_2099,
    },
    { source: 'v2', interval: '1h', tickMs: MINUTE, step: 37, steps: 12, skew: -6 * HOUR },
    {
      source: 'v1',
      interval: '1h',
      tickMs: MINUTE,
      step: 31,
      steps: 14,
      skew: 6 * HOUR,
      startTime: YEAR_2099,
    },
  ] as const)(
    '$interval $source: the open candle, then each candle closed once, equal to the truth (local clock $skew ms off)',
    async ({ source, interval, tickMs, step, steps, skew, ...rest }) => {
      skewLocalClock(skew)
      const startTime = 'startTime' in rest ? rest.startTime : undefined
      const { sim, venue, reads } = await rig({
        tickMs,
        warmup: 50,
        ...(startTime === undefined ? {} : { startTime }),
      })
      const witness = new Witness()
      witness.capture(sim, source, interval)
      const atStart = truth(sim, source, interval)
      expect(atStart.open).toBeDefined()
      const rec = record(watch(venue, POOL, interval, { source }))

      // No history: the first event is the open candle; nothing closed before it came.
      await waitFor(() => rec.events.length > 0 || rec.errors.length > 0, 'the first event')
      expect(rec.events[0]).toEqual({ type: 'update', candle: atStart.open })
      const from = (atStart.open as Kline).timestamp

      await advanceConverging(sim, { steps, ticks: step, witness }, [
        { rec, from, what: `${interval} ${source}`, source, interval },
      ])
      const end = truth(sim, source, interval)
      expect(rec.closed().length, 'bucket boundaries crossed').toBeGreaterThanOrEqual(6)
      expect(rec.closed()).toEqual(end.closed.filter((c) => c.timestamp >= from))
      checkLaws(rec, witness, `${interval} ${source}`)
      checkWindows(reads)
    },
  )

  it('since: backfills the closed candles from that time exactly, over several pages, then goes live', async () => {
    skewLocalClock(-3 * HOUR)
    // 1,200 ticks of 10 s: 200 minutes, 200 candles of 1m before the subscription.
    const { sim, venue, reads } = await rig({ seed: 2, tickMs: 10 * SECOND, warmup: 1_200 })
    const witness = new Witness()
    witness.capture(sim, 'v2', '1m')
    const before = truth(sim, 'v2', '1m')
    // Half a minute into the bucket before the 11th candle: that bucket is left out.
    const since = (before.candles[10] as Kline).timestamp - 30 * SECOND
    const backfill = before.closed.filter((c) => c.timestamp >= since)
    expect(backfill.length).toBeGreaterThan(180)

    const rec = record(watch(venue, POOL, '1m', { since }))
    await converge(rec, before, since, 'backfill')
    // The backfill first, in order, then the open candle.
    expect(rec.events).toEqual([
      ...backfill.map((candle) => ({ type: 'closed', candle })),
      { type: 'update', candle: before.open },
    ])
    expect(reads.filter((r) => r.interval === '1m').length, 'pages').toBeGreaterThanOrEqual(3)

    await advanceConverging(sim, { steps: 8, ticks: 7, witness }, [
      { rec, from: since, what: 'live' },
    ])
    checkLaws(rec, witness, 'since')
    checkWindows(reads)
  })

  it('since: 0 delivers the whole history, skipping the empty decades in few requests', async () => {
    const { sim, venue, reads } = await rig({ seed: 3, tickMs: MINUTE, warmup: 600 })
    const now = truth(sim, 'v1', '1h')
    const rec = record(watch(venue, POOL, '1h', { source: 'v1', since: 0 }))
    await converge(rec, now, 0, 'whole history')
    expect(rec.closed()).toEqual(now.closed)
    expect(now.closed.length).toBeGreaterThanOrEqual(9)
    // 53 years of empty hours before the first candle: found by widening, not page by page.
    expect(reads.length).toBeLessThan(60)
    checkWindows(reads)
  })

  it('since ahead of the venue: nothing until the venue gets there, then candles from then on', async () => {
    const { sim, venue } = await rig({ seed: 4, warmup: 100 })
    const since = sim.market.now() + 10 * MINUTE
    const rec = record(watch(venue, POOL, '1m', { since }))
    sim.advance(60) // 5 minutes: still before `since`
    await converge(rec, truth(sim, 'v2', '1m'), since, 'before since')
    expect(rec.events).toEqual([])
    await advanceConverging(sim, { steps: 6, ticks: 60 }, [
      { rec, from: since, what: 'after since' },
    ])
    expect(rec.closed().length).toBeGreaterThanOrEqual(10)
    expect(rec.closed()[0]?.timestamp).toBe(firstFrom(truth(sim, 'v2', '1m'), since))
  })

  it('shares one poller per pool, interval and source; a late subscriber starts at the open candle', async () => {
    const { sim, venue, reads } = await rig({ seed: 5, warmup: 200 })
    const witness = new Witness()
    witness.capture(sim, 'v2', '1m')
    const a = record(watch(venue, POOL, '1m'))
    const b = record(watch(venue, POOL, '1m', { source: 'v2' })) // the venue's default: the same stream
    const c = record(watch(venue, POOL, '5m'))
    const [from, fromC] = await firstCandles('the first events', a, c)
    await advanceConverging(sim, { steps: 6, ticks: 13, witness }, [
      { rec: a, from, what: 'a' },
      { rec: c, from: fromC, what: 'c', interval: '5m' },
    ])
    expect(b.events).toEqual(a.events)
    // a and b share one poller: as many 1m reads as 5m reads (one page a poll each), not twice.
    const perInterval = (interval: string) => reads.filter((r) => r.interval === interval).length
    expect(perInterval('1m')).toBeLessThan(perInterval('5m') * 1.5 + 3)

    // A late subscriber gets the open candle at once, and no closed candle it never saw open.
    const late = record(watch(venue, POOL, '1m'))
    const open = truth(sim, 'v2', '1m').open as Kline
    expect(late.events).toEqual([{ type: 'update', candle: open }])
    await advanceConverging(sim, { steps: 6, ticks: 13, witness }, [
      { rec: late, from: open.timestamp, what: 'late' },
      { rec: a, from, what: 'a after the late one' },
    ])
    expect(late.closed()[0]).toEqual(
      truth(sim, 'v2', '1m').closed.find((k) => k.timestamp === open.timestamp),
    )
    expect(a.closed().slice(-late.closed().length)).toEqual(late.closed())
    for (const [rec, what] of [
      [a, 'a'],
      [late, 'late'],
    ] as const)
      checkLaws(rec, witness, what)
  })

  it('a subscriber with since backfills on its own poller, then joins the shared one: each candle once', async () => {
    const { sim, venue, reads } = await rig({ seed: 6, tickMs: 10 * SECOND, warmup: 900 })
    const witness = new Witness()
    witness.capture(sim, 'v2', '1m')
    const live = record(watch(venue, POOL, '1m'))
    const [fromLive] = await firstCandles('the live stream', live)
    await advanceConverging(sim, { steps: 4, ticks: 7, witness }, [
      { rec: live, from: fromLive, what: 'live' },
    ])
    // Long before the shared poller started: a backfill of its own, then the join.
    const early = (truth(sim, 'v2', '1m').candles[20] as Kline).timestamp
    // Inside what the shared poller has closed: it joins at once.
    const recent = (live.closed()[1] as Kline).timestamp
    const readsBefore = reads.length
    const fromEarly = record(watch(venue, POOL, '1m', { since: early }))
    const fromRecent = record(watch(venue, POOL, '1m', { since: recent }))
    // The market moves while the backfill and the join happen.
    for (let n = 0; n < 6; n += 1) {
      const served = reads.length
      sim.advance(3)
      witness.capture(sim, 'v2', '1m')
      await waitFor(() => reads.length > served + 1, 'a read or two')
    }
    expect(
      reads.slice(readsBefore).some((r) => r.start === Math.floor(early / SECOND)),
      'the backfill of its own',
    ).toBe(true)
    await advanceConverging(sim, { steps: 6, ticks: 7, witness }, [
      { rec: fromEarly, from: early, what: 'since early' },
      { rec: fromRecent, from: recent, what: 'since recent' },
      { rec: live, from: fromLive, what: 'live' },
    ])
    expect(fromEarly.closed().length).toBeGreaterThanOrEqual(130)
    for (const [rec, what] of [
      [fromEarly, 'since early'],
      [fromRecent, 'since recent'],
      [live, 'live'],
    ] as const)
      checkLaws(rec, witness, what)
    checkWindows(reads)
  })

  it('under faults, closes every candle exactly once, in order, equal to the truth', async () => {
    const { sim, venue, reads } = await rig({ seed: 7, tickMs: 10 * SECOND, warmup: 600 })
    const witness = new Witness()
    witness.capture(sim, 'v2', '1m')
    witness.capture(sim, 'v1', '5m')
    const since = (truth(sim, 'v2', '1m').candles[5] as Kline).timestamp
    sim.faults.set({
      errorRate: 0.15,
      errorStatus: 500, // the live service's ambiguous `service internal error`
      resetRate: 0.05,
      truncateRate: 0.05,
      malformedRate: 0.05,
      rateLimitRate: 0.05,
      retryAfterSeconds: 0,
    })
    // Counts requests at the simulator (its fault controller decides once per request).
    let requests = 0
    const decide = sim.faults.decide.bind(sim.faults)
    sim.faults.decide = (pathname: string) => {
      requests += 1
      return decide(pathname)
    }
    const m1 = record(watch(venue, POOL, '1m'))
    const m5 = record(watch(venue, POOL, '5m', { source: 'v1' }))
    const backfill = record(watch(venue, POOL, '1m', { since }))
    const [from1, from5] = await firstCandles('the first events', m1, m5)
    // At least 12 more requests a step, whatever the timing: some 240 in all, a third faulty.
    const twelveMore = () => {
      const target = requests + 12
      return waitFor(() => requests >= target, '12 more requests')
    }
    await advanceConverging(sim, { steps: 20, ticks: 9, witness, afterStep: twelveMore }, [
      { rec: m1, from: from1, what: '1m' },
      { rec: m5, from: from5, what: '5m', source: 'v1', interval: '5m' },
      { rec: backfill, from: since, what: 'since' },
    ])
    const stats = sim.faults.stats()
    expect(stats.requests).toBeGreaterThanOrEqual(240)
    expect(
      stats.error + stats.reset + stats.truncate + stats.malformed + stats.rateLimit,
    ).toBeGreaterThan(40)
    expect(m5.closed().length).toBeGreaterThanOrEqual(2)
    for (const [rec, what] of [
      [m1, '1m'],
      [backfill, 'since'],
    ] as const)
      checkLaws(rec, witness, what)
    checkWindows(reads)
  })
})

describe('watchKlines against a scripted venue', () => {
  interface Script {
    /** The venue's time, Unix seconds. */
    now: number
    /** Candles served whatever the window asked (a venue that ignores `start`). */
    candles: Record<string, unknown>[]
  }

  /** How the scripted venue cuts a window: by `end` only (default), or as asked and capped. */
  interface Cut {
    readonly cap: number
    readonly keep: 'oldest' | 'newest'
  }

  function serve(script: Script, query: Record<string, string>, cut?: Cut): unknown[] {
    const end = Number(query['end'])
    const start = cut === undefined ? Number.NEGATIVE_INFINITY : Number(query['start'])
    const inWindow = script.candles.filter((c) => {
      const t = c['timestamp'] as number
      return t >= start && t <= end
    })
    if (cut === undefined || inWindow.length <= cut.cap) return inWindow
    return cut.keep === 'oldest' ? inWindow.slice(0, cut.cap) : inWindow.slice(-cut.cap)
  }

  async function scripted(
    script: Script,
    cut?: Cut,
  ): Promise<{ venue: Venue; server: RecordingServer }> {
    const server = await startRecordingServer((request) =>
      request.pathname === '/api/v1/ping'
        ? ok({ timestamp: script.now })
        : ok(serve(script, request.query, cut)),
    )
    onCleanup(() => server.close())
    const venue = createVenue({
      baseUrl: server.url,
      pollIntervalMs: 5,
      // Reads counted against a poll every 5 ms.
      pacing: 'interval',
      lingerMs: 5,
      maxRequestsPerSecond: 100_000,
    })
    onCleanup(() => venue.close())
    return { venue, server }
  }

  const wire = (timestamp: number, close: number, count: number, interval = '1m') => ({
    pool_id: 3,
    interval,
    open: 1,
    high: 2,
    low: 0.5,
    close,
    volume: count * 10,
    turnover: count * 12,
    count,
    timestamp,
  })
  const describeEvents = (events: readonly KlineEvent[]) =>
    events.map(
      (e) => `${e.type} ${e.candle.timestamp / SECOND} close ${e.candle.close} n ${e.candle.count}`,
    )

  it('never reopens a closed candle, closes on the venue time when no later candle comes, skips empty buckets', async () => {
    skewLocalClock(9 * HOUR)
    const T = 1_800_000_000 // a whole minute
    const script: Script = { now: T + 30, candles: [wire(T, 1.5, 1)] }
    const { venue, server } = await scripted(script)
    const rec = record(watch(venue, 3, '1m', { source: 'v1' }))
    const polls = () => server.requests.filter((r) => r.pathname === '/api/v1/klines').length
    const settle = async () => {
      const seen = polls()
      await waitFor(() => polls() >= seen + 2, 'two more polls')
    }
    await settle()
    script.candles = [wire(T, 1.6, 2)]
    await settle()
    // A later candle closes the first at once.
    script.now = T + 70
    script.candles = [wire(T, 1.7, 3), wire(T + 60, 1.8, 1)]
    await settle()
    // The venue revises the closed candle (it should not): nothing is emitted for it.
    script.candles = [wire(T, 9.9, 4), wire(T + 60, 1.8, 1)]
    await settle()
    // The bucket ended 1 s ago: not yet closed (the close delay is 2 s) ...
    script.now = T + 121
    await settle()
    // ... now it is, with no later candle; the next bucket has no trade (no candle).
    script.now = T + 122
    await settle()
    script.now = T + 200
    script.candles = [wire(T, 9.9, 4), wire(T + 60, 1.8, 1), wire(T + 180, 2.1, 1)]
    await settle()
    expect(describeEvents(rec.events)).toEqual([
      `update ${T} close 1.5 n 1`,
      `update ${T} close 1.6 n 2`,
      `closed ${T} close 1.7 n 3`,
      `update ${T + 60} close 1.8 n 1`,
      `closed ${T + 60} close 1.8 n 1`,
      `update ${T + 180} close 2.1 n 1`,
    ])
    expect(rec.errors).toEqual([])
    // Every window is the venue's: both bounds sent, in seconds, ending at its time.
    for (const request of server.requests.filter((r) => r.pathname === '/api/v1/klines')) {
      expect(request.query).toMatchObject({ pool_id: '3', interval: '1m' })
      expect(Number(request.query['end'])).toBeLessThanOrEqual(T + 200)
      expect(Number(request.query['end'])).toBeGreaterThanOrEqual(T + 30)
      expect(Number(request.query['start'])).toBeLessThanOrEqual(Number(request.query['end']))
    }
  })

  it('at the join, an older read of the open candle from the shared poller is not passed on', async () => {
    const T = 1_800_000_000
    const script: Script = { now: T + 30, candles: [wire(T - 600, 1.1, 5), wire(T, 1.5, 1)] }
    // One poll a stream in this test: the shared poller's state stays the one of its first poll.
    const server = await startRecordingServer((request) =>
      request.pathname === '/api/v1/ping'
        ? ok({ timestamp: script.now })
        : ok(serve(script, request.query)),
    )
    onCleanup(() => server.close())
    const venue = createVenue({
      baseUrl: server.url,
      pollIntervalMs: 60_000,
      // One poll a minute at most, whatever the budget.
      pacing: 'interval',
      maxRequestsPerSecond: 100_000,
    })
    onCleanup(() => venue.close())
    const live = record(watch(venue, 3, '1m'))
    await waitFor(() => live.events.length === 1, 'the open candle')
    // A second trade in the open bucket, in the same second of the venue's clock.
    script.candles = [wire(T - 600, 1.1, 5), wire(T, 1.6, 2)]
    // Before what the shared poller holds: a backfill of its own, then the join, where the
    // shared state (one trade) is older than the own run's (two trades).
    const rec = record(watch(venue, 3, '1m', { since: (T - 600) * SECOND }))
    await waitFor(() => rec.events.length >= 2, 'the backfill and the open candle')
    expect(describeEvents(rec.events)).toEqual([
      `closed ${T - 600} close 1.1 n 5`,
      `update ${T} close 1.6 n 2`,
    ])
    expect(describeEvents(live.events)).toEqual([`update ${T} close 1.5 n 1`])
  })

  it.each(['oldest', 'newest'] as const)(
    'loses nothing when the venue cuts a wide window to its %s 100 candles',
    async (keep) => {
      const T = 1_800_000_000
      // 300 one-minute candles, the last one over (ended 10 s ago), after 30 empty days.
      const candles = Array.from({ length: 300 }, (_, n) => wire(T + n * 60, 1 + n / 1000, n + 1))
      const script: Script = { now: T + 300 * 60 + 10, candles }
      const { venue, server } = await scripted(script, { cap: 100, keep })
      const rec = record(watch(venue, 3, '1m', { source: 'v1', since: (T - 30 * 86_400) * SECOND }))
      await waitFor(() => rec.closed().length >= 300 || rec.errors.length > 0, '300 closed candles')
      expect(rec.errors).toEqual([])
      expect(rec.events.map((e) => `${e.type} ${e.candle.timestamp / SECOND}`)).toEqual(
        candles.map((c) => `closed ${c.timestamp}`),
      )
      const reads = server.requests.filter((r) => r.pathname === '/api/v1/klines').length
      expect(reads).toBeLessThan(40)
    },
  )

  it.each([
    ['a UTC month (February 2024, 29 days)', Date.UTC(2024, 1, 1) / SECOND],
    ['a UTC+8 month (February 2024, 29 days)', Date.UTC(2024, 1, 1) / SECOND - 8 * 3600],
  ])('closes a month candle on its own month end: %s', async (_, start) => {
    const end = start + 29 * 86_400
    const script: Script = { now: end - 1, candles: [wire(start, 1.5, 1, '1M')] }
    const { venue, server } = await scripted(script)
    const rec = record(watch(venue, 3, '1M'))
    const polls = () => server.requests.filter((r) => r.pathname === '/api/v1/klines/v2').length
    await waitFor(() => rec.events.length === 1, 'the open candle')
    script.now = end + 1 // 1 s after the end: still within the close delay
    const seen = polls()
    await waitFor(() => polls() >= seen + 2, 'two more polls')
    expect(describeEvents(rec.events)).toEqual([`update ${start} close 1.5 n 1`])
    script.now = end + 2
    await waitFor(() => rec.events.length === 2, 'the closed candle')
    expect(describeEvents(rec.events)).toEqual([
      `update ${start} close 1.5 n 1`,
      `closed ${start} close 1.5 n 1`,
    ])
  })
})

describe('watchKlines arguments', () => {
  const bad: [argument: string, call: (venue: Venue) => unknown][] = [
    ['poolId', (v) => watch(v, -1, '1m')],
    ['poolId', (v) => watch(v, 1.5, '1m')],
    ['poolId', (v) => watch(v, '1' as unknown as number, '1m')],
    ['poolId', (v) => watch(v, Number.NaN, '1m')],
    ['interval', (v) => watch(v, 1, '2m' as KlineInterval)],
    ['interval', (v) => watch(v, 1, undefined as unknown as KlineInterval)],
    ['interval', (v) => watch(v, 1, '1M ' as KlineInterval)],
    ['options', (v) => watch(v, 1, '1m', null as unknown as KlinesStreamOptions)],
    ['options', (v) => watch(v, 1, '1m', 'v1' as unknown as KlinesStreamOptions)],
    ['options', (v) => watch(v, 1, '1m', [] as unknown as KlinesStreamOptions)],
    ['pool_id', (v) => watch(v, 1, '1m', { pool_id: 2 } as KlinesStreamOptions)],
    ['interval', (v) => watch(v, 1, '1m', { interval: '5m' } as KlinesStreamOptions)],
    ['source', (v) => watch(v, 1, '1m', { source: 'v3' as 'v2' })],
    ['source', (v) => watch(v, 1, '1m', { source: null as unknown as 'v2' })],
    ['since', (v) => watch(v, 1, '1m', { since: -1 })],
    ['since', (v) => watch(v, 1, '1m', { since: 1.5 })],
    ['since', (v) => watch(v, 1, '1m', { since: Number.NaN })],
    ['since', (v) => watch(v, 1, '1m', { since: Number.POSITIVE_INFINITY })],
    ['since', (v) => watch(v, 1, '1m', { since: '1700000000000' as unknown as number })],
    ['since', (v) => watch(v, 1, '1m', { since: null as unknown as number })],
    ['since', (v) => watch(v, 1, '1m', { since: 1_700_000_000 })], // seconds, not ms
    ['since', (v) => watch(v, 1, '1m', { since: 1e14 })],
  ]

  it.each(bad)(
    'throws VenueInputError naming %s at the call, before any request',
    async (argument, call) => {
      const server = await startRecordingServer()
      onCleanup(() => server.close())
      const venue = createVenue({ baseUrl: server.url })
      onCleanup(() => venue.close())
      let thrown: unknown
      try {
        call(venue)
      } catch (error) {
        thrown = error
      }
      expect(thrown).toBeInstanceOf(VenueInputError)
      expect((thrown as VenueInputError).argument).toBe(argument)
      expect((thrown as Error).message).toMatch(/^watchKlines: /)
      expect(server.requests).toHaveLength(0)
    },
  )

  it('takes since 0, any epoch ms from 1e11, and every interval', async () => {
    const server = await startRecordingServer()
    onCleanup(() => server.close())
    const venue = createVenue({ baseUrl: server.url })
    onCleanup(() => venue.close())
    for (const since of [0, 1e11, 1_700_000_000_000, 1e14 - 1]) {
      expect(() => watch(venue, 1, '1m', { since })).not.toThrow()
    }
    for (const interval of ['1m', '5m', '15m', '30m', '1h', '4h', '1d', '1w', '1M'] as const) {
      expect(() => watch(venue, 0, interval, { source: 'v1', since: undefined })).not.toThrow()
    }
    expect(server.requests).toHaveLength(0)
  })
})
