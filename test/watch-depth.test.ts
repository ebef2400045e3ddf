import { firstValueFrom } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import type { BookEvent, BookLevel, OrderBook, VenueOptions } from '../src/index.js'
import { applyBookEvent, createVenue, VenueInputError } from '../src/index.js'
import type { Simulator } from '../src/simulator/index.js'
import { onCleanup, runCleanups } from './helpers/cleanups.js'
import { collect } from './helpers/observe.js'
import { atMostOnePer, count, FAST, startSimulatorVenue } from './helpers/simulator-venue.js'
import { waitFor } from './helpers/wait-for.js'

const POOL = 0
const V2_PATH = '/api/v1/depth/v2'
const V1_PATH = '/api/v1/depth'

afterEach(() => runCleanups())

/** The simulator at `ticks` and a venue without an API key: the book is public. */
function setup(options: Partial<VenueOptions> = {}, ticks = 5) {
  return startSimulatorVenue(
    { ...FAST, backoff: { initialMs: 5, maxMs: 20 }, ...options },
    { seed: 11, ticks, withKey: false },
  )
}

/** The book as the simulator serves it now, for the default precision (the pool's tick). */
function served(sim: Simulator, limit: number, source: 'v1' | 'v2' = 'v2') {
  const depth = sim.market.depth(POOL, source, limit, '0.0001')
  if (depth === undefined) throw new Error(`no pool ${POOL}`)
  return depth
}

function rebuild(events: readonly BookEvent[]): OrderBook {
  let book: OrderBook | undefined
  for (const event of events) book = applyBookEvent(book, event)
  if (book === undefined) throw new Error('no events')
  return book
}

/** The snapshot event of the book the simulator serves now, top 10 levels. */
function servedSnapshot(sim: Simulator, reason: 'initial' | 'resync', seq: number): BookEvent {
  const { timestamp, bids, asks } = served(sim, 10)
  return { type: 'snapshot', reason, poolId: POOL, seq, timestamp, bids, asks }
}

/** A venue watching the top 10 levels of the pool, once the first event has come. */
async function watching(options: Partial<VenueOptions> = {}) {
  const started = await setup(options)
  const events = collect(started.venue.watchDepth(POOL, { limit: 10 }))
  const first = await events.nth(1)
  return { ...started, events, first }
}

/** Makes every depth poll fail, until `n` more have failed. */
async function failPolls(sim: Simulator, n: number): Promise<void> {
  sim.faults.set({ errorRate: 1 }, V2_PATH)
  const errors = sim.faults.stats().error
  await waitFor(() => sim.faults.stats().error >= errors + n, `${n} failed polls`)
}

/** Advances the market until the served top `limit` levels change. */
function advanceUntilChanged(sim: Simulator, limit: number): void {
  const levels = () => {
    const { bids, asks } = served(sim, limit)
    return JSON.stringify({ bids, asks })
  }
  const before = levels()
  for (let n = 0; n < 100; n++) {
    sim.advance(1)
    if (levels() !== before) return
  }
  throw new Error('the book did not change in 100 ticks')
}

describe('venue.watchDepth against the simulator', () => {
  it('starts with an initial snapshot of the served book', async () => {
    const { sim, first } = await watching()
    expect(first).toEqual(servedSnapshot(sim, 'initial', 1))
  })

  it('emits nothing while the book is unchanged, and a delta after the market moves', async () => {
    const { sim, hits, events } = await watching()
    const polls = count(hits, V2_PATH)
    const requests = sim.faults.stats().requests
    await waitFor(() => count(hits, V2_PATH) >= polls + 5, '5 more polls')
    expect(sim.faults.stats().requests).toBeGreaterThanOrEqual(requests + 5)
    expect(events.values).toHaveLength(1)

    advanceUntilChanged(sim, 10)
    const second = await events.nth(2)
    expect(second).toMatchObject({ type: 'delta', seq: 2, prevSeq: 1, poolId: POOL })
    const depth = served(sim, 10)
    expect(second.timestamp).toBe(depth.timestamp)
    const book = rebuild(events.values)
    expect(book.bids).toEqual(depth.bids)
    expect(book.asks).toEqual(depth.asks)
    // Only levels that changed are in the delta.
    if (second.type === 'delta') {
      const first = events.values[0] as BookEvent
      const before = new Map([...first.bids, ...first.asks].map(([p, q]) => [p, q]))
      for (const [price, quantity] of [...second.bids, ...second.asks]) {
        expect(before.get(price), `${price} did not change`).not.toBe(quantity)
      }
    }
  })

  it('arguments that mean the same query share one poller: precision 0.01, "0.01" and "0.010"', async () => {
    // Interval pacing: three pollers would send three times the requests (under the budget
    // pacing, they would share the same budget).
    const { venue, hits } = await setup({ pacing: 'interval' })
    const subscriptions = [0.01, '0.01', '0.010'].map((precision) =>
      venue.watchDepth(POOL, { precision, limit: 5 }).subscribe(),
    )
    await waitFor(() => count(hits, V2_PATH) >= 6, '6 polls')
    const report = await firstValueFrom(venue.health)
    expect(Object.keys(report).filter((key) => key.startsWith('watchDepth('))).toHaveLength(1)
    // One poller: requests start an interval (20 ms) apart at most, so no more of them
    // than the time they span allows (three pollers would send three times as many).
    expect(
      atMostOnePer(
        hits.filter((h) => h.path === V2_PATH),
        20,
      ),
    ).toBe(true)
    for (const subscription of subscriptions) subscription.unsubscribe()
  })

  it('a late subscriber gets a snapshot of the current book (seq 1) and shares the poller', async () => {
    const {
      sim,
      venue,
      hits,
      events: early,
    } = await watching({ pollIntervalMs: 40, pacing: 'interval' })
    advanceUntilChanged(sim, 10)
    await early.nth(2)
    const late = collect(venue.watchDepth(POOL, { limit: 10 }))
    const first = await late.nth(1)
    const book = rebuild(early.values)
    expect(first).toMatchObject({ type: 'snapshot', reason: 'initial', seq: 1 })
    expect(first.timestamp).toBe(book.timestamp)
    expect(first.bids).toEqual(book.bids)
    expect(first.asks).toEqual(book.asks)

    // Both go on from there, on one poller: requests about one interval apart.
    const start = hits.filter((h) => h.path === V2_PATH).length
    advanceUntilChanged(sim, 10)
    const [a, b] = await Promise.all([early.nth(3), late.nth(2)])
    expect(a).toMatchObject({ type: 'delta', seq: 3, prevSeq: 2 })
    expect(b).toMatchObject({ type: 'delta', seq: 2, prevSeq: 1 })
    expect(b.bids).toEqual(a.bids)
    expect(b.asks).toEqual(a.asks)
    await waitFor(() => count(hits, V2_PATH) >= start + 6, '6 more polls')
    // No more requests than one poller's (one per 40 ms) over the time they span.
    expect(atMostOnePer(hits.filter((h) => h.path === V2_PATH).slice(start), 40)).toBe(true)
    expect(rebuild(late.values).bids).toEqual(rebuild(early.values).bids)
  })

  it('after an error burst, the next event is a resync snapshot of the served book', async () => {
    const { sim, events } = await watching()
    await failPolls(sim, 3)
    sim.advance(3)
    sim.faults.clear()
    const next = await events.nth(2)
    expect(next).toEqual(servedSnapshot(sim, 'resync', 2))
    expect(events.error).toBeUndefined()
  })

  it('a resync comes even when the book did not change during the errors', async () => {
    const { sim, events } = await watching()
    await failPolls(sim, 2)
    sim.faults.clear()
    const next = await events.nth(2)
    expect(next).toMatchObject({ type: 'snapshot', reason: 'resync', seq: 2 })
  })
})

describe('V1 and V2 depth', () => {
  const top = (levels: readonly BookLevel[], limit: number) => levels.slice(0, limit)

  it('reads /api/v1/depth/v2 by default: the V2 book (order book plus AMM)', async () => {
    const { sim, venue, hits } = await setup()
    const first = await firstValueFrom(venue.watchDepth(POOL, { limit: 5 }))
    expect(count(hits, V2_PATH)).toBeGreaterThan(0)
    expect(count(hits, V1_PATH)).toBe(0)
    const truth = sim.truth.book(POOL, 'v2')
    expect(first.bids).toEqual(top(truth.bids, 5))
    expect(first.asks).toEqual(top(truth.asks, 5))
  })

  it("reads /api/v1/depth with source 'v1': the V1 book (order book alone)", async () => {
    const { sim, venue, hits } = await setup()
    const first = await firstValueFrom(venue.watchDepth(POOL, { limit: 5, source: 'v1' }))
    expect(count(hits, V1_PATH)).toBeGreaterThan(0)
    expect(count(hits, V2_PATH)).toBe(0)
    const v1 = sim.truth.book(POOL, 'v1')
    expect(first.bids).toEqual(top(v1.bids, 5))
    expect(first.asks).toEqual(top(v1.asks, 5))
    // The two sets do differ here, so the test tells them apart.
    expect(top(sim.truth.book(POOL, 'v2').bids, 5)).not.toEqual(first.bids)
  })

  it("reads /api/v1/depth when the venue's marketData is 'v1'; source overrides it", async () => {
    const { sim, venue, hits } = await setup({ marketData: 'v1' })
    const first = await firstValueFrom(venue.watchDepth(POOL, { limit: 5 }))
    expect(count(hits, V1_PATH)).toBeGreaterThan(0)
    expect(count(hits, V2_PATH)).toBe(0)
    expect(first.bids).toEqual(top(sim.truth.book(POOL, 'v1').bids, 5))
    const v2 = await firstValueFrom(venue.watchDepth(POOL, { limit: 5, source: 'v2' }))
    expect(count(hits, V2_PATH)).toBeGreaterThan(0)
    expect(v2.bids).toEqual(top(sim.truth.book(POOL, 'v2').bids, 5))
  })

  it('V1 and V2 of the same pool are separate streams, each with its own snapshot', async () => {
    const { sim, venue } = await setup()
    const v1 = collect(venue.watchDepth(POOL, { limit: 5, source: 'v1' }))
    const v2 = collect(venue.watchDepth(POOL, { limit: 5, source: 'v2' }))
    const [a, b] = await Promise.all([v1.nth(1), v2.nth(1)])
    expect(a).toMatchObject({ type: 'snapshot', seq: 1 })
    expect(b).toMatchObject({ type: 'snapshot', seq: 1 })
    expect(a.bids).toEqual(served(sim, 5, 'v1').bids)
    expect(b.bids).toEqual(served(sim, 5, 'v2').bids)
  })
})

describe('watchDepth arguments', () => {
  it('throws VenueInputError synchronously for a bad pool id or precision, before any request', async () => {
    const { venue, hits } = await setup()
    expect(() => venue.watchDepth(-1)).toThrow(VenueInputError)
    expect(() => venue.watchDepth(0, { precision: '0.000000001' })).toThrow(VenueInputError)
    expect(() => venue.watchDepth(0, { limit: 0 })).toThrow(VenueInputError)
    expect(() => venue.watchDepth(0, { limit: 5001 })).toThrow(VenueInputError)
    expect(() => venue.watchDepth(0, { source: 'v3' as 'v1' })).toThrow(VenueInputError)
    expect(() => venue.watchOrderBook(-1)).toThrow(VenueInputError)
    expect(() => venue.watchOrderBook(0, { precision: '0.000000001' })).toThrow(VenueInputError)
    await new Promise((resolve) => setTimeout(resolve, 30))
    expect(hits).toHaveLength(0)
  })

  it('names the bad argument', () => {
    const venue = createVenue({ baseUrl: 'http://127.0.0.1:9' })
    onCleanup(() => venue.close())
    try {
      venue.watchDepth(0, { precision: '0.000000001' })
      expect.fail('no error')
    } catch (error) {
      expect(error).toBeInstanceOf(VenueInputError)
      expect((error as VenueInputError).argument).toBe('precision')
    }
  })
})

describe('venue.watchOrderBook', () => {
  it('emits OrderBook views equal to the events folded through applyBookEvent', async () => {
    const { sim, venue } = await setup()
    // Subscribed together, so both start from the same poll of the shared poller.
    const events = collect(venue.watchDepth(POOL, { limit: 8 }))
    const books = collect(venue.watchOrderBook(POOL, { limit: 8 }))
    await Promise.all([events.nth(1), books.nth(1)])
    for (let n = 2; n <= 4; n++) {
      advanceUntilChanged(sim, 8)
      await Promise.all([events.nth(n), books.nth(n)])
    }
    expect(books.values).toHaveLength(events.values.length)
    let rebuilt: OrderBook | undefined
    for (let n = 0; n < events.values.length; n++) {
      rebuilt = applyBookEvent(rebuilt, events.values[n] as BookEvent)
      const view = books.values[n] as OrderBook
      expect(view.seq).toBe(rebuilt.seq)
      expect(view.timestamp).toBe(rebuilt.timestamp)
      expect(view.poolId).toBe(POOL)
      expect(view.bids).toEqual(rebuilt.bids)
      expect(view.asks).toEqual(rebuilt.asks)
      expect(Object.isFrozen(view)).toBe(true)
    }
    const last = books.values.at(-1) as OrderBook
    const depth = served(sim, 8)
    expect(last.bids).toEqual(depth.bids)
    expect(last.asks).toEqual(depth.asks)
    expect(last.bestBid).toEqual(depth.bids[0])
    expect(last.bestAsk).toEqual(depth.asks[0])
  })
})
