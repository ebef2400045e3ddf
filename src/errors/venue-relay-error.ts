import { VenueError, type VenueErrorOptions } from './venue-error.js'

/**
 * Redis, which carries a relay's streams, did not answer: unreachable, restarting, or it
 * refused a command. Retryable: a stream fed by a relay reports `retrying` in
 * `venue.health` and reads on from where it was once Redis answers again. Not retryable
 * only when a feed's items after its cursor are no longer in the relay's stream. The
 * Redis client's error is in `cause`; Redis credentials are never in the message.
 *
 * @example
 * ```ts
 * import { VenueRelayError } from 'venue-rx'
 *
 * venue.watchMyTrades().subscribe({
 *   error: (error) => {
 *     if (error instanceof VenueRelayError) console.warn('Redis is gone:', error.message)
 *   },
 * })
 * ```
 */
export class VenueRelayError extends VenueError {
  static override readonly code = 'VENUE_RELAY'
  override readonly code = 'VENUE_RELAY'
  /**
   * True for Redis being away; false when what a reader needs is gone for good (a feed's
   * items after its cursor were trimmed from the relay's stream).
   */
  override readonly retryable: boolean
  override name = 'VenueRelayError'

  constructor(message: string, options: VenueErrorOptions & { retryable?: boolean } = {}) {
    super(message, options)
    this.retryable = options.retryable ?? true
  }
}
