/**
 * One order's fills as its records show them: which fills are the order's, and the fills
 * of a record's trades when they are all there. Pure: `watchOrder`'s state machine and its
 * requests share them.
 *
 * @packageDocumentation
 */
import { addDecimal, compareDecimal } from '../decimal.js'
import type { OrderWithTrades } from '../schemas/order.js'
import { type Fill, fillsOf } from './fills.js'

/** The most trades the venue has been seen to list with an order. */
export const ORDER_TRADES_CAP = 100

/**
 * Whether `fill` is of order `id` (`{pool_id}-{order_id}-{side}`).
 *
 * @example
 * ```ts
 * isOrderFill({ poolId: 0, orderId: '25', side: 'buy', ... }, '0-25-0') // true
 * ```
 */
export function isOrderFill(fill: Fill, id: string): boolean {
  const [pool, order, side] = id.split('-')
  return (
    String(fill.poolId) === pool &&
    fill.orderId === order &&
    (fill.side === 'buy' ? '0' : '1') === side
  )
}

/**
 * The fills of a record's trades: the order's side of each, `account` being the account's
 * chain account.
 *
 * @example
 * ```ts
 * recordFills(record, 'demo.trader') // one fill per trade of the record, the order's side
 * ```
 */
export function recordFills(record: OrderWithTrades, account: string): Fill[] {
  return record.trades
    .flatMap((trade) => fillsOf(trade, account))
    .filter((fill) => isOrderFill(fill, record.id))
}

/**
 * Whether a record's trades (`listed`, as fills) are all the order's: not when the venue
 * lists as many as it ever does and they do not add up to the executed amount (it lists
 * only the newest).
 *
 * @example
 * ```ts
 * listsAll(record, recordFills(record, account)) // false for 100 trades of a 150-fill order
 * ```
 */
export function listsAll(record: OrderWithTrades, listed: readonly Fill[]): boolean {
  if (record.trades.length < ORDER_TRADES_CAP) return true
  const sum = listed.reduce((total, fill) => addDecimal(total, fill.quantity), '0')
  return compareDecimal(sum, record.executed_amount) >= 0
}

/**
 * The fills of a record read while the order is followed (a look-up, an ending): its
 * trades' fills, or none when the venue listed only the newest of them (emitted now, they
 * would come before the older ones the fills feed has not brought yet, out of order), or
 * when the account is not known (an order stream on a relay takes every fill from the
 * relay's fills).
 *
 * @example
 * ```ts
 * liveFills(ended, 'demo.trader') // its fills, when the record lists them all
 * liveFills(ended, undefined)     // []
 * ```
 */
export function liveFills(record: OrderWithTrades, account: string | undefined): Fill[] {
  if (account === undefined) return []
  const listed = recordFills(record, account)
  return listsAll(record, listed) ? listed : []
}

/**
 * Whether `fills` (the order's) add up to `executed` at least.
 *
 * @example
 * ```ts
 * addUpTo([fillOf('0.01'), fillOf('0.02')], '0.03') // true
 * ```
 */
export function addUpTo(fills: readonly Fill[], executed: string): boolean {
  const sum = fills.reduce((total, fill) => addDecimal(total, fill.quantity), '0')
  return compareDecimal(sum, executed) >= 0
}
