/**
 * Account trade detail (docs/venue-interface.md).
 *
 * @packageDocumentation
 */
import { z } from 'zod'
import {
  decimalString,
  nonNegativeSafeInteger,
  timestampSeconds,
  unsignedIntegerString,
} from './primitives.js'

/**
 * One fill between a taker and a maker order. `global_seq` is the engine's increasing
 * sequence number (unsigned 64-bit), and order ids are as wide: all three are canonical
 * digit strings, exact beyond 2^53 (compare them with `compareIds`); fee fields already include any application fee; `timestamp` is Unix
 * seconds on the wire and epoch milliseconds in the output.
 *
 * @example
 * ```ts
 * import { z } from 'zod'
 * import { tradeDetailSchema } from 'venue-rx/schemas'
 *
 * // `data` of a raw /api/v1/trades answer
 * const trades = z.array(tradeDetailSchema).parse(body.data)
 * trades[0]?.global_seq // '1058' (sent as 1058 or "1058")
 * ```
 */
export const tradeDetailSchema = z.object({
  global_seq: unsignedIntegerString,
  tx_id: z.string(),
  pool_id: nonNegativeSafeInteger,
  base_coin: z.string(),
  quote_coin: z.string(),
  base_quantity: decimalString,
  quote_quantity: decimalString,
  price: decimalString,
  timestamp: timestampSeconds,
  taker: z.string(),
  taker_fee: decimalString,
  taker_is_bid: z.boolean(),
  taker_order_id: unsignedIntegerString,
  taker_order_cid: z.string(),
  taker_permission: z.string(),
  maker: z.string(),
  maker_fee: decimalString,
  maker_order_id: unsignedIntegerString,
  maker_order_cid: z.string(),
  maker_permission: z.string(),
})

/**
 * A parsed trade detail.
 *
 * @example
 * ```ts
 * import type { TradeDetail } from 'venue-rx'
 *
 * const [trade]: TradeDetail[] = await venue.rest.trades({ limit: 1 })
 * // { global_seq: '1058', pool_id: 2, price: '2197.0', base_quantity: '0.03800',
 * //   taker: 'demo.trader', taker_is_bid: false, taker_fee: '0.2505', taker_order_id: '670',
 * //   maker: 'mm.alpha', maker_fee: '0.00004', timestamp: 1700000100000, ... }
 * ```
 */
export type TradeDetail = z.output<typeof tradeDetailSchema>
