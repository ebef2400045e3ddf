/**
 * Trading on the simulator: `sim.placeOrder` / `sim.cancelOrder` (and the market's own
 * `placeOrder` / `cancelOrder`), checked over HTTP as a bot would see them, on a manual
 * clock. Pool 0 is CHN/USDT: prices 4 decimals, CHN 4, USDT 6, lot 0.01 CHN.
 */
import { afterEach, describe, expect, it } from 'vitest'
import {
  type BalanceRecord,
  createMarket,
  type OrderRecord,
  type PlaceOrderRequest,
  type Simulator,
  startSimulator,
  type TradeDetailRecord,
} from '../src/simulator/index.js'
import { onCleanup, runCleanups } from './helpers/cleanups.js'
import { ceilDiv, format, units } from './helpers/exact-decimal.js'
import { createFakeMarket } from './helpers/fake-market.js'
import { rejectionOf } from './helpers/rejection.js'
import { data, get } from './helpers/simulator-http.js'

afterEach(runCleanups)

const CHN = 'chain.token-CHN'
const USDT = 'usdt.ext-USDT'
/** Pool 0's decimals. */
const PP = 4
const BP = 4
const QP = 6
/** Taker and maker fee rates, parts per million. */
const TAKER_PPM = 3000n
const MAKER_PPM = 1000n

type OrderWithTrades = OrderRecord & { trades: TradeDetailRecord[] }

async function start(seed = 1): Promise<Simulator> {
  const sim = await startSimulator({ seed, clock: 'manual' })
  onCleanup(() => sim.close())
  return sim
}

const order = (sim: Simulator, id: string, key = sim.apiKey) =>
  data<OrderWithTrades>(sim, `/orders/${id}`, key)

const openIds = async (sim: Simulator, key = sim.apiKey) =>
  (await data<{ id: string }[]>(sim, '/open-orders?limit=100', key)).map((o) => o.id)

const history = (sim: Simulator, key = sim.apiKey) =>
  data<OrderRecord[]>(sim, '/history-orders?limit=100', key)

/** Free and locked units of a coin, from /balances. */
async function holding(sim: Simulator, coin: string, key = sim.apiKey) {
  const balances = await data<BalanceRecord[]>(sim, '/balances', key)
  const found = balances.find((b) => b.coin === coin)
  if (found === undefined) throw new Error(`no balance of ${coin}`)
  return { total: units(found.balance), locked: units(found.locked), record: found }
}

/** The engine's best levels of pool 0 as units: [price, quantity]. */
function best(sim: Simulator, side: 'bids' | 'asks', level = 0): [bigint, bigint] {
  const found = sim.truth.engineBook(0)[side][level]
  if (found === undefined) throw new Error(`no ${side} level ${level}`)
  return [units(found[0], PP), units(found[1], BP)]
}

const price = (value: bigint) => format(value, PP)
const chn = (value: bigint) => format(value, BP)
/** USDT units of `quantity` CHN units at `at` price units (exact for whole lots). */
const cost = (at: bigint, quantity: bigint) => (at * quantity) / 10n ** BigInt(PP + BP - QP)
const fee = (received: bigint, ppm: bigint) => ceilDiv(received * ppm, 1_000_000n)

type Side = PlaceOrderRequest['side']
/** What an order may carry besides its side, price and amount. */
type More = Partial<Pick<PlaceOrderRequest, 'account' | 'poolId' | 'clientId' | 'hiddenForTicks'>>

/** A limit order, on pool 0 and by the demo account unless `more` says otherwise. */
const placeLimit = (sim: Simulator, side: Side, at: string, amount: string, more: More = {}) =>
  sim.placeOrder({ poolId: 0, side, type: 'limit', price: at, amount, ...more })

/** A market order for `amount` base, on pool 0 and by the demo account unless `more` says otherwise. */
const placeMarket = (sim: Simulator, side: Side, amount: string, more: More = {}) =>
  sim.placeOrder({ poolId: 0, side, type: 'market', amount, ...more })

describe('sim.placeOrder: limit orders', () => {
  it('rests a limit buy inside the spread, then fills it in three pieces as another account sells into it', async () => {
    const sim = await start()
    const alice = sim.apiKeys[1] ?? ''
    const at = best(sim, 'bids')[0] + 1n
    expect(at).toBeLessThan(best(sim, 'asks')[0])
    const usdtBefore = await holding(sim, USDT)
    const chnBefore = await holding(sim, CHN)

    const placed = await placeLimit(sim, 'buy', price(at), '30', { clientId: 'rest-1' })
    expect(placed.clientId).toBe('rest-1')
    expect(placed.id).toMatch(/^0-\d+-0$/)
    const [, orderId] = placed.id.split('-')

    const resting = await order(sim, placed.id)
    expect(resting).toMatchObject({
      id: placed.id,
      order_id: Number(orderId),
      order_cid: 'rest-1',
      pool_id: 0,
      side: 0,
      type: 1,
      order_price: price(at),
      order_amount: '30.0000',
      executed_amount: '0.0000',
      status: 0,
      history: false,
      trader: 'demo.trader',
      order_time: Math.floor(sim.market.now() / 1000),
      trades: [],
    })
    expect(await openIds(sim)).toContain(placed.id)
    expect(sim.truth.engineBook(0).bids[0]).toEqual([price(at), '30.0000'])
    const reserved = cost(at, units('30', BP))
    expect((await holding(sim, USDT)).locked).toBe(usdtBefore.locked + reserved)
    expect((await holding(sim, USDT)).total).toBe(usdtBefore.total)

    const pieces = [units('5', BP), units('12.5', BP), units('12.5', BP)]
    let executed = 0n
    for (const [index, piece] of pieces.entries()) {
      const sell = await placeLimit(sim, 'sell', price(at), chn(piece), { account: alice })
      executed += piece
      const now = await order(sim, placed.id)
      const last = index === pieces.length - 1
      expect(now.executed_amount).toBe(chn(executed))
      expect(now.status).toBe(last ? 2 : 1)
      expect(now.history).toBe(last)
      expect(now.avg_price).toBe(price(at))
      expect(now.trades).toHaveLength(index + 1)
      const trade = now.trades.at(-1)
      expect(trade).toMatchObject({
        maker: 'demo.trader',
        maker_order_id: Number(orderId),
        maker_order_cid: 'rest-1',
        taker: 'alice.trader',
        taker_is_bid: false,
        price: price(at),
        base_quantity: chn(piece),
        quote_quantity: format(cost(at, piece), QP),
        maker_fee: chn(fee(piece, MAKER_PPM)),
      })
      const aliceOrder = await order(sim, sell.id, alice)
      expect(aliceOrder).toMatchObject({ status: 2, history: true, executed_amount: chn(piece) })
      expect(await openIds(sim)).toEqual(last ? [] : [placed.id])
    }

    const done = await order(sim, placed.id)
    expect((await history(sim)).find((o) => o.id === placed.id)).toMatchObject({
      status: 2,
      history: true,
      executed_amount: '30.0000',
      filled_total: format(reserved, QP),
    })
    const byCid = await data<OrderRecord>(sim, '/orders/client-id/rest-1')
    const { trades, ...record } = done
    expect(byCid).toEqual(record)
    const own = await data<TradeDetailRecord[]>(sim, '/trades?sort=asc&limit=100')
    expect(own.map((t) => t.global_seq)).toEqual(trades.map((t) => t.global_seq))
    // Paid price x amount in USDT, received the CHN less the maker fees; nothing locked.
    const fees = pieces.reduce((sum, piece) => sum + fee(piece, MAKER_PPM), 0n)
    expect(await holding(sim, USDT)).toMatchObject({
      total: usdtBefore.total - reserved,
      locked: 0n,
    })
    expect((await holding(sim, CHN)).total).toBe(chnBefore.total + units('30', BP) - fees)
  })

  it('rests a limit buy that the crowd then fills in several pieces as the market moves', async () => {
    const sim = await start()
    const alice = sim.apiKeys[1] ?? ''
    const at = best(sim, 'bids')[0] + 1n
    const placed = await placeLimit(sim, 'buy', price(at), '3000', { account: alice })
    expect(placed.clientId).toBe('sim-1')
    let executed = 0n
    let final: OrderWithTrades | undefined
    for (let tick = 0; tick < 200 && final === undefined; tick++) {
      sim.advance()
      const now = await order(sim, placed.id, alice)
      const filled = units(now.executed_amount)
      expect(filled).toBeGreaterThanOrEqual(executed)
      executed = filled
      if (now.status === 2) final = now
      else expect(now.status).toBe(executed > 0n ? 1 : 0)
    }
    expect(final?.history).toBe(true)
    expect(final?.executed_amount).toBe('3000.0000')
    const pieces = final?.trades ?? []
    expect(pieces.length).toBeGreaterThan(2)
    for (const trade of pieces) {
      expect(trade.maker).toBe('alice.trader')
      expect(trade.price).toBe(price(at))
    }
    const total = pieces.reduce((sum, t) => sum + units(t.base_quantity), 0n)
    expect(chn(total)).toBe('3000.0000')
  })

  it('fills a crossing limit buy at once, at the resting prices best first, and unlocks what it saved', async () => {
    const sim = await start()
    const [ask1, size1] = best(sim, 'asks', 0)
    const [ask2, size2] = best(sim, 'asks', 1)
    const extra = units('1', BP)
    expect(extra).toBeLessThan(size2)
    const usdtBefore = await holding(sim, USDT)
    const chnBefore = await holding(sim, CHN)
    const placed = await placeLimit(sim, 'buy', price(ask2), chn(size1 + extra))
    const done = await order(sim, placed.id)
    expect(done).toMatchObject({
      status: 2,
      history: true,
      order_price: price(ask2),
      executed_amount: chn(size1 + extra),
    })
    expect(done.trades.map((t) => [t.price, t.base_quantity, t.taker, t.taker_is_bid])).toEqual([
      [price(ask1), chn(size1), 'demo.trader', true],
      [price(ask2), chn(extra), 'demo.trader', true],
    ])
    expect(await openIds(sim)).toEqual([])
    expect(sim.truth.engineBook(0).asks[0]).toEqual([price(ask2), chn(size2 - extra)])
    const paid = cost(ask1, size1) + cost(ask2, extra)
    expect(done.filled_total).toBe(format(paid, QP))
    expect(await holding(sim, USDT)).toMatchObject({ total: usdtBefore.total - paid, locked: 0n })
    const fees = fee(size1, TAKER_PPM) + fee(extra, TAKER_PPM)
    expect((await holding(sim, CHN)).total).toBe(chnBefore.total + size1 + extra - fees)
  })

  it('rests the rest of a limit sell that crosses part of the book (status 1, still working)', async () => {
    const sim = await start()
    const [bid, size] = best(sim, 'bids')
    const placed = await placeLimit(sim, 'sell', price(bid), chn(size + units('2', BP)))
    const now = await order(sim, placed.id)
    expect(now).toMatchObject({ status: 1, history: false, executed_amount: chn(size) })
    expect(await openIds(sim)).toEqual([placed.id])
    expect(sim.truth.engineBook(0).asks[0]).toEqual([price(bid), '2.0000'])
    expect((await holding(sim, CHN)).locked).toBe(units('2', BP))
  })
})

describe('sim.placeOrder: market orders', () => {
  it('sells `amount` base at the best bids, and lists the order in the history only', async () => {
    const sim = await start()
    const [bid] = best(sim, 'bids')
    const placed = await placeMarket(sim, 'sell', '100')
    const done = await order(sim, placed.id)
    expect(done).toMatchObject({
      type: 0,
      side: 1,
      order_price: '0',
      order_amount: '100.0000',
      executed_amount: '100.0000',
      avg_price: price(bid),
      status: 2,
      history: true,
    })
    expect(done.trades).toHaveLength(1)
    expect(done.trades[0]).toMatchObject({ taker: 'demo.trader', taker_is_bid: false })
    expect(await openIds(sim)).toEqual([])
    expect((await history(sim)).map((o) => o.id)).toEqual([placed.id])
  })

  it('buys `amount` base (not quote) across the asks', async () => {
    const sim = await start()
    const [ask1, size1] = best(sim, 'asks', 0)
    const [ask2] = best(sim, 'asks', 1)
    const amount = size1 + units('3', BP)
    const placed = await placeMarket(sim, 'buy', chn(amount))
    const done = await order(sim, placed.id)
    expect(done).toMatchObject({ status: 2, executed_amount: chn(amount), order_price: '0' })
    expect(done.filled_total).toBe(format(cost(ask1, size1) + cost(ask2, units('3', BP)), QP))
  })

  it('stops a market buy where the quote balance ends: status 1 in the history set', async () => {
    const sim = await start()
    const alice = sim.apiKeys[1] ?? ''
    const usdt = await holding(sim, USDT, alice)
    const placed = await placeMarket(sim, 'buy', '100000', { account: alice })
    const done = await order(sim, placed.id, alice)
    expect(done).toMatchObject({ status: 1, history: true })
    expect(units(done.executed_amount)).toBeGreaterThan(0n)
    expect(units(done.executed_amount)).toBeLessThan(units('100000', BP))
    const after = await holding(sim, USDT, alice)
    expect(after.total).toBe(usdt.total - units(done.filled_total))
    expect(after.total).toBeGreaterThanOrEqual(0n)
  })
})

describe('sim.placeOrder: what the balance cannot cover', () => {
  it('ends a limit buy larger than the quote balance rejected (status 4), locking nothing', async () => {
    const sim = await start()
    const before = await holding(sim, USDT)
    const [bid] = best(sim, 'bids')
    const placed = await placeLimit(sim, 'buy', price(bid), '1000000', { clientId: 'too-big' })
    const done = await order(sim, placed.id)
    expect(done).toMatchObject({
      status: 4,
      history: true,
      executed_amount: '0.0000',
      trades: [],
    })
    expect((await history(sim)).map((o) => [o.id, o.status])).toEqual([[placed.id, 4]])
    expect(await openIds(sim)).toEqual([])
    expect((await holding(sim, USDT)).record).toEqual(before.record)
    expect(await data<OrderRecord>(sim, '/orders/client-id/too-big')).toMatchObject({ status: 4 })
  })

  it('ends a limit sell of more base than held rejected, even when it would cross', async () => {
    const sim = await start()
    const chnHeld = (await holding(sim, CHN)).total
    const [bid] = best(sim, 'bids')
    const placed = await placeLimit(sim, 'sell', price(bid), chn(chnHeld + units('0.01', BP)))
    expect(await order(sim, placed.id)).toMatchObject({ status: 4, executed_amount: '0.0000' })
    expect((await holding(sim, CHN)).total).toBe(chnHeld)
  })
})

describe('sim.cancelOrder', () => {
  it('cancels a partly filled order: status 1 with history true, as the live service shows it', async () => {
    const sim = await start()
    const alice = sim.apiKeys[1] ?? ''
    const at = best(sim, 'bids')[0] + 1n
    const placed = await placeLimit(sim, 'buy', price(at), '20', { clientId: 'partial' })
    await placeMarket(sim, 'sell', '8', { account: alice })
    expect(await order(sim, placed.id)).toMatchObject({ status: 1, history: false })
    expect((await holding(sim, USDT)).locked).toBe(cost(at, units('12', BP)))

    await expect(sim.cancelOrder(placed.id)).resolves.toBe(true)
    const done = await order(sim, placed.id)
    expect(done).toMatchObject({ status: 1, history: true, executed_amount: '8.0000' })
    expect(done.trades).toHaveLength(1)
    expect(await openIds(sim)).toEqual([])
    expect((await history(sim)).find((o) => o.id === placed.id)).toMatchObject({
      status: 1,
      history: true,
    })
    expect(await data<OrderRecord>(sim, '/orders/client-id/partial')).toMatchObject({
      status: 1,
      history: true,
    })
    expect((await holding(sim, USDT)).locked).toBe(0n)
    expect(sim.truth.engineBook(0).bids[0]?.[0]).not.toBe(price(at))

    const again = await rejectionOf(sim.cancelOrder(placed.id))
    expect(again).toBeInstanceOf(RangeError)
    expect(String(again)).toMatch(/already final \(status 1\)/)
  })

  it('cancels an unfilled order with status 3 and unlocks its reservation', async () => {
    const sim = await start()
    const placed = await placeLimit(sim, 'sell', '2.0000', '15')
    expect((await holding(sim, CHN)).locked).toBe(units('15', BP))
    expect(await sim.cancelOrder(placed.id)).toBe(true)
    expect(await order(sim, placed.id)).toMatchObject({ status: 3, history: true })
    expect((await holding(sim, CHN)).locked).toBe(0n)
  })

  it("cancels a working order of any account, the crowd's too", async () => {
    const sim = await start()
    sim.advance(5)
    const keyed = new Set(['demo.trader', 'alice.trader'])
    const crowd = sim.truth.orders().find((o) => !o.history && !keyed.has(o.trader))
    if (crowd === undefined) throw new Error('no working crowd order')
    const level = (book: { bids: string[][]; asks: string[][] }) =>
      (crowd.side === 0 ? book.bids : book.asks).find(([p]) => p === crowd.order_price)?.[1]
    const before = units(level(sim.truth.engineBook(0)) ?? '0')
    expect(await sim.cancelOrder(crowd.id)).toBe(true)
    expect(sim.truth.order(crowd.id)).toMatchObject({
      status: crowd.status === 1 ? 1 : 3,
      history: true,
    })
    const after = units(level(sim.truth.engineBook(0)) ?? '0')
    expect(before - after).toBe(units(crowd.order_amount) - units(crowd.executed_amount))
  })

  it('finds one order of the truth by its id: the record orders() lists, or none', async () => {
    const sim = await start()
    sim.advance(5)
    const placed = await placeLimit(sim, 'buy', '0.5000', '3')
    const all = sim.truth.orders()
    expect(all.length).toBeGreaterThan(10)
    for (const record of all) expect(sim.truth.order(record.id)).toEqual(record)
    expect(sim.truth.order(placed.id)).toMatchObject({ id: placed.id, history: false })
    for (const id of ['0-999999-0', '7-1-0', 'abc', '']) expect(sim.truth.order(id)).toBeUndefined()
  })

  it('rejects ids that are malformed, unknown or final, changing nothing', async () => {
    const sim = await start()
    const market = await placeMarket(sim, 'buy', '1')
    const orders = JSON.stringify(sim.truth.orders())
    const cases: [unknown, ErrorConstructor, RegExp][] = [
      [42, TypeError, /cancelOrder: id must be a string/],
      [undefined, TypeError, /cancelOrder: id must be a string/],
      ['0-1', RangeError, /cancelOrder: id "0-1" is not an order id/],
      ['abc', RangeError, /cancelOrder: id \(not shown\) is not an order id/],
      ['0-999999-0', RangeError, /cancelOrder: id "0-999999-0": no such order/],
      ['7-1-0', RangeError, /no such order/],
      [market.id, RangeError, /already final \(status 2\)/],
    ]
    for (const [id, type, message] of cases) {
      const error = await rejectionOf(sim.cancelOrder(id as string))
      expect(error, String(id)).toBeInstanceOf(type)
      expect(String(error), String(id)).toMatch(message)
    }
    expect(JSON.stringify(sim.truth.orders())).toBe(orders)
  })
})

describe('sim.placeOrder: hiddenForTicks', () => {
  it('hides a resting order from the order endpoints for N ticks, then shows it', async () => {
    const sim = await start()
    const unknown = await get<null>(sim, '/orders/0-999999-0')
    expect(unknown.status).toBe(500)
    const placed = await placeLimit(sim, 'buy', '0.5000', '10', {
      clientId: 'late',
      hiddenForTicks: 3,
    })
    for (let tick = 0; tick < 3; tick++) {
      for (const path of [`/orders/${placed.id}`, '/orders/client-id/late']) {
        const answer = await get<null>(sim, path)
        expect(answer.status, `${path} after ${tick} ticks`).toBe(500)
        expect(answer.body).toEqual(unknown.body)
        expect(answer.body).toMatchObject({ code: 500, message: 'service internal error' })
      }
      expect(await openIds(sim)).not.toContain(placed.id)
      // The engine has it: the book and the balance show it at once.
      expect(sim.truth.engineBook(0).bids).toContainEqual(['0.5000', '10.0000'])
      expect((await holding(sim, USDT)).record.locks).toContainEqual(
        expect.objectContaining({ pool_id: 0 }),
      )
      sim.advance()
    }
    expect(await order(sim, placed.id)).toMatchObject({ status: 0, order_cid: 'late' })
    expect(await data<OrderRecord>(sim, '/orders/client-id/late')).toMatchObject({
      id: placed.id,
    })
    expect(await openIds(sim)).toContain(placed.id)
  })

  it('hides an order that filled at once from the history, while its trades are already served', async () => {
    const sim = await start()
    const placed = await placeMarket(sim, 'sell', '4', { hiddenForTicks: 1 })
    const [, orderId] = placed.id.split('-')
    expect((await get<null>(sim, `/orders/${placed.id}`)).status).toBe(500)
    expect((await history(sim)).map((o) => o.id)).not.toContain(placed.id)
    const trades = await data<TradeDetailRecord[]>(sim, '/trades')
    expect(trades.map((t) => t.taker_order_id)).toContain(Number(orderId))
    sim.advance()
    expect((await history(sim)).map((o) => o.id)).toContain(placed.id)
    expect(await order(sim, placed.id)).toMatchObject({ status: 2, history: true })
  })

  it('shows an order at once with hiddenForTicks 0 (the default)', async () => {
    const sim = await start()
    const placed = await placeLimit(sim, 'buy', '20000.00', '0.01', {
      poolId: 1,
      hiddenForTicks: 0,
    })
    expect(placed.id).toMatch(/^1-\d+-0$/)
    expect(await order(sim, placed.id)).toMatchObject({ pool_id: 1, status: 0 })
  })
})

describe('sim.placeOrder: input errors', () => {
  const base: PlaceOrderRequest = {
    poolId: 0,
    side: 'buy',
    type: 'limit',
    price: '1.0000',
    amount: '1',
  }
  const market: PlaceOrderRequest = { poolId: 0, side: 'buy', type: 'market', amount: '1' }

  it('rejects every bad field with a TypeError or RangeError naming it, and changes nothing', async () => {
    const sim = await start()
    await sim.placeOrder({ ...base, clientId: 'taken' })
    const [key, other] = sim.apiKeys as [string, string]
    const cases: [unknown, ErrorConstructor, RegExp][] = [
      [null, TypeError, /placeOrder: the request must be an object/],
      ['order', TypeError, /the request must be an object/],
      [{ ...base, pool_id: 0 }, RangeError, /unknown field "pool_id"/],
      [{ ...base, account: 42 }, TypeError, /placeOrder: account must be the API key/],
      [{ ...base, account: 'k-unknown' }, RangeError, /placeOrder: account is not the API key/],
      [{ ...base, account: `${key}x` }, RangeError, /account is not the API key/],
      [{ ...base, account: '' }, RangeError, /account/],
      [
        { ...base, poolId: 3 },
        RangeError,
        /placeOrder: poolId 3 is not a pool \(pools are 0 to 2\)/,
      ],
      [{ ...base, poolId: -1 }, RangeError, /poolId -1 is not a pool/],
      [{ ...base, poolId: 0.5 }, RangeError, /poolId 0.5 is not a pool/],
      [{ ...base, poolId: '0' }, TypeError, /poolId must be a number/],
      [{ ...base, poolId: undefined }, TypeError, /poolId must be a number/],
      [{ ...base, side: 'long' }, RangeError, /side must be 'buy' or 'sell' \(got "long"\)/],
      [{ ...base, side: 0 }, TypeError, /side must be 'buy' or 'sell'/],
      [{ ...base, side: 'BUY' }, RangeError, /side/],
      [{ ...base, type: 'stop' }, RangeError, /type must be 'market' or 'limit'/],
      [{ ...base, type: undefined }, TypeError, /type must be/],
      [{ ...market, price: '1.0000' }, RangeError, /price must be left out for a market order/],
      [{ ...base, price: undefined }, RangeError, /price is required for a limit order/],
      [{ ...base, price: '0' }, RangeError, /price "0" must be positive/],
      [{ ...base, price: '0.0000' }, RangeError, /price "0.0000" must be positive/],
      [{ ...base, price: '-1' }, RangeError, /price "-1" is not a positive decimal string/],
      [{ ...base, price: '1.00001' }, RangeError, /price "1.00001" has more than 4 decimals/],
      [{ ...base, price: '1e3' }, RangeError, /price "1e3" is not a positive decimal/],
      [{ ...base, price: '.5' }, RangeError, /price ".5" is not a positive decimal/],
      [{ ...base, price: 1.04 }, TypeError, /price must be a decimal string/],
      [{ ...base, amount: '0' }, RangeError, /amount "0" must be positive/],
      [{ ...base, amount: '-3' }, RangeError, /amount "-3" is not a positive decimal/],
      [{ ...base, amount: '1.00001' }, RangeError, /amount "1.00001" has more than 4 decimals/],
      [
        { ...base, amount: '0.001' },
        RangeError,
        /amount "0.001" must be a multiple of 0.0100, the pool's min_amount/,
      ],
      [{ ...market, poolId: 1, amount: '0.00001' }, RangeError, /multiple of 0.000100/],
      [{ ...base, amount: 5 }, TypeError, /amount must be a decimal string/],
      [{ ...base, amount: '' }, RangeError, /amount/],
      [{ ...base, amount: '1'.repeat(65) }, RangeError, /amount \(not shown\) is not a positive/],
      [{ ...base, clientId: 'taken' }, RangeError, /clientId is already used/],
      [{ ...base, clientId: '' }, RangeError, /clientId must be 1 to 64 visible ASCII/],
      [{ ...base, clientId: 'a b' }, RangeError, /clientId must be/],
      [{ ...base, clientId: 'x'.repeat(65) }, RangeError, /clientId must be/],
      [{ ...base, clientId: '..' }, RangeError, /clientId must be .* not "\." or "\.\."/],
      [{ ...base, clientId: 7 }, TypeError, /clientId must be a string/],
      [{ ...base, hiddenForTicks: -1 }, RangeError, /hiddenForTicks must be an integer >= 0/],
      [{ ...base, hiddenForTicks: 1.5 }, RangeError, /hiddenForTicks must be an integer/],
      [{ ...base, hiddenForTicks: '2' }, TypeError, /hiddenForTicks must be a number/],
      // An API key anywhere in the request is never quoted back.
      [{ ...base, [key]: 1 }, RangeError, /^RangeError: placeOrder: unknown field \(fields/],
      [{ ...base, side: key }, RangeError, /side must be 'buy' or 'sell' \(got \(not shown\)\)/],
      [{ ...base, type: other }, RangeError, /type/],
      [{ ...base, price: key }, RangeError, /price \(not shown\) is not/],
      [{ ...base, amount: other }, RangeError, /amount \(not shown\) is not/],
      [{ ...base, poolId: key }, TypeError, /poolId must be a number \(got a string\)/],
      [{ ...base, clientId: ` ${key}` }, RangeError, /clientId/],
    ]
    const orders = JSON.stringify(sim.truth.orders())
    const balances = JSON.stringify(await data<BalanceRecord[]>(sim, '/balances'))
    for (const [request, type, message] of cases) {
      const label = JSON.stringify(request)
      const error = await rejectionOf(sim.placeOrder(request as PlaceOrderRequest))
      expect(error, label).toBeInstanceOf(type)
      const text = `${String(error)} ${(error as Error).stack ?? ''}`
      expect(text, label).toMatch(message)
      for (const apiKey of sim.apiKeys) expect(text, label).not.toContain(apiKey)
      // Also not a good part of one.
      for (const apiKey of sim.apiKeys) expect(text, label).not.toContain(apiKey.slice(2, 14))
    }
    // Nothing changed: no order, no lock.
    expect(JSON.stringify(sim.truth.orders())).toBe(orders)
    expect(JSON.stringify(await data<BalanceRecord[]>(sim, '/balances'))).toBe(balances)
    // A duplicate client id that is an API key is refused without quoting it.
    await sim.placeOrder({ ...base, clientId: other })
    const duplicate = await rejectionOf(sim.placeOrder({ ...base, clientId: other }))
    expect(String(duplicate)).toMatch(/clientId is already used/)
    expect(String(duplicate)).not.toContain(other)
  })

  it('keeps client ids unique per account: another account may use the same one', async () => {
    const sim = await start()
    const alice = sim.apiKeys[1] ?? ''
    const a = await sim.placeOrder({ ...base, clientId: 'same' })
    const b = await sim.placeOrder({ ...base, account: alice, clientId: 'same' })
    expect(a.id).not.toBe(b.id)
    expect((await data<OrderRecord>(sim, '/orders/client-id/same')).id).toBe(a.id)
    expect((await data<OrderRecord>(sim, '/orders/client-id/same', alice)).id).toBe(b.id)
    // Someone else's order answers like an unknown one.
    expect((await get<null>(sim, `/orders/${b.id}`)).status).toBe(500)
  })

  it('generates unique client ids sim-1, sim-2 ... skipping any the account already used', async () => {
    const sim = await start()
    await sim.placeOrder({ ...base, clientId: 'sim-2' })
    const ids = []
    for (let i = 0; i < 3; i++) ids.push((await sim.placeOrder(base)).clientId)
    expect(ids).toEqual(['sim-1', 'sim-3', 'sim-4'])
  })

  it('rejects with a TypeError on a market of your own that takes no orders', async () => {
    const sim = await startSimulator({ clock: 'manual', createMarket: () => createFakeMarket() })
    onCleanup(() => sim.close())
    expect(await rejectionOf(sim.placeOrder(base))).toBeInstanceOf(TypeError)
    expect(String(await rejectionOf(sim.cancelOrder('0-1-0')))).toMatch(/takes no orders/)
  })
})

describe('orders of your own among the simulated traders', () => {
  it('are never canceled by the demo strategy, and its client ids skip yours', async () => {
    const sim = await start()
    const placed = await placeLimit(sim, 'buy', '0.5000', '10', { clientId: 'cid-20' })
    sim.advance(400)
    expect(await order(sim, placed.id)).toMatchObject({ status: 0, history: false })
    expect((await data<OrderRecord>(sim, '/orders/client-id/cid-20')).id).toBe(placed.id)
    const account = sim.market.account(sim.apiKey)
    const all = [...(account?.openOrders() ?? []), ...(account?.historyOrders() ?? [])]
    expect(all.filter((o) => o.order_cid === 'cid-20')).toHaveLength(1)
    expect(all.some((o) => o.order_cid === 'cid-21')).toBe(true)
    expect(new Set(all.map((o) => o.order_cid)).size).toBe(all.length)
  })

  it('conserve every coin exactly at every tick: totals minus net transfers equal the genesis supply', async () => {
    const sim = await start(11)
    const genesis = sim.truth.genesisSupply?.() ?? {}
    const conserved = (label: string) => {
      const totals = sim.truth.coinTotals()
      const net = sim.truth.netTransfers()
      for (const [coin, supply] of Object.entries(genesis)) {
        const decimals = supply.split('.')[1]?.length ?? 0
        const left = units(totals[coin] ?? 'x', decimals) - units(net[coin] ?? 'x', decimals)
        expect(format(left, decimals), `${coin} ${label}`).toBe(supply)
      }
    }
    const [demo, alice] = sim.apiKeys as [string, string]
    const working: string[] = []
    for (let tick = 0; tick < 150; tick++) {
      const account = tick % 2 === 0 ? demo : alice
      const poolId = tick % 3
      const book = sim.truth.engineBook(poolId)
      const pp = [4, 2, 1][poolId] ?? 0
      const bp = [4, 6, 5][poolId] ?? 0
      const lot = [units('0.01', 4), units('0.0001', 6), units('0.001', 5)][poolId] ?? 1n
      const bid = units(book.bids[0]?.[0] ?? '1', pp)
      const ask = units(book.asks[0]?.[0] ?? '1', pp)
      const amount = format(lot * BigInt(1 + ((tick * 37) % 400)), bp)
      const requests: PlaceOrderRequest[] = [
        { account, poolId, side: 'buy', type: 'limit', price: format(bid + 1n, pp), amount },
        { account, poolId, side: 'sell', type: 'limit', price: format(bid, pp), amount },
        { account, poolId, side: 'buy', type: 'market', amount },
        { account, poolId, side: 'sell', type: 'limit', price: format(ask + 3n, pp), amount },
        { account, poolId, side: 'buy', type: 'limit', price: format(ask, pp), amount: '100000' },
      ]
      const request = requests[tick % requests.length] as PlaceOrderRequest
      const placed = await sim.placeOrder({ ...request, hiddenForTicks: tick % 4 })
      working.push(placed.id)
      conserved(`after order ${tick}`)
      if (tick % 10 === 3) {
        // The resting sell far from the market: canceled unfilled (status 3).
        await expect(sim.cancelOrder(placed.id)).resolves.toBe(true)
        conserved(`after cancel ${tick}`)
      } else if (tick % 7 === 6) {
        const id = working.splice(0, 1)[0] ?? ''
        await sim.cancelOrder(id).catch((error: unknown) => {
          expect(error).toBeInstanceOf(RangeError)
        })
        conserved(`after cancel ${tick}`)
      }
      sim.advance()
      conserved(`after tick ${tick}`)
    }
    const outcomes = new Set(
      sim.truth
        .orders()
        .filter((o) => o.order_cid.startsWith('sim-'))
        .map((o) => o.status),
    )
    expect([...outcomes].sort()).toEqual([0, 1, 2, 3, 4])
    expect(sim.truth.transfers().length).toBeGreaterThan(0)
  })

  it('give byte-identical answers for the same seed, ticks and calls', async () => {
    const run = async () => {
      const sim = await start(3)
      for (let tick = 0; tick < 60; tick++) {
        const [bid] = best(sim, 'bids')
        const side = tick % 2 === 0 ? 'buy' : 'sell'
        const amount = chn(units('1', BP) * BigInt(1 + (tick % 9)))
        const more = { account: sim.apiKeys[tick % 2] ?? '', hiddenForTicks: tick % 2 }
        const placed =
          tick % 3 === 0
            ? await placeMarket(sim, side, amount, more)
            : await placeLimit(sim, side, price(side === 'buy' ? bid + 1n : bid), amount, more)
        if (tick % 5 === 4) await sim.cancelOrder(placed.id).catch(() => undefined)
        sim.advance(3)
      }
      const paths = [
        '/history-orders?limit=100',
        '/open-orders?limit=100',
        '/trades?limit=100',
        '/balances',
        '/depth?pool_id=0&limit=100',
      ]
      const bodies: string[] = []
      for (const key of sim.apiKeys) {
        for (const path of paths) {
          const response = await fetch(`${sim.url}/api/v1${path}`, {
            headers: { authorization: key },
          })
          bodies.push(await response.text())
        }
      }
      return bodies
    }
    const [a, b] = [await run(), await run()]
    expect(a.join('').length).toBeGreaterThan(10_000)
    expect(b).toEqual(a)
  })
})

describe('createMarket(...).placeOrder: the same without HTTP', () => {
  it('places, shows and cancels orders synchronously on the market alone', () => {
    const market = createMarket({ seed: 1, tickMs: 250 })
    const [demo = '', alice = ''] = market.apiKeys()
    const placed = market.placeOrder({
      account: alice,
      poolId: 2,
      side: 'sell',
      type: 'limit',
      price: '9999.0',
      amount: '0.5',
      clientId: 'no-http',
    })
    expect(placed).toEqual({ id: expect.stringMatching(/^2-\d+-1$/), clientId: 'no-http' })
    const view = market.account(alice)
    expect(view?.orderByClientId('no-http')).toMatchObject({ id: placed.id, status: 0 })
    expect(market.account(demo)?.orderByClientId('no-http')).toBeUndefined()
    expect(market.cancelOrder(placed.id)).toBe(true)
    expect(view?.orderByClientId('no-http')).toMatchObject({ status: 3, history: true })
    expect(() => market.placeOrder({ ...placed, poolId: 2 } as never)).toThrow(/unknown field "id"/)
    expect(() => market.cancelOrder(placed.id)).toThrow(RangeError)
  })
})
