import { randomBytes } from 'node:crypto'
import type { Redis } from 'ioredis'
import type { Subscription } from 'rxjs'
import { backoffDelay } from '../core/retry-backoff.js'
import { VenueInputError } from '../errors/venue-input-error.js'
import type { VenueOptions } from '../options.js'
import {
  checkRedis,
  DEFAULT_PREFIX,
  type RelayKeys,
  type RelayRedis,
  relayError,
  relayKeys,
} from '../redis/redis.js'
import { RedisConnection } from '../redis/redis-connection.js'
import { parseRelayStream, type RelayStream, relayStreamName } from '../redis/stream-names.js'
import type { RelaySources } from '../streams/relay-sources.js'
import { realTimers, schedulerTimers, type TimerProvider } from '../timers.js'
import { createRelayVenue, type Venue } from '../venue.js'
import { ACQUIRE, RELEASE, runPublish } from './scripts.js'
import {
  type InOrder,
  type Outgoing,
  type Publish,
  streamSource,
  takeoverOf,
} from './stream-sources.js'

/**
 * Settings of {@link startRelay}: the venue's options (the relay polls with them, under
 * one request budget) and where and what to publish. Of the venue's options, `relay`
 * (read streams from a relay) is refused with `VenueInputError`: a relay polls the venue.
 * `sharedBudget` is taken: the relay's requests then count against the fleet's budget.
 *
 * @example
 * ```ts
 * import type { RelayOptions } from 'venue-rx/relay'
 *
 * const options: RelayOptions = {
 *   baseUrl: 'http://127.0.0.1:8787',
 *   apiKey: process.env.VENUE_API_KEY,
 *   redis: 'redis://127.0.0.1:6379',
 *   streams: ['depth:1', 'my-trades', 'balances'],
 * }
 * ```
 */
export interface RelayOptions extends VenueOptions {
  /** Where Redis is. */
  readonly redis: RelayRedis
  /** The streams to publish, by name (see {@link parseRelayStream}). */
  readonly streams: readonly string[]
  /** First part of every Redis key. Default `venue-rx`; consumers must use the same. */
  readonly prefix?: string
  /**
   * A standby takes a stream over at most this long after its relay died, ms. The lease in
   * Redis lasts three quarters of it and is renewed every quarter (two renewals may fail
   * before it runs out); a standby tries for it every tenth. Default 5,000.
   */
  readonly leaseMs?: number
  /**
   * Entries kept per Redis stream: once it holds a tenth more, the oldest are trimmed.
   * Default 10,000.
   */
  readonly maxLen?: number
  /** This relay's id in the leases. Default a random one. */
  readonly relayId?: string
}

/**
 * A running relay.
 *
 * @example
 * ```ts
 * import { startRelay } from 'venue-rx/relay'
 *
 * const relay = await startRelay({ baseUrl, apiKey, redis: 'redis://127.0.0.1:6379', streams: ['my-trades'] })
 * console.log(relay.status()) // { 'my-trades': 'active' } once it holds the lease
 * await relay.close()
 * ```
 */
export interface Relay {
  /** This relay's id in the leases. */
  readonly id: string
  /** Per stream name: `active` (this relay publishes it) or `standby`. */
  status(): Readonly<Record<string, 'active' | 'standby'>>
  /** The venue the relay polls through (its `health` shows the polled streams). */
  readonly venue: Venue
  /** Stops publishing, gives the leases up (a standby takes over at once) and closes. */
  close(): Promise<void>
}

const DEFAULT_LEASE_MS = 5_000
const DEFAULT_MAX_LEN = 10_000

/**
 * Starts a relay: for each stream, it waits for the stream's lease in Redis, then polls the
 * venue once for the whole fleet and publishes each event to a Redis stream (XADD, trimmed
 * to about `maxLen` entries), fenced by the lease so that only one relay ever publishes a stream. A
 * standby relay takes a stream over when its lease runs out (its relay died) and goes on
 * from the last entry published: feeds lose and repeat nothing, books keep their `seq`
 * chain (a snapshot first). Consumers read the streams with `createVenue({ relay })`.
 *
 * @example
 * ```ts
 * import { startRelay } from 'venue-rx/relay'
 *
 * const relay = await startRelay({
 *   baseUrl: 'http://127.0.0.1:8787',
 *   apiKey: process.env.VENUE_API_KEY,
 *   redis: 'redis://127.0.0.1:6379',
 *   streams: ['depth:1', 'trades:1', 'my-trades', 'fills', 'balances'],
 * })
 * process.once('SIGTERM', () => void relay.close())
 * ```
 */
export async function startRelay(options: RelayOptions): Promise<Relay> {
  if (typeof options !== 'object' || options === null) {
    throw new VenueInputError('options', 'startRelay: options must be an object')
  }
  if (options.relay !== undefined) {
    throw new VenueInputError(
      'relay',
      'startRelay: the relay option is not taken: a relay polls the venue, it does not read from a relay',
    )
  }
  const { redis, streams, prefix, leaseMs, maxLen, relayId, ...venueOptions } = options
  const where = checkRedis('redis', redis)
  if (!Array.isArray(streams) || streams.length === 0) {
    throw new VenueInputError('streams', 'startRelay: streams must name at least one stream')
  }
  const parsed = streams.map(parseRelayStream)
  const names = parsed.map(relayStreamName)
  const twice = names.find((name, i) => names.indexOf(name) !== i)
  if (twice !== undefined) {
    throw new VenueInputError('streams', `startRelay: the stream ${twice} is named twice`)
  }
  const settings = {
    prefix: checkPrefix(prefix),
    leaseMs: positiveInteger('leaseMs', leaseMs, DEFAULT_LEASE_MS, 100),
    maxLen: positiveInteger('maxLen', maxLen, DEFAULT_MAX_LEN, 100),
    id: relayId === undefined ? randomBytes(8).toString('hex') : checkId(relayId),
    // The venue's clock: its `scheduler` when one is given.
    timers:
      venueOptions.scheduler === undefined ? realTimers : schedulerTimers(venueOptions.scheduler),
  }
  const { venue, sources } = createRelayVenue(venueOptions)
  const scope = {
    prefix: settings.prefix,
    baseUrl: venue.settings.baseUrl,
    marketData: venue.settings.marketData,
    apiKey: venueOptions.apiKey,
  }
  // Keys first: an account stream without an API key is refused before anything starts.
  const keyed = parsed.map((stream) => ({ stream, keys: relayKeys(scope, stream) }))
  const connection = new RedisConnection(where, 'venue-rx-relay')
  const release = connection.hold()
  const publishers = keyed.map(
    ({ stream, keys }) =>
      new StreamPublisher(stream, keys, { venue, sources }, connection, settings),
  )
  for (const publisher of publishers) publisher.start()
  let closing: Promise<void> | undefined
  return {
    id: settings.id,
    venue,
    status: () =>
      Object.freeze(Object.fromEntries(publishers.map((p) => [p.name, p.state] as const))),
    close: () => {
      closing ??= (async () => {
        await Promise.all(publishers.map((publisher) => publisher.stop()))
        release()
        await venue.close()
      })()
      return closing
    },
  }
}

interface PublisherSettings {
  readonly leaseMs: number
  readonly maxLen: number
  readonly id: string
  readonly timers: TimerProvider
}

/** Publishes one stream while this relay holds its lease; waits as a standby otherwise. */
class StreamPublisher {
  readonly name: string
  state: 'active' | 'standby' = 'standby'
  readonly #stream: RelayStream
  readonly #keys: RelayKeys
  readonly #venue: Venue
  readonly #sources: RelaySources
  readonly #connection: RedisConnection
  readonly #settings: PublisherSettings
  #stopped = false
  #running: Promise<void> | undefined
  /** Ends the current session (lease lost, failure, stop). */
  #endSession: ((error?: unknown) => void) | undefined
  #wake: (() => void) | undefined
  /** Whether this relay took the lease last time it tried (it gives it up on stop). */
  #holding = false
  /** The publishes of the session, one after the other. */
  #publishing: Promise<unknown> = Promise.resolve()

  constructor(
    stream: RelayStream,
    keys: RelayKeys,
    { venue, sources }: { readonly venue: Venue; readonly sources: RelaySources },
    connection: RedisConnection,
    settings: PublisherSettings,
  ) {
    this.#stream = stream
    this.name = relayStreamName(stream)
    this.#keys = keys
    this.#venue = venue
    this.#sources = sources
    this.#connection = connection
    this.#settings = settings
  }

  start(): void {
    this.#running = this.#loop()
  }

  async stop(): Promise<void> {
    this.#stopped = true
    this.#wake?.()
    this.#endSession?.()
    await this.#running
    if (this.state === 'active' || this.#holding) {
      try {
        const redis = await this.#connection.client()
        await redis.eval(RELEASE, 1, this.#keys.lease, this.#settings.id)
      } catch {
        // Redis is away: the lease runs out by itself.
      }
    }
    this.state = 'standby'
  }

  #sleep(ms: number): Promise<void> {
    const { timers } = this.#settings
    return new Promise((resolve) => {
      const timer = timers.setTimeout(resolve, ms)
      this.#wake = () => {
        timers.clearTimeout(timer)
        resolve()
      }
    })
  }

  async #loop(): Promise<void> {
    const { leaseMs, id } = this.#settings
    let failures = 0
    while (!this.#stopped) {
      try {
        const redis = await this.#connection.client()
        const held = await redis.eval(ACQUIRE, 1, this.#keys.lease, id, leaseTtl(leaseMs))
        if (held !== 1) {
          this.#holding = false
          await this.#sleep(Math.max(10, Math.floor(leaseMs / 10)))
          continue
        }
        this.#holding = true
        failures = 0
        await this.#session(redis)
        // The lease was lost, or the stream ended: a pause before trying again.
        if (!this.#stopped) await this.#sleep(Math.max(10, Math.floor(leaseMs / 10)))
      } catch {
        if (this.#stopped) break
        failures += 1
        this.state = 'standby'
        await this.#sleep(
          backoffDelay(failures, Math.min(100, leaseMs), Math.min(2_000, leaseMs), 2),
        )
      }
    }
  }

  /** Publishes while the lease holds; resolves when it is lost, rejects on a failure. */
  async #session(redis: Redis): Promise<void> {
    const { leaseMs, id } = this.#settings
    // Where the last relay left the stream, to go on from there.
    const takeover = await takeoverOf(redis, this.#stream, this.#keys)
    this.state = 'active'
    let subscription: Subscription | undefined
    const { timers } = this.#settings
    let renewal: unknown
    const ended = new Promise<void>((resolve, reject) => {
      this.#endSession = (error) => (error === undefined ? resolve() : reject(error))
    })
    // Renews the lease every quarter of leaseMs, on the venue's clock.
    const renew = () => {
      renewal = timers.setTimeout(
        () => {
          redis.eval(ACQUIRE, 1, this.#keys.lease, id, leaseTtl(leaseMs)).then(
            (held) => {
              if (held !== 1) this.#endSession?.()
            },
            (error: unknown) => this.#endSession?.(error),
          )
          renew()
        },
        Math.max(10, Math.floor(leaseMs / 4)),
      )
    }
    try {
      renew()
      const publish: Publish = (entries) => this.#publish(redis, entries)
      const inOrder: InOrder = (step) => {
        this.#publishing = this.#publishing.then(step)
        this.#publishing.catch((error: unknown) => this.#endSession?.(error))
      }
      const events = streamSource(
        this.#stream,
        this.#venue,
        this.#sources,
        takeover,
        publish,
        inOrder,
      )
      subscription = events.subscribe({
        error: (error: unknown) => this.#endSession?.(error),
        complete: () => this.#endSession?.(),
      })
      await ended
    } finally {
      timers.clearTimeout(renewal)
      subscription?.unsubscribe()
      this.#endSession = undefined
      // A publish still under way lands before the next session reads where to go on from.
      await this.#publishing.catch(() => undefined)
      this.#publishing = Promise.resolve()
      this.state = 'standby'
    }
  }

  /**
   * Publishes the events of one poll in one round trip (one EVALSHA, fenced by the lease,
   * see `PUBLISH`). Resolves true when written (an explicit id at or before the last entry
   * is skipped: already there); false when the lease is lost, which ends the session.
   */
  async #publish(redis: Redis, entries: readonly Outgoing[]): Promise<boolean> {
    if (entries.length === 0) return true
    const keys = this.#keys
    const args: (string | number)[] = [
      keys.stream,
      keys.state,
      keys.lease,
      keys.floor,
      this.#settings.id,
      this.#settings.maxLen,
    ]
    for (const { id, event, state } of entries) args.push(id, JSON.stringify(event), state)
    let result: unknown
    try {
      result = await runPublish(redis, args)
    } catch (error) {
      throw relayError(`relay: cannot publish ${this.name}`, error)
    }
    if (result === 'lost') {
      this.#endSession?.()
      return false
    }
    return true
  }
}

/** How long the lease key lives: a standby trying every tenth of `leaseMs` is in time. */
const leaseTtl = (leaseMs: number) => Math.floor(leaseMs * 0.75)

function checkPrefix(prefix: unknown): string {
  if (prefix === undefined) return DEFAULT_PREFIX
  if (typeof prefix !== 'string' || !/^[\w.-]{1,64}$/.test(prefix)) {
    throw new VenueInputError('prefix', 'startRelay: prefix must be 1-64 letters, digits, _ . -')
  }
  return prefix
}

function checkId(id: unknown): string {
  if (typeof id !== 'string' || !/^[\w.-]{1,64}$/.test(id)) {
    throw new VenueInputError('relayId', 'startRelay: relayId must be 1-64 letters, digits, _ . -')
  }
  return id
}

function positiveInteger(name: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new VenueInputError(name, `startRelay: ${name} must be an integer of at least ${min}`)
  }
  return value
}
