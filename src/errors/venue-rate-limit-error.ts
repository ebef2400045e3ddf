import type { VenueResponseInfo } from './http-error-options.js'
import { VenueError } from './venue-error.js'

/**
 * HTTP 429: too many requests. Retryable, but never sooner than
 * {@link VenueRateLimitError.retryAfterMs} when the venue sent `Retry-After`.
 *
 * @example
 * ```ts
 * import { VenueRateLimitError } from 'venue-rx'
 *
 * try {
 *   await venue.rest.depth({ poolId: 0 })
 * } catch (error) {
 *   if (!(error instanceof VenueRateLimitError)) throw error
 *   await new Promise((resolve) => setTimeout(resolve, error.retryAfterMs ?? 1_000))
 * }
 * ```
 */
export class VenueRateLimitError extends VenueError {
  static override readonly code = 'VENUE_RATE_LIMITED'
  override readonly code = 'VENUE_RATE_LIMITED'
  override readonly retryable = true
  override name = 'VenueRateLimitError'
  /** HTTP status of the response (429). */
  readonly status: number
  /** Milliseconds to wait, from `Retry-After` (seconds or an HTTP date); `undefined` if absent. */
  readonly retryAfterMs: number | undefined
  /** The envelope's message, when the body had one. */
  readonly venueMessage: string | undefined

  constructor(message: string, info: VenueResponseInfo & { retryAfterMs?: number | undefined }) {
    super(message, info)
    this.status = info.status
    this.retryAfterMs = info.retryAfterMs
    this.venueMessage = info.venueMessage
  }
}
