import { describeRedis, type RelayRedis, redisFromText } from '../redis/redis.js'
import { isAccountStream, parseRelayStream, relayStreamName } from '../redis/stream-names.js'
import { type IntegerLimits, RELAY_LIMITS } from '../relay-publisher/relay-limits.js'
import type { Relay } from '../relay-publisher/start-relay.js'
import { KLINE_INTERVALS } from '../schemas/kline.js'
import { integerOption, parseWithPositionals, quotedWords, UsageError } from './args.js'
import { openVenue, type VenueArgs, venueArgs } from './cli-venue.js'
import { CliError, toCliError } from './failure.js'
import { healthNotices } from './health-notice.js'
import { type CliIo, untilStopped } from './io.js'

/** The environment variable `--redis` falls back to: a password there is not in `ps`. */
export const REDIS_ENV = 'VENUE_RX_REDIS'

export const RELAY_USAGE = `Usage: venue-rx relay --streams NAME[,NAME...] [--redis URL] [options]

Polls the venue once for a fleet and publishes the streams to Redis Streams until Ctrl-C
(or SIGTERM); bots read them with createVenue({ ..., relay: { redis } }). Run two or more
relays with the same streams: one publishes each stream (active), the others stand by
and take over when it stops.

Streams (--streams, comma-separated):
  depth:POOL             the order book of pool POOL
  trades:POOL            public trades of pool POOL
  klines:POOL:INTERVAL   candles, INTERVAL one of ${KLINE_INTERVALS.join(' ')}
  pools                  the pools
  pool:POOL              the detail of pool POOL
  tokens                 the tokens
  system-info            the venue's system info
  account                the account's info             needs VENUE_API_KEY
  my-trades              the account's trades           needs VENUE_API_KEY
  transfers              its deposits and withdrawals   needs VENUE_API_KEY
  fills                  its fills                      needs VENUE_API_KEY
  balances               its balances                   needs VENUE_API_KEY
  open-orders            its open orders                needs VENUE_API_KEY

Options:
  --redis URL       Redis: redis://[user:password@]HOST:PORT[/DB], rediss:// for TLS;
                    a cluster: two or more node URLs separated by commas (no /DB).
                    Only HOST:PORT is ever printed. Required unless ${REDIS_ENV} is
                    set; given both, --redis wins
  --streams LIST    the streams to publish (required)
  --base-url URL    the venue (default $VENUE_URL or http://127.0.0.1:8787)
  --prefix P        first part of every Redis key; consumers use the same (default venue-rx)
  --lease-ms N      a standby takes a stream over at most N ms after its relay died
                    (default 5000, from 100 to 3600000)
  --max-len N       entries kept per Redis stream (default 10000, from 100 to 1000000)
  --poll-ms N       longest wait between two polls, ms (default 1000)
  --settle-ms N     hold the newest trades, fills and transfers N ms, so that one the
                    venue shows late still comes in order (default 1000; 0: off)
  --relay-id ID     this relay's id in the leases (default a random one)
  --metrics-port N  serve Prometheus metrics at http://127.0.0.1:N/metrics (0: any free
                    port, printed at the start): per stream, venue requests, events
                    published, seconds since the last publish, lease changes, Redis errors
  --metrics-host H  the address the metrics server listens on (default 127.0.0.1;
                    0.0.0.0 for every interface); needs --metrics-port
  --json            state changes as JSON lines on stdout:
                    {"stream":"depth:1","state":"active","at":<epoch ms>}
  -h, --help        this help

Environment:
  ${REDIS_ENV}    the Redis URL (a cluster's URLs, separated by commas), as --redis
                    takes it: a password in it stays out of the process list (ps),
                    where a --redis argument shows
  VENUE_API_KEY     the API key, for the account streams
  VENUE_URL         the venue, when --base-url is not given

On stderr: one line when it starts, one each time a stream turns active or standby
(on stdout as JSON with --json), and one if Redis cannot be reached (it keeps trying).

Example:
  VENUE_API_KEY=k-... venue-rx relay --redis redis://127.0.0.1:6379 \\
    --streams depth:0,trades:0,my-trades,fills,balances
  VENUE_RX_REDIS=redis://:PASSWORD@10.0.0.5:6379 venue-rx relay --streams depth:0

Exit codes: 0 stopped (Ctrl-C, SIGTERM), 1 runtime failure, 2 usage error.
`

/** How often the streams' states are looked at, ms. */
const STATUS_EVERY_MS = 200
/** With no stream active this long after the start, Redis is probed and a line says why. */
const WAITING_AFTER_MS = 2_000
/** What `--prefix` and `--relay-id` may be, as `startRelay` takes them. */
const KEY_PART = /^[\w.-]{1,64}$/

interface RelayArgs {
  readonly redis: RelayRedis
  /** `host:port` of Redis, never its credentials. */
  readonly where: string
  readonly streams: readonly string[]
  readonly needsKey: boolean
  readonly pools: readonly number[]
  readonly connection: VenueArgs
  readonly prefix: string | undefined
  readonly relayId: string | undefined
  readonly leaseMs: number
  readonly maxLen: number
  readonly json: boolean
  readonly metrics: { readonly port: number; readonly host: string | undefined } | undefined
}

/** `venue-rx relay`: runs a relay (`startRelay`) until interrupted. */
export async function relayCommand(argv: readonly string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseWithPositionals(
    argv,
    [
      'redis',
      'streams',
      'base-url',
      'prefix',
      'lease-ms',
      'max-len',
      'poll-ms',
      'settle-ms',
      'relay-id',
      'metrics-port',
      'metrics-host',
    ],
    ['json'],
  )
  if (values['help'] === true) {
    io.stdout.write(RELAY_USAGE)
    return
  }
  const args = checkArguments(values, positionals, io.env)
  // Never printed: the key goes to the venue client only.
  const apiKey = args.needsKey ? apiKeyForRelay(args.streams, io.env) : undefined
  const signalled = untilStopped(io)
  let interrupted = false
  void signalled.then(() => {
    interrupted = true
  })
  let relay: Relay
  try {
    await checkVenue(args, apiKey)
    if (interrupted) return
    const { startRelay } = await import('../relay.js')
    relay = await startRelay({
      baseUrl: args.connection.baseUrl,
      pollIntervalMs: args.connection.pollMs,
      settleMs: args.connection.settleMs,
      ...(apiKey === undefined ? {} : { apiKey }),
      redis: args.redis,
      streams: args.streams,
      leaseMs: args.leaseMs,
      maxLen: args.maxLen,
      ...(args.prefix === undefined ? {} : { prefix: args.prefix }),
      ...(args.relayId === undefined ? {} : { relayId: args.relayId }),
      ...(args.metrics === undefined ? {} : { metricsPort: args.metrics.port }),
      ...(args.metrics?.host === undefined ? {} : { metricsHost: args.metrics.host }),
    })
  } catch (error) {
    throw toCliError(error, args.connection)
  }
  const notices = healthNotices(relay.venue, args.connection.baseUrl, io.stderr)
  const watching = watchStates(relay, args, io)
  try {
    await signalled
  } finally {
    watching.stop()
    notices.unsubscribe()
    await relay.close()
  }
}

function checkArguments(
  values: Record<string, string | boolean | undefined>,
  positionals: readonly string[],
  env: CliIo['env'],
): RelayArgs {
  if (positionals.length > 0) {
    throw new UsageError(`relay takes no argument (got ${quotedWords(positionals)})`)
  }
  const { redis, where } = redisArgument(values['redis'], env)
  const streams = streamsArgument(values['streams'])
  const parsed = streams.map(parseRelayStream)
  const pools = [...new Set(parsed.flatMap((s) => ('poolId' in s ? [s.poolId] : [])))].sort(
    (a, b) => a - b,
  )
  return {
    redis,
    where,
    streams,
    needsKey: parsed.some(isAccountStream),
    pools,
    connection: venueArgs(values, env),
    prefix: keyPart(values, 'prefix'),
    relayId: keyPart(values, 'relay-id'),
    leaseMs: limitedOption(values, 'lease-ms', RELAY_LIMITS.leaseMs),
    maxLen: limitedOption(values, 'max-len', RELAY_LIMITS.maxLen),
    json: values['json'] === true,
    metrics: metricsArguments(values),
  }
}

/** `--metrics-port` (0-65535) and `--metrics-host` (only with a port). */
function metricsArguments(
  values: Record<string, string | boolean | undefined>,
): RelayArgs['metrics'] {
  const host = values['metrics-host']
  if (values['metrics-port'] === undefined) {
    if (host !== undefined) throw new UsageError('relay: --metrics-host needs --metrics-port')
    return undefined
  }
  const port = integerOption(values, 'metrics-port', 0, 0, 65_535)
  if (host === undefined) return { port, host: undefined }
  const text = String(host)
  if (!/^[\w.:-]{1,255}$/.test(text)) {
    throw new UsageError(`--metrics-host must be a host name or IP address (got "${text}")`)
  }
  return { port, host: text }
}

/**
 * `--redis`, or else `VENUE_RX_REDIS` (blank counts as unset): a redis:// or rediss://
 * URL with a host, or a cluster's node URLs separated by commas. The value is never
 * repeated in a message (it may hold a password); `where` is its `host:port` (each
 * node's) alone.
 */
function redisArgument(
  raw: string | boolean | undefined,
  env: CliIo['env'],
): { redis: RelayRedis; where: string } {
  const fromEnv = env[REDIS_ENV]
  const given = raw ?? (fromEnv?.trim() === '' ? undefined : fromEnv?.trim())
  if (given === undefined) {
    throw new UsageError(`relay: --redis is required (redis://HOST:PORT), or set ${REDIS_ENV}`)
  }
  const source = raw === undefined ? REDIS_ENV : '--redis'
  let redis: RelayRedis
  try {
    redis = redisFromText(source, String(given))
  } catch {
    throw new UsageError(
      `${source} must be a URL redis://[user:password@]HOST:PORT[/DB] (rediss:// for TLS), or a cluster's node URLs redis://[user:password@]HOST:PORT separated by commas (one scheme, user and password)`,
    )
  }
  return { redis, where: describeRedis(redis) }
}

/** `--streams` of `command` (relay, record): names separated by commas, each known, none twice. */
export function streamsArgument(raw: string | boolean | undefined, command = 'relay'): string[] {
  if (raw === undefined) {
    throw new UsageError(`${command}: --streams is required (e.g. --streams depth:0,my-trades)`)
  }
  const names = String(raw)
    .split(',')
    .map((name) => name.trim())
  if (names.some((name) => name === '')) {
    throw new UsageError(`--streams must be names separated by commas (got "${String(raw)}")`)
  }
  const canonical: string[] = []
  for (const name of names) {
    let stream: ReturnType<typeof parseRelayStream>
    try {
      stream = parseRelayStream(name)
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      throw new UsageError(message.replace(/^relay: /, `${command}: `))
    }
    const shown = relayStreamName(stream)
    if (canonical.includes(shown)) {
      throw new UsageError(`${command}: the stream ${shown} is named twice`)
    }
    canonical.push(shown)
  }
  return canonical
}

/** A whole-number option within `startRelay`'s bounds of it. */
const limitedOption = (
  values: Record<string, string | boolean | undefined>,
  name: string,
  limits: IntegerLimits,
) => integerOption(values, name, limits.default, limits.min, limits.max)

function keyPart(
  values: Record<string, string | boolean | undefined>,
  name: string,
): string | undefined {
  const raw = values[name]
  if (raw === undefined) return undefined
  const value = String(raw)
  if (!KEY_PART.test(value)) {
    throw new UsageError(`--${name} must be 1-64 letters, digits, _ . - (got "${value}")`)
  }
  return value
}

/** The API key for the account streams, from `VENUE_API_KEY`; a usage error without it. */
function apiKeyForRelay(streams: readonly string[], env: CliIo['env']): string {
  const key = env['VENUE_API_KEY']
  if (key === undefined || key.trim() === '') {
    const account = streams.filter((name) => isAccountStream(parseRelayStream(name)))
    throw new UsageError(
      `relay: ${account.join(', ')} ${account.length === 1 ? 'is' : 'are'} of the account and need${account.length === 1 ? 's' : ''} an API key: set VENUE_API_KEY (venue-rx simulate prints one)`,
    )
  }
  return key.trim()
}

/**
 * The venue answers, accepts the key and has the pools named, or one line now: a relay
 * would otherwise retry for ever (or turn active and standby again and again) in silence.
 */
async function checkVenue(args: RelayArgs, apiKey: string | undefined): Promise<void> {
  const venue = await openVenue(args.connection, { apiKey })
  try {
    if (args.pools.length === 0) return
    const ids = (await venue.rest.pools()).map((pool) => pool.pool_id)
    const unknown = args.pools.find((id) => !ids.includes(id))
    if (unknown !== undefined) {
      throw new CliError(
        `unknown pool ${unknown}`,
        `the venue has pool${ids.length === 1 ? '' : 's'} ${ids.join(', ') || '(none)'}`,
      )
    }
  } finally {
    await venue.close()
  }
}

/**
 * Prints the start line, then each change of a stream's state (every 200 ms), and, when no
 * stream is active 2 s after the start, why: Redis cannot be reached (the relay keeps
 * trying), or another relay publishes them.
 */
function watchStates(relay: Relay, args: RelayArgs, io: CliIo): { stop(): void } {
  const err = (line: string) => io.stderr.write(`${line}\n`)
  const venue = new URL(args.connection.baseUrl)
  venue.username = ''
  venue.password = ''
  err(
    `relay ${relay.id}: publishing ${args.streams.join(', ')} to redis ${args.where} ` +
      `(venue ${venue.origin}${venue.pathname === '/' ? '' : venue.pathname}, ` +
      `prefix ${args.prefix ?? 'venue-rx'})`,
  )
  if (relay.metricsUrl !== undefined) err(`relay ${relay.id}: metrics at ${relay.metricsUrl}`)
  // A closed stdout (`--json | head`) ends the JSON lines, not the relay.
  let stdoutOpen = true
  const onStdoutError = () => {
    stdoutOpen = false
  }
  if (args.json) io.stdout.on('error', onStdoutError)
  const last = new Map<string, string>(args.streams.map((s) => [s, 'standby']))
  let anyActive = false
  const look = () => {
    for (const [stream, { state, reason }] of Object.entries(relay.status())) {
      if (last.get(stream) === state) continue
      last.set(stream, state)
      if (state === 'active') anyActive = true
      if (args.json) {
        if (stdoutOpen) {
          const line = {
            stream,
            state,
            ...(reason === undefined ? {} : { reason }),
            at: Date.now(),
          }
          io.stdout.write(`${JSON.stringify(line)}\n`)
        }
      } else if (state !== 'retrying') {
        // A retrying stream's line, with Redis's reason, comes from the health below.
        err(`${stream} ${state}`)
      }
    }
  }
  // Redis trouble once the relay has reached Redis (before that, the waiting line below
  // says why): one line on stderr per stream when its reason changes, and when it is over.
  const reasons = new Map<string, string>()
  const reached = new Set<string>()
  let latest: string | undefined
  const trouble = relay.health.subscribe((report) => {
    for (const [key, health] of Object.entries(report)) {
      const stream = key.replace(/^publish /, '')
      const reason = health.state === 'retrying' ? health.lastErrorMessage : undefined
      latest = reason ?? latest
      if (!reached.has(stream)) {
        if (reason === undefined) reached.add(stream)
        continue
      }
      if (reason === reasons.get(stream)) continue
      if (reason === undefined) reasons.delete(stream)
      else reasons.set(stream, reason)
      err(reason === undefined ? `${stream} redis ok` : `${stream} retrying: ${reason}`)
    }
  })
  let stopped = false
  const interval = setInterval(look, STATUS_EVERY_MS)
  const waiting = setTimeout(() => {
    look()
    if (anyActive || stopped) return
    err(
      reached.size > 0 || latest === undefined
        ? `relay ${relay.id}: standing by: another relay publishes ${args.streams.join(', ')}`
        : `waiting for Redis at ${args.where} (${latest.replace(/^cannot reach Redis at \S+: /, '')}); the relay keeps trying`,
    )
  }, WAITING_AFTER_MS)
  return {
    stop() {
      stopped = true
      trouble.unsubscribe()
      io.stdout.off('error', onStdoutError)
      clearInterval(interval)
      clearTimeout(waiting)
    },
  }
}
