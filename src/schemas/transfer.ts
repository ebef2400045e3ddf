/**
 * Transfer record (docs/venue-interface.md).
 *
 * @packageDocumentation
 */
import { z } from 'zod'
import { decimalString, timestampMillis, unsignedIntegerString } from './primitives.js'

/**
 * A deposit or withdrawal record. Records carry no `id` field: `sid` is the record's
 * sequence id (unsigned 64-bit, output as canonical digit text, whether sent as a string
 * or a number; a larger value is refused) and is what paging by id pages on.
 * `created_at` is documented as ISO-8601 with milliseconds and a `Z` designator (e.g.
 * `"2024-01-02T03:04:05.678Z"`); a numeric value is read as Unix milliseconds. It is
 * output as epoch milliseconds.
 *
 * @example
 * ```ts
 * import { transferSchema } from 'venue-rx/schemas'
 *
 * transferSchema.parse({
 *   amount: '4302.6060', contract: 'chain.token', symbol: 'CHN', from: 'bridge.venue',
 *   to: 'demo.trader', tx_id: '0da6d045…', side: 'deposit', sid: 93, name: 'Chain Token',
 *   created_at: '2023-11-14T22:14:59.500Z',
 * })
 * // { ..., sid: '93', created_at: 1700000099500 }
 * ```
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

/**
 * A parsed transfer record.
 *
 * @example
 * ```ts
 * import type { Transfer } from 'venue-rx'
 *
 * const transfers: Transfer[] = await venue.rest.transfers({ sort: 'asc', limit: 100 })
 * for (const t of transfers) console.log(t.sid, t.side, t.amount, t.symbol)
 * // '93' 'deposit' '4302.6060' 'CHN'
 * ```
 */
export type Transfer = z.output<typeof transferSchema>
