/**
 * Orders (docs/venue-interface.md).
 *
 * @packageDocumentation
 */
import { z } from 'zod'
import {
  type CodeOf,
  decimalString,
  nonNegativeSafeInteger,
  safeInteger,
  timestampSeconds,
  unsignedIntegerString,
} from './primitives.js'
import { tradeDetailSchema } from './trade-detail.js'

/** Order side codes as sent in `side`. */
export const OrderSide = { Buy: 0, Sell: 1 } as const

/** An order side code: 0 buy, 1 sell. */
export type OrderSide = CodeOf<typeof OrderSide>

/** Order type codes as sent in `type`. Open orders are always limit orders. */
export const OrderType = { Market: 0, Limit: 1 } as const

/** An order type code: 0 market, 1 limit. */
export type OrderType = CodeOf<typeof OrderType>

/**
 * Order status codes as sent in `status`.
 *
 * The status alone does not tell whether an order is finished: an order canceled after a
 * partial fill has been seen with status 1 (`PartiallyFilled`) and `history: true`. Treat
 * an order in the history set (`history: true`) as final whatever its status says.
 */
export const OrderStatus = {
  Unfilled: 0,
  PartiallyFilled: 1,
  Filled: 2,
  Canceled: 3,
  Rejected: 4,
} as const

/** A documented order status code (see {@link OrderStatus}). */
export type OrderStatus = CodeOf<typeof OrderStatus>

/**
 * An order as listed by open-orders (the order record without the history-only fields).
 * `id` is the composite `{pool_id}-{order_id}-{side}`; `order_id` is a digit string (exact
 * beyond 2^53); `order_time` is Unix seconds on the
 * wire and epoch milliseconds in the output.
 */
export const openOrderSchema = z.object({
  id: z.string(),
  order_id: unsignedIntegerString,
  order_cid: z.string(),
  pool_id: nonNegativeSafeInteger,
  pool_symbol: z.string(),
  pool_base_coin: z.string(),
  pool_quote_coin: z.string(),
  base_coin_precision: nonNegativeSafeInteger,
  quote_coin_precision: nonNegativeSafeInteger,
  side: z.literal([OrderSide.Buy, OrderSide.Sell]),
  type: z.literal([OrderType.Market, OrderType.Limit]),
  order_price: decimalString,
  order_amount: decimalString,
  order_total: decimalString,
  avg_price: decimalString,
  executed_amount: decimalString,
  order_time: timestampSeconds,
  trader: z.string(),
})

/** A parsed open order. */
export type OpenOrder = z.output<typeof openOrderSchema>

/**
 * A full order record (history orders, order by id, order by client id). `status` is kept
 * as any integer (see {@link OrderStatus}); `history` marks membership of the history set.
 */
export const orderSchema = openOrderSchema.extend({
  filled_total: decimalString,
  history: z.boolean(),
  permission: z.string(),
  status: safeInteger,
  unread: z.boolean(),
})

/** A parsed order. */
export type Order = z.output<typeof orderSchema>

/** An order with its fills, as returned by order-by-id; `trades` is `[]` when absent. */
export const orderWithTradesSchema = orderSchema.extend({
  trades: z.array(tradeDetailSchema).default(() => []),
})

/** A parsed order with its fills. */
export type OrderWithTrades = z.output<typeof orderWithTradesSchema>
