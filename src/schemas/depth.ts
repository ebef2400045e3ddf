/**
 * Order book depth (docs/venue-interface.md).
 *
 * @packageDocumentation
 */
import { z } from 'zod'
import {
  decimalString,
  isNegativeDecimal,
  nonNegativeSafeInteger,
  timestampMillis,
} from './primitives.js'

/**
 * The quantity of a level: an exact decimal of zero or more. A level of quantity zero is
 * no level (the book streams drop it); a negative one is no quantity, and refusing it here
 * keeps it out of every book built from the answer.
 */
const levelQuantity = decimalString.transform((text, ctx): string => {
  if (!isNegativeDecimal(text)) return text
  ctx.addIssue({ code: 'custom', input: text, message: 'Expected a quantity of 0 or more' })
  return z.NEVER
})

/**
 * One price level, `[price, quantity]`, both exact decimal strings, the quantity 0 or
 * more. Elements beyond the second are tolerated and dropped from the output.
 *
 * @example
 * ```ts
 * import { levelSchema } from 'venue-rx/schemas'
 *
 * levelSchema.parse(['1.0477', 355.14])        // ['1.0477', '355.14']
 * levelSchema.parse(['1.0477', '355.1400', 3]) // ['1.0477', '355.1400']: extra elements dropped
 * levelSchema.safeParse(['1.0477', '-5']).success // false: a negative quantity
 * ```
 */
export const levelSchema = z
  .tuple([decimalString, levelQuantity], z.unknown())
  .transform((level): readonly [price: string, quantity: string] => [level[0], level[1]])

/**
 * A parsed price level: `[price, quantity]`.
 *
 * @example
 * ```ts
 * import type { Level } from 'venue-rx/schemas'
 *
 * const { asks } = await venue.rest.depth({ poolId: 0, limit: 1 })
 * const best: Level | undefined = asks[0] // ['1.0477', '355.1400']: price, quantity
 * ```
 */
export type Level = z.output<typeof levelSchema>

/**
 * Order book snapshot. Asks run from low to high price and bids from high to low as sent.
 * `timestamp` is Unix milliseconds on the wire and epoch milliseconds in the output.
 *
 * @example
 * ```ts
 * import { depthSchema } from 'venue-rx/schemas'
 *
 * depthSchema.parse({
 *   asks: [['1.0477', '355.1400']],
 *   bids: [['1.0475', 22.8103]],
 *   pool_id: 0,
 *   precision: '0.0001',
 *   timestamp: 1700000100000,
 * })
 * // { asks: [['1.0477', '355.1400']], bids: [['1.0475', '22.8103']], pool_id: 0, ... }
 * ```
 */
export const depthSchema = z.object({
  asks: z.array(levelSchema),
  bids: z.array(levelSchema),
  pool_id: nonNegativeSafeInteger,
  precision: decimalString,
  timestamp: timestampMillis,
})

/**
 * A parsed order book snapshot.
 *
 * @example
 * ```ts
 * import type { Depth } from 'venue-rx'
 *
 * const depth: Depth = await venue.rest.depth({ poolId: 0, limit: 2 })
 * // { pool_id: 0, precision: '0.0001', timestamp: 1700000100000,
 * //   asks: [['1.0477', '355.1400'], ['1.0478', '1566.8500']],
 * //   bids: [['1.0475', '22.8103'], ['1.0470', '228.1932']] }
 * ```
 */
export type Depth = z.output<typeof depthSchema>
