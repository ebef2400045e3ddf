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

/**
 * Order side codes as sent in `side`.
 *
 * @example
 * ```ts
 * import { OrderSide } from 'venue-rx'
 *
 * const sells = await venue.rest.openOrders({ side: OrderSide.Sell })
 * const bought = order.side === OrderSide.Buy
 * ```
 */
export const OrderSide = { Buy: 0, Sell: 1 } as const

/**
 * An order side code: 0 buy, 1 sell.
 *
 * @example
 * ```ts
 * import { OrderSide } from 'venue-rx'
 *
 * const opposite = (side: OrderSide): OrderSide =>
 *   side === OrderSide.Buy ? OrderSide.Sell : OrderSide.Buy
 * ```
 */
export type OrderSide = CodeOf<typeof OrderSide>

/**
 * Order type codes as sent in `type`. Open orders are always limit orders.
 *
 * @example
 * ```ts
 * import { OrderType } from 'venue-rx'
 *
 * const marketOrders = await venue.rest.historyOrders({ type: OrderType.Market })
 * ```
 */
export const OrderType = { Market: 0, Limit: 1 } as const

/**
 * An order type code: 0 market, 1 limit.
 *
 * @example
 * ```ts
 * import { OrderType } from 'venue-rx'
 *
 * const label = (type: OrderType) => (type === OrderType.Market ? 'market' : 'limit')
 * label(order.type) // 'limit'
 * ```
 */
export type OrderType = CodeOf<typeof OrderType>

/**
 * Order status codes as sent in `status`.
 *
 * The status alone does not tell whether an order is finished: an order canceled after a
 * partial fill has been seen with status 1 (`PartiallyFilled`) and `history: true`. Treat
 * an order in the history set (`history: true`) as final whatever its status says.
 *
 * @example
 * ```ts
 * import { OrderStatus } from 'venue-rx'
 *
 * const filled = await venue.rest.historyOrders({ poolId: 0, status: OrderStatus.Filled })
 * const final = order.history || order.status === OrderStatus.Filled
 * ```
 */
export const OrderStatus = {
  Unfilled: 0,
  PartiallyFilled: 1,
  Filled: 2,
  Canceled: 3,
  Rejected: 4,
} as const

/**
 * A documented order status code (see {@link OrderStatus}).
 *
 * @example
 * ```ts
 * import type { OrderStatus } from 'venue-rx'
 *
 * const names: Record<OrderStatus, string> = {
 *   0: 'unfilled', 1: 'partially filled', 2: 'filled', 3: 'canceled', 4: 'rejected',
 * }
 * names[order.status as OrderStatus] ?? `status ${order.status}` // 'filled'
 * ```
 */
export type OrderStatus = CodeOf<typeof OrderStatus>

/**
 * An order as listed by open-orders (the order record without the history-only fields).
 * `id` is the composite `{pool_id}-{order_id}-{side}`; `order_id` is a digit string (exact
 * beyond 2^53); `order_time` is Unix seconds on the
 * wire and epoch milliseconds in the output.
 *
 * @example
 * ```ts
 * import { z } from 'zod'
 * import { openOrderSchema } from 'venue-rx/schemas'
 *
 * // `data` of a raw /api/v1/open-orders answer
 * const orders = z.array(openOrderSchema).parse(body.data)
 * orders[0]?.order_time // 1700000098000 (sent as 1700000098)
 * ```
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

/**
 * A parsed open order.
 *
 * @example
 * ```ts
 * import type { OpenOrder } from 'venue-rx'
 *
 * const open: OpenOrder[] = await venue.rest.openOrders({ poolId: 1 })
 * // [{ id: '1-659-0', order_id: '659', side: 0, type: 1, order_price: '42905.22',
 * //    order_amount: '0.009300', executed_amount: '0.000000', order_time: 1700000098000, ... }]
 * ```
 */
export type OpenOrder = z.output<typeof openOrderSchema>

/**
 * A full order record (history orders, order by id, order by client id). `status` is kept
 * as any integer (see {@link OrderStatus}); `history` marks membership of the history set.
 *
 * @example
 * ```ts
 * import { orderSchema } from 'venue-rx/schemas'
 *
 * // `data` of a raw /api/v1/orders/client-id/{cid} answer
 * const order = orderSchema.parse(body.data)
 * order.history // true once the order is final
 * ```
 */
export const orderSchema = openOrderSchema.extend({
  filled_total: decimalString,
  history: z.boolean(),
  permission: z.string(),
  status: safeInteger,
  unread: z.boolean(),
})

/**
 * A parsed order.
 *
 * @example
 * ```ts
 * import type { Order } from 'venue-rx'
 *
 * const order: Order = await venue.rest.orderByClientId('cid-118')
 * // { id: '2-670-1', status: 2, history: true, order_amount: '0.03800',
 * //   executed_amount: '0.03800', filled_total: '83.4860', ... }
 * ```
 */
export type Order = z.output<typeof orderSchema>

/**
 * An order with its fills, as returned by order-by-id; `trades` is `[]` when absent.
 *
 * @example
 * ```ts
 * import { orderWithTradesSchema } from 'venue-rx/schemas'
 *
 * // `data` of a raw /api/v1/orders/{id} answer
 * const order = orderWithTradesSchema.parse(body.data)
 * order.trades // [] when the venue sent no trades
 * ```
 */
export const orderWithTradesSchema = orderSchema.extend({
  trades: z.array(tradeDetailSchema).default(() => []),
})

/**
 * A parsed order with its fills.
 *
 * @example
 * ```ts
 * import type { OrderWithTrades } from 'venue-rx'
 *
 * const order: OrderWithTrades = await venue.rest.order('2-670-1')
 * for (const trade of order.trades) console.log(trade.global_seq, trade.price, trade.base_quantity)
 * // '1058' '2197.0' '0.03800'
 * ```
 */
export type OrderWithTrades = z.output<typeof orderWithTradesSchema>
