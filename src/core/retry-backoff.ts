import {
  defer,
  type MonoTypeOperatorFunction,
  retry,
  type SchedulerLike,
  tap,
  throwError,
  timer,
} from 'rxjs'
import { VenueError } from '../errors/venue-error.js'
import { VenueRateLimitError } from '../errors/venue-rate-limit-error.js'
import { VenueServerError } from '../errors/venue-server-error.js'
import { clampDelay } from '../timers.js'

/**
 * Retry delays of streams: exponential with full jitter, capped.
 *
 * @example
 * ```ts
 * const venue = createVenue({
 *   baseUrl: 'http://127.0.0.1:8787',
 *   // streams retry after up to 250 ms, 750 ms, 2.25 s ... at most 10 s
 *   backoff: { initialMs: 250, maxMs: 10_000, factor: 3, jitter: true },
 * })
 * ```
 */
export interface BackoffOptions {
  /** First delay in ms. Default 500. */
  readonly initialMs?: number
  /** Largest delay in ms. Default 30,000. */
  readonly maxMs?: number
  /** Growth per attempt, at least 1. Default 2. */
  readonly factor?: number
  /** `true` (default) draws each delay uniformly from 0..computed delay ("full jitter"). */
  readonly jitter?: boolean
}

/**
 * One retry about to happen, as reported to `onRetry`.
 *
 * @example
 * ```ts
 * import { type RetryNotice, retryBackoff } from 'venue-rx/operators'
 *
 * source.pipe(
 *   retryBackoff({
 *     initialMs: 500,
 *     maxMs: 30_000,
 *     factor: 2,
 *     onRetry: ({ attempt, delayMs, error }: RetryNotice) =>
 *       console.warn(`retry ${attempt} in ${delayMs} ms:`, error),
 *   }),
 * )
 * ```
 */
export interface RetryNotice {
  /** 1 for the first retry after a success (or after the start). */
  readonly attempt: number
  /** The wait before the retry, in ms. */
  readonly delayMs: number
  /** The error that caused it. */
  readonly error: unknown
}

/**
 * Settings of {@link retryBackoff}.
 *
 * @example
 * ```ts
 * import { fromRequest, type RetryBackoffOptions, retryBackoff } from 'venue-rx/operators'
 *
 * const options: RetryBackoffOptions = {
 *   initialMs: 500,
 *   maxMs: 30_000,
 *   factor: 2,
 *   // an unknown order is a 500 'service internal error' too: give up after 3 of them
 *   maxAmbiguousRetries: 3,
 *   onRetry: ({ attempt, delayMs }) => console.warn(`retry ${attempt} in ${delayMs} ms`),
 * }
 * fromRequest((signal) => venue.rest.order('0-25-0', { signal })).pipe(retryBackoff(options))
 * ```
 */
export interface RetryBackoffOptions {
  /** First delay before jitter, ms. */
  readonly initialMs: number
  /** Largest delay before jitter, ms. */
  readonly maxMs: number
  /** Growth per attempt (>= 1). */
  readonly factor: number
  /** Full jitter: each delay is drawn uniformly from 0..computed. Default true. */
  readonly jitter?: boolean
  /** Source of randomness in [0, 1). Default `Math.random`. */
  readonly random?: () => number
  /**
   * How many times in a row the ambiguous 500 `service internal error` is retried before
   * it ends the stream. Default: unbounded. Single-resource streams set a small bound:
   * the live service answers an unknown order with that same 500.
   */
  readonly maxAmbiguousRetries?: number
  /** Decides whether an error is retried. Default: `VenueError#retryable`, others not. */
  readonly isRetryable?: (error: unknown) => boolean
  /**
   * The longest wait before the next retry, asked for before each wait (a deadline drawing
   * near, a cadence the retries must keep); applied last, over a 429's Retry-After too.
   * Default: no bound but `maxMs`.
   *
   * @example
   * ```ts
   * const deadline = Date.now() + 10_000
   * // Retried with the backoff, but never past the deadline, and at least once a second.
   * retryBackoff({ initialMs: 500, maxMs: 30_000, waitAtMostMs: () => Math.min(1_000, deadline - Date.now()) })
   * ```
   */
  readonly waitAtMostMs?: () => number
  /** Called before each wait (health reporting). */
  readonly onRetry?: (notice: RetryNotice) => void
  /** Scheduler of the waits (tests). */
  readonly scheduler?: SchedulerLike
}

/** The delay before retry number `attempt` (1-based), before jitter and Retry-After. */
export function backoffDelay(
  attempt: number,
  initialMs: number,
  maxMs: number,
  factor: number,
): number {
  return Math.min(maxMs, initialMs * factor ** (attempt - 1))
}

/**
 * Retries with exponential backoff and full jitter, capped at `maxMs`; the attempt count
 * resets after every value, so a stream that recovers starts again from `initialMs`.
 * A 429's `retryAfterMs` is honoured: the wait is never shorter (only `waitAtMostMs`
 * bounds it). Errors that are not retryable (input, auth, not found, other 4xx, schema
 * drift) pass through at once.
 *
 * @example
 * ```ts
 * source.pipe(retryBackoff({ initialMs: 500, maxMs: 30_000, factor: 2, jitter: false }))
 * // failures wait 500, 1000, 2000, 4000 ... 30000, 30000 ms; a success resets to 500
 * ```
 */
export function retryBackoff<T>(options: RetryBackoffOptions): MonoTypeOperatorFunction<T> {
  const {
    initialMs,
    maxMs,
    factor,
    jitter = true,
    random = Math.random,
    maxAmbiguousRetries = Number.POSITIVE_INFINITY,
    isRetryable = (error: unknown) => error instanceof VenueError && error.retryable,
    waitAtMostMs,
    onRetry,
    scheduler,
  } = options
  return (source) =>
    defer(() => {
      // Per subscription: reset by every value, like retry's own attempt count.
      let ambiguousInARow = 0
      return source.pipe(
        tap(() => {
          ambiguousInARow = 0
        }),
        retry<T>({
          resetOnSuccess: true,
          delay: (error: unknown, attempt: number) => {
            if (!isRetryable(error)) return throwError(() => error)
            if (error instanceof VenueServerError && error.ambiguous) {
              ambiguousInARow += 1
              if (ambiguousInARow > maxAmbiguousRetries) return throwError(() => error)
            } else {
              ambiguousInARow = 0
            }
            const computed = backoffDelay(attempt, initialMs, maxMs, factor)
            let delayMs = jitter ? Math.floor(random() * computed) : computed
            if (error instanceof VenueRateLimitError && error.retryAfterMs !== undefined) {
              delayMs = Math.max(delayMs, error.retryAfterMs)
            }
            // A Retry-After of weeks is beyond what a timer keeps (it would fire at once):
            // the wait is clamped, and the wait reported is the one that really happens.
            delayMs = clampDelay(delayMs)
            if (waitAtMostMs !== undefined) delayMs = clampDelay(Math.min(delayMs, waitAtMostMs()))
            onRetry?.({ attempt, delayMs, error })
            return timer(delayMs, scheduler as SchedulerLike)
          },
        }),
      )
    })
}
