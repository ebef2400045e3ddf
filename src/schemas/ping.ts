/**
 * Server time (docs/venue-interface.md).
 *
 * @packageDocumentation
 */
import { z } from 'zod'
import { timestampSeconds } from './primitives.js'

/**
 * Server time: `timestamp` is Unix seconds on the wire, epoch milliseconds in the output.
 *
 * @example
 * ```ts
 * import { pingSchema } from 'venue-rx/schemas'
 *
 * pingSchema.parse({ timestamp: 1700000100 }) // { timestamp: 1700000100000 }
 * ```
 */
export const pingSchema = z.object({
  timestamp: timestampSeconds,
})

/**
 * A parsed server time.
 *
 * @example
 * ```ts
 * import type { Ping } from 'venue-rx'
 *
 * const { timestamp }: Ping = await venue.rest.ping()
 * const skewMs = Date.now() - timestamp // local clock minus the venue's
 * ```
 */
export type Ping = z.output<typeof pingSchema>
