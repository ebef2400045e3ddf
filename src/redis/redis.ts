import { createHash } from 'node:crypto'
import type { Redis, RedisOptions } from 'ioredis'
import { isWholeNumber } from '../checks.js'
import { Secrets } from '../errors/secrets.js'
import { VenueInputError } from '../errors/venue-input-error.js'
import { VenueRelayError } from '../errors/venue-relay-error.js'
import type { MarketDataSource } from '../rest/index.js'
import { isAccountStream, type RelayStream, relayStreamName } from './stream-names.js'

/**
 * Where Redis is: a URL (`redis://[user:password@]host:port[/db]`, `rediss://` for TLS) or
 * ioredis options. Credentials in it are never shown in errors or health reports.
 *
 * @example
 * ```ts
 * import type { RelayRedis } from 'venue-rx/relay'
 *
 * const local: RelayRedis = 'redis://127.0.0.1:6379'
 * const tls: RelayRedis = { host: 'redis.internal', port: 6380, tls: {}, password: process.env.REDIS_PASSWORD }
 * ```
 */
export type RelayRedis = string | RedisOptions

/** Highest Redis database number taken (`/DB` of a URL, `db` of the options). */
const MAX_DB = 65_535

/**
 * Checks a {@link RelayRedis} value; `option` names it in the error, which never quotes
 * the value (it may hold the password). A URL: `redis:` or `rediss:`, a host, and a path
 * that is empty or a database number; options: an object whose `host`, `port` and `db`,
 * when given, are a host name, a port (1-65535) and a database number (0-65535). Anything
 * else would leave a relay or reader retrying a connection that can never succeed.
 */
export function checkRedis(option: string, value: unknown): RelayRedis {
  if (typeof value === 'string') {
    let url: URL
    try {
      url = new URL(value)
    } catch {
      // No `cause`: URL's own error carries the input, password included.
      throw new VenueInputError(option, `${option} must be a redis:// URL or ioredis options`)
    }
    if ((url.protocol !== 'redis:' && url.protocol !== 'rediss:') || url.hostname === '') {
      throw new VenueInputError(option, `${option} must be a redis:// or rediss:// URL with a host`)
    }
    const db = url.pathname.replace(/^\//, '')
    if (db !== '' && !isDb(/^\d{1,5}$/.test(db) ? Number(db) : Number.NaN)) {
      throw new VenueInputError(
        option,
        `${option} must end in a database number from 0 to ${MAX_DB} (redis://HOST:PORT/DB), or no path`,
      )
    }
    return value
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const { host, port, db } = value as { host?: unknown; port?: unknown; db?: unknown }
    if (host !== undefined && (typeof host !== 'string' || host === '')) {
      throw new VenueInputError(`${option}.host`, `${option}.host must be a host name`)
    }
    if (port !== undefined && !isWholeNumber(port, 1, 65_535)) {
      throw new VenueInputError(`${option}.port`, `${option}.port must be a port from 1 to 65535`)
    }
    if (db !== undefined && !isDb(db)) {
      throw new VenueInputError(
        `${option}.db`,
        `${option}.db must be a database number from 0 to ${MAX_DB}`,
      )
    }
    return value as RedisOptions
  }
  throw new VenueInputError(option, `${option} must be a redis:// URL or ioredis options`)
}

const isDb = (db: unknown) => isWholeNumber(db, 0, MAX_DB)

/** `host:port` of a {@link RelayRedis} (or its socket path), for messages (never its credentials). */
export function describeRedis(redis: RelayRedis): string {
  if (typeof redis === 'string') {
    const url = new URL(redis)
    return `${url.hostname}:${url.port || '6379'}`
  }
  if (typeof redis.path === 'string') return redis.path
  return `${redis.host ?? '127.0.0.1'}:${redis.port ?? 6379}`
}

/**
 * The secrets in a {@link RelayRedis} (or in what was passed for one, checked or not):
 * the password of a URL (as written and decoded, or in its query, which ioredis reads too),
 * and of options `password`, `sentinelPassword` and TLS's `passphrase`. Never throws.
 */
export function redisSecrets(redis: unknown): string[] {
  const found: unknown[] = []
  if (typeof redis === 'string') {
    try {
      const url = new URL(redis)
      found.push(url.password, decoded(url.password))
      for (const name of ['password', 'sentinelPassword']) found.push(url.searchParams.get(name))
    } catch {
      // Not a URL: checkRedis refuses it without quoting it.
    }
  } else if (typeof redis === 'object' && redis !== null) {
    const options = redis as { password?: unknown; sentinelPassword?: unknown; tls?: unknown }
    found.push(options.password, options.sentinelPassword)
    if (typeof options.tls === 'object' && options.tls !== null) {
      found.push((options.tls as { passphrase?: unknown }).passphrase)
    }
  }
  return found.filter((value): value is string => typeof value === 'string' && value !== '')
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/**
 * A new ioredis connection that fails commands at once while Redis is away (no offline
 * queue, no silent resend: the caller retries with its own backoff and reports it), and
 * keeps reconnecting in the background (every 50 ms doubling up to 1 s). A command
 * fails after {@link COMMAND_TIMEOUT_MS} (a Redis that hangs). Resolves once connected;
 * a failed connect names its reason (`WRONGPASS ...`, `connect ECONNREFUSED ...`).
 * `onError` hears every connection error.
 */
export async function connectRedis(
  redis: RelayRedis,
  name: string,
  onError?: (error: unknown) => void,
): Promise<Redis> {
  const { Redis } = await import('ioredis')
  const settings: RedisOptions = {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // A command cut off by a lost connection fails (the caller retries and reports it)
    // rather than being sent again behind its back.
    autoResendUnfulfilledCommands: false,
    // ioredis waits this long for a socket to close on disconnect, even one that is closed
    // already (a failed connect): its default 2 s kept a stopping process up that long.
    disconnectTimeout: 100,
    connectionName: name,
    retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 5), 1_000),
    // A Redis that hangs (stopped, swapping) fails each command after this long, so that
    // the caller retries and reports it instead of waiting for ever.
    commandTimeout: COMMAND_TIMEOUT_MS,
  }
  // ioredis's option types do not allow `undefined` where they are optional (casts below).
  const client =
    typeof redis === 'string'
      ? new Redis(redis, settings as never)
      : new Redis({ ...redis, ...settings } as never)
  // The reason a connection failed (a wrong password, a refused connect) comes as an
  // 'error' event; the command or connect that fails says only "Connection is closed".
  let reason: unknown
  client.on('error', (error: unknown) => {
    reason = error
    onError?.(error)
  })
  try {
    await client.connect()
  } catch (error) {
    client.disconnect()
    throw relayError(
      `cannot reach Redis at ${describeRedis(redis)}`,
      reason ?? error,
      new Secrets(redisSecrets(redis)),
    )
  }
  return client
}

/** How long a Redis command may take before it fails as timed out, ms. */
export const COMMAND_TIMEOUT_MS = 2_000

/**
 * A {@link VenueRelayError} for a failed Redis call. Its cause is a plain copy of the
 * client's error (name and message): an ioredis error carries the command it failed with,
 * arguments included, and the arguments of `AUTH` / `HELLO` are the password. ioredis
 * messages name commands and states, never credentials; with `secrets` (Redis's password,
 * where the caller has it), the message and the cause are cleaned of them too.
 */
export function relayError(message: string, cause: unknown, secrets?: Secrets): VenueRelayError {
  const clean = (text: string) =>
    secrets === undefined || secrets.empty ? text : secrets.redact(text)
  const reason = clean(cause instanceof Error ? cause.message : String(cause))
  const copy = new Error(reason)
  if (cause instanceof Error) copy.name = cause.name
  return new VenueRelayError(clean(`${message}: ${reason}`), { cause: copy })
}

/** The Redis keys of one relayed stream. */
export interface RelayKeys {
  /** The Redis stream of events (XADD). */
  readonly stream: string
  /** What a late reader replays first: `<stream id> <JSON array of events>`. */
  readonly state: string
  /** The lease: the id of the relay that publishes the stream now. */
  readonly lease: string
  /** The id of the last entry trimmed from the stream (readers from before it miss some). */
  readonly floor: string
  /**
   * The last publish of the relay's session written whole (`<session> <number>`): a
   * publish sent before the reply of the one before it writes nothing unless that one was
   * written (see the relay's `PUBLISH` script).
   */
  readonly fence: string
}

/** What stream keys are scoped by: the venue, its market-data set, the account. */
export interface RelayScope {
  readonly prefix: string
  readonly baseUrl: string
  readonly marketData: MarketDataSource
  /** The API key, hashed into the keys of account streams (never stored). */
  readonly apiKey: string | undefined
}

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16)

/**
 * The keys of `stream`: `<prefix>:{<scope>:<name>}:stream|state|lease|floor|fence`, where the scope is a
 * hash of the venue's URL and market-data set, and for account streams of the API key too,
 * so that two accounts (or two venues) on one Redis never share a stream. The braces keep
 * a stream's keys in one Redis Cluster slot, as its scripts need.
 */
export function relayKeys(scope: RelayScope, stream: RelayStream): RelayKeys {
  let scopeText = `${scope.baseUrl}|${scope.marketData}`
  if (isAccountStream(stream)) {
    if (scope.apiKey === undefined) {
      throw new VenueInputError(
        'apiKey',
        `relay: the stream ${relayStreamName(stream)} is of the account: the apiKey option is needed`,
      )
    }
    scopeText = `${scope.baseUrl}|account|${scope.apiKey}`
  }
  const base = `${scope.prefix}:{${hash(scopeText)}:${relayStreamName(stream)}}`
  return {
    stream: `${base}:stream`,
    state: `${base}:state`,
    lease: `${base}:lease`,
    floor: `${base}:floor`,
    fence: `${base}:fence`,
  }
}

/** The key of the request budget shared by every client of one venue and API key. */
export function budgetKey(prefix: string, baseUrl: string, apiKey: string | undefined): string {
  return `${prefix}:budget:${hash(`${baseUrl}|${apiKey === undefined ? 'public' : `key|${apiKey}`}`)}`
}

/** The default prefix of every key venue-rx writes. */
export const DEFAULT_PREFIX = 'venue-rx'
