/**
 * Server time (docs/venue-interface.md).
 *
 * @packageDocumentation
 */
import { z } from 'zod'
import { timestampSeconds } from './primitives.js'

/** Server time: `timestamp` is Unix seconds on the wire, epoch milliseconds in the output. */
export const pingSchema = z.object({
  timestamp: timestampSeconds,
})

/** A parsed server time. */
export type Ping = z.output<typeof pingSchema>
