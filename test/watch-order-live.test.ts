/**
 * Order tracking on a venue that behaves as live venues do, with transport faults on:
 * purged orders (404 or 500), trades shown after the order's end, order records shown
 * after their trades, an open list that lags, trades shown out of `global_seq` order, a
 * reused client id, an order with more fills than its record lists. Each stream is checked
 * against the simulator's ground truth: fills exactly once, in order, one `done`, the
 * right status, and no other order's stream disturbed.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { Fill, OpenOrderEvent, OrderEvent, TradeDetail, VenueOptions } from '../src/index.js'
import { createVenue } from '../src/index.js'
import type { VenueQuirks } from '../src/simulator/index.js'
import { onCleanup, runCleanups } from './helpers/cleanups.js'
import { collect } from './helpers/observe.js'
import { expectTruth, insideSpread, limit, truthOf } from './helpers/order-truth.js'
import { count, FAST, type Hit, startSimulatorVenue } from './helpers/simulator-venue.js'
import { waitFor } from './helpers/wait-for.js'

afterEach(() => runCleanups())

/** Transport faults on every route: 503s, resets, truncated bodies, 429s (Retry-After 0). */
const FAULTS = {
  errorRate: 0.1,
  resetRate: 0.03,
  truncateRate: 0.03,
  rateLimitRate: 0.03,
  retryAfterSeconds: 0,
}

const OPEN_ORDERS = '/api/v1/open-orders'

async function setup(quirks: VenueQuirks, options: Partial<VenueOptions> = {}) {
  const { sim, venue, hits } = await startSimulatorVenue({ ...FAST, orderLookups: 3, ...options })
  sim.faults.set(FAULTS)
  sim.quirks.set(quirks)
  return { sim, venue, hits, other: sim.apiKeys[1] ?? '' }
}

/** Resolves once the open orders have been asked for `n` more times. */
function polls(hits: readonly Hit[], n: number, what: string) {
  const from = count(hits, OPEN_ORDERS)
  return waitFor(() => count(hits, OPEN_ORDERS) >= from + n, what)
}

const dones = (events: readonly OrderEvent[]) => events.filter((e) => e.type === 'done')

/**
 * Look-ups of single orders (by id or client id) the venue answered whole: each of an
 * order's turns makes at most one (the faults' answers are retried, not counted).
 */
const lookUpsAnswered = (hits: readonly Hit[]) =>
  hits.filter(
    (hit) =>
      hit.path.startsWith('/api/v1/orders/') && hit.action === 'answer' && hit.body === 'none',
  ).length

describe('one order the venue purged stays that order’s trouble', () => {
  it.each([404, 500] as const)(
    'purged with HTTP %i: closed/done unknown for it alone; the other order is followed to its end',
    async (purgeStatus) => {
      const { sim, venue, other } = await setup({ purgeCanceledAfterMs: 0, purgeStatus })
      const price = insideSpread(sim)
      const purged = await limit(sim, 'sell', '9.0000', '0.01')
      const kept = await limit(sim, 'sell', price, '0.02')
      const open = collect(venue.watchOpenOrders())
      const purgedStream = collect(venue.watchOrder(purged.id))
      const keptStream = collect(venue.watchOrder(kept.id))
      await waitFor(
        () => open.values.filter((e) => e.type === 'opened').length >= 2,
        'both orders opened',
      )
      await sim.cancelOrder(purged.id)
      await waitFor(() => purgedStream.completed, 'done for the purged order', 10_000)
      const done = dones(purgedStream.values)
      expect(done).toHaveLength(1)
      expect(done[0]).toMatchObject({
        status: 'unknown',
        reconciled: true,
        missing: '0',
        order: { id: purged.id, filled: '0' },
      })
      await waitFor(
        () => open.values.some((e) => e.type === 'closed' && e.order.id === purged.id),
        'closed for the purged order',
      )
      const closed = open.values.find(
        (e): e is Extract<OpenOrderEvent, { type: 'closed' }> =>
          e.type === 'closed' && e.order.id === purged.id,
      )
      expect(closed?.status).toBe('unknown')
      expect(closed?.status === 'unknown' && closed.reason).toContain(purged.id)
      expect(closed?.status === 'unknown' && closed.reason).toContain(`HTTP ${purgeStatus}`)

      // Everything else goes on: the other order fills, its stream and the list report it.
      await limit(sim, 'buy', price, '0.02', { account: other })
      await waitFor(() => keptStream.completed, 'done for the other order', 10_000)
      expect(expectTruth(keptStream.values, sim, kept.id)).toMatchObject({
        status: 'filled',
        reconciled: true,
      })
      await waitFor(
        () => open.values.some((e) => e.type === 'closed' && e.order.id === kept.id),
        'closed for the other order',
      )
      for (const stream of [open, purgedStream, keptStream]) expect(stream.error).toBeUndefined()
      // A late subscriber to the list sees the other orders (the purged one is gone).
      expect(open.completed).toBe(false)
    },
  )
})

describe('done waits for the fills', () => {
  it('an order shown filled before its trades: no done until the trades show, then every fill and done reconciled', async () => {
    // Trades show 1 s (4 ticks) after they happen; the order's record moves at once.
    const { sim, venue, hits, other } = await setup({ tradesLagMs: 1_000 })
    const price = insideSpread(sim)
    const placed = await limit(sim, 'sell', price, '0.03')
    const stream = collect(venue.watchOrder(placed.id))
    await polls(hits, 2, 'the order followed')
    for (let i = 0; i < 3; i += 1) await limit(sim, 'buy', price, '0.01', { account: other })
    expect(truthOf(sim, placed.id).status).toBe(2)
    await polls(hits, 8, 'eight polls with the order filled and no trade shown')
    expect(stream.values).toEqual([])
    sim.advance(4)
    await waitFor(() => stream.completed, 'done', 10_000)
    const done = expectTruth(stream.values, sim, placed.id)
    expect(done).toMatchObject({ status: 'filled', reconciled: true, missing: '0' })
    expect(stream.values.filter((e) => e.type === 'fill')).toHaveLength(3)
  })

  it('trades that never show within the grace: done anyway, unreconciled, with the amount missing', async () => {
    const { sim, venue, hits, other } = await setup({ tradesLagMs: 60_000 })
    const price = insideSpread(sim)
    const placed = await limit(sim, 'sell', price, '0.03')
    const stream = collect(venue.watchOrder(placed.id, { fillGraceMs: 300 }))
    await polls(hits, 2, 'the order followed')
    await limit(sim, 'buy', price, '0.03', { account: other })
    await waitFor(() => stream.completed, 'done', 10_000)
    expect(stream.values).toHaveLength(1)
    expect(stream.values[0]).toMatchObject({
      type: 'done',
      status: 'filled',
      reconciled: false,
      missing: '0.03',
      order: { filled: '0', remaining: '0.03' },
    })
    expect(stream.error).toBeUndefined()
  })

  it('an order with more fills than its record lists (150, the venue lists 100): all 150, in order, done reconciled', async () => {
    const { sim, venue, other } = await setup({ orderTradesLimit: 100 })
    const price = insideSpread(sim)
    const placed = await limit(sim, 'sell', price, '1.50')
    for (let i = 0; i < 150; i += 1) await limit(sim, 'buy', price, '0.01', { account: other })
    const stream = collect(venue.watchOrder(placed.id))
    await waitFor(() => stream.completed, 'done', 10_000)
    expect(stream.error).toBeUndefined()
    const done = expectTruth(stream.values, sim, placed.id)
    expect(done).toMatchObject({ status: 'filled', reconciled: true })
    expect(stream.values.filter((e) => e.type === 'fill')).toHaveLength(150)
  })

  it('the same order followed live, filled 150 times, its end read before its trades: all 150 in global_seq order, none marked late, done reconciled', async () => {
    const { sim, venue, hits, other } = await setup({ orderTradesLimit: 100 })
    const price = insideSpread(sim)
    const placed = await limit(sim, 'sell', price, '1.50')
    const stream = collect(venue.watchOrder(placed.id))
    await polls(hits, 2, 'the order followed')
    await limit(sim, 'buy', price, '0.01', { account: other })
    await waitFor(() => stream.values.length === 1, 'the first fill')
    // The fills tail is held back (503s, retried) until the order's end, with the newest
    // 100 of its trades, has been read.
    const TRADES = '/api/v1/trades'
    sim.faults.set({ errorRate: 1, errorStatus: 503 }, TRADES)
    for (let i = 1; i < 150; i += 1) await limit(sim, 'buy', price, '0.01', { account: other })
    const lookUp = `/api/v1/orders/${placed.id}`
    const answered = (path: string) =>
      hits.filter((hit) => hit.path === path && hit.action === 'answer' && hit.body === 'none')
    await waitFor(() => answered(lookUp).length >= 1, 'the order looked up after its end')
    await polls(hits, 2, 'two more polls')
    sim.faults.clear(TRADES)
    await waitFor(() => stream.completed, 'done', 10_000)
    expect(stream.error).toBeUndefined()
    // expectTruth: the fills are the order's trades in global_seq order, each once.
    const done = expectTruth(stream.values, sim, placed.id)
    expect(done).toMatchObject({ status: 'filled', reconciled: true })
    const fills = stream.values.filter((e) => e.type === 'fill').map((e) => e.fill)
    expect(fills).toHaveLength(150)
    expect(fills.filter((fill) => fill.late !== undefined)).toEqual([])
  })
})

describe('each order on its own clock', () => {
  it('an order the open list never shows: done by the second turn after its last fill', async () => {
    const { sim, venue, hits, other } = await setup({ openListLagMs: 3_600_000 })
    const price = insideSpread(sim)
    const placed = await limit(sim, 'sell', price, '0.02')
    // Counted in the order's own turns (one under way at the fill, then the next), not in
    // polls: how many polls a turn takes depends on how busy the machine is.
    let turnsAtLastFill = -1
    let turnsAtDone = -1
    const stream = collect(venue.watchOrder(placed.id))
    const marks = venue.watchOrder(placed.id).subscribe((event) => {
      const n = lookUpsAnswered(hits)
      if (event.type === 'fill') turnsAtLastFill = n
      else if (event.type === 'done') turnsAtDone = n
    })
    onCleanup(() => marks.unsubscribe())
    await polls(hits, 2, 'the order followed')
    await limit(sim, 'buy', price, '0.02', { account: other })
    await waitFor(() => stream.completed && turnsAtDone >= 0, 'done', 30_000)
    expect(expectTruth(stream.values, sim, placed.id).status).toBe('filled')
    expect(turnsAtDone - turnsAtLastFill).toBeLessThanOrEqual(2)
  })

  it('a market order (it never rests), followed by client id from before it is placed: its fills, then done by the second turn', async () => {
    const { sim, venue, hits } = await setup({ openListLagMs: 3_600_000 })
    let turnsAtLastFill = -1
    let turnsAtDone = -1
    const stream = collect(venue.watchOrder({ clientId: 'market-1' }, { visibleWithinMs: 30_000 }))
    const marks = venue
      .watchOrder({ clientId: 'market-1' }, { visibleWithinMs: 30_000 })
      .subscribe((event) => {
        const n = lookUpsAnswered(hits)
        if (event.type === 'fill') turnsAtLastFill = n
        else if (event.type === 'done') turnsAtDone = n
      })
    onCleanup(() => marks.unsubscribe())
    await polls(hits, 3, 'the streams looking for it')
    const placed = await sim.placeOrder({
      poolId: 0,
      side: 'buy',
      type: 'market',
      amount: '0.05',
      clientId: 'market-1',
    })
    await waitFor(() => stream.completed && turnsAtDone >= 0, 'done', 30_000)
    const done = expectTruth(stream.values, sim, placed.id)
    expect(done.status).toBe('filled')
    expect(stream.values.filter((e) => e.type === 'fill').length).toBeGreaterThan(0)
    expect(turnsAtDone - turnsAtLastFill).toBeLessThanOrEqual(2)
  })

  it('an order that leaves unseen by a lagging list (partly filled, then canceled): asked on its own clock, done canceled at the next turn', async () => {
    const { sim, venue, hits, other } = await setup({ openListLagMs: 3_600_000 })
    const price = insideSpread(sim)
    const placed = await limit(sim, 'sell', price, '0.03')
    const stream = collect(venue.watchOrder(placed.id))
    await polls(hits, 2, 'the order followed')
    await limit(sim, 'buy', price, '0.01', { account: other })
    await waitFor(() => stream.values.some((e) => e.type === 'fill'), 'the fill')
    // Missing from the list but working: asked again and again, 2 polls after each answer,
    // never on every poll (counted in answers the faults left whole, so that a retried
    // request does not count twice). How many polls a turn takes depends on the machine
    // (its requests retried through the faults): only the bound is load-free.
    const clean = (path: string) =>
      hits.filter((hit) => hit.path === path && hit.action === 'answer' && hit.body === 'none')
        .length
    const lookUpPath = `/api/v1/orders/${placed.id}`
    const [lookUps, listed] = [clean(lookUpPath), clean(OPEN_ORDERS)]
    await waitFor(
      () => clean(lookUpPath) >= lookUps + 3 && clean(OPEN_ORDERS) >= listed + 8,
      'three look-ups and eight polls answered',
      30_000,
    )
    const asked = clean(lookUpPath) - lookUps
    const polled = clean(OPEN_ORDERS) - listed
    expect(asked).toBeLessThanOrEqual(Math.floor(polled / 2) + 1)
    // Canceled: done from the next turn that reads it (one under way may have read it
    // working), whatever the polls between.
    const before = clean(lookUpPath)
    await sim.cancelOrder(placed.id)
    await waitFor(() => stream.completed, 'done', 30_000)
    expect(clean(lookUpPath) - before).toBeLessThanOrEqual(2)
    const done = expectTruth(stream.values, sim, placed.id)
    expect(done).toMatchObject({ status: 'canceled', order: { filled: '0.01' } })
  })

  it('fills shown before the order record moves (orders lag): the fills at once, done once the record ends', async () => {
    // The order endpoints show each order as it was 0.75 s (3 ticks) ago.
    const { sim, venue, hits, other } = await setup({ ordersLagMs: 750 })
    const price = insideSpread(sim)
    const placed = await limit(sim, 'sell', price, '0.02')
    const stream = collect(venue.watchOrder(placed.id))
    sim.advance(3) // the order shows (the crowd may take some of it meanwhile)
    await limit(sim, 'buy', price, '0.02', { account: other })
    expect(truthOf(sim, placed.id).status).toBe(2)
    await waitFor(() => stream.values.some((e) => e.type === 'fill'), 'a fill')
    await polls(hits, 4, 'four polls with the fills shown and the record not yet ended')
    expect(dones(stream.values)).toEqual([])
    sim.advance(3) // its end shows
    await waitFor(() => stream.completed, 'done', 10_000)
    expect(expectTruth(stream.values, sim, placed.id)).toMatchObject({
      status: 'filled',
      reconciled: true,
    })
  })
})

describe('a reused client id', () => {
  it('never follows an older order with the client id: waits, then follows the new one', async () => {
    const { sim, venue, hits, other } = await setup({})
    const old = await limit(sim, 'sell', '9.0000', '0.01', { clientId: 'bot-1' })
    await sim.cancelOrder(old.id)
    sim.advance(300) // 75 s later on the venue's clock
    const stream = collect(venue.watchOrder({ clientId: 'bot-1' }, { visibleWithinMs: 60_000 }))
    await polls(hits, 6, 'six polls with only the old order using the client id')
    expect(stream.values).toEqual([])
    const price = insideSpread(sim)
    const fresh = await limit(sim, 'sell', price, '0.01', { clientId: 'bot-1' })
    await limit(sim, 'buy', price, '0.01', { account: other })
    await waitFor(() => stream.completed, 'done', 10_000)
    const done = expectTruth(stream.values, sim, fresh.id)
    expect(done.order.id).toBe(fresh.id)
    expect(done.status).toBe('filled')
  })

  it('placedAfter: 0 takes the newest order with the client id, old or not', async () => {
    const { sim, venue } = await setup({})
    const old = await limit(sim, 'sell', '9.0000', '0.01', { clientId: 'bot-1' })
    await sim.cancelOrder(old.id)
    sim.advance(300)
    const stream = collect(venue.watchOrder({ clientId: 'bot-1' }, { placedAfter: 0 }))
    await waitFor(() => stream.completed, 'done', 10_000)
    expect(dones(stream.values)[0]).toMatchObject({ status: 'canceled', order: { id: old.id } })
  })

  it('an order that only ever had an older namesake fails after visibleWithinMs, naming the client id and the older order', async () => {
    const { sim, venue } = await setup({})
    const old = await limit(sim, 'sell', '9.0000', '0.01', { clientId: 'bot-2' })
    await sim.cancelOrder(old.id)
    sim.advance(300)
    const stream = collect(venue.watchOrder({ clientId: 'bot-2' }, { visibleWithinMs: 200 }))
    await waitFor(() => stream.error !== undefined, 'the error')
    expect(String(stream.error)).toContain('"bot-2"')
    expect(String(stream.error)).toContain(old.id)
    expect((stream.error as { code?: string }).code).toBe('VENUE_NOT_FOUND')
  })
})

describe('a cheap start', () => {
  it('40 streams on orders in the open list cost the list pages, no look-up; one canceled costs one, the 39 others canceled at once a history page', async () => {
    const { sim, venue, hits } = await setup({})
    const placed = []
    for (let i = 0; i < 40; i += 1) placed.push(await limit(sim, 'sell', `${8 + i / 100}`, '0.01'))
    const streams = placed.map((order) => collect(venue.watchOrder(order.id)))
    await polls(hits, 4, 'four polls')
    const lookUps = () => hits.filter((hit) => hit.path.startsWith('/api/v1/orders/')).length
    expect(lookUps()).toBe(0)
    expect(count(hits, '/api/v1/history-orders')).toBe(0)
    const gone = placed[7]?.id ?? ''
    await sim.cancelOrder(gone)
    await waitFor(() => streams[7]?.completed === true, 'done for the canceled one')
    // The shared poll looked it up (a retry after a fault may add one).
    expect(lookUps()).toBeGreaterThanOrEqual(1)
    expect(lookUps()).toBeLessThanOrEqual(3)
    expect(streams.filter((s) => s.completed)).toHaveLength(1)
    expect(dones(streams[7]?.values ?? [])[0]?.status).toBe('canceled')
    // A mass cancel: the endings come from pages of the newest ended orders, not 39 look-ups.
    const before = lookUps()
    for (const order of placed) if (order.id !== gone) await sim.cancelOrder(order.id)
    await waitFor(() => streams.every((s) => s.completed), 'done for every order')
    expect(lookUps() - before).toBeLessThanOrEqual(3)
    expect(count(hits, '/api/v1/history-orders')).toBeGreaterThanOrEqual(1)
    for (const [i, stream] of streams.entries()) {
      expect(stream.values, placed[i]?.id).toEqual([
        expect.objectContaining({ type: 'done', status: 'canceled', reconciled: true }),
      ])
    }
  })
})

describe('no late trade lost', () => {
  it('trades shown out of global_seq order: the feeds deliver each exactly once (on sight, the late ones marked; ascending, in order); without the window some are lost', async () => {
    const { sim, venue: settled } = await setup({ tradesLagMs: [0, 2_000] }, { settleMs: 1_500 })
    sim.faults.clear()
    const hasty = createVenue({ baseUrl: sim.url, apiKey: sim.apiKey, ...FAST, settleMs: 0 })
    onCleanup(() => hasty.close())
    const start = sim.truth.trades().at(-1)?.global_seq
    const cursor = start === undefined ? '0' : String(start)
    const pages = [0, 0, 0]
    const page = (i: number) => () => {
      pages[i] = (pages[i] ?? 0) + 1
    }
    const feeds = {
      settled: collect(settled.watchMyTrades({ cursor, onProgress: page(0) })),
      fills: collect(settled.watchFills({ cursor, order: 'ascending', onProgress: page(1) })),
      hasty: collect(hasty.watchMyTrades({ cursor, onProgress: page(2) })),
    }
    // Tick by tick, each feed polls at least twice on every state of the venue.
    for (let tick = 0; tick < 80; tick += 1) {
      sim.advance(1)
      const seen = [...pages]
      await waitFor(() => pages.every((n, i) => n >= (seen[i] ?? 0) + 2), `polls at tick ${tick}`)
    }
    const account = sim.market.account(sim.apiKey)?.info().chain_account
    const truthNow = () =>
      sim.truth
        .trades()
        .filter(
          (t) => (t.maker === account || t.taker === account) && t.global_seq > Number(cursor),
        )
        .map((t) => String(t.global_seq))
    const truth = truthNow()
    expect(truth.length).toBeGreaterThan(10)
    // Every trade shows within 2 s (8 ticks): the feeds catch up past the truth so far.
    sim.advance(12)
    const lastSeq = truth.at(-1) ?? ''
    const reached = (seq: string | undefined) => seq !== undefined && BigInt(seq) >= BigInt(lastSeq)
    const seqs = (list: readonly TradeDetail[]) => list.map((t) => t.global_seq)
    await waitFor(
      () => truth.every((seq) => seqs(feeds.settled.values).includes(seq)),
      'the feed on sight',
      10_000,
    )
    await waitFor(() => reached(feeds.fills.values.at(-1)?.globalSeq), 'the fills feed', 10_000)
    // On sight: exactly the account's trades, none missing or repeated; each delivered
    // after a greater one is marked late, and some were.
    const settledSeqs = seqs(feeds.settled.values)
    expect(new Set(settledSeqs).size).toBe(settledSeqs.length)
    const sorted = [...settledSeqs].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))
    expect(sorted).toEqual(truthNow().slice(0, sorted.length))
    let newest = 0n
    for (const trade of feeds.settled.values) {
      const seq = BigInt(trade.global_seq)
      expect(trade.late === true, trade.global_seq).toBe(seq < newest)
      if (seq > newest) newest = seq
    }
    expect(feeds.settled.values.some((trade) => trade.late === true)).toBe(true)
    // Ascending: in order, none missing or repeated.
    const fillSeqs = [...new Set(feeds.fills.values.map((f: Fill) => f.globalSeq))]
    expect(fillSeqs).toEqual(truthNow().slice(0, fillSeqs.length))
    expect(fillSeqs.length).toBeGreaterThanOrEqual(truth.length)
    // The same venue without the window: some trade shown after a later one was lost.
    const hastySeqs = seqs(feeds.hasty.values)
    expect(new Set(hastySeqs).size).toBe(hastySeqs.length)
    expect(truth.filter((seq) => !hastySeqs.includes(seq)).length).toBeGreaterThan(0)
  })
})
