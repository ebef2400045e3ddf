import type { VenueResponseInfo } from './http-error-options.js'
import { VenueError } from './venue-error.js'

/**
 * The venue failed with a 5xx status. Retryable.
 *
 * The live service also answers HTTP 500 `service internal error` for an unknown
 * order, someone else's order and an invalid kline interval, so such an answer is
 * marked {@link VenueServerError.ambiguous}: it may be permanent, and retries of a
 * single resource should be bounded.
 *
 * @example
 * ```ts
 * import { VenueServerError } from 'venue-rx'
 *
 * try {
 *   await venue.rest.order('0-25-0')
 * } catch (error) {
 *   if (error instanceof VenueServerError && error.ambiguous) {
 *     console.warn('500 service internal error: maybe no such order') // retry a few times only
 *   } else if (error instanceof VenueServerError) {
 *     console.warn(`HTTP ${error.status}: try again later`)
 *   } else throw error
 * }
 * ```
 */
export class VenueServerError extends VenueError {
  static override readonly code = 'VENUE_SERVER'
  override readonly code = 'VENUE_SERVER'
  override readonly retryable = true
  override name = 'VenueServerError'
  /** HTTP status of the response (5xx). */
  readonly status: number
  /** The envelope's `code`, when the body had one. */
  readonly venueCode: number | undefined
  /** The envelope's `message`, when the body had one. */
  readonly venueMessage: string | undefined
  /** True for the live service's 500 `service internal error`, which may mean "not found". */
  readonly ambiguous: boolean

  constructor(message: string, info: VenueResponseInfo) {
    super(message, info)
    this.status = info.status
    this.venueCode = info.venueCode
    this.venueMessage = info.venueMessage
    this.ambiguous = info.status === 500 && info.venueMessage === 'service internal error'
  }
}
