import type { VenueResponseInfo } from './http-error-options.js'
import { VenueError, type VenueErrorOptions } from './venue-error.js'

/**
 * Why authentication failed.
 *
 * @example
 * ```ts
 * import { VenueAuthError, type VenueAuthReason } from 'venue-rx'
 *
 * const hint: Record<VenueAuthReason, string> = {
 *   'missing-key': 'set the apiKey option',
 *   'invalid-key': 'check the key for typos',
 *   unauthorized: 'the key is not accepted (revoked?)',
 *   forbidden: 'the key lacks the permission',
 * }
 * if (error instanceof VenueAuthError) console.error(hint[error.reason])
 * ```
 */
export type VenueAuthReason = 'missing-key' | 'invalid-key' | 'unauthorized' | 'forbidden'

/**
 * The request needs an API key the venue did not accept, or none was configured.
 *
 * Raised before any request when an account method is called without `apiKey`
 * (`reason: 'missing-key'`, `status: undefined`), and from the venue's answers:
 * HTTP 400 `missing API key` / `invalid API key`, 401 and 403. Never retried.
 *
 * @example
 * ```ts
 * import { VenueAuthError } from 'venue-rx'
 *
 * try {
 *   await venue.rest.balances()
 * } catch (error) {
 *   if (error instanceof VenueAuthError) {
 *     // reason: 'missing-key' (no request sent, status undefined), 'invalid-key',
 *     // 'unauthorized' or 'forbidden'
 *     console.error(`auth failed: ${error.reason}, HTTP ${error.status}`)
 *   } else throw error
 * }
 * ```
 */
export class VenueAuthError extends VenueError {
  static override readonly code = 'VENUE_AUTH'
  override readonly code = 'VENUE_AUTH'
  override readonly retryable = false
  override name = 'VenueAuthError'
  /** Why authentication failed. */
  readonly reason: VenueAuthReason
  /** HTTP status, or `undefined` when no request was sent. */
  readonly status: number | undefined
  /** The envelope's message, when the venue answered. */
  readonly venueMessage: string | undefined

  constructor(
    reason: VenueAuthReason,
    message: string,
    info: Partial<VenueResponseInfo> & VenueErrorOptions = {},
  ) {
    super(message, info)
    this.reason = reason
    this.status = info.status
    this.venueMessage = info.venueMessage
  }
}
