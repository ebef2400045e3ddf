import { VenueError, type VenueErrorOptions } from './venue-error.js'

/**
 * The caller aborted the request through its `signal`. The signal's reason is in
 * `cause`. Not retryable: nobody is waiting for the answer any more.
 *
 * @example
 * ```ts
 * import { VenueAbortError } from 'venue-rx'
 *
 * const controller = new AbortController()
 * setTimeout(() => controller.abort(), 2_000)
 * try {
 *   await venue.rest.klines({ poolId: 0, interval: '1m' }, { signal: controller.signal })
 * } catch (error) {
 *   if (error instanceof VenueAbortError) console.log('gave up waiting') // reason: error.cause
 *   else throw error
 * }
 * ```
 */
export class VenueAbortError extends VenueError {
  static override readonly code = 'VENUE_ABORTED'
  override readonly code = 'VENUE_ABORTED'
  override readonly retryable = false
  override name = 'VenueAbortError'

  constructor(message: string, options: VenueErrorOptions = {}) {
    super(message, options)
  }
}
