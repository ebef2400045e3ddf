import type { Redis } from 'ioredis'
import { connectRedis, type RelayRedis } from '../redis/redis.js'

/**
 * The one Redis connection of a venue's relayed streams: every reader of the venue sends
 * its commands on it (reads never block it: see `followRelay`). It opens when the first
 * reader starts and closes when the last one stops, so an idle venue holds no socket open
 * and a process can exit.
 *
 * @example
 * ```ts
 * const connection = new RelayConnection('redis://127.0.0.1:6379')
 * const release = connection.hold()
 * const redis = await connection.client()
 * await redis.get('venue-rx:...:state')
 * release() // the last holder: the connection closes
 * ```
 */
export class RelayConnection {
  readonly #redis: RelayRedis
  #client: Promise<Redis> | undefined
  #holders = 0

  constructor(redis: RelayRedis) {
    this.#redis = redis
  }

  /** Readers holding the connection open. */
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
      const connecting = connectRedis(this.#redis, 'venue-rx-reader')
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
