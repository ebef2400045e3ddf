import { VenueError, type VenueErrorOptions } from './venue-error.js'

/**
 * The caller aborted the request through its `signal`. The signal's reason is in
 * `cause`. Not retryable: nobody is waiting for the answer any more.
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
