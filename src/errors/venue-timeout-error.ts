import { VenueError, type VenueErrorOptions } from './venue-error.js'

/**
 * No complete answer within `requestTimeoutMs`; the request was aborted. Retryable.
 *
 * @example
 * ```ts
 * import { createVenue, VenueTimeoutError } from 'venue-rx'
 *
 * const venue = createVenue({ baseUrl: 'http://127.0.0.1:8787', requestTimeoutMs: 3_000 })
 * try {
 *   await venue.rest.depth({ poolId: 0, limit: 1000 })
 * } catch (error) {
 *   if (error instanceof VenueTimeoutError) console.warn(`no answer within ${error.timeoutMs} ms`)
 *   else throw error
 * }
 * ```
 */
export class VenueTimeoutError extends VenueError {
  static override readonly code = 'VENUE_TIMEOUT'
  override readonly code = 'VENUE_TIMEOUT'
  override readonly retryable = true
  override name = 'VenueTimeoutError'
  /** The timeout that elapsed, in milliseconds. */
  readonly timeoutMs: number

  constructor(message: string, options: VenueErrorOptions & { timeoutMs: number }) {
    super(message, options)
    this.timeoutMs = options.timeoutMs
  }
}
