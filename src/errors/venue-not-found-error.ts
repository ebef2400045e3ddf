import type { VenueResponseInfo } from './http-error-options.js'
import { VenueError } from './venue-error.js'

/**
 * The venue has no such resource: HTTP 404, or a pool the venue answers with an
 * all-zero record (empty `symbol`). Never retried.
 *
 * Note: the live service answers an unknown *order* with HTTP 500
 * `service internal error`, which cannot be told apart from a real fault; a REST call
 * rejects with a {@link VenueServerError} with `ambiguous: true`. `watchOrder` asks again
 * for `visibleWithinMs` and then concludes that the order is unknown: its
 * `VenueNotFoundError` has the `status` of the venue's last answer (500, or 404) and that
 * answer's error as its `cause`.
 *
 * @example
 * ```ts
 * import { VenueNotFoundError } from 'venue-rx'
 *
 * try {
 *   await venue.rest.pool(999)
 * } catch (error) {
 *   // status 404, or 200 for the all-zero record the venue sends for an unknown pool
 *   if (error instanceof VenueNotFoundError) console.log('no pool 999', error.status)
 *   else throw error
 * }
 * ```
 */
export class VenueNotFoundError extends VenueError {
  static override readonly code = 'VENUE_NOT_FOUND'
  override readonly code = 'VENUE_NOT_FOUND'
  override readonly retryable = false
  override name = 'VenueNotFoundError'
  /** HTTP status of the (last) response: 404, 200 (an all-zero pool), or 500 (see above). */
  readonly status: number
  /** The envelope's message, when the body had one. */
  readonly venueMessage: string | undefined

  constructor(message: string, info: VenueResponseInfo) {
    super(message, info)
    this.status = info.status
    this.venueMessage = info.venueMessage
  }
}
