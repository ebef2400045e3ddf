import { randomBytes } from 'node:crypto'
import type { Observable } from 'rxjs'
import { isWholeNumber } from '../checks.js'
import { HealthBoard, type HealthReport } from '../core/health.js'
import { Secrets } from '../errors/secrets.js'
import { redactError } from '../errors/venue-error.js'
import { VenueInputError } from '../errors/venue-input-error.js'
import type { VenueOptions } from '../options.js'
import {
  checkRedis,
  DEFAULT_PREFIX,
  type RelayRedis,
  redisSecrets,
  relayKeys,
} from '../redis/redis.js'
import { RedisConnection } from '../redis/redis-connection.js'
import { parseRelayStream, relayStreamName } from '../redis/stream-names.js'
import { realTimers, schedulerTimers } from '../timers.js'
import { createRelayVenue, type Venue } from '../venue.js'
import { type IntegerLimits, RELAY_LIMITS } from './relay-limits.js'
import { checkMetricsOptions, RelayMetrics, serveMetrics } from './relay-metrics.js'
import { type RelayStreamStatus, StreamPublisher } from './session-publisher.js'

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
 * console.log(relay.status()) // { 'my-trades': { state: 'active' } } once it holds the lease
 * await relay.close()
 * ```
 */
export interface Relay {
  /** This relay's id in the leases. */
  readonly id: string
  /**
   * Per stream name: `active` (this relay publishes it), `standby` (another relay does), or
   * `retrying` with Redis's `reason` (unreachable, `OOM ...` when it is full).
   */
  status(): Readonly<Record<string, RelayStreamStatus>>
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
        Object.fromEntries(publishers.map((p) => [p.name, p.state] as const)),
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
      Object.freeze(Object.fromEntries(publishers.map((p) => [p.name, p.status] as const))),
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
  if (!isWholeNumber(value, limits.min, limits.max)) {
    throw new VenueInputError(
      name,
      `startRelay: ${name} must be an integer from ${limits.min} to ${limits.max}`,
    )
  }
  return value
}
