/**
 * The engine's order and its wire form (docs/venue-interface.md).
 *
 * @packageDocumentation
 */
import { formatFixed } from './fixed-point.js'
import { type PoolSpec, priceOf, quoteAmount } from './pool-spec.js'
import type { OrderRecord, TradeDetailRecord } from './types.js'

/** 0 unfilled, 1 partially filled, 2 filled, 3 canceled, 4 rejected. */
export type OrderStatus = 0 | 1 | 2 | 3 | 4

/** Order side: 0 buy (bid), 1 sell (ask). */
export type Side = 0 | 1

/** The permission every simulated account trades with. */
export const PERMISSION = 'active'

/** An order inside the engine. Amounts are integer units of the pool's precisions. */
export interface Order {
  readonly pool: PoolSpec
  /** Per-pool id, increasing from 1. */
  readonly orderId: number
  readonly cid: string
  readonly account: string
  readonly side: Side
  /** 0 market, 1 limit. */
  readonly type: 0 | 1
  /** Limit price in price units; 0 for a market order. */
  readonly price: bigint
  /** Ordered base quantity in base units. */
  readonly amount: bigint
  /** Executed base units. */
  filled: bigint
  /** Quote units exchanged by the fills (before fees). */
  filledQuote: bigint
  status: OrderStatus
  /** In the history set: final (filled, canceled or rejected). */
  history: boolean
  /** Placement time, Unix seconds. */
  readonly time: number
  /** Market-wide creation sequence (orders newest first sort on it). */
  readonly seq: number
  /** Fills of the order, ascending global_seq, kept for accounts with an API key. */
  readonly trades: TradeDetailRecord[] | undefined
}

/** The composite order id `{pool_id}-{order_id}-{side}`. */
export function orderKey(poolId: number, orderId: number, side: Side): string {
  return `${poolId}-${orderId}-${side}`
}

/** Base units still to execute. */
export function remainingOf(order: Order): bigint {
  return order.amount - order.filled
}

/**
 * Pool units an open limit order reserves: the quote for its unfilled quantity at its
 * limit price (buy) or the unfilled base quantity (sell). Market orders reserve nothing.
 */
export function reservedOf(order: Order): bigint {
  if (order.type === 0 || order.history) return 0n
  const remaining = remainingOf(order)
  return order.side === 0 ? quoteAmount(order.pool, order.price, remaining) : remaining
}

/**
 * The wire record of an order. `order_total` is price × amount (zero for a market order,
 * whose `order_price` is `"0"`); `filled_total` is the quote exchanged; `avg_price` is
 * `filled_total / executed_amount` rounded down to the price precision (exact whenever
 * all fills share one price).
 */
export function toOrderRecord(order: Order): OrderRecord {
  const { pool } = order
  const pp = pool.pricePrecision
  const qp = pool.quotePrecision
  const bp = pool.basePrecision
  return {
    id: orderKey(pool.id, order.orderId, order.side),
    order_id: order.orderId,
    order_cid: order.cid,
    pool_id: pool.id,
    pool_symbol: pool.symbol,
    pool_base_coin: pool.base.id,
    pool_quote_coin: pool.quote.id,
    base_coin_precision: bp,
    quote_coin_precision: qp,
    side: order.side,
    type: order.type,
    order_price: order.type === 0 ? '0' : formatFixed(order.price, pp),
    order_amount: formatFixed(order.amount, bp),
    order_total: formatFixed(quoteAmount(pool, order.price, order.amount), qp),
    avg_price: formatFixed(
      order.filled === 0n ? 0n : priceOf(pool, order.filledQuote, order.filled),
      pp,
    ),
    executed_amount: formatFixed(order.filled, bp),
    order_time: order.time,
    trader: order.account,
    filled_total: formatFixed(order.filledQuote, qp),
    history: order.history,
    permission: PERMISSION,
    status: order.status,
    unread: false,
  }
}
