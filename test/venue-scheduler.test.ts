/**
 * The streams of a venue run on the clock it is given (`createVenue({ scheduler })`):
 * polling cadence, retry backoff, linger and the request budget are checked here in
 * virtual time, hours of it in milliseconds of real time. The HTTP answers come from
 * undici's MockAgent (`dispatcher`), so only the clock is virtual; the HTTP path itself is
 * tested against real local servers elsewhere.
 */
import { setImmediate as nextTurn } from 'node:timers/promises'
import { VirtualTimeScheduler } from 'rxjs'
import { MockAgent } from 'undici'
import { afterEach, describe, expect, it } from 'vitest'
import {
  createVenue,
  type HealthReport,
  type Venue,
  VenueInputError,
  VenueNotFoundError,
} from '../src/index.js'
import type {
  OpenOrderEvent,
  PollBatch,
  PublicTradeEvent,
  RelaySources,
} from '../src/streams/relay-sources.js'
import { createRelayVenue } from '../src/venue.js'
import {
  balance,
  dataFor,
  openOrder,
  orderWithTrades,
  publicTrade,
  tradeDetail,
} from './helpers/fixtures.js'

const ORIGIN = 'http://venue.test'

interface Rig {
  readonly venue: Venue
  /** The relay publisher's sources on the venue's streams (`createRelayVenue`). */
  readonly sources: RelaySources | undefined
  readonly scheduler: VirtualTimeScheduler
  /** Virtual time of every request, by path. */
  readonly requests: { path: string; at: number }[]
  /** Moves virtual time to `to` ms, letting every answer arrive on the way. */
  advance(to: number): Promise<void>
}

const rigs: Rig[] = []
afterEach(async () => {
  for (const rig of rigs.splice(0)) await rig.venue.close()
})

/**
 * A venue on a virtual clock whose answers are `status(n)` for the n-th request; made by
 * `createRelayVenue` (with its sources) when `relay`. Its pacing is `'interval'` unless
 * `options` says otherwise.
 */
function rig(
  options: Partial<Parameters<typeof createVenue>[0]> = {},
  status: (
    n: number,
    path: string,
    query: URLSearchParams,
  ) => number | { status: number; retryAfter?: string; message?: string } = () => 200,
  payload: (pathname: string, query: URLSearchParams) => unknown = dataFor,
  relay = false,
): Rig {
  const scheduler = new VirtualTimeScheduler(undefined, Number.POSITIVE_INFINITY)
  const agent = new MockAgent()
  agent.disableNetConnect()
  const requests: { path: string; at: number }[] = []
  agent
    .get(ORIGIN)
    .intercept({ path: () => true, method: 'GET' })
    .reply((request) => {
      requests.push({ path: request.path, at: scheduler.now() })
      const pathname = request.path.split('?')[0] ?? ''
      const answer = status(
        requests.length,
        pathname,
        new URLSearchParams(request.path.split('?')[1] ?? ''),
      )
      const code = typeof answer === 'number' ? answer : answer.status
      const { retryAfter, message = 'unavailable' } = typeof answer === 'number' ? {} : answer
      const headers = retryAfter === undefined ? {} : { 'retry-after': retryAfter }
      return code === 200
        ? {
            statusCode: 200,
            data: {
              code: 0,
              message: '',
              data: payload(pathname, new URLSearchParams(request.path.split('?')[1] ?? '')),
              meta: {},
            },
          }
        : {
            statusCode: code,
            data: { code, message, data: null, meta: {} },
            responseOptions: { headers },
          }
    })
    .persist()
  const venueOptions = {
    baseUrl: ORIGIN,
    apiKey: 'k-virtual-time',
    dispatcher: agent,
    scheduler,
    // These tests pin the cadence of a stream to its interval; the budget pacing has its
    // own (venue-pacing.test.ts).
    pacing: 'interval' as const,
    ...options,
  }
  const { venue, sources } = relay
    ? createRelayVenue(venueOptions)
    : { venue: createVenue(venueOptions), sources: undefined }
  const settle = async () => {
    for (let i = 0; i < 5; i += 1) await nextTurn()
  }
  const advance = async (to: number) => {
    // From one due action to the next, letting every answer arrive in between.
    for (;;) {
      await settle()
      const due = scheduler.actions[0]?.delay
      if (due === undefined || due > to) break
      scheduler.maxFrames = due
      scheduler.flush()
    }
    // Nothing is due before `to` any more: the clock reads `to`.
    scheduler.frame = to
  }
  const made = { venue, sources, scheduler, requests, advance }
  rigs.push(made)
  return made
}

/**
 * A rig polling every second whose answers depend on its virtual time:
 * `payload(now, pathname, query)`.
 */
function timedRig(
  payload: (now: number, pathname: string, query: URLSearchParams) => unknown,
): Rig {
  let clock = () => 0
  const made = rig(
    { pollIntervalMs: 1000 },
    () => 200,
    (pathname, query) => payload(clock(), pathname, query),
  )
  clock = () => made.scheduler.now()
  return made
}

describe('a venue on a virtual clock', () => {
  it('polls every pollIntervalMs after the previous answer: one hour of polling, to the millisecond', async () => {
    const { venue, requests, advance } = rig({ pollIntervalMs: 60_000 })
    const subscription = venue.watchPools().subscribe()
    await advance(3_600_000)
    subscription.unsubscribe()
    expect(requests.map((r) => r.at)).toEqual(Array.from({ length: 61 }, (_, i) => i * 60_000))
  })

  it('backs off 1 s, 2 s, 4 s after failures, reports each wait, and resets after a success', async () => {
    const reports: HealthReport[] = []
    const { venue, requests, advance } = rig(
      {
        pollIntervalMs: 10_000,
        backoff: { initialMs: 1000, maxMs: 60_000, factor: 2, jitter: false },
      },
      (n) => (n <= 3 || n === 5 ? 503 : 200),
    )
    venue.health.subscribe((report) => reports.push(report))
    const subscription = venue.watchPools().subscribe()
    await advance(30_000)
    subscription.unsubscribe()
    // 0 fails, +1 s fails, +2 s fails, +4 s answers; +10 s fails, +1 s (reset) answers.
    expect(requests.map((r) => r.at)).toEqual([0, 1000, 3000, 7000, 17_000, 18_000, 28_000])
    const waits = reports
      .map((r) => r['watchPools()'])
      .filter((h) => h?.state === 'retrying')
      .map((h) => (h?.state === 'retrying' ? h.nextDelayMs : 0))
    expect(waits).toEqual([1000, 2000, 4000, 1000])
  })

  it('watchOrder asks for an order it cannot see yet with the backoff, at least once a poll, until visibleWithinMs; transport trouble between is retried from initialMs', async () => {
    const ORDER = '/api/v1/orders/0-999-0'
    let lookups = 0
    const { venue, requests, advance } = rig(
      {
        pollIntervalMs: 1000,
        backoff: { initialMs: 300, maxMs: 60_000, factor: 2, jitter: false },
      },
      (_, path) => {
        if (path !== ORDER) return 200
        lookups += 1
        // The 1st and the 4th look-ups meet transport trouble; every other one the 500
        // the venue answers for an order it does not know.
        return lookups === 1 || lookups === 4
          ? 503
          : { status: 500, message: 'service internal error' }
      },
    )
    let failure: unknown
    const subscription = venue
      .watchOrder('0-999-0', { visibleWithinMs: 5000 })
      .subscribe({ error: (error: unknown) => (failure = error) })
    await advance(20_000)
    subscription.unsubscribe()
    const asked = requests.filter((r) => r.path === ORDER).map((r) => r.at)
    const first = asked[0] ?? Number.NaN
    // 503, +300 (transport, attempt 1); then the 500s: +300, +600, 503 then +300
    // (transport, from attempt 1 again), +1200 capped at the poll interval (1000), +1000,
    // and the 500 ms left at the deadline (5000 ms after the first look-up).
    expect(asked.map((at) => at - first)).toEqual([0, 300, 600, 1200, 1500, 2500, 3500, 4500, 5000])
    expect(failure).toBeInstanceOf(VenueNotFoundError)
    expect((failure as VenueNotFoundError).status).toBe(500)
    expect((failure as Error).message).toBe(
      'watchOrder: the venue did not show order 0-999-0 within 5000 ms',
    )
  })

  it('watchOrder reports its look-ups to health under its own key: retrying with the wait on transport trouble, failed with the error it ends with', async () => {
    const ORDER = '/api/v1/orders/0-998-0'
    let lookups = 0
    const { venue, advance } = rig(
      {
        pollIntervalMs: 1000,
        backoff: { initialMs: 300, maxMs: 60_000, factor: 2, jitter: false },
      },
      (_, path) => {
        if (path !== ORDER) return 200
        lookups += 1
        return lookups <= 2 ? 503 : { status: 500, message: 'service internal error' }
      },
    )
    const reports: HealthReport[] = []
    venue.health.subscribe((report) => reports.push(report))
    const subscription = venue
      .watchOrder('0-998-0', { visibleWithinMs: 2000 })
      .subscribe({ error: () => undefined })
    await advance(10_000)
    subscription.unsubscribe()
    const keys = new Set(reports.flatMap((report) => Object.keys(report)))
    const key = [...keys].find((name) => name.startsWith('watchOrder("0-998-0")#'))
    expect(key).toBeDefined()
    const states = reports.map((report) => report[key as string]).filter((h) => h !== undefined)
    const retrying = states.filter((h) => h.state === 'retrying')
    expect(retrying.map((h) => (h.state === 'retrying' ? h.nextDelayMs : 0))).toEqual([300, 600])
    expect(retrying[0]).toMatchObject({ lastErrorCode: 'VENUE_SERVER' })
    // Its other look-ups (the account, the venue's clock) answered: ok; then the end.
    expect(states.some((h) => h.state === 'ok')).toBe(true)
    expect(reports.at(-1)?.[key as string]).toMatchObject({
      state: 'failed',
      errorCode: 'VENUE_NOT_FOUND',
    })
  })

  it('causal refresh: a new own trade seen by the feed polls the balances and the open orders at once, not at their next interval', async () => {
    // A trade of the account lands at 2,700 ms, and moves the balance with it.
    const LANDS = 2_700
    const newer = { ...tradeDetail, global_seq: '1002' }
    const { venue, requests, advance, scheduler } = timedRig((now, pathname, query) => {
      const landed = now >= LANDS
      if (pathname === '/api/v1/trades') {
        if (query.get('sort') === 'desc') return [landed ? newer : tradeDetail]
        return landed && query.get('global_seq') === String(tradeDetail.global_seq) ? [newer] : []
      }
      if (pathname === '/api/v1/balances') {
        return [{ ...balance, balance: landed ? '990.25' : '1000.25' }]
      }
      if (pathname === '/api/v1/open-orders') return []
      return dataFor(pathname)
    })
    const trades = venue.watchMyTrades().subscribe()
    // The balances and open orders start half an interval later: their polls fall at 500,
    // 1,500, 2,500, 3,500; the feed's at 0, 1,000, 2,000, 3,000.
    await advance(500)
    const seen: { at: number; balance: string | undefined }[] = []
    const balances = venue.watchBalances().subscribe(({ balances: list }) => {
      seen.push({ at: scheduler.now(), balance: list[0]?.balance })
    })
    const orders = venue.watchOpenOrders().subscribe()
    await advance(3_400)
    for (const subscription of [trades, balances, orders]) subscription.unsubscribe()
    const at = (path: string) =>
      requests.filter((r) => r.path.split('?')[0] === path).map((r) => r.at)
    // The feed saw the trade at 3,000: the balances and the open orders were polled then.
    expect(at('/api/v1/balances')).toEqual([500, 1_500, 2_500, 3_000])
    expect(at('/api/v1/open-orders')).toEqual([500, 1_500, 2_500, 3_000])
    expect(seen.at(-1)).toEqual({ at: 3_000, balance: '990.25' })
  })

  it("causal refresh: a new public trade seen by the trades poller polls the pool's book at once", async () => {
    const LANDS = 2_700
    const newer = { ...publicTrade, traded_at: publicTrade.traded_at + 1 }
    const { venue, requests, advance } = timedRig((now, pathname) => {
      if (pathname !== '/api/v1/latest-trades/v2') return dataFor(pathname)
      return now >= LANDS ? [newer, publicTrade] : [publicTrade]
    })
    const trades = venue.watchTrades(1).subscribe()
    // The book's polls fall at 500, 1,500, 2,500, 3,500; the trades' at 0, ..., 3,000.
    await advance(500)
    const book = venue.watchDepth(1).subscribe()
    const other = venue.watchDepth(2).subscribe()
    await advance(3_400)
    for (const subscription of [trades, book, other]) subscription.unsubscribe()
    const at = (pool: string) =>
      requests
        .filter((r) => r.path.startsWith('/api/v1/depth/v2') && r.path.includes(`pool_id=${pool}`))
        .map((r) => r.at)
    // Pool 1's book was polled when its trade was seen (3,000); pool 2's was not.
    expect(at('1')).toEqual([500, 1_500, 2_500, 3_000])
    expect(at('2')).toEqual([500, 1_500, 2_500])
  })

  it('watchOrder: a fill the tail sent before the order was found comes in global_seq order with the fills of its record', async () => {
    // The order's record lists its later trade (1003) and not yet the earlier one (1002),
    // which the fills tail passed on before the order was looked up.
    const trade = (seq: number) => ({ ...tradeDetail, global_seq: seq, base_quantity: '1' })
    const payload = (pathname: string, query: URLSearchParams) => {
      if (pathname === '/api/v1/trades') {
        if (query.get('sort') === 'desc') return [tradeDetail]
        return query.get('global_seq') === String(tradeDetail.global_seq) ? [trade(1002)] : []
      }
      if (pathname === '/api/v1/open-orders' || pathname === '/api/v1/history-orders') return []
      if (pathname === '/api/v1/orders/1-7-0') return { ...orderWithTrades, trades: [trade(1003)] }
      return dataFor(pathname)
    }
    const { venue, requests, advance } = rig(
      { pollIntervalMs: 1000, settleMs: 0 },
      () => 200,
      payload,
    )
    const fills: string[] = []
    const subscription = venue.watchOrder('1-7-0').subscribe((event) => {
      if (event.type === 'fill') fills.push(event.fill.globalSeq)
    })
    await advance(5000)
    subscription.unsubscribe()
    const tailed = requests.findIndex((r) => r.path.includes('global_seq=1001&sort=asc'))
    const looked = requests.findIndex((r) => r.path.startsWith('/api/v1/orders/1-7-0'))
    expect(tailed).toBeGreaterThanOrEqual(0)
    expect(tailed).toBeLessThan(looked)
    expect(fills).toEqual(['1002', '1003'])
  })

  it('keeps polling lingerMs after the last subscriber left, then stops', async () => {
    const { venue, requests, advance } = rig({ pollIntervalMs: 1000, lingerMs: 5000 })
    const subscription = venue.watchPools().subscribe()
    await advance(2500)
    subscription.unsubscribe()
    await advance(60_000)
    // Polls at 0, 1 s, 2 s while subscribed, then 3 s to 7 s while lingering.
    expect(requests.map((r) => r.at)).toEqual([0, 1000, 2000, 3000, 4000, 5000, 6000, 7000])
  })

  it('spends the request budget in virtual time: two streams at 1 request a second', async () => {
    const { venue, requests, advance } = rig({ pollIntervalMs: 100, maxRequestsPerSecond: 1 })
    const a = venue.watchPools().subscribe()
    const b = venue.watchTokens().subscribe()
    await advance(10_000)
    a.unsubscribe()
    b.unsubscribe()
    const times = requests.map((r) => r.at).filter((t) => t <= 10_000)
    // A burst of one second's worth (1 token), then one token per second, shared fairly.
    expect(times.length).toBeGreaterThanOrEqual(10)
    expect(times.length).toBeLessThanOrEqual(12)
    const pools = requests.filter((r) => r.path.startsWith('/api/v1/pools')).length
    const tokens = requests.filter((r) => r.path.startsWith('/api/v1/tokens')).length
    expect(Math.abs(pools - tokens)).toBeLessThanOrEqual(1)
  })

  it('a 429 with Retry-After 1 is never retried sooner than 1 s, however small the backoff', async () => {
    const reports: HealthReport[] = []
    const { venue, requests, advance } = rig(
      {
        pollIntervalMs: 60_000,
        // Delivered as soon as the page shows it: this test times the retries alone.
        settleMs: 0,
        backoff: { initialMs: 10, maxMs: 10, factor: 1, jitter: false },
      },
      (n) => (n <= 2 ? { status: 429, retryAfter: '1' } : 200),
    )
    venue.health.subscribe((report) => reports.push(report))
    const values: unknown[] = []
    const subscription = venue.watchSystemInfo().subscribe((value) => values.push(value))
    await advance(5000)
    subscription.unsubscribe()
    expect(requests.map((r) => r.at)).toEqual([0, 1000, 2000])
    expect(values).toHaveLength(1)
    const retrying = reports
      .map((r) => r['watchSystemInfo()'])
      .filter((h) => h?.state === 'retrying')
    expect(retrying).toHaveLength(2)
    for (const h of retrying) {
      expect(h).toMatchObject({ lastErrorCode: 'VENUE_RATE_LIMITED', nextDelayMs: 1000 })
    }
  })

  it("an exactly-once feed waits out a 429's Retry-After (1 s) however small the backoff, then goes on", async () => {
    // The backfill's first two tries (ascending, from the start: no global_seq) answer
    // 429; the shared tail's look-up of the newest trade and its pages answer at once.
    let backfillPages = 0
    const { venue, requests, advance } = rig(
      {
        pollIntervalMs: 60_000,
        // Delivered as soon as the page shows it: this test times the retries alone.
        settleMs: 0,
        backoff: { initialMs: 10, maxMs: 10, factor: 1, jitter: false },
      },
      (_, path, query) =>
        path === '/api/v1/trades' &&
        query.get('sort') === 'asc' &&
        !query.has('global_seq') &&
        ++backfillPages <= 2
          ? { status: 429, retryAfter: '1' }
          : 200,
    )
    const delivered: { seq: string; at: number }[] = []
    const subscription = venue
      .watchMyTrades()
      .subscribe((trade) =>
        delivered.push({ seq: trade.global_seq, at: requests.at(-1)?.at ?? -1 }),
      )
    await advance(5000)
    subscription.unsubscribe()
    const backfill = requests
      .filter((r) => r.path.includes('sort=asc') && !r.path.includes('global_seq'))
      .slice(0, 3)
    expect(backfill.map((r) => r.at)).toEqual([0, 1000, 2000])
    expect(delivered).toEqual([{ seq: String(tradeDetail.global_seq), at: 2000 }])
  })

  it('five trade feeds without a checkpoint share one tail: one /trades request per interval once caught up', async () => {
    const { venue, requests, advance } = rig({ pollIntervalMs: 1000 })
    const seen = [0, 0, 0, 0, 0]
    const subscriptions = seen.map((_, i) =>
      venue.watchMyTrades().subscribe(() => {
        seen[i] = (seen[i] ?? 0) + 1
      }),
    )
    await advance(10_000)
    const trades = (from: number, to: number) =>
      requests.filter((r) => r.path.startsWith('/api/v1/trades?') && r.at >= from && r.at < to)
    // Each feed delivered the one trade once; from 5 s on, one poller asks once a second.
    expect(seen).toEqual([1, 1, 1, 1, 1])
    expect(trades(5000, 10_000).map((r) => r.at)).toEqual([5000, 6000, 7000, 8000, 9000])
    for (const subscription of subscriptions) subscription.unsubscribe()
  })

  it('60 REST calls at 20 a second: a burst of 20 at once, then one every 50 ms, all answered', async () => {
    const { venue, requests, advance } = rig({ maxRequestsPerSecond: 20 })
    // Distinct queries, so that no two calls share a flight.
    const calls = Array.from({ length: 60 }, (_, i) => venue.rest.pools({ offset: i }))
    await advance(5000)
    expect(await Promise.all(calls)).toHaveLength(60)
    expect(requests.map((r) => r.at)).toEqual(
      Array.from({ length: 60 }, (_, i) => (i < 20 ? 0 : (i - 19) * 50)),
    )
  })

  it('four subscribers (two of one Observable, two of separate calls) cost one request per interval', async () => {
    const { venue, requests, advance } = rig({ pollIntervalMs: 50 })
    const shared = venue.watchPools()
    const values = [0, 0, 0, 0]
    const subscriptions = [shared, shared, venue.watchPools(), venue.watchPools()].map(
      (stream, i) =>
        stream.subscribe(() => {
          values[i] = (values[i] ?? 0) + 1
        }),
    )
    await advance(500)
    for (const subscription of subscriptions) subscription.unsubscribe()
    // One poller: a request every 50 ms, and the unchanged answer emitted once to each.
    expect(requests.map((r) => r.at)).toEqual(Array.from({ length: 11 }, (_, i) => i * 50))
    expect(values).toEqual([1, 1, 1, 1])
  })

  it('polling stops lingerMs after the last subscriber left, and a new subscriber starts afresh', async () => {
    let version = 0
    const payload = (pathname: string) =>
      pathname === '/api/v1/pools'
        ? [{ ...(dataFor(pathname) as object[])[0], trades: version }]
        : dataFor(pathname)
    const { venue, requests, advance } = rig(
      { lingerMs: 100, pollIntervalMs: 20 },
      () => 200,
      payload,
    )
    const states: (string | undefined)[] = []
    venue.health.subscribe((report) => states.push(report['watchPools()']?.state))
    const first = venue.watchPools().subscribe()
    await advance(30)
    first.unsubscribe()
    // The poller goes on during the linger (to 130 ms), then stops for good.
    await advance(1000)
    expect(requests.map((r) => r.at)).toEqual([0, 20, 40, 60, 80, 100, 120])
    // Resubscribing starts a fresh poller that sees what the venue serves now.
    version = 7
    const seen: unknown[] = []
    const again = venue.watchPools().subscribe((pools) => seen.push(pools[0]?.trades))
    await advance(1045)
    again.unsubscribe()
    expect(requests.map((r) => r.at).slice(7)).toEqual([1000, 1020, 1040])
    expect(seen).toEqual([7])
    expect(states).toEqual([undefined, 'ok', undefined, 'ok'])
  })

  it('a resubscribe within the linger joins the running poller', async () => {
    const { venue, requests, advance } = rig({ lingerMs: 500, pollIntervalMs: 50 })
    const first = venue.watchPools().subscribe()
    await advance(10)
    first.unsubscribe()
    const values: unknown[] = []
    const second = venue.watchPools().subscribe((pools) => values.push(pools))
    await advance(260)
    second.unsubscribe()
    // No new poller at 10 ms: the running one goes on, and the late subscriber gets its
    // latest value at once.
    expect(requests.map((r) => r.at)).toEqual([0, 50, 100, 150, 200, 250])
    expect(values).toHaveLength(1)
  })
})

describe('the relay sources: one batch per poll, the first flagged initial', () => {
  /** `answers[n]` for the n-th request of `path` (the last one from then on), else fixtures. */
  const sequence = (path: string, answers: readonly unknown[]) => {
    let n = 0
    return (pathname: string) =>
      pathname === path ? answers[Math.min(n++, answers.length - 1)] : dataFor(pathname)
  }

  it('open orders: the first poll is one initial batch, empty when no order is open', async () => {
    const { sources, advance } = rig(
      { pollIntervalMs: 1000 },
      () => 200,
      sequence('/api/v1/open-orders', [[], [], [openOrder]]),
      true,
    )
    const batches: PollBatch<OpenOrderEvent>[] = []
    const subscription = sources?.openOrders().subscribe((batch) => batches.push(batch))
    await advance(2500)
    subscription?.unsubscribe()
    expect(batches.map(({ initial, events }) => [initial, events.map((e) => e.type)])).toEqual([
      [true, []],
      [false, []],
      [false, ['opened']],
    ])
  })

  it('public trades: the initial batch holds the window, later ones what a poll added', async () => {
    const later = { ...publicTrade, traded_at: publicTrade.traded_at + 1 }
    const { sources, advance } = rig(
      { pollIntervalMs: 1000 },
      () => 200,
      sequence('/api/v1/latest-trades/v2', [[publicTrade], [later, publicTrade]]),
      true,
    )
    const batches: PollBatch<PublicTradeEvent>[] = []
    const subscription = sources?.trades(1).subscribe((batch) => batches.push(batch))
    await advance(1500)
    subscription?.unsubscribe()
    const times = (events: readonly PublicTradeEvent[]) =>
      events.map((e) => (e.type === 'trade' ? e.trade.traded_at / 1000 : e.type))
    expect(batches.map(({ initial, events }) => [initial, times(events)])).toEqual([
      [true, [publicTrade.traded_at]],
      [false, [later.traded_at]],
    ])
  })
})

describe('budget pacing on a venue (virtual clock)', () => {
  /** Requests to `path` (any query), their times. */
  const times = (requests: readonly { path: string; at: number }[], path: string) =>
    requests.filter((r) => r.path.split('?')[0] === path).map((r) => r.at)

  it('spends the budget on the streams by default: at least 95% of it, never more in a second', async () => {
    const { venue, requests, advance } = rig({ maxRequestsPerSecond: 20, pacing: 'adaptive' })
    expect(venue.settings.pacing).toBe('adaptive')
    const subscriptions = [
      venue.watchPools().subscribe(),
      venue.watchTokens().subscribe(),
      venue.watchSystemInfo().subscribe(),
      venue.watchBalances().subscribe(),
    ]
    await advance(10_000)
    for (const subscription of subscriptions) subscription.unsubscribe()
    const steady = requests.map((r) => r.at).filter((at) => at >= 1000 && at < 10_000)
    expect(steady.length).toBeGreaterThanOrEqual(0.95 * 20 * 9)
    expect(steady.length).toBeLessThanOrEqual(20 * 9 + 1)
    // Evenly spaced: one every 50 ms.
    const gaps = steady.slice(1).map((at, i) => at - (steady[i] as number))
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(25)
  })

  it('leaves the budget what REST calls take: the polls make way, the calls wait for no token', async () => {
    const { venue, requests, advance, scheduler } = rig({
      maxRequestsPerSecond: 10,
      pacing: 'even',
    })
    const subscriptions = [venue.watchPools().subscribe(), venue.watchTokens().subscribe()]
    // A bot's own calls, three a second.
    const calls: number[] = []
    for (let at = 1_000; at < 10_000; at += 333) {
      scheduler.schedule(() => {
        calls.push(at)
        void venue.rest.systemInfo()
      }, at)
    }
    await advance(10_000)
    for (const subscription of subscriptions) subscription.unsubscribe()
    const inWindow = (times: number[]) => times.filter((at) => at >= 1_000 && at < 10_000)
    // Each call went out when it was made: no queue at the budget.
    expect(times(requests, '/api/v1/system-info')).toEqual(calls)
    const polls = inWindow([
      ...times(requests, '/api/v1/pools'),
      ...times(requests, '/api/v1/tokens'),
    ])
    // The polls took what the calls left of the pacer's 9.7 a second, the whole under 10.
    expect(polls.length + calls.length).toBeLessThanOrEqual(10 * 9 + 1)
    expect(polls.length + calls.length).toBeGreaterThanOrEqual(0.95 * 9.7 * 9)
    expect(polls.length).toBeLessThan(9.7 * 9 - 0.9 * calls.length)
  })

  it('REST calls beyond the budget do not stop the polls: they keep half of it', async () => {
    const { venue, requests, advance, scheduler } = rig({
      maxRequestsPerSecond: 10,
      pacing: 'adaptive',
    })
    const subscription = venue.watchBalances().subscribe()
    // 15 calls a second for 10 s, all different (identical ones would share a flight):
    // more than the whole budget.
    const calls: Promise<unknown>[] = []
    for (let i = 0; i < 150; i += 1) {
      scheduler.schedule(
        () => calls.push(venue.rest.pools({ offset: i }).catch(() => undefined)),
        1_000 + (i * 1000) / 15,
      )
    }
    await advance(11_000)
    subscription.unsubscribe()
    const inWindow = (path: string) =>
      times(requests, path).filter((at) => at >= 1_000 && at < 11_000).length
    // The polls went on at about half the budget, the calls had the rest.
    expect(inWindow('/api/v1/balances')).toBeGreaterThanOrEqual(0.4 * 10 * 10)
    expect(inWindow('/api/v1/pools')).toBeGreaterThanOrEqual(0.4 * 10 * 10)
    expect(inWindow('/api/v1/balances') + inWindow('/api/v1/pools')).toBeLessThanOrEqual(
      10 * 10 + 10,
    )
    await venue.close()
    await Promise.all(calls)
  })

  it('subscribers of one stream share its poller: taking turns, it gets the share of one stream', async () => {
    const { venue, requests, advance } = rig({ maxRequestsPerSecond: 10, pacing: 'even' })
    const balances = venue.watchBalances()
    const subscriptions = [
      balances.subscribe(),
      balances.subscribe(),
      venue.watchBalances().subscribe(),
      venue.watchBalances().subscribe(),
      venue.watchPools().subscribe(),
    ]
    await advance(10_000)
    for (const subscription of subscriptions) subscription.unsubscribe()
    const shared = times(requests, '/api/v1/balances').length
    const single = times(requests, '/api/v1/pools').length
    // Four pollers of the balances would take four turns for each one of the pools.
    expect(Math.abs(shared - single)).toBeLessThanOrEqual(1)
    expect(shared + single).toBeGreaterThanOrEqual(0.95 * 10 * 10)
  })

  it("priority 'high' on a book: about twice the polls of an unmarked one that changes as often", async () => {
    const { venue, requests, advance } = rig({ maxRequestsPerSecond: 6, pacing: 'adaptive' })
    const subscriptions = [
      venue.watchDepth(1, { priority: 'high' }).subscribe(),
      venue.watchDepth(2).subscribe(),
    ]
    await advance(30_000)
    for (const subscription of subscriptions) subscription.unsubscribe()
    const pool = (id: number) =>
      requests.filter(
        (r) => r.path.startsWith('/api/v1/depth/v2') && r.path.includes(`pool_id=${id}`),
      ).length
    const ratio = pool(1) / pool(2)
    expect(ratio).toBeGreaterThan(1.6)
    expect(ratio).toBeLessThan(2.5)
  })

  it('refuses a priority that is not high, normal or low, at the call', () => {
    const { venue } = rig({ pacing: 'adaptive' })
    expect(() => venue.watchDepth(1, { priority: 'urgent' as never })).toThrow(
      "watchDepth: priority must be 'high', 'normal' or 'low'",
    )
    expect(() => venue.watchBalances({ priority: 1 as never })).toThrow(VenueInputError)
  })

  it('causal refresh: the balances and open orders are polled when the feed sees a new own trade, at the same time', async () => {
    const LANDS = 2_700
    const newer = { ...tradeDetail, global_seq: '1002' }
    let clock = () => 0
    const made = rig(
      // Polls leave a third of the budget: two polls called for at once find two tokens.
      { maxRequestsPerSecond: 3, pollsPerSecond: 2, pacing: 'adaptive', settleMs: 0 },
      () => 200,
      (pathname, query) => {
        const landed = clock() >= LANDS
        if (pathname === '/api/v1/trades') {
          if (query.get('sort') === 'desc') return [landed ? newer : tradeDetail]
          // Ascending from the cursor, or from the first trade without one.
          const after = query.get('global_seq')
          const all = landed ? [tradeDetail, newer] : [tradeDetail]
          return after === null
            ? all
            : all.filter((trade) => BigInt(trade.global_seq) > BigInt(after))
        }
        if (pathname === '/api/v1/balances') {
          return [{ ...balance, balance: landed ? '990.25' : '1000.25' }]
        }
        if (pathname === '/api/v1/open-orders') return []
        return dataFor(pathname)
      },
    )
    clock = () => made.scheduler.now()
    const { venue, requests, advance, scheduler } = made
    const seen: { at: number; trade: string }[] = []

    const balanceSeen: { at: number; balance: string | undefined }[] = []
    const subscriptions = [
      venue
        .watchMyTrades()
        .subscribe((trade) => seen.push({ at: scheduler.now(), trade: String(trade.global_seq) })),
      venue.watchBalances().subscribe(({ balances: list }) => {
        balanceSeen.push({ at: scheduler.now(), balance: list[0]?.balance })
      }),
      venue.watchOpenOrders().subscribe(),
    ]
    await advance(8_000)
    for (const subscription of subscriptions) subscription.unsubscribe()
    const tradeAt = seen.find((s) => s.trade === '1002')?.at
    expect(tradeAt).toBeGreaterThanOrEqual(LANDS)
    // The trade reached watchMyTrades at tradeAt; the balances were polled then and
    // showed it then (the mock answers in no virtual time: one round trip is 0 ms).
    expect(times(requests, '/api/v1/balances')).toContain(tradeAt)
    expect(times(requests, '/api/v1/open-orders')).toContain(tradeAt)
    // The balance the trade left was seen then at the latest (a turn of its own may have
    // shown it first).
    expect(balanceSeen.find((b) => b.balance === '990.25')?.at).toBeLessThanOrEqual(
      tradeAt as number,
    )
  })

  it('venue.freshness reports each polled stream: polls and changes a second, staleness, priority', async () => {
    const { venue, advance } = rig({ maxRequestsPerSecond: 10, pacing: 'adaptive' })
    const reports: Record<string, { pollsPerSecond: number; priority: string }>[] = []
    const subscriptions = [
      venue.watchPools().subscribe(),
      venue.watchBalances({ priority: 'high' }).subscribe(),
      venue.freshness.subscribe((report) => reports.push(report)),
    ]
    await advance(5_000)
    for (const subscription of subscriptions) subscription.unsubscribe()
    // One at once, then one a second.
    expect(reports.length).toBe(6)
    const last = reports.at(-1) ?? {}
    expect(Object.keys(last).sort()).toEqual(['watchBalances()', 'watchPools()'])
    expect(last['watchBalances()']).toMatchObject({
      priority: 'high',
      changesPerSecond: expect.any(Number),
      stalenessMs: expect.any(Number),
    })
    expect(last['watchPools()']?.priority).toBe('normal')
    // The pools and balances never change here: each gets about half of the 10 a second,
    // the high one more.
    const total =
      (last['watchBalances()']?.pollsPerSecond ?? 0) + (last['watchPools()']?.pollsPerSecond ?? 0)
    expect(total).toBeGreaterThan(8)
    expect(total).toBeLessThan(12)
  })
})
