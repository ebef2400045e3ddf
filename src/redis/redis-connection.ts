import { Secrets } from '../errors/secrets.js'
import type { VenueRelayError } from '../errors/venue-relay-error.js'
import {
  connectRedis,
  describeRedis,
  type RedisClient,
  type RelayRedis,
  redisSecrets,
  relayError,
} from './redis.js'

/**
 * One Redis connection shared by everything that talks to Redis for one purpose: the
 * publishers of a relay; the reads of relayed streams, which never block it (every venue
 * of a process reading from one Redis URL, see {@link sharedConnection}); the blocking
 * read that wakes them, on a connection of its own. It opens when the first holder needs
 * it and closes when the last one lets go, so an idle venue holds no socket open and a
 * process can exit. `name` shows in Redis's `CLIENT LIST`.
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
  /** Whether the client sends one command at a time to one slot (see {@link connectRedis}). */
  readonly #oneSlot: boolean
  #client: Promise<RedisClient> | undefined
  #holders = 0
  /** The latest error the connection reported (why it is down, when it is). */
  #reason: unknown

  constructor(redis: RelayRedis, name: string, options: { readonly oneSlot?: boolean } = {}) {
    this.#redis = redis
    this.#name = name
    this.#oneSlot = options.oneSlot ?? false
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
  client(): Promise<RedisClient> {
    if (this.#client === undefined) {
      const connecting = connectRedis(
        this.#redis,
        this.#name,
        (error) => {
          this.#reason = error
        },
        this.#oneSlot,
      )
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

  /**
   * Runs `command` on the client. Its failure (or the connect's) is a retryable
   * `VenueRelayError` naming Redis's address and, while the connection is down, why (a
   * command then fails with only "Connection is closed").
   *
   * @example
   * ```ts
   * const state = await connection.run((redis) => redis.get(keys.state))
   * ```
   */
  async run<R>(command: (redis: RedisClient) => Promise<R>): Promise<R> {
    const redis = await this.client()
    try {
      return await command(redis)
    } catch (error) {
      throw this.#failure(redis, error)
    }
  }

  #failure(redis: RedisClient, error: unknown): VenueRelayError {
    const where = `Redis at ${describeRedis(this.#redis)}`
    const reason = this.#reason
    const secrets = new Secrets(redisSecrets(this.#redis))
    if (redis.status === 'ready' || !(reason instanceof Error)) {
      return relayError(where, error, secrets)
    }
    const message = error instanceof Error ? error.message : String(error)
    return relayError(`${where}: ${message.replace(/\.$/, '')}`, reason, secrets)
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

/** The shared connections of this process, by name and Redis URL. */
const shared = new Map<string, RedisConnection>()

/**
 * The connection named `name` to the Redis at URL `redis` that this process shares: every
 * venue of the process reading relayed streams from the same URL holds the same one (it
 * opens with the first holder and closes when the last lets go, as any). Given ioredis
 * options, a new connection of its own.
 */
export function sharedConnection(redis: RelayRedis, name: string): RedisConnection {
  if (typeof redis !== 'string') return new RedisConnection(redis, name)
  const key = `${name}\n${redis}`
  let connection = shared.get(key)
  if (connection === undefined) {
    connection = new RedisConnection(redis, name)
    shared.set(key, connection)
  }
  return connection
}
