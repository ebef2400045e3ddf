import { VenueError, type VenueErrorOptions } from './venue-error.js'

/**
 * The request did not get a complete HTTP answer: connection refused or reset, DNS
 * failure, socket closed mid-body. Retryable. The transport's error is in `cause`.
 */
export class VenueNetworkError extends VenueError {
  static override readonly code = 'VENUE_NETWORK'
  override readonly code = 'VENUE_NETWORK'
  override readonly retryable = true
  override name = 'VenueNetworkError'
  /** The system or undici error code of the cause, e.g. `'ECONNRESET'`, when known. */
  readonly causeCode: string | undefined

  constructor(message: string, options: VenueErrorOptions & { causeCode?: string | undefined }) {
    super(message, options)
    this.causeCode = options.causeCode
  }
}
