import { randomBytes } from 'node:crypto'
import type { Redis } from 'ioredis'
import type { Observable, Subscription } from 'rxjs'
import { HealthBoard, type HealthReport } from '../core/health.js'
import { backoffDelay } from '../core/retry-backoff.js'
import { Secrets } from '../errors/secrets.js'
import { redactError, VenueError } from '../errors/venue-error.js'
import { VenueInputError } from '../errors/venue-input-error.js'
import { VenueRelayError } from '../errors/venue-relay-error.js'
import type { VenueOptions } from '../options.js'
import {
  checkRedis,
  DEFAULT_PREFIX,
  type RelayKeys,
  type RelayRedis,
  redisSecrets,
  relayError,
  relayKeys,
} from '../redis/redis.js'
import { RedisConnection } from '../redis/redis-connection.js'
import { parseRelayStream, type RelayStream, relayStreamName } from '../redis/stream-names.js'
import type { RelaySources } from '../streams/relay-sources.js'
import { realTimers, schedulerTimers, type TimerProvider } from '../timers.js'
import { createRelayVenue, type Venue } from '../venue.js'
import { PublishPipeline } from './publish-pipeline.js'
import { type IntegerLimits, RELAY_LIMITS } from './relay-limits.js'
import { checkMetricsOptions, RelayMetrics, serveMetrics } from './relay-metrics.js'
import { ACQUIRE, RELEASE, RENEW } from './scripts.js'
import { type InOrder, type Publish, streamSource, takeoverOf } from './stream-sources.js'

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
  /**
   * Serves Prometheus metrics at `http://<metricsHost>:<metricsPort>/metrics` (0: any free
   * port; see {@link Relay.metricsUrl}), closed by `close()`. Without it, no server is
   * started; {@link Relay.metrics} gives the same text either way. A port that is not an
   * integer 0-65535 throws `VenueInputError`; one that cannot be listened on rejects with it.
   *
   * @example
   * ```ts
   * const relay = await startRelay({ ...options, metricsPort: 9464 })
   * // curl http://127.0.0.1:9464/metrics
   * ```
   */
  readonly metricsPort?: number
  /**
   * The address the metrics server listens on. Default `127.0.0.1` (this machine only);
   * `0.0.0.0` or `::` for every interface. Only with `metricsPort`.
   *
   * @example
   * ```ts
   * await startRelay({ ...options, metricsPort: 9464, metricsHost: '0.0.0.0' })
   * ```
   */
  readonly metricsHost?: string
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
  /**
   * How the relay gets on with Redis, per stream under `publish <name>`: `ok` while Redis
   * answers (active or standby), `retrying` with the reason while it fails (unreachable, a
   * wrong password, a command that timed out, a write refused at maxmemory, a stream that
   * lost its history). Credentials never show. The venue's own streams report in
   * `relay.venue.health`.
   *
   * @example
   * ```ts
   * relay.health.subscribe((report) => {
   *   for (const [key, health] of Object.entries(report))
   *     if (health.state === 'retrying') console.warn(key, health.lastErrorMessage)
   * })
   * ```
   */
  readonly health: Observable<HealthReport>
  /** The venue the relay polls through (its `health` shows the polled streams). */
  readonly venue: Venue
  /**
   * The relay's Prometheus metrics in the text format (content type
   * `text/plain; version=0.0.4`), per stream: venue requests, events published, time
   * since the last publish, lease changes, whether it is active, Redis errors. The relay's
   * own registry, whether or not `metricsPort` serves it.
   *
   * @example
   * ```ts
   * const text = await relay.metrics()
   * // venue_rx_relay_events_published_total{stream="depth:1"} 42 ...
   * ```
   */
  metrics(): Promise<string>
  /**
   * Where the metrics are served (`http://127.0.0.1:9464/metrics`, the port the server got
   * when `metricsPort` is 0); undefined without `metricsPort`.
   *
   * @example
   * ```ts
   * const relay = await startRelay({ ...options, metricsPort: 0 })
   * const text = await (await fetch(relay.metricsUrl!)).text()
   * ```
   */
  readonly metricsUrl: string | undefined
  /** Stops publishing, gives the leases up (a standby takes over at once) and closes. */
  close(): Promise<void>
}

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
  // Whether each stream is active, for the metrics: from the publishers made below.
  let publishers: StreamPublisher[] = []
  const { where, settings, venue, sources, sharePolls, keyed, serving } = withoutSecrets(
    options,
    () => {
      const checked = checkRelayOptions(options, () =>
        Object.fromEntries(publishers.map((p) => [p.name, p.state])),
      )
      const created = createRelayVenue(checked.venueOptions, () =>
        checked.settings.metrics.requestMade(),
      )
      const scope = {
        prefix: checked.settings.prefix,
        baseUrl: created.venue.settings.baseUrl,
        marketData: created.venue.settings.marketData,
        apiKey: checked.venueOptions.apiKey,
      }
      try {
        // Keys first: an account stream without an API key is refused before anything starts.
        const keys = checked.parsed.map((stream) => ({ stream, keys: relayKeys(scope, stream) }))
        return { ...checked, ...created, keyed: keys }
      } catch (error) {
        void created.venue.close()
        throw error
      }
    },
  )
  const server =
    serving === undefined
      ? undefined
      : await serveMetrics(settings.metrics, serving).catch(async (error: unknown) => {
          await venue.close()
          throw error
        })
  const connection = new RedisConnection(where, 'venue-rx-relay')
  const release = connection.hold()
  // Each relay of a fleet is given the same budget and publishes some of the streams: it
  // spends their share of it (at least one stream's), so that the fleet together spends
  // the budget once, whichever relay holds which lease.
  const share = () => {
    const active = publishers.filter((publisher) => publisher.state === 'active').length
    sharePolls(Math.max(1, active) / publishers.length)
  }
  publishers = keyed.map(
    ({ stream, keys }) =>
      new StreamPublisher(stream, keys, { venue, sources }, connection, {
        ...settings,
        onStateChange: share,
      }),
  )
  share()
  for (const publisher of publishers) publisher.start()
  let closing: Promise<void> | undefined
  return {
    id: settings.id,
    venue,
    health: settings.health.changes,
    metrics: () => settings.metrics.text(),
    metricsUrl: server?.url,
    status: () =>
      Object.freeze(Object.fromEntries(publishers.map((p) => [p.name, p.state] as const))),
    close: () => {
      closing ??= (async () => {
        await Promise.all(publishers.map((publisher) => publisher.stop()))
        settings.health.close()
        release()
        await Promise.all([venue.close(), server?.close()])
      })()
      return closing
    },
  }
}

interface PublisherSettings {
  readonly leaseMs: number
  readonly maxLen: number
  readonly id: string
  /**
   * What this relay writes in a lease: its id and a nonce of this process, so that two
   * relays started with one `relayId` (a supervisor restarting a hung one) never both
   * hold a stream.
   */
  readonly owner: string
  readonly health: HealthBoard
  readonly timers: TimerProvider
  readonly metrics: RelayMetrics
  /** Called when the publisher turns active or standby. */
  readonly onStateChange: () => void
}

/** Publishes one stream while this relay holds its lease; waits as a standby otherwise. */
class StreamPublisher {
  readonly name: string
  #state: 'active' | 'standby' = 'standby'

  /** `active` while this relay holds the stream's lease and publishes it. */
  get state(): 'active' | 'standby' {
    return this.#state
  }

  set state(state: 'active' | 'standby') {
    if (state === this.#state) return
    this.#state = state
    this.#settings.onStateChange()
  }
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
  /** The id of the last entry this session published (`''` before the first). */
  #lastPublished = ''
  /** The publishes of the session, each sent after the one before. */
  #publishing: Promise<unknown> = Promise.resolve()
  /** Sessions started: the session's id in the fence of its publishes. */
  #sessions = 0

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
    // The venue requests the loop makes count for this stream.
    this.#running = this.#settings.metrics.within(this.name, () => this.#loop())
  }

  async stop(): Promise<void> {
    this.#stopped = true
    this.#wake?.()
    this.#endSession?.()
    await this.#running
    if (this.state === 'active' || this.#holding) {
      try {
        const redis = await this.#connection.client()
        await redis.eval(RELEASE, 1, this.#keys.lease, this.#settings.owner)
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
    const { leaseMs, owner, health } = this.#settings
    const key = `publish ${this.name}`
    let failures = 0
    while (!this.#stopped) {
      try {
        const held = await this.#connection.run((redis) =>
          redis.eval(ACQUIRE, 1, this.#keys.lease, owner, leaseTtl(leaseMs)),
        )
        // Redis answered: a later failure backs off from the start again.
        health.ok(key)
        failures = 0
        if (held !== 1) {
          this.#holding = false
          await this.#sleep(Math.max(10, Math.floor(leaseMs / 10)))
          continue
        }
        this.#holding = true
        await this.#session(await this.#connection.client())
        // The lease was lost, or the stream ended: a pause before trying again.
        if (!this.#stopped) await this.#sleep(Math.max(10, Math.floor(leaseMs / 10)))
      } catch (error) {
        if (this.#stopped) break
        this.#settings.metrics.failed(this.name, error)
        failures += 1
        this.state = 'standby'
        const delay = backoffDelay(failures, Math.min(100, leaseMs), Math.min(2_000, leaseMs), 2)
        health.retrying(
          key,
          failures,
          delay,
          error instanceof VenueError ? error : relayError(`relay: ${this.name}`, error),
        )
        await this.#sleep(delay)
      }
    }
  }

  /** Publishes while the lease holds; resolves when it is lost, rejects on a failure. */
  async #session(redis: Redis): Promise<void> {
    const { leaseMs, owner } = this.#settings
    // Where the last relay left the stream, to go on from there.
    this.#lastPublished = ''
    this.#sessions += 1
    const pipeline = new PublishPipeline(
      {
        redis,
        keys: this.#keys,
        owner,
        session: `${owner}/${this.#sessions}`,
        maxLen: this.#settings.maxLen,
      },
      {
        written: (added, last) => {
          if (last !== '') this.#lastPublished = last
          this.#settings.metrics.published(this.name, added)
        },
        lost: () => this.#endSession?.(),
        failed: (error) =>
          this.#endSession?.(relayError(`relay: cannot publish ${this.name}`, error)),
      },
    )
    const takeover = await takeoverOf(redis, this.#stream, this.#keys)
    // Stopped while the lease was taken: no session (stop() found none to end).
    if (this.#stopped) return
    this.state = 'active'
    this.#settings.metrics.leaseAcquired(this.name)
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
          const { lease, stream } = this.#keys
          redis.eval(RENEW, 2, lease, stream, owner, leaseTtl(leaseMs), this.#lastPublished).then(
            (renewed) => {
              if (renewed === 'gone') this.#endSession?.(historyLost(this.name))
              else if (renewed !== 1) this.#endSession?.()
            },
            (error: unknown) =>
              this.#endSession?.(relayError(`relay: cannot renew ${this.name}`, error)),
          )
          renew()
        },
        Math.max(10, Math.floor(leaseMs / 4)),
      )
    }
    try {
      renew()
      const publish: Publish = (entries) => pipeline.publish(entries)
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
      await pipeline.settled()
      this.#publishing = Promise.resolve()
      this.state = 'standby'
      if (!this.#stopped) this.#settings.metrics.leaseLost(this.name)
    }
  }
}

/**
 * The end of a session whose stream lost its history under it (flushed, evicted): the next
 * session starts from what Redis holds and republishes the rest from the venue.
 */
function historyLost(name: string): VenueRelayError {
  return new VenueRelayError(
    `relay: the stream ${name} lost its history in Redis (flushed or evicted; keep maxmemory-policy noeviction); publishing it again from the venue`,
  )
}

/** How long the lease key lives: a standby trying every tenth of `leaseMs` is in time. */
const leaseTtl = (leaseMs: number) => Math.floor(leaseMs * 0.75)

/**
 * Runs `check` (the checks of `startRelay`'s options), and throws what it throws cleaned
 * of the API key and of the passwords of `redis` and `sharedBudget.redis` (message,
 * `argument`, `cause`): a stream name, a prefix or an unknown option may quote either.
 */
function withoutSecrets<T>(options: RelayOptions, check: () => T): T {
  try {
    return check()
  } catch (error) {
    const raw = options as Partial<RelayOptions> | null | undefined
    const key = typeof raw?.apiKey === 'string' ? raw.apiKey.trim() : undefined
    const budget = raw?.sharedBudget as { redis?: unknown } | undefined
    const secrets = new Secrets([
      key,
      ...redisSecrets(raw?.redis),
      ...redisSecrets(typeof budget === 'object' ? budget?.redis : undefined),
    ])
    throw secrets.empty ? error : redactError(error, secrets)
  }
}

/** `startRelay`'s own options checked (see {@link RELAY_LIMITS}), and the venue's apart. */
function checkRelayOptions(options: RelayOptions, states: () => Record<string, string>) {
  if (typeof options !== 'object' || options === null) {
    throw new VenueInputError('options', 'startRelay: options must be an object')
  }
  if (options.relay !== undefined) {
    throw new VenueInputError(
      'relay',
      'startRelay: the relay option is not taken: a relay polls the venue, it does not read from a relay',
    )
  }
  const {
    redis,
    streams,
    prefix,
    leaseMs,
    maxLen,
    relayId,
    metricsPort,
    metricsHost,
    ...venueOptions
  } = options
  const where = checkRedis('redis', redis)
  if (!Array.isArray(streams) || streams.length === 0) {
    throw new VenueInputError('streams', 'startRelay: streams must name at least one stream')
  }
  if (streams.length > RELAY_LIMITS.streams) {
    throw new VenueInputError(
      'streams',
      `startRelay: streams must name at most ${RELAY_LIMITS.streams} streams (got ${streams.length})`,
    )
  }
  // Array.from, not map: a hole in a sparse array is a missing name, not a skipped one.
  const parsed = Array.from(streams as readonly unknown[], parseRelayStream)
  const names = parsed.map(relayStreamName)
  const twice = names.find((name, i) => names.indexOf(name) !== i)
  if (twice !== undefined) {
    throw new VenueInputError('streams', `startRelay: the stream ${twice} is named twice`)
  }
  const id = relayId === undefined ? randomBytes(8).toString('hex') : checkId(relayId)
  const settings = {
    prefix: checkPrefix(prefix),
    leaseMs: boundedInteger('leaseMs', leaseMs, RELAY_LIMITS.leaseMs),
    maxLen: boundedInteger('maxLen', maxLen, RELAY_LIMITS.maxLen),
    id,
    owner: `${id}/${randomBytes(6).toString('hex')}`,
    health: new HealthBoard(),
    metrics: new RelayMetrics(names, states),
    // The venue's clock: its `scheduler` when one is given.
    timers:
      venueOptions.scheduler === undefined ? realTimers : schedulerTimers(venueOptions.scheduler),
  }
  const serving = checkMetricsOptions(metricsPort, metricsHost)
  return { where, parsed, settings, venueOptions, serving }
}

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

function boundedInteger(name: string, value: unknown, limits: IntegerLimits): number {
  if (value === undefined) return limits.default
  if (
    typeof value !== 'number' ||
    !Number.isSafeInteger(value) ||
    value < limits.min ||
    value > limits.max
  ) {
    throw new VenueInputError(
      name,
      `startRelay: ${name} must be an integer from ${limits.min} to ${limits.max}`,
    )
  }
  return value
}
