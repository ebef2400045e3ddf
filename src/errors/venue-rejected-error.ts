import type { VenueResponseInfo } from './http-error-options.js'
import { VenueError } from './venue-error.js'

/**
 * The venue rejected the request with a 4xx status other than auth, not found and
 * rate limiting (typically 400, bad parameter). Never retried: the same request will
 * be rejected again.
 *
 * @example
 * ```ts
 * import { VenueRejectedError } from 'venue-rx'
 *
 * try {
 *   await venue.rest.trades({ poolId: 0, afterSeq: '1058' })
 * } catch (error) {
 *   if (error instanceof VenueRejectedError) {
 *     // e.g. a filter the venue names otherwise (see the paramNames option)
 *     console.error(`rejected: HTTP ${error.status} ${error.venueMessage ?? ''}`)
 *   } else throw error
 * }
 * ```
 */
export class VenueRejectedError extends VenueError {
  static override readonly code = 'VENUE_REJECTED'
  override readonly code = 'VENUE_REJECTED'
  override readonly retryable = false
  override name = 'VenueRejectedError'
  /** HTTP status of the response. */
  readonly status: number
  /** The envelope's `code`, when the body had one. */
  readonly venueCode: number | undefined
  /** The envelope's `message`, when the body had one. */
  readonly venueMessage: string | undefined

  constructor(message: string, info: VenueResponseInfo) {
    super(message, info)
    this.status = info.status
    this.venueCode = info.venueCode
    this.venueMessage = info.venueMessage
  }
}
