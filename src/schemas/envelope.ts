/**
 * The JSON envelope around every response body (docs/venue-interface.md).
 *
 * @packageDocumentation
 */
import { z } from 'zod'
import { safeInteger } from './primitives.js'

/**
 * Response envelope: `{ code, message, data, meta }`. `data` is left as `unknown` for the
 * per-endpoint schema to parse; `message` defaults to `''` and `meta` to `{}` when absent.
 * List endpoints put a total count in `meta.total`.
 */
export const envelopeSchema = z.object({
  code: safeInteger,
  message: z.string().default(''),
  data: z.unknown(),
  meta: z.record(z.string(), z.unknown()).default(() => ({})),
})

/** A parsed response envelope. */
export type Envelope = z.output<typeof envelopeSchema>
