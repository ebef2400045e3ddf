import { VenueAbortError } from '../errors/venue-abort-error.js'
import { connectRedis, type RedisClient, type RelayRedis, relayError } from '../redis/redis.js'
import { clampDelay, realTimers, type TimerProvider } from '../timers.js'
import { LaneQueue } from '../transport/lane-queue.js'
import type { AbortSignalLike } from '../transport/transport.js'
import { TAKE_TOKEN } from './take-token.js'

/**
 * The request budget kept in Redis: a token bucket (`rate` a second, `capacity` at most)
 * that every client and relay of one venue and API key takes from, on any host, timed by
 * Redis's clock. One script call per token: atomic, so the fleet as a whole stays under
 * the limit. While Redis is away, `acquire` rejects with a retryable `VenueRelayError` (no
 * request goes out unbudgeted); streams retry it like any failed request.
 *
 * Within this process, requests wait in lanes served round-robin as by the local
 * `TokenBucket`: one token is taken from Redis at a time, for the next waiter of the round,
 * so one busy stream cannot starve another. Waits between tokens run on `timers` (the
 * venue's scheduler when it has one; real time by default).
 *
 * @example
 * ```ts
 * const budget = new SharedBudget('redis://127.0.0.1:6379', budgetKey(prefix, baseUrl, key), 10)
 * await budget.acquire('watchPools()')
 * budget.close(new VenueAbortError('the venue is closed'))
 * ```
 */
export class SharedBudget {
  readonly #where: RelayRedis
  readonly #key: string
  readonly #rate: number
  readonly #capacity: number
  readonly #timers: TimerProvider
  readonly #lanes = new LaneQueue({
    aborted: () => new VenueAbortError('aborted while waiting for the request budget'),
    // The last waiter left: no token to wait for.
    emptied: () => this.#wake?.(),
  })
  /** Whether the loop taking tokens for the waiters runs (one at a time). */
  #serving = false
  /** Ends the current wait for Redis's next token early. */
  #wake: (() => void) | undefined
  #client: Promise<RedisClient> | undefined
  #closed: { readonly reason: unknown } | undefined

  constructor(
    where: RelayRedis,
    key: string,
    rate: number,
    options: { readonly timers?: TimerProvider } = {},
  ) {
    this.#where = where
    this.#key = key
    this.#rate = rate
    this.#capacity = Math.max(1, rate)
    this.#timers = options.timers ?? realTimers
  }

  /** Requests waiting for a token, across all lanes. */
  get waiting(): number {
    return this.#lanes.waiting
  }

  /** Resolves once a token is taken for `lane`; rejects with `VenueAbortError` if `signal` fires first. */
  acquire(lane: string, signal?: AbortSignalLike): Promise<void> {
    if (this.#closed !== undefined) return Promise.reject(this.#closed.reason)
    if (signal?.aborted) {
      return Promise.reject(new VenueAbortError('aborted while waiting for the request budget'))
    }
    const granted = this.#lanes.wait(lane, signal)
    if (!this.#serving) void this.#serve()
    return granted
  }

  /** Rejects every waiter and every later `acquire` with `reason` and closes the connection. */
  close(reason: unknown): void {
    this.#closed = { reason }
    this.#wake?.()
    this.#lanes.rejectAll(() => reason)
    void this.#client?.then((client) => client.disconnect()).catch(() => undefined)
  }

  /** Takes tokens from Redis, one at a time, for the waiters in round-robin order. */
  async #serve(): Promise<void> {
    this.#serving = true
    try {
      while (this.#closed === undefined && !this.#lanes.empty) {
        let wait: number
        try {
          const client = await this.#connection()
          wait = this.#waitOf(
            await client.eval(TAKE_TOKEN, 1, this.#key, this.#rate, this.#capacity),
          )
        } catch (error) {
          // Closed meanwhile: `close` rejected the waiters. Otherwise Redis is out of reach
          // for every waiter alike: each is told, and retries as its caller does.
          if (this.#closed === undefined) {
            this.#lanes.rejectAll(() =>
              relayError('the shared request budget is out of reach', error),
            )
          }
          return
        }
        // A token taken while the last waiter left (aborted) is spent unused.
        if (wait <= 0) this.#lanes.serveNext()
        else await this.#pause(wait)
      }
    } finally {
      this.#serving = false
    }
  }

  /**
   * The wait Redis answered, in ms, as the local `TokenBucket` would wait: never more than
   * one token takes at this budget's rate (its bucket never holds less than none), within
   * what a timer keeps. Anything but a number is a failure: treated as 0 (a token), it
   * would turn the loop into a hot one that spends the fleet's budget.
   */
  #waitOf(reply: unknown): number {
    const wait = typeof reply === 'number' ? reply : Number.NaN
    if (Number.isNaN(wait)) {
      throw new Error(`unexpected answer of the budget script: ${typeof reply}`)
    }
    if (wait <= 0) return 0
    return clampDelay(Math.min(wait, Math.ceil(1000 / this.#rate)))
  }

  /** Waits `ms` on the timers, or until woken (the waiters left, or the budget closed). */
  #pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      let timer: unknown
      const end = () => {
        this.#timers.clearTimeout(timer)
        this.#wake = undefined
        resolve()
      }
      timer = this.#timers.setTimeout(end, ms)
      this.#wake = end
    })
  }

  #connection(): Promise<RedisClient> {
    if (this.#client === undefined) {
      // A local first: typed by the assignment, the compiler would infer the catch's result
      // against the client's type and compare ioredis's client classes member by member.
      const connecting = connectRedis(this.#where, 'venue-rx-budget').catch((error: unknown) => {
        this.#client = undefined
        throw error
      })
      this.#client = connecting
    }
    return this.#client
  }
}
