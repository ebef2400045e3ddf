/**
 * Order book depth (docs/venue-interface.md).
 *
 * @packageDocumentation
 */
import { z } from 'zod'
import { decimalString, nonNegativeSafeInteger, timestampMillis } from './primitives.js'

/**
 * One price level, `[price, quantity]`, both exact decimal strings. Elements beyond the
 * second are tolerated and dropped from the output.
 */
export const levelSchema = z
  .tuple([decimalString, decimalString], z.unknown())
  .transform((level): readonly [price: string, quantity: string] => [level[0], level[1]])

/** A parsed price level: `[price, quantity]`. */
export type Level = z.output<typeof levelSchema>

/**
 * Order book snapshot. Asks run from low to high price and bids from high to low as sent.
 * `timestamp` is Unix milliseconds on the wire and epoch milliseconds in the output.
 */
export const depthSchema = z.object({
  asks: z.array(levelSchema),
  bids: z.array(levelSchema),
  pool_id: nonNegativeSafeInteger,
  precision: decimalString,
  timestamp: timestampMillis,
})

/** A parsed order book snapshot. */
export type Depth = z.output<typeof depthSchema>
