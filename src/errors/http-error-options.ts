import type { VenueErrorOptions } from './venue-error.js'

/**
 * What the venue answered, carried by the errors built from a response.
 *
 * @example
 * ```ts
 * import { type VenueResponseInfo, VenueServerError } from 'venue-rx'
 *
 * // a test double answering as the venue does on a 503
 * const info: VenueResponseInfo = {
 *   status: 503,
 *   venueCode: 503,
 *   venueMessage: 'service unavailable',
 *   endpoint: 'depth',
 * }
 * const error = new VenueServerError('depth: HTTP 503 service unavailable', info)
 * error.retryable // true
 * ```
 */
export interface VenueResponseInfo extends VenueErrorOptions {
  /** HTTP status of the response. */
  readonly status: number
  /** The envelope's `code`, when the body had one. */
  readonly venueCode?: number | undefined
  /** The envelope's `message`, when the body had one. */
  readonly venueMessage?: string | undefined
}
