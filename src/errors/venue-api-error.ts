import type { VenueResponseInfo } from './http-error-options.js'
import { VenueError } from './venue-error.js'

/**
 * HTTP 200 whose envelope carries `code != 0`: the venue refused the request in-band.
 * Retryable only when the envelope code reads like a transient status (429 or 5xx).
 *
 * @example
 * ```ts
 * import { VenueApiError } from 'venue-rx'
 *
 * try {
 *   await venue.rest.historyOrders({ poolId: 0 })
 * } catch (error) {
 *   if (error instanceof VenueApiError) {
 *     console.error(`refused: code ${error.venueCode} ${error.venueMessage}`, error.retryable)
 *   } else throw error
 * }
 * ```
 */
export class VenueApiError extends VenueError {
  static override readonly code = 'VENUE_API'
  override readonly code = 'VENUE_API'
  override name = 'VenueApiError'
  override readonly retryable: boolean
  /** HTTP status of the response (a 2xx). */
  readonly status: number
  /** The envelope's non-zero `code`. */
  readonly venueCode: number
  /** The envelope's `message`. */
  readonly venueMessage: string

  constructor(message: string, info: VenueResponseInfo & { venueCode: number }) {
    super(message, info)
    this.status = info.status
    this.venueCode = info.venueCode
    this.venueMessage = info.venueMessage ?? ''
    this.retryable = info.venueCode === 429 || (info.venueCode >= 500 && info.venueCode <= 599)
  }
}
