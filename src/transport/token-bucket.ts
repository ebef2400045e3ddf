import { VenueAbortError } from '../errors/venue-abort-error.js'
import { clampDelay, realTimers, type TimerProvider } from '../timers.js'

interface Waiter {
  readonly resolve: () => void
  readonly reject: (error: unknown) => void
  readonly cleanup: () => void
}

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
  /** Lanes with waiters, in round-robin order: the first lane is served next. */
  readonly #lanes = new Map<string, Waiter[]>()
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
    let count = 0
    for (const queue of this.#lanes.values()) count += queue.length
    return count
  }

  /** Resolves when a token is taken for `lane`; rejects with `VenueAbortError` if `signal` fires first. */
  acquire(lane: string, signal?: AbortSignal): Promise<void> {
    if (this.#closed !== undefined) return Promise.reject(this.#closed.reason)
    if (signal?.aborted) return Promise.reject(this.#aborted(signal))
    this.#refill()
    if (this.#lanes.size === 0 && this.#tokens >= 1) {
      this.#tokens -= 1
      return Promise.resolve()
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.#remove(lane, waiter)
        reject(this.#aborted(signal as AbortSignal))
      }
      const waiter: Waiter = {
        resolve,
        reject,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      const queue = this.#lanes.get(lane)
      if (queue === undefined) this.#lanes.set(lane, [waiter])
      else queue.push(waiter)
      this.#drain()
    })
  }

  /** Rejects every waiter and every later `acquire` (the venue closed), and stops the refill timer. */
  close(reason: unknown): void {
    this.#closed = { reason }
    this.#timers.clearTimeout(this.#timer)
    this.#timer = undefined
    for (const queue of this.#lanes.values()) {
      for (const waiter of queue) {
        waiter.cleanup()
        waiter.reject(reason)
      }
    }
    this.#lanes.clear()
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
    while (this.#tokens >= 1) {
      const next = this.#lanes.entries().next()
      if (next.done) return
      const [lane, queue] = next.value
      const waiter = queue.shift() as Waiter
      // Rotate: the lane just served goes to the back of the round.
      this.#lanes.delete(lane)
      if (queue.length > 0) this.#lanes.set(lane, queue)
      this.#tokens -= 1
      waiter.cleanup()
      waiter.resolve()
    }
    if (this.#lanes.size > 0 && this.#timer === undefined) {
      // Clamped: a very low rate would otherwise ask for a wait no timer keeps.
      const waitMs = clampDelay(Math.ceil(((1 - this.#tokens) * 1000) / this.#rate))
      this.#timer = this.#timers.setTimeout(() => {
        this.#timer = undefined
        this.#drain()
      }, waitMs)
    }
  }

  #remove(lane: string, waiter: Waiter): void {
    const queue = this.#lanes.get(lane)
    if (queue === undefined) return
    const index = queue.indexOf(waiter)
    if (index !== -1) queue.splice(index, 1)
    waiter.cleanup()
    if (queue.length === 0) this.#lanes.delete(lane)
    if (this.#lanes.size === 0) {
      this.#timers.clearTimeout(this.#timer)
      this.#timer = undefined
    }
  }

  #aborted(signal: AbortSignal): VenueAbortError {
    return new VenueAbortError('aborted by the caller while waiting for the request budget', {
      cause: signal.reason,
    })
  }
}
