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

/** A parsed public trade. */
export type PublicTrade = z.output<typeof publicTradeSchema>
