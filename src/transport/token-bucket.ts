import { VenueAbortError } from '../errors/venue-abort-error.js'
import { clampDelay, realTimers, type TimerProvider } from '../timers.js'
import { LaneQueue } from './lane-queue.js'
import type { AbortSignalLike } from './transport.js'

/**
 * A token bucket shared by every request of one venue: `ratePerSecond` tokens a second,
 * bursts up to `capacity` (default: one second's worth, at least 1).
 *
 * Requests wait for a token instead of failing. Waiters are grouped in lanes (one per
 * stream, one for plain REST calls) and served round-robin, so one busy stream cannot
 * starve another; within a lane, first come first served.
 *
 * @example
 * ```ts
 * const bucket = new TokenBucket(10)
 * await bucket.acquire('watchPools')  // resolves at once while tokens last
 * ```
 */
export class TokenBucket {
  readonly #rate: number
  readonly #capacity: number
  readonly #timers: TimerProvider
  #tokens: number
  #refilledAt: number
  readonly #lanes = new LaneQueue({
    aborted: (signal) => this.#aborted(signal),
    // The last waiter left: no refill to wait for.
    emptied: () => {
      this.#timers.clearTimeout(this.#timer)
      this.#timer = undefined
    },
  })
  #timer: unknown
  /** Set by `close`: later `acquire` calls reject with its reason. */
  #closed: { readonly reason: unknown } | undefined

  constructor(ratePerSecond: number, options: { capacity?: number; timers?: TimerProvider } = {}) {
    this.#rate = ratePerSecond
    this.#capacity = options.capacity ?? Math.max(1, ratePerSecond)
    this.#timers = options.timers ?? realTimers
    this.#tokens = this.#capacity
    this.#refilledAt = this.#timers.now()
  }

  /** Requests waiting for a token, across all lanes. */
  get waiting(): number {
    return this.#lanes.waiting
  }

  /** Resolves when a token is taken for `lane`; rejects with `VenueAbortError` if `signal` fires first. */
  acquire(lane: string, signal?: AbortSignalLike): Promise<void> {
    if (this.#closed !== undefined) return Promise.reject(this.#closed.reason)
    if (signal?.aborted) return Promise.reject(this.#aborted(signal))
    this.#refill()
    if (this.#lanes.empty && this.#tokens >= 1) {
      this.#tokens -= 1
      return Promise.resolve()
    }
    const granted = this.#lanes.wait(lane, signal)
    this.#drain()
    return granted
  }

  /** Rejects every waiter and every later `acquire` (the venue closed), and stops the refill timer. */
  close(reason: unknown): void {
    this.#closed = { reason }
    this.#timers.clearTimeout(this.#timer)
    this.#timer = undefined
    this.#lanes.rejectAll(() => reason)
  }

  #refill(): void {
    const now = this.#timers.now()
    this.#tokens = Math.min(
      this.#capacity,
      this.#tokens + ((now - this.#refilledAt) * this.#rate) / 1000,
    )
    this.#refilledAt = now
  }

  #drain(): void {
    this.#refill()
    while (this.#tokens >= 1 && this.#lanes.serveNext()) this.#tokens -= 1
    if (!this.#lanes.empty && this.#timer === undefined) {
      // Clamped: a very low rate would otherwise ask for a wait no timer keeps.
      const waitMs = clampDelay(Math.ceil(((1 - this.#tokens) * 1000) / this.#rate))
      this.#timer = this.#timers.setTimeout(() => {
        this.#timer = undefined
        this.#drain()
      }, waitMs)
    }
  }

  #aborted(signal: AbortSignalLike): VenueAbortError {
    return new VenueAbortError('aborted by the caller while waiting for the request budget', {
      cause: signal.reason,
    })
  }
}
