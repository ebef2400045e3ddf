import { VenueError, type VenueErrorOptions } from './venue-error.js'

/**
 * The request did not get a complete HTTP answer: connection refused or reset, DNS
 * failure, socket closed mid-body. Retryable. The transport's error is in `cause`.
 *
 * @example
 * ```ts
 * import { VenueNetworkError } from 'venue-rx'
 *
 * try {
 *   await venue.rest.ping()
 * } catch (error) {
 *   if (!(error instanceof VenueNetworkError)) throw error
 *   console.warn(`no answer (${error.causeCode ?? 'unknown'}), retrying`)
 * }
 * ```
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
