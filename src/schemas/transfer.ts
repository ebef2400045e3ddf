/**
 * Transfer record (docs/venue-interface.md).
 *
 * @packageDocumentation
 */
import { z } from 'zod'
import { decimalString, timestampMillis, unsignedIntegerString } from './primitives.js'

/**
 * A deposit or withdrawal record. Records carry no `id` field: `sid` is the record's
 * sequence id (output as canonical digit text, whether sent as a string or a number) and
 * is what paging by id pages on. `created_at` is documented as ISO-8601 with milliseconds
 * and a `Z` designator (e.g. `"2024-01-02T03:04:05.678Z"`); a numeric value is read as
 * Unix milliseconds. It is output as epoch milliseconds.
 */
export const transferSchema = z.object({
  amount: decimalString,
  contract: z.string(),
  symbol: z.string(),
  from: z.string(),
  to: z.string(),
  tx_id: z.string(),
  side: z.string(),
  sid: unsignedIntegerString,
  name: z.string(),
  created_at: timestampMillis,
})

/** A parsed transfer record. */
export type Transfer = z.output<typeof transferSchema>
