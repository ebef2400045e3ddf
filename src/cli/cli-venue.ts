import { VenueNotFoundError } from '../errors/venue-not-found-error.js'
import type { Venue } from '../venue.js'
import { integerOption, UsageError } from './args.js'
import { CliError, toCliError } from './failure.js'
import { healthNotices } from './health-notice.js'
import type { CliIo, CliOutput } from './io.js'

/** The simulator's default address (`venue-rx simulate`). */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787'

/** Options every venue-reading command takes. */
export interface VenueArgs {
  readonly baseUrl: string
  readonly pollMs: number
  /** The settle window of the own-trades, fills and transfers feeds (the library's option). */
  readonly settleMs: number
}

/**
 * `--base-url` (or `VENUE_URL`, or the simulator's default), `--poll-ms` and
 * `--settle-ms` (for the commands that take it).
 */
export function venueArgs(
  values: Record<string, string | boolean | undefined>,
  env: CliIo['env'],
): VenueArgs {
  const raw = values['base-url'] ?? env['VENUE_URL'] ?? DEFAULT_BASE_URL
  const baseUrl = String(raw)
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
    throw new UsageError(`--base-url must be an http(s) URL (got ${baseUrl})`)
  }
  return {
    baseUrl,
    pollMs: integerOption(values, 'poll-ms', 1000, 10, 3_600_000),
    settleMs: integerOption(values, 'settle-ms', 1000, 0, 3_600_000),
  }
}

/** The API key for account streams, from `VENUE_API_KEY`; a one-line failure without it. */
export function apiKeyFromEnv(what: string, env: CliIo['env']): string {
  const key = env['VENUE_API_KEY']
  if (key === undefined || key.trim() === '') {
    throw new CliError(
      `${what} reads the account and needs an API key`,
      'set VENUE_API_KEY (venue-rx simulate prints one)',
    )
  }
  return key.trim()
}

/** What {@link openVenue} checks besides the ping: the account (with a key), the pool. */
export interface VenueCheck {
  readonly apiKey?: string | undefined
  readonly poolId?: number | undefined
}

/**
 * A venue client, checked before any stream starts so that a wrong address, key or pool
 * fails at once with one line instead of retrying forever: a ping, the account (with a
 * key) and the pool (when given).
 */
export async function openVenue(args: VenueArgs, check: VenueCheck): Promise<Venue> {
  // Loaded here, not at the top: a usage error or --help does not wait for the client.
  const { createVenue } = await import('../venue.js')
  const venue = createVenue({
    baseUrl: args.baseUrl,
    pollIntervalMs: args.pollMs,
    settleMs: args.settleMs,
    lingerMs: 1,
    ...(check.apiKey === undefined ? {} : { apiKey: check.apiKey }),
  })
  try {
    await venue.rest.ping()
    if (check.apiKey !== undefined) await venue.rest.accountInfo()
    if (check.poolId !== undefined) await checkPool(venue, check.poolId)
    return venue
  } catch (error) {
    await venue.close()
    throw error
  }
}

/**
 * Runs `body` with a venue opened by {@link openVenue}, health notices on `stderr` while
 * it runs (`beforeNotice` is called before each, e.g. to clear a progress line), then
 * closes the venue. Any failure, of the opening or of `body`, comes out as a one-line
 * {@link CliError} with a hint.
 */
export async function withVenue(
  args: VenueArgs,
  check: VenueCheck,
  stderr: CliOutput,
  body: (venue: Venue) => Promise<void>,
  beforeNotice?: () => void,
): Promise<void> {
  try {
    const venue = await openVenue(args, check)
    try {
      const notices = healthNotices(venue, args.baseUrl, stderr, beforeNotice)
      try {
        await body(venue)
      } finally {
        notices.unsubscribe()
      }
    } finally {
      await venue.close()
    }
  } catch (error) {
    throw toCliError(error, args)
  }
}

async function checkPool(venue: Venue, poolId: number): Promise<void> {
  try {
    await venue.rest.pool(poolId)
  } catch (error) {
    if (!(error instanceof VenueNotFoundError)) throw error
    const ids = (await venue.rest.pools()).map((p) => p.pool_id)
    throw new CliError(
      `unknown pool ${poolId}`,
      `the venue has pool${ids.length === 1 ? '' : 's'} ${ids.join(', ') || '(none)'}`,
    )
  }
}
