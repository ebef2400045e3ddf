/**
 * Live-venue quirks of the simulator (`sim.quirks`, `startSimulator({ quirks })`), checked
 * over HTTP on a manual clock: purged cancels, late trades and orders, a lagging open-order
 * list, capped trade lists, and client ids taken again once their order ended. Ticks are
 * 250 ms, so a lag of 1000 ms is 4 ticks. Pool 0 is CHN/USDT.
 */
import { afterEach, describe, expect, it } from 'vitest'
import {
  checkQuirks,
  type OrderRecord,
  type PlaceOrderRequest,
  Quirks,
  type Simulator,
  type SimulatorOptions,
  startSimulator,
  type TradeDetailRecord,
  type VenueQuirks,
} from '../src/simulator/index.js'
import { onCleanup, runCleanups } from './helpers/cleanups.js'
import { format, units } from './helpers/exact-decimal.js'
import { rejectionOf } from './helpers/rejection.js'
import { data, get } from './helpers/simulator-http.js'

afterEach(runCleanups)

/** Ticks of a lag of 1000 ms at the default 250 ms a tick. */
const LAG_TICKS = 4

type OrderWithTrades = OrderRecord & { trades: TradeDetailRecord[] }

async function start(options: SimulatorOptions = {}): Promise<Simulator> {
  const sim = await startSimulator({ seed: 1, clock: 'manual', ...options })
  onCleanup(() => sim.close())
  return sim
}

const order = (sim: Simulator, id: string) => data<OrderWithTrades>(sim, `/orders/${id}`)
const openIds = async (sim: Simulator) =>
  (await data<{ id: string }[]>(sim, '/open-orders?limit=100')).map((o) => o.id)
const historyIds = async (sim: Simulator) =>
  (await data<OrderRecord[]>(sim, '/history-orders?limit=100')).map((o) => o.id)
const tradeSeqs = async (sim: Simulator, key = sim.apiKey) =>
  (await data<TradeDetailRecord[]>(sim, '/trades?sort=asc&limit=100', key)).map((t) => t.global_seq)

/** The answer for an unknown order. */
const UNKNOWN = { code: 500, message: 'service internal error', data: null, meta: {} }
const NOT_FOUND = { code: 404, message: 'not found', data: null, meta: {} }

type More = Partial<Pick<PlaceOrderRequest, 'account' | 'clientId'>>

/** A limit order on pool 0 (by the demo account unless `more` says otherwise). */
const placeLimit = (
  sim: Simulator,
  side: 'buy' | 'sell',
  price: string,
  amount: string,
  more: More = {},
) => sim.placeOrder({ poolId: 0, side, type: 'limit', price, amount, ...more })

/** A market order on pool 0. */
const placeMarket = (sim: Simulator, side: 'buy' | 'sell', amount: string, more: More = {}) =>
  sim.placeOrder({ poolId: 0, side, type: 'market', amount, ...more })

/** One price unit above the engine's best bid of pool 0: inside the spread. */
function insideBid(sim: Simulator): string {
  const bid = sim.truth.engineBook(0).bids[0]?.[0]
  if (bid === undefined) throw new Error('no bid')
  return format(units(bid, 4) + 1n, 4)
}

/** Whether the order is still working (ground truth). */
const isWorking = (sim: Simulator, id: string) => sim.truth.order(id)?.history === false

/** A resting buy far below the market: nothing fills it. */
const FAR_BID = '0.5000'

describe('quirks: purgeCanceledAfterMs', () => {
  it('purges an unfilled cancel after the delay: 404 not found by id and by client id, gone from the history', async () => {
    const sim = await start({ quirks: { purgeCanceledAfterMs: 1000 } })
    const placed = await placeLimit(sim, 'buy', FAR_BID, '10', { clientId: 'gone' })
    sim.advance(2)
    await sim.cancelOrder(placed.id)
    for (let tick = 0; tick < LAG_TICKS; tick++) {
      expect(await order(sim, placed.id), `after ${tick} ticks`).toMatchObject({
        status: 3,
        executed_amount: '0.0000',
      })
      expect((await data<OrderRecord>(sim, '/orders/client-id/gone')).id).toBe(placed.id)
      expect(await historyIds(sim)).toContain(placed.id)
      sim.advance()
    }
    for (const path of [`/orders/${placed.id}`, '/orders/client-id/gone']) {
      const answer = await get<null>(sim, path)
      expect(answer, path).toEqual({ status: 404, body: NOT_FOUND })
    }
    expect(await historyIds(sim)).not.toContain(placed.id)
    // The ground truth still has it.
    expect(sim.truth.order(placed.id)).toMatchObject({ status: 3 })
    // Cleared, the venue shows it again: the quirk changes what is shown, not the state.
    sim.quirks.clear()
    expect(await order(sim, placed.id)).toMatchObject({ status: 3 })
  })

  it('answers a purged order with purgeStatus 500 exactly as an unknown order', async () => {
    const sim = await start({ quirks: { purgeCanceledAfterMs: 500, purgeStatus: 500 } })
    const placed = await placeLimit(sim, 'sell', '2.0000', '5', { clientId: 'gone-500' })
    await sim.cancelOrder(placed.id)
    sim.advance(1)
    expect((await get(sim, `/orders/${placed.id}`)).status).toBe(200)
    sim.advance(1)
    const unknown = await get<null>(sim, '/orders/0-999999-0')
    expect(unknown).toEqual({ status: 500, body: UNKNOWN })
    expect(await get<null>(sim, `/orders/${placed.id}`)).toEqual(unknown)
    expect(await get<null>(sim, '/orders/client-id/gone-500')).toEqual(unknown)
    expect(await historyIds(sim)).not.toContain(placed.id)
  })

  it('purges only cancels that never filled: a partly filled cancel, a filled and a rejected order stay', async () => {
    const sim = await start({ quirks: { purgeCanceledAfterMs: 0 } })
    const alice = sim.apiKeys[1] ?? ''
    const partial = await placeLimit(sim, 'buy', insideBid(sim), '20', { clientId: 'partial' })
    await placeMarket(sim, 'sell', '8', { account: alice })
    await sim.cancelOrder(partial.id)
    const filled = await placeMarket(sim, 'sell', '3')
    const rejected = await placeLimit(sim, 'buy', FAR_BID, '100000000')
    const unfilled = await placeLimit(sim, 'buy', FAR_BID, '1')
    await sim.cancelOrder(unfilled.id)
    // purgeCanceledAfterMs 0: purged at the very instant of the cancel.
    expect((await get(sim, `/orders/${unfilled.id}`)).status).toBe(404)
    sim.advance(20)
    expect(await order(sim, partial.id)).toMatchObject({ status: 1, history: true })
    expect(await order(sim, filled.id)).toMatchObject({ status: 2 })
    expect(await order(sim, rejected.id)).toMatchObject({ status: 4 })
    expect((await data<OrderRecord>(sim, '/orders/client-id/partial')).id).toBe(partial.id)
    const history = await historyIds(sim)
    expect(history).toEqual(expect.arrayContaining([partial.id, filled.id, rejected.id]))
    expect(history).not.toContain(unfilled.id)
    // Every canceled order of the demo account that never filled is gone from the history.
    const all = await data<OrderRecord[]>(sim, '/history-orders?limit=100')
    expect(all.filter((o) => o.status === 3 && o.executed_amount === '0.0000')).toEqual([])
    const truth = sim.truth.orders().filter((o) => o.trader === 'demo.trader' && o.history)
    expect(all).toHaveLength(
      truth.filter((o) => !(o.status === 3 && units(o.executed_amount) === 0n)).length,
    )
  })
})

describe('quirks: tradesLagMs', () => {
  it('shows a trade in /trades and in its order only once the fixed lag has passed', async () => {
    const sim = await start({ quirks: { tradesLagMs: 1000 } })
    const placed = await placeMarket(sim, 'sell', '4')
    const trades = (await order(sim, placed.id)).trades
    // The order itself is final at once; its trade is late.
    expect(await order(sim, placed.id)).toMatchObject({ status: 2, executed_amount: '4.0000' })
    expect(trades).toEqual([])
    const [, orderId] = placed.id.split('-')
    const mine = async () =>
      (await data<TradeDetailRecord[]>(sim, '/trades?limit=100')).filter(
        (t) => t.taker_order_id === Number(orderId),
      )
    for (let tick = 0; tick < LAG_TICKS; tick++) {
      expect(await mine(), `after ${tick} ticks`).toEqual([])
      sim.advance()
    }
    const shown = await mine()
    expect(shown).toHaveLength(1)
    expect((await order(sim, placed.id)).trades).toEqual(shown)
    // The ground truth has it from the start.
    expect(sim.truth.trades().map((t) => t.global_seq)).toContain(shown[0]?.global_seq)
  })

  it('with a range, shows trades out of global_seq order, each after its own stable lag within it', async () => {
    const run = async () => {
      const sim = await start({ quirks: { tradesLagMs: [0, 2000] } })
      // Several orders at one instant: trades of one time, each with a lag of its own.
      for (let i = 0; i < 6; i++) await placeMarket(sim, i % 2 === 0 ? 'sell' : 'buy', '3')
      const happened = new Map<number, number>()
      const firstShown = new Map<number, number>()
      let inverted: [earlier: number, later: number] | undefined
      for (let tick = 0; tick <= 12; tick++) {
        const now = sim.market.now()
        const truth = sim.truth
          .trades()
          .filter((t) => t.taker === 'demo.trader' || t.maker === 'demo.trader')
        for (const t of truth) if (!happened.has(t.global_seq)) happened.set(t.global_seq, now)
        const shown = await tradeSeqs(sim)
        // Still listed ascending, and once shown a trade stays shown.
        expect(shown).toEqual([...shown].sort((a, b) => a - b))
        for (const seq of firstShown.keys()) expect(shown).toContain(seq)
        for (const seq of shown) if (!firstShown.has(seq)) firstShown.set(seq, now)
        const hidden = truth.map((t) => t.global_seq).filter((seq) => !shown.includes(seq))
        const later = shown.find((seq) => hidden.some((h) => h < seq))
        if (inverted === undefined && later !== undefined) {
          inverted = [hidden.find((h) => h < later) ?? -1, later]
        }
        sim.advance()
      }
      const lags = [...happened].map(([seq, at]) => (firstShown.get(seq) ?? Infinity) - at)
      return { inverted, lags, early: [...happened.keys()].slice(0, 10) }
    }
    const first = await run()
    expect(first.inverted, 'a later trade shown before an earlier one').toBeDefined()
    const [earlier = 0, later = 0] = first.inverted ?? []
    expect(earlier).toBeLessThan(later)
    // Every trade that happened in the first ticks showed within 2000 ms (8 ticks).
    const early = first.lags.slice(0, first.early.length)
    for (const lag of early) {
      expect(lag).toBeGreaterThanOrEqual(0)
      expect(lag).toBeLessThanOrEqual(2000)
    }
    expect(new Set(early).size).toBeGreaterThan(1)
    // Same seed, same ticks, same orders: the same lags and the same inversion.
    expect(await run()).toEqual(first)
  })

  it('shows each trade exactly when its own lag is reached: [0, 1] shows some at once, the rest a tick later', async () => {
    const sim = await start({ quirks: { tradesLagMs: [0, 1] } })
    for (let i = 0; i < 6; i++) await placeMarket(sim, i % 2 === 0 ? 'sell' : 'buy', '3')
    const happened = sim.truth.trades().map((t) => t.global_seq)
    expect(happened.length).toBeGreaterThan(3)
    const atOnce = await tradeSeqs(sim)
    expect(atOnce.length).toBeGreaterThan(0)
    expect(atOnce.length).toBeLessThan(happened.length)
    sim.advance()
    expect(await tradeSeqs(sim)).toEqual(expect.arrayContaining(happened))
  })

  it('leaves trades that happened longer ago than the longest lag as they are', async () => {
    const sim = await start()
    sim.advance(40)
    const before = await get(sim, '/trades?limit=100')
    sim.quirks.set({ tradesLagMs: [0, 250] })
    const shown = await tradeSeqs(sim)
    sim.quirks.clear()
    const all = await tradeSeqs(sim)
    // Only trades of the last tick can hide; the rest are the same.
    const hidden = all.filter((seq) => !shown.includes(seq))
    const lastTick = sim.truth
      .trades()
      .filter((t) => t.timestamp === Math.floor(sim.market.now() / 1000))
    for (const seq of hidden) expect(lastTick.map((t) => t.global_seq)).toContain(seq)
    expect(await get(sim, '/trades?limit=100')).toEqual(before)
  })
})

describe('quirks: ordersLagMs', () => {
  it('shows a new order only once the lag has passed: 500 by id and client id, not listed until then', async () => {
    const sim = await start({ quirks: { ordersLagMs: 1000 } })
    const placed = await placeLimit(sim, 'buy', FAR_BID, '10', { clientId: 'late' })
    for (let tick = 0; tick < LAG_TICKS; tick++) {
      const label = `after ${tick} ticks`
      expect(await get(sim, `/orders/${placed.id}`), label).toEqual({ status: 500, body: UNKNOWN })
      expect(await get(sim, '/orders/client-id/late'), label).toEqual({
        status: 500,
        body: UNKNOWN,
      })
      expect(await openIds(sim), label).not.toContain(placed.id)
      sim.advance()
    }
    expect(await order(sim, placed.id)).toMatchObject({ status: 0, order_cid: 'late' })
    expect((await data<OrderRecord>(sim, '/orders/client-id/late')).id).toBe(placed.id)
    expect(await openIds(sim)).toContain(placed.id)
  })

  it('shows fills and the end of an order late, while its trades follow tradesLagMs (none here)', async () => {
    const sim = await start()
    // The best bid: the crowd's sells fill it over the next ticks.
    const placed = await placeLimit(sim, 'buy', insideBid(sim), '1000')
    const plain: OrderWithTrades[] = []
    let behind = 0
    let endedLate = 0
    for (let tick = 0; tick < 16; tick++) {
      if (tick === 8 && isWorking(sim, placed.id)) {
        await sim.cancelOrder(placed.id)
      }
      sim.quirks.clear()
      const live = await order(sim, placed.id)
      plain.push(live)
      sim.quirks.set({ ordersLagMs: 1000 })
      const label = `tick ${tick}`
      const was = plain[tick - LAG_TICKS]
      if (was === undefined) {
        expect(await get(sim, `/orders/${placed.id}`), label).toEqual({
          status: 500,
          body: UNKNOWN,
        })
        expect(await openIds(sim), label).not.toContain(placed.id)
      } else {
        const { trades, ...record } = await order(sim, placed.id)
        const { trades: _, ...then } = was
        expect(record, label).toEqual(then)
        // Its trades are the ones of now: the record can be behind them.
        expect(trades, label).toEqual(live.trades)
        const listed = trades.reduce((sum, t) => sum + units(t.base_quantity), 0n)
        if (units(record.executed_amount) < listed) behind += 1
        if (live.history && !then.history) endedLate += 1
        expect(await openIds(sim), label).toEqual(
          then.history
            ? expect.not.arrayContaining([placed.id])
            : expect.arrayContaining([placed.id]),
        )
        expect((await historyIds(sim)).includes(placed.id), label).toBe(then.history)
      }
      sim.advance()
    }
    expect(behind, 'ticks at which the record was behind its trades').toBeGreaterThan(0)
    expect(endedLate, 'ticks at which it was final but still shown working').toBeGreaterThan(0)
    expect(plain.at(-1)).toMatchObject({ history: true })
  })

  it('answers every order endpoint as the plain venue answered ordersLagMs earlier', async () => {
    const sim = await start()
    const alice = sim.apiKeys[1] ?? ''
    const paths = ['/open-orders?limit=100', '/history-orders?limit=100']
    const plain: unknown[][] = []
    const lagged: unknown[][] = []
    const cids: string[] = []
    for (let tick = 0; tick < 24; tick++) {
      // Something of ours at most instants: rest, get filled in part, cancel.
      if (tick % 3 === 0) {
        const cid = `lag-${tick}`
        cids.push(cid)
        const placed = await placeLimit(sim, 'buy', insideBid(sim), '12', { clientId: cid })
        if (tick % 2 === 0) await placeMarket(sim, 'sell', '5', { account: alice })
        if (tick % 4 === 0 && isWorking(sim, placed.id)) await sim.cancelOrder(placed.id)
      }
      const read = async () =>
        Promise.all([
          ...paths.map((path) => get(sim, path)),
          ...cids.map((cid) => get(sim, `/orders/client-id/${cid}`)),
        ])
      sim.quirks.clear()
      plain.push(await read())
      sim.quirks.set({ ordersLagMs: 1000 })
      lagged.push(await read())
      sim.advance()
    }
    let compared = 0
    for (let tick = LAG_TICKS; tick < plain.length; tick++) {
      const was = plain[tick - LAG_TICKS] ?? []
      const now = lagged[tick] ?? []
      // Client ids placed since then were unknown then.
      const unknown = now.slice(was.length)
      expect(now.slice(0, was.length), `tick ${tick}`).toEqual(was)
      for (const answer of unknown) expect(answer).toEqual({ status: 500, body: UNKNOWN })
      compared += 1
    }
    expect(compared).toBe(20)
    // Something happened in the lag: the lagged answers are not the plain ones.
    expect(lagged.slice(LAG_TICKS)).not.toEqual(plain.slice(LAG_TICKS))
  })
})

describe('quirks: openListLagMs', () => {
  it('lags /open-orders alone: an order is listed late and stays listed after it ended', async () => {
    const sim = await start({ quirks: { openListLagMs: 1000 } })
    const placed = await placeLimit(sim, 'buy', FAR_BID, '10')
    expect(await order(sim, placed.id)).toMatchObject({ status: 0 })
    for (let tick = 0; tick < LAG_TICKS; tick++) {
      expect(await openIds(sim), `after ${tick} ticks`).not.toContain(placed.id)
      sim.advance()
    }
    expect(await openIds(sim)).toContain(placed.id)
    await sim.cancelOrder(placed.id)
    expect(await order(sim, placed.id)).toMatchObject({ status: 3, history: true })
    expect(await historyIds(sim)).toContain(placed.id)
    const listed = async () =>
      (await data<Record<string, unknown>[]>(sim, '/open-orders?limit=100')).find(
        (o) => o['id'] === placed.id,
      )
    for (let tick = 0; tick < LAG_TICKS; tick++) {
      // As it was when it was open: the open-order shape, nothing filled.
      expect(await listed(), `after ${tick} ticks`).toMatchObject({ executed_amount: '0.0000' })
      expect(await listed()).not.toHaveProperty('status')
      sim.advance()
    }
    expect(await listed()).toBeUndefined()
  })

  it('overrides ordersLagMs for /open-orders only', async () => {
    const sim = await start({ quirks: { ordersLagMs: 1000, openListLagMs: 250 } })
    const placed = await placeLimit(sim, 'buy', FAR_BID, '10')
    expect(await openIds(sim)).not.toContain(placed.id)
    sim.advance()
    expect(await openIds(sim)).toContain(placed.id)
    expect((await get(sim, `/orders/${placed.id}`)).status).toBe(500)
  })
})

describe('quirks: orderTradesLimit', () => {
  it('lists only the newest N trades of an order, ascending', async () => {
    const sim = await start()
    const alice = sim.apiKeys[1] ?? ''
    const placed = await placeLimit(sim, 'buy', insideBid(sim), '30')
    for (let i = 0; i < 5; i++) await placeMarket(sim, 'sell', '2', { account: alice })
    const all = (await order(sim, placed.id)).trades
    expect(all).toHaveLength(5)
    sim.quirks.set({ orderTradesLimit: 2 })
    const { trades, ...record } = await order(sim, placed.id)
    expect(trades).toEqual(all.slice(-2))
    expect(trades[0]?.global_seq).toBeLessThan(trades[1]?.global_seq ?? 0)
    // The record still counts every fill, and /trades lists them all.
    expect(record.executed_amount).toBe('10.0000')
    expect(
      (await tradeSeqs(sim)).filter((seq) => all.some((t) => t.global_seq === seq)),
    ).toHaveLength(5)
    sim.quirks.set({ orderTradesLimit: 5 })
    expect((await order(sim, placed.id)).trades).toEqual(all)
  })
})

describe('client ids taken again', () => {
  it('refuses the client id of a working order, takes it once the order is final, and answers the newest', async () => {
    const sim = await start()
    const first = await placeLimit(sim, 'buy', FAR_BID, '10', { clientId: 'again' })
    const refused = await rejectionOf(placeLimit(sim, 'buy', FAR_BID, '10', { clientId: 'again' }))
    expect(refused).toBeInstanceOf(RangeError)
    expect(String(refused)).toMatch(/clientId is already used by a working order/)
    await sim.cancelOrder(first.id)
    const second = await placeMarket(sim, 'sell', '2', { clientId: 'again' })
    expect(second.clientId).toBe('again')
    expect((await data<OrderRecord>(sim, '/orders/client-id/again')).id).toBe(second.id)
    const third = await placeLimit(sim, 'buy', FAR_BID, '10', { clientId: 'again' })
    expect((await data<OrderRecord>(sim, '/orders/client-id/again')).id).toBe(third.id)
    // Every one of them keeps its own id and record.
    expect(await order(sim, first.id)).toMatchObject({ status: 3, order_cid: 'again' })
    expect(await order(sim, second.id)).toMatchObject({ status: 2, order_cid: 'again' })
    // The third is working: the client id is refused again.
    const again = await rejectionOf(placeMarket(sim, 'buy', '1', { clientId: 'again' }))
    expect(String(again)).toMatch(/clientId is already used/)
  })

  it('answers the older order with the client id while the newer does not show yet, and a purge of the newest', async () => {
    const sim = await start()
    const first = await placeMarket(sim, 'sell', '2', { clientId: 'twice' })
    sim.advance(LAG_TICKS + 2)
    const second = await placeLimit(sim, 'buy', FAR_BID, '10', { clientId: 'twice' })
    // Turned on late, the lag covers what happened before.
    sim.quirks.set({ ordersLagMs: 1000 })
    for (let tick = 0; tick < LAG_TICKS; tick++) {
      const shown = await data<OrderRecord>(sim, '/orders/client-id/twice')
      expect(shown.id, `after ${tick} ticks`).toBe(first.id)
      sim.advance()
    }
    expect((await data<OrderRecord>(sim, '/orders/client-id/twice')).id).toBe(second.id)
    // A purged newest order gives way to the older one, which is not purged.
    sim.quirks.set({ purgeCanceledAfterMs: 0 })
    await sim.cancelOrder(second.id)
    expect((await data<OrderRecord>(sim, '/orders/client-id/twice')).id).toBe(first.id)
    expect((await get(sim, `/orders/${second.id}`)).status).toBe(404)
  })
})

describe('quirk specs', () => {
  it('rejects bad specs with a TypeError or RangeError naming the field and the value', async () => {
    const cases: [unknown, ErrorConstructor, RegExp][] = [
      [null, TypeError, /^quirks: a quirk spec must be an object \(got null\)/],
      [[1], TypeError, /a quirk spec must be an object/],
      [
        { purgeAfterMs: 5 },
        TypeError,
        /unknown quirk field "purgeAfterMs" \(known: purgeCanceledAfterMs,/,
      ],
      [
        { purgeCanceledAfterMs: -1 },
        RangeError,
        /purgeCanceledAfterMs must be an integer number of ms >= 0 \(got -1\)/,
      ],
      [
        { purgeCanceledAfterMs: '5' },
        TypeError,
        /purgeCanceledAfterMs must be a number of ms \(got "5"\)/,
      ],
      [{ purgeCanceledAfterMs: 1.5 }, RangeError, /purgeCanceledAfterMs .* \(got 1.5\)/],
      [{ purgeStatus: 410 }, RangeError, /purgeStatus must be 404 or 500 \(got 410\)/],
      [{ purgeStatus: '404' }, TypeError, /purgeStatus must be 404 or 500 \(got "404"\)/],
      [
        { tradesLagMs: Number.NaN },
        RangeError,
        /tradesLagMs must be an integer number of ms >= 0 \(got NaN\)/,
      ],
      [
        { tradesLagMs: [5, 1] },
        RangeError,
        /tradesLagMs as a range must be \[min, max\].* \(got \[5,1\]\)/,
      ],
      [{ tradesLagMs: [0, 1, 2] }, RangeError, /tradesLagMs as a range/],
      [{ tradesLagMs: [-1, 5] }, RangeError, /tradesLagMs as a range .* \(got \[-1,5\]\)/],
      [
        { tradesLagMs: 'slow' },
        TypeError,
        /tradesLagMs must be a number of ms or \[min, max\] \(got "slow"\)/,
      ],
      [{ ordersLagMs: Infinity }, RangeError, /ordersLagMs must be an integer .* \(got Infinity\)/],
      [{ openListLagMs: -250 }, RangeError, /openListLagMs .* \(got -250\)/],
      [{ orderTradesLimit: 0 }, RangeError, /orderTradesLimit must be an integer >= 1 \(got 0\)/],
      [{ orderTradesLimit: true }, TypeError, /orderTradesLimit must be a number \(got true\)/],
    ]
    const sim = await start({ quirks: { ordersLagMs: 250 } })
    for (const [spec, type, message] of cases) {
      const label = JSON.stringify(spec)
      const thrown = (() => {
        try {
          sim.quirks.set(spec as VenueQuirks)
        } catch (error) {
          return error
        }
        return undefined
      })()
      expect(thrown, label).toBeInstanceOf(type)
      expect(String((thrown as Error).message), label).toMatch(message)
      expect(() => checkQuirks(spec, 'here'), label).toThrow(type)
      expect(() => new Quirks(spec as VenueQuirks), label).toThrow(message)
    }
    // The spec in force stays.
    expect(sim.quirks.get()).toEqual({ ordersLagMs: 250 })
    const error = await rejectionOf(
      startSimulator({ clock: 'manual', quirks: { ordersLagMs: -1 } }),
    )
    expect(error).toBeInstanceOf(RangeError)
    expect(String(error)).toMatch(/quirks: ordersLagMs/)
  })

  it('keeps a frozen copy, drops fields left undefined, and replaces the whole spec on set', () => {
    const range: [number, number] = [10, 20]
    // A field set to undefined (from JavaScript, or a spread) counts as left out.
    const spec = { tradesLagMs: range, ordersLagMs: undefined }
    const quirks = new Quirks(spec as unknown as VenueQuirks)
    range[1] = 99
    expect(quirks.get()).toEqual({ tradesLagMs: [10, 20] })
    expect(Object.isFrozen(quirks.get())).toBe(true)
    expect(Object.isFrozen(quirks.get().tradesLagMs)).toBe(true)
    quirks.set({ purgeCanceledAfterMs: 5 })
    expect(quirks.get()).toEqual({ purgeCanceledAfterMs: 5 })
    quirks.clear()
    expect(quirks.get()).toEqual({})
    expect(checkQuirks({ purgeStatus: 500 }, 'x')).toEqual({ purgeStatus: 500 })
  })
})

describe('no quirks', () => {
  it('answers byte for byte as a simulator that never had quirks, once they are cleared', async () => {
    const act = async (sim: Simulator, quirky: boolean) => {
      const alice = sim.apiKeys[1] ?? ''
      for (let tick = 0; tick < 30; tick++) {
        if (quirky) {
          sim.quirks.set({
            purgeCanceledAfterMs: 250,
            tradesLagMs: [0, 750],
            ordersLagMs: 500,
            openListLagMs: 250,
            orderTradesLimit: 1,
          })
          // Read with quirks: reading changes nothing.
          await get(sim, '/open-orders')
          await get(sim, '/trades')
        }
        if (tick % 5 === 0) {
          const placed = await placeLimit(sim, 'buy', insideBid(sim), '6', { clientId: 'same' })
          await placeMarket(sim, 'sell', '2', { account: alice })
          // Filled in full already (it may cross): nothing to cancel then.
          await sim.cancelOrder(placed.id).catch(() => false)
        }
        sim.advance()
      }
      sim.quirks.clear()
      const paths = [
        '/open-orders?limit=100',
        '/history-orders?limit=100',
        '/trades?limit=100',
        '/balances',
        '/orders/client-id/same',
      ]
      const answers = []
      for (const key of sim.apiKeys) {
        for (const path of paths) {
          const response = await fetch(`${sim.url}/api/v1${path}`, {
            headers: { authorization: key },
          })
          answers.push(`${response.status} ${await response.text()}`)
        }
      }
      const history = await data<OrderRecord[]>(sim, '/history-orders?limit=100')
      for (const { id } of history.slice(0, 10)) {
        const response = await fetch(`${sim.url}/api/v1/orders/${id}`, {
          headers: { authorization: sim.apiKey },
        })
        answers.push(await response.text())
      }
      return answers
    }
    const plain = await act(await start(), false)
    const cleared = await act(await start(), true)
    expect(cleared).toEqual(plain)
    expect(plain.join('\n')).toContain('"global_seq"')
  })
})
