import { VenueError, type VenueErrorOptions } from './venue-error.js'

/** No complete answer within `requestTimeoutMs`; the request was aborted. Retryable. */
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
