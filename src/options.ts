import { asyncScheduler, type SchedulerLike } from 'rxjs'
import { ApiKey } from './api-key.js'
import { failCheck, isNumberIn, isPositiveNumber, isWholeNumber } from './checks.js'
import type { Pacing } from './core/poll-pacer.js'
import type { BackoffOptions } from './core/retry-backoff.js'
import { redactError } from './errors/venue-error.js'
import { VenueInputError } from './errors/venue-input-error.js'
import { checkRedis, DEFAULT_PREFIX, type RelayRedis } from './redis/redis.js'
import { readJournalHeader } from './replay/journal.js'
import { RecordingClock } from './replay/recording-clock.js'
import { ReplayClock, type ReplaySpeed } from './replay/replay-clock.js'
import type { MarketDataSource } from './rest/index.js'
import {
  DEFAULT_PARAM_NAMES,
  mergeParamNames,
  type ParamNames,
  type ParamNamesOverride,
} from './rest/index.js'
import { MAX_TIMER_MS } from './timers.js'
import { DEFAULT_MAX_RESPONSE_BYTES, type VenueDispatcher } from './transport/undici-transport.js'

export type { BackoffOptions, MarketDataSource, Pacing }

/**
 * Options of {@link createVenue}. Only `baseUrl` is required.
 *
 * @example
 * ```ts
 * import { createVenue, type VenueOptions } from 'venue-rx'
 *
 * const options: VenueOptions = {
 *   baseUrl: 'https://venue.example.com',
 *   apiKey: process.env.VENUE_API_KEY,
 *   marketData: 'v1',
 *   pollIntervalMs: 2_000,
 *   maxRequestsPerSecond: 5,
 *   backoff: { initialMs: 1_000, maxMs: 60_000 },
 * }
 * const venue = createVenue(options)
 * ```
 */
export interface VenueOptions {
  /** `http(s)://host[:port][/prefix]`, with no credentials, query or fragment. */
  readonly baseUrl: string
  /** The account's API key, needed by the account endpoints only. Never logged or shown. */
  readonly apiKey?: string | undefined
  /** Market-data set for depth, klines and latest trades. Default `'v2'`. */
  readonly marketData?: MarketDataSource
  /**
   * With `pacing: 'interval'`: the time from the start of one poll of a stream to the
   * start of the next, in ms (the next at once when a poll took longer). With the default
   * budget pacing: the longest a stream waits between two polls (its minimum rate), as
   * long as a quarter of the budget covers that for every stream (with N streams, the
   * longest wait is at least N / (pollsPerSecond / 4) s). It is also the time unit of
   * `orderLookups`. Default 1,000.
   */
  readonly pollIntervalMs?: number
  /**
   * How polls spend the request budget. `'adaptive'` (default): one poll every
   * `1000 / pollsPerSecond` ms, evenly spaced, each to the stream that gains most: a
   * stream's share follows the square root of its recent change rate, times its
   * `priority`, with a minimum rate (`pollIntervalMs`). `'even'`: the same budget, the
   * streams taking turns. `'interval'`: each stream every `pollIntervalMs`, the budget
   * only a ceiling.
   */
  readonly pacing?: Pacing
  /**
   * Polls a second the pacer spends, at most `maxRequestsPerSecond`. Default 97% of it:
   * the rest fills the budget's bucket (up to a second's worth), so that polls another
   * stream calls for (balances after a new own trade), REST calls and retries go out at
   * once. Lower it to leave more room, e.g. to this process's share of a `sharedBudget`.
   * Ignored with `pacing: 'interval'`.
   */
  readonly pollsPerSecond?: number
  /** Total time allowed per request, in ms. Default 10,000. */
  readonly requestTimeoutMs?: number
  /**
   * Request budget shared by every request of this venue (kept in Redis with
   * `sharedBudget`), from 0.001 (one request every 1,000 s) to 1,000,000. Default 10.
   */
  readonly maxRequestsPerSecond?: number
  /** How long a stream keeps polling after its last subscriber left, ms. Default 1,000. */
  readonly lingerMs?: number
  /** Retry delays of streams. */
  readonly backoff?: BackoffOptions
  /**
   * How long after it happens an own trade or a transfer may take to show at the venue,
   * ms. A venue can show a trade after a later one. `watchMyTrades`, `watchFills`,
   * `watchTransfers` (and `watchOrder`'s fills) deliver each item at the first poll that
   * shows it, and read their pages from a watermark that trails by this much (of the
   * venue's clock), so that one shown late is still delivered, once, marked `late`. With
   * `order: 'ascending'` a feed holds its newest items this long instead, to deliver in
   * order. `0`: no item is expected late (the watermark follows each item). Default 1,000.
   */
  readonly settleMs?: number
  /**
   * How many times an order that left the open list is looked up, one poll apart, while
   * the venue does not answer for it (404, or its ambiguous 500: venues purge canceled
   * orders), before `watchOpenOrders` reports it `closed` and `watchOrder` `done` with
   * `status: 'unknown'`. Default 5.
   */
  readonly orderLookups?: number
  /**
   * How long `watchOrder` waits, ms, for the fills of an order that ended before its fills
   * add up to its executed amount (a venue can show the end before the trades); then
   * `done` comes marked `reconciled: false` with the amount missing. Default 10,000.
   */
  readonly fillGraceMs?: number
  /**
   * Largest answer body read, in bytes; a larger one is abandoned with
   * `VenueResponseError` (`problem: 'size'`). Default 8 MiB.
   */
  readonly maxResponseBytes?: number
  /** Sockets in the keep-alive pool. Default 8. Ignored when `dispatcher` is given. */
  readonly connections?: number
  /** Send every request through this undici dispatcher (proxies, tests). */
  readonly dispatcher?: VenueDispatcher
  /** Overrides for the unconfirmed filter wire names. */
  readonly paramNames?: ParamNamesOverride
  /**
   * The clock of every stream, polled or relayed: poll intervals, retry waits, linger, the
   * request budget (local or shared), the relay reader's waits, and a relay's leases
   * (`startRelay`). Default rxjs's `asyncScheduler` (real time). Tests pass a
   * `TestScheduler` or `VirtualTimeScheduler` to run streams in virtual time; request
   * timeouts stay real (they bound a real socket).
   */
  readonly scheduler?: SchedulerLike
  /**
   * Read the streams a relay publishes (`startRelay`, `venue-rx relay`) from Redis instead
   * of polling: `watchDepth`, `watchOrderBook`, `watchTrades`, `watchKlines`,
   * `watchMyTrades`, `watchTransfers`, `watchFills`, `watchBalances`, `watchOpenOrders`
   * and `watchPools`. The other streams and `rest` still go to the venue. `prefix` must be
   * the relay's (default `venue-rx`).
   */
  readonly relay?: RelayReaderSettings
  /**
   * Keep the request budget (`maxRequestsPerSecond`) in Redis, shared by every client and
   * relay of this venue and API key on any host: one limit for the fleet.
   */
  readonly sharedBudget?: SharedBudgetSettings
  /**
   * Answer every request from a journal recorded with `record` (or `venue-rx record`)
   * instead of the venue: each request gets the next answer recorded for the same path
   * and query, on the recording's clock (the venue's scheduler), at `speed` times real
   * time. A stream completes when the journal has no answer left for its request.
   * Refused with `relay`, `record`, `sharedBudget`, `scheduler` and `dispatcher`.
   */
  readonly replay?: ReplaySettings
  /**
   * Record every answer this venue receives (each HTTP request: its path and query, the
   * status, the response headers venue-rx reads and the body, or the transport's failure)
   * to a journal file, in the order they come, written as they come; `venue.close()`
   * closes it. Request headers (the API key) are never recorded. Not with `relay`.
   */
  readonly record?: RecordSettings
}

/**
 * Where a venue records its answers ({@link VenueOptions.record}): the journal's path,
 * created or emptied when the venue is created. A file that cannot be written fails the
 * venue's requests and `close()` with `VenueJournalError` (`problem: 'io'`).
 *
 * @example
 * ```ts
 * import { createVenue, type RecordSettings } from 'venue-rx'
 *
 * const record: RecordSettings = { file: 'session.journal' }
 * const venue = createVenue({ baseUrl, apiKey, record })
 * // ... run the bot; then everything recorded is in the file:
 * await venue.close()
 * ```
 */
export interface RecordSettings {
  /** The journal's path: gzip-compressed JSON lines (docs/replay.md). */
  readonly file: string
}

/**
 * {@link VenueOptions} of a replay: `baseUrl` may be left out (the journal's is used) and
 * the API key too (nothing is sent: account streams replay without one).
 *
 * @example
 * ```ts
 * import { createVenue, type ReplayVenueOptions } from 'venue-rx'
 *
 * const options: ReplayVenueOptions = { replay: { file: 'session.journal', speed: 'max' } }
 * const venue = createVenue(options)
 * ```
 */
export type ReplayVenueOptions = Omit<VenueOptions, 'baseUrl'> & {
  readonly baseUrl?: string
  readonly replay: ReplaySettings
}

/**
 * Where and how fast a venue replays a recording ({@link VenueOptions.replay}).
 *
 * @example
 * ```ts
 * import { createVenue, type ReplaySettings } from 'venue-rx'
 *
 * const replay: ReplaySettings = { file: 'session.journal', speed: 'max' }
 * const venue = createVenue({ replay })
 * venue.watchDepth(0).subscribe((event) => console.log(event))
 * ```
 */
export interface ReplaySettings {
  /** The journal's path. */
  readonly file: string
  /**
   * How fast the recording's time runs: `1` (default) as recorded, a positive number that
   * many times faster (or slower, below 1), `'max'` as fast as the work allows.
   */
  readonly speed?: ReplaySpeed
}

export type { ReplaySpeed }

/**
 * Where a venue reads the streams a relay publishes ({@link VenueOptions.relay}): the
 * Redis the relay (`startRelay`, `venue-rx relay`) publishes to, and its key prefix.
 *
 * @example
 * ```ts
 * import { createVenue, type RelayReaderSettings } from 'venue-rx'
 *
 * const relay: RelayReaderSettings = { redis: 'redis://10.0.0.5:6379', prefix: 'desk-a' }
 * const venue = createVenue({ baseUrl, apiKey, relay })
 * ```
 */
export interface RelayReaderSettings {
  /**
   * A `redis://` URL or ioredis options. The venues of one process given the same URL
   * share its two connections (`venue-rx-reader` for the reads, `venue-rx-reader-wait`
   * for the blocking read that wakes them); given options, each venue has its own two.
   */
  readonly redis: RelayRedis
  /** First part of every Redis key; the relay's own. Default `venue-rx`. */
  readonly prefix?: string
  /**
   * How long a relayed stream that has read everything waits before its next read, ms,
   * at most: a blocking read (`XREAD BLOCK`, on a connection of its own, for every stream
   * at once) wakes it as soon as the relay adds an entry, so this is the fallback (a
   * stream that just started, while the blocking read is not in place yet; a Redis that
   * refuses it) and sets the timed reads per second per stream. The reads themselves
   * never block. From 5 to 10,000; default 100.
   */
  readonly readIntervalMs?: number
}

/**
 * Where a venue keeps its request budget ({@link VenueOptions.sharedBudget}): the Redis
 * every client and relay of the same venue and API key take their tokens from, and the
 * key prefix they share.
 *
 * @example
 * ```ts
 * import { createVenue, type SharedBudgetSettings } from 'venue-rx'
 *
 * const sharedBudget: SharedBudgetSettings = { redis: 'redis://10.0.0.5:6379' }
 * const venue = createVenue({ baseUrl, apiKey, maxRequestsPerSecond: 10, sharedBudget })
 * ```
 */
export interface SharedBudgetSettings {
  /** A `redis://` URL or ioredis options. */
  readonly redis: RelayRedis
  /** First part of the budget's Redis key; the fleet's own. Default `venue-rx`. */
  readonly prefix?: string
}

/**
 * Settings that fit both Redis options of a venue.
 *
 * @deprecated Use {@link RelayReaderSettings} for `relay` and {@link SharedBudgetSettings}
 * for `sharedBudget`.
 *
 * @example
 * ```ts
 * import { createVenue, type RelaySettings } from 'venue-rx'
 *
 * const redis: RelaySettings = { redis: 'redis://127.0.0.1:6379' }
 * const venue = createVenue({ baseUrl, apiKey, relay: redis, sharedBudget: redis })
 * ```
 */
export type RelaySettings = RelayReaderSettings & SharedBudgetSettings

/** {@link VenueOptions} after validation and defaults; the key is wrapped so it cannot leak. */
export interface ResolvedVenueOptions {
  readonly baseUrl: string
  readonly apiKey: ApiKey | undefined
  readonly marketData: MarketDataSource
  readonly pollIntervalMs: number
  readonly pacing: Pacing
  readonly pollsPerSecond: number
  readonly requestTimeoutMs: number
  readonly maxRequestsPerSecond: number
  readonly lingerMs: number
  readonly backoff: Required<BackoffOptions>
  readonly settleMs: number
  readonly orderLookups: number
  readonly fillGraceMs: number
  readonly maxResponseBytes: number
  readonly connections: number
  readonly dispatcher: VenueDispatcher | undefined
  readonly paramNames: ParamNames
  /**
   * The clock of every stream and timer of the venue: the caller's scheduler, or rxjs's
   * `asyncScheduler` (real time). Chosen here only: nothing after it picks a default.
   */
  readonly scheduler: SchedulerLike
  readonly relay: Required<RelayReaderSettings> | undefined
  readonly sharedBudget: Required<SharedBudgetSettings> | undefined
  /** The journal a replaying venue answers from, and its speed (the clock is `scheduler`). */
  readonly replay: { readonly file: string; readonly speed: ReplaySpeed } | undefined
  /** The journal a recording venue writes. */
  readonly record: RecordSettings | undefined
}

const OPTION_NAMES: ReadonlySet<string> = new Set([
  'baseUrl',
  'apiKey',
  'marketData',
  'pollIntervalMs',
  'pacing',
  'pollsPerSecond',
  'requestTimeoutMs',
  'maxRequestsPerSecond',
  'lingerMs',
  'backoff',
  'settleMs',
  'orderLookups',
  'fillGraceMs',
  'maxResponseBytes',
  'connections',
  'dispatcher',
  'paramNames',
  'scheduler',
  'relay',
  'sharedBudget',
  'replay',
  'record',
])

/** Validates `options` and fills in defaults. Throws {@link VenueInputError} naming the option. */
export function resolveOptions(options: VenueOptions | ReplayVenueOptions): ResolvedVenueOptions {
  try {
    return resolve(options)
  } catch (error) {
    // A message may quote a bad value, and that value may be the key pasted in the wrong place.
    const key = typeof options?.apiKey === 'string' ? options.apiKey.trim() : ''
    throw key === '' ? error : redactError(error, new ApiKey(key))
  }
}

function resolve(options: VenueOptions | ReplayVenueOptions): ResolvedVenueOptions {
  if (typeof options !== 'object' || options === null) {
    throw new VenueInputError('options', 'createVenue: options must be an object with a baseUrl')
  }
  onlyKnown(options, '', OPTION_NAMES)
  const backoff = backoffObject(options.backoff)
  const initialMs = milliseconds('backoff.initialMs', backoff.initialMs, 500)
  const maxMs = milliseconds('backoff.maxMs', backoff.maxMs, 30_000)
  if (maxMs < initialMs) {
    throw new VenueInputError(
      'backoff.maxMs',
      'createVenue: backoff.maxMs must be >= backoff.initialMs',
    )
  }
  const factor = positive('backoff.factor', backoff.factor, 2)
  if (factor < 1)
    throw new VenueInputError('backoff.factor', 'createVenue: backoff.factor must be >= 1')
  const jitter = backoff.jitter === undefined ? true : backoff.jitter
  if (typeof jitter !== 'boolean') {
    throw new VenueInputError('backoff.jitter', 'createVenue: backoff.jitter must be a boolean')
  }
  const maxRequestsPerSecond = requestRate(options.maxRequestsPerSecond)
  const replay = replaySettings(options)
  return Object.freeze({
    baseUrl: baseUrl(options.baseUrl ?? replay?.header.baseUrl),
    apiKey: apiKey(options.apiKey),
    marketData: marketData(options.marketData),
    pollIntervalMs: milliseconds('pollIntervalMs', options.pollIntervalMs, 1_000),
    pacing: pacing(options.pacing),
    pollsPerSecond: pollRate(options.pollsPerSecond, maxRequestsPerSecond),
    requestTimeoutMs: milliseconds('requestTimeoutMs', options.requestTimeoutMs, 10_000),
    maxRequestsPerSecond,
    lingerMs: milliseconds('lingerMs', options.lingerMs, 1_000),
    backoff: Object.freeze({ initialMs, maxMs, factor, jitter }),
    settleMs: millisecondsOrZero('settleMs', options.settleMs, 1_000),
    orderLookups: positiveInteger('orderLookups', options.orderLookups, 5),
    fillGraceMs: millisecondsOrZero('fillGraceMs', options.fillGraceMs, 10_000),
    maxResponseBytes: positiveInteger(
      'maxResponseBytes',
      options.maxResponseBytes,
      DEFAULT_MAX_RESPONSE_BYTES,
    ),
    connections: positiveInteger('connections', options.connections, 8),
    dispatcher: dispatcher(options.dispatcher),
    paramNames: paramNames(options.paramNames),
    scheduler: replay?.clock ?? recordingClock(options, scheduler(options.scheduler)),
    relay: relaySettings(options.relay),
    sharedBudget: redisSettings('sharedBudget', options.sharedBudget),
    replay:
      replay === undefined ? undefined : Object.freeze({ file: replay.file, speed: replay.speed }),
    record: recordSettings(options),
  })
}

/** A recording venue's clock journals its timers ({@link RecordingClock}); else `clock`. */
function recordingClock(
  options: VenueOptions | ReplayVenueOptions,
  clock: SchedulerLike,
): SchedulerLike {
  return options.record === undefined ? clock : new RecordingClock(clock)
}

/**
 * Checks {@link VenueOptions.record}: `{ file }`, a path, and not with `relay` (a relayed
 * stream's answers come from Redis, not the venue). With `replay`: refused by its check.
 */
function recordSettings(options: VenueOptions | ReplayVenueOptions): RecordSettings | undefined {
  const value: unknown = options.record
  if (value === undefined) return undefined
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new VenueInputError('record', 'createVenue: record must be an object { file }')
  }
  onlyKnown(value, 'record', ['file'])
  const { file } = value as { file?: unknown }
  if (typeof file !== 'string' || file.trim() === '' || file.includes('\0')) {
    throw new VenueInputError(
      'record.file',
      'createVenue: record.file must be the path of the journal to write (a non-empty string)',
    )
  }
  if (options.relay !== undefined) {
    throw new VenueInputError(
      'record',
      'createVenue: record cannot go with relay (a relayed stream reads Redis, not the venue: record where the relay polls)',
    )
  }
  return Object.freeze({ file })
}

/** Options a replay cannot go with: it sends nothing, and runs on the recording's clock. */
const NOT_WITH_REPLAY = ['relay', 'record', 'sharedBudget', 'scheduler', 'dispatcher'] as const

/**
 * Checks {@link VenueOptions.replay}: the journal's path (its header is read: the baseUrl
 * and the clock's start come from it) and the speed; the replay's clock.
 */
function replaySettings(options: VenueOptions | ReplayVenueOptions):
  | {
      readonly file: string
      readonly speed: ReplaySpeed
      readonly header: { readonly baseUrl: string; readonly startedAt: number }
      readonly clock: ReplayClock
    }
  | undefined {
  const value: unknown = options.replay
  if (value === undefined) return undefined
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new VenueInputError('replay', 'createVenue: replay must be an object { file, speed }')
  }
  onlyKnown(value, 'replay', ['file', 'speed'])
  const given = options as Readonly<Record<string, unknown>>
  const other = NOT_WITH_REPLAY.find((name) => given[name] !== undefined)
  if (other !== undefined) {
    throw new VenueInputError(
      'replay',
      `createVenue: replay cannot go with ${other} (a replay sends nothing and runs on the recording's clock)`,
    )
  }
  const { file, speed = 1 } = value as ReplaySettings
  if (typeof file !== 'string' || file.trim() === '') {
    throw new VenueInputError('replay.file', "createVenue: replay.file must be a journal's path")
  }
  if (speed !== 'max' && !isPositiveNumber(speed)) {
    failCheck('createVenue', 'replay.speed', "must be a positive number or 'max'", speed, {
      whole: true,
    })
  }
  const header = readJournalHeader(file)
  return { file, speed, header, clock: new ReplayClock(header.startedAt, speed) }
}

/** Checks {@link VenueOptions.relay} or {@link VenueOptions.sharedBudget} (`name`): one shape. */
/** Checks {@link VenueOptions.relay}: the Redis settings, and how often a stream reads. */
function relaySettings(value: unknown): Required<RelayReaderSettings> | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    // Throws the error of a value that is not an object.
    redisSettings('relay', value)
  }
  const { readIntervalMs, ...redis } = value as RelayReaderSettings
  const settings = redisSettings('relay', redis)
  if (settings === undefined) return undefined
  const every = readIntervalMs === undefined ? DEFAULT_READ_INTERVAL_MS : readIntervalMs
  if (!isWholeNumber(every, 5, 10_000)) {
    // The value shown by String (unquoted), as this message always has.
    throw new VenueInputError(
      'relay.readIntervalMs',
      `createVenue: relay.readIntervalMs must be a whole number of ms from 5 to 10000 (got ${String(every)})`,
    )
  }
  return Object.freeze({ ...settings, readIntervalMs: every })
}

/** How long a caught-up relayed stream waits before its next read, by default, ms. */
const DEFAULT_READ_INTERVAL_MS = 100

function redisSettings(
  name: 'relay' | 'sharedBudget',
  value: unknown,
): Required<SharedBudgetSettings> | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new VenueInputError(name, `createVenue: ${name} must be an object { redis, prefix }`)
  }
  onlyKnown(value, name, ['redis', 'prefix'])
  const { redis, prefix } = value as RelayReaderSettings
  const checkedPrefix = prefix === undefined ? DEFAULT_PREFIX : prefix
  if (typeof checkedPrefix !== 'string' || !/^[\w.-]{1,64}$/.test(checkedPrefix)) {
    throw new VenueInputError(
      `${name}.prefix`,
      `createVenue: ${name}.prefix must be 1-64 letters, digits, _ . -`,
    )
  }
  return Object.freeze({ redis: checkRedis(`${name}.redis`, redis), prefix: checkedPrefix })
}

const BACKOFF_NAMES: ReadonlySet<string> = new Set(['initialMs', 'maxMs', 'factor', 'jitter'])

function backoffObject(value: unknown): BackoffOptions {
  if (value === undefined) return {}
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new VenueInputError(
      'backoff',
      'createVenue: backoff must be an object { initialMs, maxMs, factor, jitter }',
    )
  }
  onlyKnown(value, 'backoff', BACKOFF_NAMES)
  return value as BackoffOptions
}

/**
 * Throws {@link VenueInputError} for the first key of `value` not in `known`, named
 * `within.key` (just `key` at the top), quoted as the error quotes a value.
 */
function onlyKnown(
  value: object,
  within: string,
  known: ReadonlySet<string> | readonly string[],
): void {
  const has = (key: string) => ('has' in known ? known.has(key) : known.includes(key))
  for (const key of Object.keys(value)) {
    if (!has(key)) {
      throw VenueInputError.quoting({
        argument: within === '' ? key : `${within}.${key}`,
        render: (shown) => `createVenue: unknown option ${JSON.stringify(shown)}`,
      })
    }
  }
}

function baseUrl(value: unknown): string {
  const fail = (why: string) =>
    new VenueInputError('baseUrl', `createVenue: baseUrl must be an http(s) URL${why}`)
  if (typeof value !== 'string') throw fail(' string')
  let url: URL
  try {
    url = new URL(value)
  } catch {
    // No `cause`: URL's own error carries the input, credentials included.
    throw notHttpUrl(value, 'is not a valid URL')
  }
  // Never echo credentials back in the message: checked before the protocol, whose message
  // quotes the value.
  if (url.username !== '' || url.password !== '') throw fail(' without credentials')
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw notHttpUrl(value, 'must be an http(s) URL')
  }
  if (url.search !== '' || value.includes('?')) throw fail(' without a query')
  if (url.hash !== '' || value.includes('#')) throw fail(' without a fragment')
  return url.origin + url.pathname.replace(/\/+$/, '')
}

/**
 * `baseUrl` refused (`what` is wrong with it), quoting the whole value given, with the
 * `http://` it may lack: `new URL('localhost:8787')` reads `localhost:` as the scheme, and
 * a message quoting that alone showed a value the caller never wrote. A value with an `@`
 * may hold a password (`user:pass@host`, a scheme-less URL parses so): not quoted at all.
 */
function notHttpUrl(value: string, what: string): VenueInputError {
  if (value.includes('@')) {
    return new VenueInputError(
      'baseUrl',
      `createVenue: baseUrl ${what} (the value is not shown: it has an "@" and may hold a password)`,
    )
  }
  const schemeless = !value.includes('://') && URL.canParse(`http://${value}`)
  return VenueInputError.quoting({
    argument: 'baseUrl',
    value,
    whole: true,
    render: (name, shown) =>
      `createVenue: ${name} ${what} (got ${shown}${schemeless ? `; did you mean "http://${shown.slice(1)}?` : ''})`,
  })
}

function apiKey(value: unknown): ApiKey | undefined {
  if (value === undefined) return undefined
  // The message never includes the value: it may be a real key with a typo.
  if (typeof value !== 'string' || value.trim() === '') {
    throw new VenueInputError('apiKey', 'createVenue: apiKey must be a non-empty string')
  }
  // The key goes into a header: visible ASCII, with spaces and tabs inside (`Bearer k-...`).
  // Anything else would fail every account request as a (retried) network error.
  if (!/^[\t\x20-\x7e]+$/.test(value)) {
    throw new VenueInputError(
      'apiKey',
      'createVenue: apiKey must be visible ASCII characters (control characters and non-ASCII text cannot go in a header)',
    )
  }
  return new ApiKey(value.trim())
}

function marketData(value: unknown): MarketDataSource {
  if (value === undefined) return 'v2'
  if (value === 'v1' || value === 'v2') return value
  throw new VenueInputError('marketData', "createVenue: marketData must be 'v2' or 'v1'")
}

function pacing(value: unknown): Pacing {
  if (value === undefined) return 'adaptive'
  if (value === 'adaptive' || value === 'even' || value === 'interval') return value
  throw VenueInputError.quoting({
    argument: 'pacing',
    value,
    whole: true,
    render: (shown, got) =>
      `createVenue: ${shown} must be 'adaptive', 'even' or 'interval' (got ${got})`,
  })
}

/** Share of the budget the pacer spends by default: the rest is headroom. */
const POLL_SHARE = 0.97

/** `pollsPerSecond`: from the slowest budget up to `maxRequestsPerSecond` (default 97% of it). */
function pollRate(value: unknown, budget: number): number {
  const rate = positive(
    'pollsPerSecond',
    value,
    Math.min(budget, Math.max(MIN_REQUESTS_PER_SECOND, budget * POLL_SHARE)),
  )
  if (!isNumberIn(rate, MIN_REQUESTS_PER_SECOND, budget)) {
    const rule = `must be from ${MIN_REQUESTS_PER_SECOND} to maxRequestsPerSecond (${budget})`
    failCheck('createVenue', 'pollsPerSecond', rule, rate)
  }
  return rate
}

/** A positive finite number, or `fallback` when absent. */
function positive(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback
  if (!isPositiveNumber(value)) {
    failCheck('createVenue', name, 'must be a positive finite number', value, { whole: true })
  }
  return value
}

/** Slowest and fastest request budget, a second: a wait between tokens stays short of a day. */
const MIN_REQUESTS_PER_SECOND = 0.001
const MAX_REQUESTS_PER_SECOND = 1_000_000

/**
 * `maxRequestsPerSecond`, for the local budget and the shared one alike: at the slowest one
 * request every 1,000 s, so that the wait for a token (and the shared bucket's lifetime in
 * Redis) stays well within what a timer and Redis's `PEXPIRE` keep.
 */
function requestRate(value: unknown): number {
  const rate = positive('maxRequestsPerSecond', value, 10)
  if (!isNumberIn(rate, MIN_REQUESTS_PER_SECOND, MAX_REQUESTS_PER_SECOND)) {
    const rule = `must be from ${MIN_REQUESTS_PER_SECOND} to ${MAX_REQUESTS_PER_SECOND}`
    failCheck('createVenue', 'maxRequestsPerSecond', rule, rate)
  }
  return rate
}

/** A positive number of ms a timer can wait, or `fallback` when absent. */
function milliseconds(name: string, value: unknown, fallback: number): number {
  const ms = positive(name, value, fallback)
  if (ms > MAX_TIMER_MS) failCheck('createVenue', name, `must be at most ${MAX_TIMER_MS} ms`, ms)
  return ms
}

/** A number of ms from 0 (off) to the longest timer. */
function millisecondsOrZero(name: string, value: unknown, fallback: number): number {
  return value === 0 ? 0 : milliseconds(name, value, fallback)
}

/** A whole number from 1, or `fallback` when absent. */
function positiveInteger(name: string, value: unknown, fallback: number): number {
  const n = positive(name, value, fallback)
  if (!isWholeNumber(n, 1)) failCheck('createVenue', name, 'must be a positive integer', n)
  return n
}

/** The venue's clock: `value`, or real time (`asyncScheduler`) when absent. */
function scheduler(value: unknown): SchedulerLike {
  if (value === undefined) return asyncScheduler
  const candidate = value as { now?: unknown; schedule?: unknown } | null
  if (
    typeof value !== 'object' ||
    candidate === null ||
    typeof candidate.now !== 'function' ||
    typeof candidate.schedule !== 'function'
  ) {
    throw new VenueInputError(
      'scheduler',
      'createVenue: scheduler must be an rxjs scheduler (with now() and schedule())',
    )
  }
  return value as SchedulerLike
}

function dispatcher(value: unknown): VenueDispatcher | undefined {
  if (value === undefined) return undefined
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof (value as { dispatch?: unknown }).dispatch !== 'function'
  ) {
    throw new VenueInputError('dispatcher', 'createVenue: dispatcher must be an undici Dispatcher')
  }
  return value as VenueDispatcher
}

function paramNames(value: ParamNamesOverride | undefined): ParamNames {
  if (value === undefined) return DEFAULT_PARAM_NAMES
  if (typeof value !== 'object' || value === null) {
    throw new VenueInputError('paramNames', 'createVenue: paramNames must be an object')
  }
  return mergeParamNames(value, 'createVenue')
}
