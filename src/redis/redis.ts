import { createHash } from 'node:crypto'
import type { Cluster, ClusterOptions, Redis, RedisOptions } from 'ioredis'
import { isWholeNumber } from '../checks.js'
import { Secrets } from '../errors/secrets.js'
import { VenueInputError } from '../errors/venue-input-error.js'
import { VenueRelayError } from '../errors/venue-relay-error.js'
import type { MarketDataSource } from '../rest/index.js'
import { isAccountStream, type RelayStream, relayStreamName } from './stream-names.js'

/**
 * A Redis Cluster: `cluster` lists some of its nodes (`redis://[user:password@]host:port`,
 * `rediss://` for TLS; all with the same scheme, user and password, which every node is
 * connected with), plus ioredis cluster options (`redisOptions` for each node's
 * connection: `password`, `tls`, ...; `scaleReads`, ...). The other nodes are found from
 * these.
 *
 * @example
 * ```ts
 * import type { RelayRedisCluster } from 'venue-rx/relay'
 *
 * const cluster: RelayRedisCluster = {
 *   cluster: ['redis://10.0.0.5:6379', 'redis://10.0.0.6:6379'],
 *   redisOptions: { password: process.env.REDIS_PASSWORD },
 * }
 * ```
 */
export interface RelayRedisCluster extends Omit<ClusterOptions, 'redisOptions'> {
  /** Nodes to start from: one is enough, more in case one is down. */
  readonly cluster: readonly string[]
  /** Options of each node's connection (ioredis `RedisOptions` but address and db). */
  readonly redisOptions?: ClusterOptions['redisOptions']
}

/**
 * Where Redis is: a URL (`redis://[user:password@]host:port[/db]`, `rediss://` for TLS),
 * ioredis options, or a cluster (`{ cluster: [URL, ...], ...ioredis cluster options }`,
 * see {@link RelayRedisCluster}). Credentials in it are never shown in errors or health
 * reports.
 *
 * @example
 * ```ts
 * import type { RelayRedis } from 'venue-rx/relay'
 *
 * const local: RelayRedis = 'redis://127.0.0.1:6379'
 * const tls: RelayRedis = { host: 'redis.internal', port: 6380, tls: {}, password: process.env.REDIS_PASSWORD }
 * const cluster: RelayRedis = { cluster: ['redis://10.0.0.5:6379', 'redis://10.0.0.6:6379'] }
 * ```
 */
export type RelayRedis = string | RedisOptions | RelayRedisCluster

/** A connected client: of one Redis server, or of a Redis Cluster. */
export type RedisClient = Redis | Cluster

/** Whether `redis` names a cluster. */
export function isCluster(redis: RelayRedis): redis is RelayRedisCluster {
  return typeof redis === 'object' && redis !== null && 'cluster' in redis
}

/** Highest Redis database number taken (`/DB` of a URL, `db` of the options). */
const MAX_DB = 65_535

/** Most nodes a cluster option lists. */
const MAX_NODES = 1_000

/** Options of a single server that a cluster's options cannot hold (the nodes say where). */
const NOT_WITH_CLUSTER = ['host', 'port', 'path', 'db', 'sentinels', 'url'] as const

/**
 * Checks a {@link RelayRedis} value; `option` names it in the error, which never quotes
 * the value (it may hold the password). A URL: `redis:` or `rediss:`, a host, and a path
 * that is empty or a database number; options: an object whose `host`, `port` and `db`,
 * when given, are a host name, a port (1-65535) and a database number (0-65535); a
 * cluster: 1 to 1,000 such URLs without a database (a cluster has only database 0), one
 * scheme, user and password for all, and `redisOptions`, when given, an object without
 * a `db` other than 0. Anything else would leave a relay or reader retrying a connection
 * that can never succeed.
 */
export function checkRedis(option: string, value: unknown): RelayRedis {
  if (typeof value === 'string') {
    checkUrl(option, value)
    return value
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    if ('cluster' in value) return checkCluster(option, value as Record<string, unknown>)
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

/** Checks a Redis URL (see {@link checkRedis}); returns it parsed. */
function checkUrl(option: string, value: string, database = true): URL {
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
  if (!database && db !== '' && db !== '0') {
    throw new VenueInputError(
      option,
      `${option} must not name a database (redis://HOST:PORT): a cluster has only database 0`,
    )
  }
  if (db !== '' && !isDb(/^\d{1,5}$/.test(db) ? Number(db) : Number.NaN)) {
    throw new VenueInputError(
      option,
      `${option} must end in a database number from 0 to ${MAX_DB} (redis://HOST:PORT/DB), or no path`,
    )
  }
  return url
}

function checkCluster(option: string, value: Record<string, unknown>): RelayRedisCluster {
  const { cluster, redisOptions } = value
  const nodes = `${option}.cluster`
  if (!Array.isArray(cluster) || cluster.length === 0 || cluster.length > MAX_NODES) {
    throw new VenueInputError(
      nodes,
      `${nodes} must list 1 to ${MAX_NODES} node URLs (redis://HOST:PORT)`,
    )
  }
  // Array.from, not map: a hole in a sparse array is a missing URL, not a skipped one.
  const urls = Array.from(cluster as readonly unknown[], (node, at) => {
    if (typeof node !== 'string') {
      throw new VenueInputError(`${nodes}[${at}]`, `${nodes}[${at}] must be a redis:// URL`)
    }
    return checkUrl(`${nodes}[${at}]`, node, false)
  })
  const login = (url: URL) => `${url.protocol}\n${url.username}\n${url.password}`
  if (urls.some((url) => login(url) !== login(urls[0] as URL))) {
    throw new VenueInputError(
      nodes,
      `${nodes}: every node URL must have the same scheme, user and password`,
    )
  }
  for (const name of NOT_WITH_CLUSTER) {
    if (value[name] !== undefined) {
      throw new VenueInputError(
        `${option}.${name}`,
        `${option}.${name} is not taken with ${nodes} (the nodes say where Redis is)`,
      )
    }
  }
  if (redisOptions !== undefined) {
    const where = `${option}.redisOptions`
    if (typeof redisOptions !== 'object' || redisOptions === null || Array.isArray(redisOptions)) {
      throw new VenueInputError(where, `${where} must be ioredis options`)
    }
    const { db } = redisOptions as { db?: unknown }
    if (db !== undefined && db !== 0) {
      throw new VenueInputError(
        `${where}.db`,
        `${where}.db must be 0: a cluster has only database 0`,
      )
    }
  }
  return value as unknown as RelayRedisCluster
}

const isDb = (db: unknown) => isWholeNumber(db, 0, MAX_DB)

/**
 * One Redis as text is given (`--redis`, `VENUE_RX_REDIS`): one URL for one server, URLs
 * separated by commas for a cluster. Checked as {@link checkRedis} checks it, `option`
 * naming it.
 *
 * @example
 * ```ts
 * redisFromText('--redis', 'redis://10.0.0.5:6379') // 'redis://10.0.0.5:6379'
 * redisFromText('--redis', 'redis://a:6379,redis://b:6379') // { cluster: ['redis://a:6379', 'redis://b:6379'] }
 * ```
 */
export function redisFromText(option: string, text: string): RelayRedis {
  const urls = text.split(',').map((url) => url.trim())
  if (urls.length === 1) return checkRedis(option, urls[0])
  if (urls.some((url) => url === '')) {
    throw new VenueInputError(option, `${option} must be URLs separated by commas, none empty`)
  }
  try {
    return checkRedis(option, { cluster: urls })
  } catch (error) {
    // The nodes are `option`'s own, not a `cluster` property of it.
    if (!(error instanceof VenueInputError)) throw error
    throw new VenueInputError(option, error.message.replace(`${option}.cluster`, option))
  }
}

/**
 * `host:port` of a {@link RelayRedis} (or its socket path; a cluster's nodes, separated
 * by commas), for messages (never its credentials).
 */
export function describeRedis(redis: RelayRedis): string {
  if (typeof redis === 'string') return hostPort(redis)
  if (isCluster(redis)) return redis.cluster.map(hostPort).join(',')
  if (typeof redis.path === 'string') return redis.path
  return `${redis.host ?? '127.0.0.1'}:${redis.port ?? 6379}`
}

function hostPort(text: string): string {
  const url = new URL(text)
  return `${url.hostname}:${url.port || '6379'}`
}

/**
 * The secrets in a {@link RelayRedis} (or in what was passed for one, checked or not):
 * the password of a URL (as written and decoded, or in its query, which ioredis reads too),
 * and of options `password`, `sentinelPassword` and TLS's `passphrase`; for a cluster,
 * those of each node URL and of `redisOptions`. Never throws.
 */
export function redisSecrets(redis: unknown): string[] {
  const found: unknown[] = []
  const fromUrl = (text: unknown) => {
    if (typeof text !== 'string') return
    try {
      const url = new URL(text)
      found.push(url.password, decoded(url.password))
      for (const name of ['password', 'sentinelPassword']) found.push(url.searchParams.get(name))
    } catch {
      // Not a URL: checkRedis refuses it without quoting it.
    }
  }
  const fromOptions = (value: unknown) => {
    if (typeof value !== 'object' || value === null) return
    const options = value as { password?: unknown; sentinelPassword?: unknown; tls?: unknown }
    found.push(options.password, options.sentinelPassword)
    if (typeof options.tls === 'object' && options.tls !== null) {
      found.push((options.tls as { passphrase?: unknown }).passphrase)
    }
  }
  if (typeof redis === 'string') fromUrl(redis)
  else if (typeof redis === 'object' && redis !== null) {
    fromOptions(redis)
    const { cluster, redisOptions } = redis as { cluster?: unknown; redisOptions?: unknown }
    if (Array.isArray(cluster)) for (const node of cluster as unknown[]) fromUrl(node)
    fromOptions(redisOptions)
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
 * `onError` hears every connection error. For a cluster, an ioredis `Cluster` with the
 * same settings on each node's connection (and a node's connection reconnects too);
 * it follows `MOVED` and `ASK` redirections, nothing else is retried behind the caller.
 * Its masters are all connected before it resolves, unless `oneSlot` says the client
 * sends one command at a time to one slot (a blocking read): that one connects on use.
 */
export async function connectRedis(
  redis: RelayRedis,
  name: string,
  onError?: (error: unknown) => void,
  oneSlot = false,
): Promise<RedisClient> {
  const { Redis, Cluster } = await import('ioredis')
  const reconnect = (times: number) => Math.min(50 * 2 ** Math.min(times, 5), 1_000)
  // Each node's connection of a cluster queues while it connects (ioredis's own rule);
  // the cluster itself fails a command at once while a node's connection is down.
  const settings = {
    maxRetriesPerRequest: 0,
    // A command cut off by a lost connection fails (the caller retries and reports it)
    // rather than being sent again behind its back.
    autoResendUnfulfilledCommands: false,
    // ioredis waits this long for a socket to close on disconnect, even one that is closed
    // already (a failed connect): its default 2 s kept a stopping process up that long.
    disconnectTimeout: 100,
    connectionName: name,
    // A Redis that hangs (stopped, swapping) fails each command after this long, so that
    // the caller retries and reports it instead of waiting for ever.
    commandTimeout: COMMAND_TIMEOUT_MS,
  } satisfies RedisOptions
  // ioredis's option types do not allow `undefined` where they are optional (casts below).
  // The reply mapping is named: from options cast to `never` the compiler would infer
  // `never` for it, and relating that client to RedisClient costs it a second or more.
  let client: RedisClient
  if (isCluster(redis)) {
    const { cluster, redisOptions, ...options } = redis
    client = new Cluster<'legacy'>(cluster.map(clusterNode), {
      ...options,
      lazyConnect: true,
      enableOfflineQueue: false,
      // A command that met a closed connection or a cluster that is down fails at once
      // (the caller retries); MOVED and ASK are still followed.
      retryDelayOnFailover: 0,
      retryDelayOnClusterDown: 0,
      clusterRetryStrategy: reconnect,
      clusterNodeRetryStrategy: reconnect,
      redisOptions: {
        ...clusterLogin(cluster[0] as string),
        ...redisOptions,
        ...settings,
      },
    } as never)
    // A node's errors (a wrong password) come apart from the cluster's.
    client.on('node error', (error: unknown) => {
      reason = error
      onError?.(error)
    })
  } else {
    const single = {
      ...settings,
      enableOfflineQueue: false,
      lazyConnect: true,
      retryStrategy: reconnect,
    }
    client =
      typeof redis === 'string'
        ? new Redis<'legacy'>(redis, single as never)
        : new Redis<'legacy'>({ ...redis, ...single } as never)
  }
  // The reason a connection failed (a wrong password, a refused connect) comes as an
  // 'error' event; the command or connect that fails says only "Connection is closed".
  let reason: unknown
  client.on('error', (error: unknown) => {
    reason = error
    onError?.(error)
  })
  try {
    if (isCluster(redis)) {
      await readyWithin(client, CONNECT_TIMEOUT_MS)
      if (!oneSlot) await connectMasters(client as Cluster)
    } else await client.connect()
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

/**
 * How long a cluster's connect may take before it fails, ms: one whose `CLUSTER INFO`
 * does not say `ok` is retried by ioredis and never resolves (a single server's connect
 * fails by itself).
 */
const CONNECT_TIMEOUT_MS = 10_000

/** Connects `client`, failing after `ms` (a cluster whose ready check fails retries for ever). */
function readyWithin(client: RedisClient, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not ready after ${ms} ms`)), ms)
  })
  return Promise.race([client.connect(), late]).finally(() => clearTimeout(timer))
}

/**
 * Connects each master's connection of a ready cluster: one that is still connecting
 * would fail the commands sent meanwhile (the cluster's offline queue is off). A node
 * that does not answer is left to the commands, which fail and are retried.
 */
async function connectMasters(cluster: Cluster): Promise<void> {
  await Promise.all(
    cluster.nodes('master').map(async (node) => {
      if (node.status !== 'wait') return
      await node.connect().catch(() => undefined)
    }),
  )
}

/** A cluster node's address, from its URL (the login is the same for all, see below). */
function clusterNode(text: string): { host: string; port: number } {
  const url = new URL(text)
  return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(url.port || '6379') }
}

/** The user, password and TLS of a cluster's node URLs (one for all, checked). */
function clusterLogin(text: string): RedisOptions {
  const url = new URL(text)
  const login: RedisOptions = {}
  if (url.username !== '') login.username = decoded(url.username)
  if (url.password !== '') login.password = decoded(url.password)
  if (url.protocol === 'rediss:') login.tls = {}
  return login
}

/** How long a Redis command may take before it fails as timed out, ms. */
export const COMMAND_TIMEOUT_MS = 2_000

/**
 * A {@link VenueRelayError} for a failed Redis call. Its cause is a plain copy of the
 * client's error (name and message): an ioredis error carries the command it failed with,
 * arguments included, and the arguments of `AUTH` / `HELLO` are the password. ioredis
 * messages name commands and states, never credentials; with `secrets` (Redis's password,
 * where the caller has it), the message and the cause are cleaned of them too. A `MOVED`
 * reply (one node of a cluster given as a single server) says how to give a cluster.
 */
export function relayError(message: string, cause: unknown, secrets?: Secrets): VenueRelayError {
  const clean = (text: string) =>
    secrets === undefined || secrets.empty ? text : secrets.redact(text)
  const reason = clean(cause instanceof Error ? cause.message : String(cause))
  const copy = new Error(reason)
  if (cause instanceof Error) copy.name = cause.name
  const hint = /^MOVED /.test(reason)
    ? ' (this Redis is a cluster: give its nodes as { cluster: [URL, ...] }, or URLs separated by commas)'
    : ''
  return new VenueRelayError(clean(`${message}: ${reason}${hint}`), { cause: copy })
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
 * The keys of `stream`: `<prefix>:{<tag>}:<name>:stream|state|lease|floor|fence`. The tag
 * (in braces: what Redis Cluster hashes to a slot) is what the stream shares a slot with:
 * - an account's streams: a hash of the venue's URL and the API key (`{<account>}`);
 * - a pool's public streams (`depth:1`, `trades:1`, `klines:1:5m`, ...): a hash of the
 *   venue's URL and market-data set, and the pool (`{<scope>:pool:1}`);
 * - the other public streams (`pools`, `tokens`, `system-info`): that hash alone.
 * So a stream's keys (its scripts and reads) and the streams one reader follows of one
 * account or one pool (its blocking read) are in one slot, while accounts and pools spread
 * over a cluster; two accounts (or two venues) on one Redis never share a stream.
 */
export function relayKeys(scope: RelayScope, stream: RelayStream): RelayKeys {
  const base = `${scope.prefix}:{${relayTag(scope, stream)}}:${relayStreamName(stream)}`
  return {
    stream: `${base}:stream`,
    state: `${base}:state`,
    lease: `${base}:lease`,
    floor: `${base}:floor`,
    fence: `${base}:fence`,
  }
}

/** The hash tag of `stream`'s keys (see {@link relayKeys}). */
function relayTag(scope: RelayScope, stream: RelayStream): string {
  if (isAccountStream(stream)) {
    if (scope.apiKey === undefined) {
      throw new VenueInputError(
        'apiKey',
        `relay: the stream ${relayStreamName(stream)} is of the account: the apiKey option is needed`,
      )
    }
    return hash(`${scope.baseUrl}|account|${scope.apiKey}`)
  }
  const venue = hash(`${scope.baseUrl}|${scope.marketData}`)
  const { poolId } = stream as { readonly poolId?: unknown }
  return typeof poolId === 'number' ? `${venue}:pool:${poolId}` : venue
}

/**
 * The part of `key` Redis Cluster hashes to a slot: between the first `{` and the next
 * `}` when that is not empty, else the whole key (Redis's own rule).
 *
 * @example
 * ```ts
 * hashTag('venue-rx:{ab12:pool:1}:depth:1:stream') // 'ab12:pool:1'
 * ```
 */
export function hashTag(key: string): string {
  const open = key.indexOf('{')
  const close = open < 0 ? -1 : key.indexOf('}', open + 1)
  return close > open + 1 ? key.slice(open + 1, close) : key
}

/** The key of the request budget shared by every client of one venue and API key. */
export function budgetKey(prefix: string, baseUrl: string, apiKey: string | undefined): string {
  return `${prefix}:budget:${hash(`${baseUrl}|${apiKey === undefined ? 'public' : `key|${apiKey}`}`)}`
}

/** The default prefix of every key venue-rx writes. */
export const DEFAULT_PREFIX = 'venue-rx'
