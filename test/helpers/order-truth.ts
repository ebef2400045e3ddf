/**
 * Orders placed on the simulator in tests, and `watchOrder` streams checked against the
 * simulator's ground truth.
 */
import { expect } from 'vitest'
import type { OrderEvent } from '../../src/index.js'
import { addDecimal, compareDecimal } from '../../src/index.js'
import type { AccountView, Simulator } from '../../src/simulator/index.js'

/** A price inside pool 0's spread (4 decimals), so an order there is the best of its side. */
export function insideSpread(sim: Simulator): string {
  const book = sim.truth.engineBook(0)
  const bid = Number(book.bids[0]?.[0])
  const ask = Number(book.asks[0]?.[0])
  expect(ask - bid).toBeGreaterThan(0.0001)
  return (bid + 0.0001).toFixed(4)
}

/** A limit order on pool 0, placed for the demo account unless `more` names another. */
export function limit(
  sim: Simulator,
  side: 'buy' | 'sell',
  price: string,
  amount: string,
  more: {
    readonly account?: string
    readonly hiddenForTicks?: number
    readonly clientId?: string
  } = {},
) {
  return sim.placeOrder({ poolId: 0, side, type: 'limit', price, amount, ...more })
}

/** The order as the venue keeps it now (no quirk applies to the truth), with its trades. */
export function truthOf(sim: Simulator, id: string) {
  const found = sim.truth.order(id)
  if (found === undefined) throw new Error(`no order ${id}`)
  // Its trades: those naming it as taker or maker (an order's side is its own: the taker
  // bought when it bid, the maker took the other side).
  const trades = sim.truth.trades().filter((trade) => {
    const takerSide = trade.taker_is_bid ? 0 : 1
    const taker = `${trade.pool_id}-${trade.taker_order_id}-${takerSide}`
    const maker = `${trade.pool_id}-${trade.maker_order_id}-${1 - takerSide}`
    return (
      (trade.taker === found.trader && taker === id) ||
      (trade.maker === found.trader && maker === id)
    )
  })
  return { ...found, trades }
}

/** The demo account's view (its order endpoints, as the venue serves them). */
export function demoAccount(sim: Simulator): AccountView {
  const account = sim.market.account(sim.apiKey)
  if (account === undefined) throw new Error('no demo account')
  return account
}

/**
 * The stream's fills and done, checked against the order's ground truth: the fills are
 * its trades, in order, each once, adding up to its executed amount; one done, last.
 */
export function expectTruth(events: readonly OrderEvent[], sim: Simulator, id: string) {
  const truth = truthOf(sim, id)
  const fills = events.filter((e) => e.type === 'fill').map((e) => e.fill)
  expect(fills.map((f) => f.globalSeq)).toEqual(truth.trades.map((t) => String(t.global_seq)))
  const sum = fills.reduce((total, fill) => addDecimal(total, fill.quantity), '0')
  expect(compareDecimal(sum, truth.executed_amount)).toBe(0)
  const done = events.filter((e) => e.type === 'done')
  expect(done).toHaveLength(1)
  expect(events.at(-1)).toBe(done[0])
  // Each fill's running total is exact.
  let running = '0'
  for (const event of events) {
    if (event.type !== 'fill') continue
    running = addDecimal(running, event.fill.quantity)
    expect(event.order.filled).toBe(running)
  }
  return done[0] as Extract<OrderEvent, { type: 'done' }>
}
