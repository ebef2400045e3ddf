import type { Redis } from 'ioredis'
import { connectRedis, type RelayRedis } from './redis.js'

/**
 * One Redis connection shared by everything of one venue or one relay that talks to Redis
 * (the readers of a venue's relayed streams, whose reads never block it; the publishers of
 * a relay). It opens when the first holder needs it and closes when the last one lets go,
 * so an idle venue holds no socket open and a process can exit. `name` shows in Redis's
 * `CLIENT LIST`.
 *
 * @example
 * ```ts
 * const connection = new RedisConnection('redis://127.0.0.1:6379', 'venue-rx-reader')
 * const release = connection.hold()
 * const redis = await connection.client()
 * await redis.get('venue-rx:...:state')
 * release() // the last holder: the connection closes
 * ```
 */
export class RedisConnection {
  readonly #redis: RelayRedis
  readonly #name: string
  #client: Promise<Redis> | undefined
  #holders = 0

  constructor(redis: RelayRedis, name: string) {
    this.#redis = redis
    this.#name = name
  }

  /** Holders keeping the connection open. */
  get holders(): number {
    return this.#holders
  }

  /** Keeps the connection open until the returned release is called (once). */
  hold(): () => void {
    this.#holders += 1
    let released = false
    return () => {
      if (released) return
      released = true
      this.#holders -= 1
      if (this.#holders === 0) this.#disconnect()
    }
  }

  /**
   * The connected client (connecting on first use). A failed connect is not kept: the next
   * call tries again.
   */
  client(): Promise<Redis> {
    if (this.#client === undefined) {
      const connecting = connectRedis(this.#redis, this.#name)
      this.#client = connecting
      connecting.then(
        // Everyone left while it connected (its release found no client to close yet).
        (client) => this.#client !== connecting && client.disconnect(),
        () => {
          if (this.#client === connecting) this.#client = undefined
        },
      )
    }
    return this.#client
  }

  #disconnect(): void {
    const client = this.#client
    this.#client = undefined
    client?.then(
      (connected) => connected.disconnect(),
      () => undefined,
    )
  }
}
