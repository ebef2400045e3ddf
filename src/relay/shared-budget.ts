import type { Redis } from 'ioredis'
import { VenueAbortError } from '../errors/venue-abort-error.js'
import { connectRedis, type RelayRedis, relayError } from './redis.js'
import { TAKE_TOKEN } from './scripts.js'

/**
 * The request budget kept in Redis: a token bucket (`rate` a second, `capacity` at most)
 * that every client and relay of one venue and API key takes from, on any host, timed by
 * Redis's clock. One script call per token: atomic, so the fleet as a whole stays under
 * the limit. While Redis is away, `acquire` rejects with a retryable `VenueRelayError` (no
 * request goes out unbudgeted); streams retry it like any failed request.
 */
export class SharedBudget {
  readonly #where: RelayRedis
  readonly #key: string
  readonly #rate: number
  readonly #capacity: number
  #client: Promise<Redis> | undefined
  #closed: { readonly reason: unknown } | undefined

  constructor(where: RelayRedis, key: string, rate: number) {
    this.#where = where
    this.#key = key
    this.#rate = rate
    this.#capacity = Math.max(1, rate)
  }

  /** Resolves once a token is taken; rejects with `VenueAbortError` if `signal` fires first. */
  async acquire(_lane: string, signal?: AbortSignal): Promise<void> {
    for (;;) {
      if (this.#closed !== undefined) throw this.#closed.reason
      if (signal?.aborted) throw new VenueAbortError('aborted while waiting for the request budget')
      let wait: number
      try {
        const client = await this.#connection()
        wait = Number(await client.eval(TAKE_TOKEN, 1, this.#key, this.#rate, this.#capacity))
      } catch (error) {
        const closed = this.#closed as { readonly reason: unknown } | undefined
        if (closed !== undefined) throw closed.reason
        throw relayError('the shared request budget is out of reach', error)
      }
      if (wait <= 0) return
      await sleep(wait, signal)
    }
  }

  /** Rejects every later `acquire` with `reason` and closes the connection. */
  close(reason: unknown): void {
    this.#closed = { reason }
    void this.#client?.then((client) => client.disconnect()).catch(() => undefined)
  }

  #connection(): Promise<Redis> {
    this.#client ??= connectRedis(this.#where, 'venue-rx-budget').catch((error: unknown) => {
      this.#client = undefined
      throw error
    })
    return this.#client
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal?.addEventListener('abort', done, { once: true })
  })
}
