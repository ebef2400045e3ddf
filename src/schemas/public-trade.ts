/**
 * Public trade from the latest-trades feed (docs/venue-interface.md).
 *
 * @packageDocumentation
 */
import { z } from 'zod'
import { decimalString, nonNegativeSafeInteger, timestampSeconds } from './primitives.js'

/**
 * A public trade. It carries no unique id. `side` is the taker's side; `traded_at` is Unix
 * seconds on the wire and epoch milliseconds in the output.
 *
 * @example
 * ```ts
 * import { publicTradeSchema } from 'venue-rx/schemas'
 *
 * publicTradeSchema.parse({
 *   buyer: 'mm.alpha', seller: 'flow.two', pool_id: 0, price: '1.0462', quantity: '113.0500',
 *   side: 'sell', traded_at: 1700000100,
 * })
 * // { ..., side: 'sell', traded_at: 1700000100000 }
 * ```
 */
export const publicTradeSchema = z.object({
  buyer: z.string(),
  seller: z.string(),
  pool_id: nonNegativeSafeInteger,
  price: decimalString,
  quantity: decimalString,
  side: z.enum(['buy', 'sell']),
  traded_at: timestampSeconds,
})

/**
 * A parsed public trade.
 *
 * @example
 * ```ts
 * import type { PublicTrade } from 'venue-rx'
 *
 * const [latest]: PublicTrade[] = await venue.rest.latestTrades({ poolId: 0, limit: 1 })
 * // { buyer: 'mm.alpha', seller: 'flow.two', pool_id: 0, price: '1.0462', quantity: '113.0500',
 * //   side: 'sell', traded_at: 1700000100000 }
 * ```
 */
export type PublicTrade = z.output<typeof publicTradeSchema>
