import { inspect } from 'node:util'
import {
  asyncScheduler,
  catchError,
  map,
  type Observable,
  takeUntil,
  throwError,
  timer,
} from 'rxjs'
import { ApiKey } from './api-key.js'
import { HealthBoard, type HealthReport } from './core/health.js'
import type { FreshnessReport } from './core/poll-pacer.js'
import { StreamRegistry } from './core/stream-registry.js'
import { redactError } from './errors/venue-error.js'
import {
  type ReplayVenueOptions,
  type ResolvedVenueOptions,
  resolveOptions,
  type VenueOptions,
} from './options.js'
import { describeRedis, type RelayScope } from './redis/redis.js'
import { sharedConnection } from './redis/redis-connection.js'
import { wakerFor } from './relay-reader/entry-waker.js'
import type { RelayReader } from './relay-reader/follow.js'
import { relayedKeptFills, relayStreams } from './relay-reader/relay-streams.js'
import { createRestClient, type RestClient, type RestClientSettings } from './rest/index.js'
import {
  relayedEntry,
  relayedOrderStreams,
  type StreamMethods,
  streamOpeners,
} from './streams/catalogue.js'
import type { PollOn } from './streams/catalogue-entry.js'
import { Nudges } from './streams/nudges.js'
import { polledOrderFeeds, relayedOrderFeeds } from './streams/order-feeds.js'
import { type RelaySources, relaySources } from './streams/relay-sources.js'
import type { StreamContext } from './streams/stream-context.js'
import { noArguments } from './streams/stream-options.js'
import { polledStreams, type StreamSet } from './streams/stream-set.js'
import { venueLookups } from './streams/venue-lookups.js'
import { laneTransport } from './transport/closing-transport.js'
import { type VenueTransport, venueTransport } from './venue-transport.js'

/**
 * What a venue shows of its options: everything but the key itself.
 *
 * @example
 * ```ts
 * const { baseUrl, pollIntervalMs, marketData, hasApiKey } = venue.settings
 * // 'http://127.0.0.1:8787' 1000 'v2' true
 * JSON.stringify(venue) // '{"settings":{...}}': never the key
 * ```
 */
export interface VenueSettings
  extends Omit<
    ResolvedVenueOptions,
    'apiKey' | 'dispatcher' | 'scheduler' | 'relay' | 'sharedBudget'
  > {
  /** Where the relay's Redis is (`host:port`, no credentials), when `relay` is set. */
  readonly relay:
    | { readonly redis: string; readonly prefix: string; readonly readIntervalMs: number }
    | undefined
  /** Where the shared budget's Redis is, when `sharedBudget` is set. */
  readonly sharedBudget: { readonly redis: string; readonly prefix: string } | undefined
  /** Whether an API key was given (the key itself is never exposed). */
  readonly hasApiKey: boolean
  /** Whether a caller-supplied dispatcher is in use. */
  readonly customDispatcher: boolean
  /** Whether a caller-supplied scheduler drives the streams. */
  readonly customScheduler: boolean
}

/**
 * A connection to one venue: promise methods per endpoint in `rest`, and cold,
 * shared, self-healing streams (`watch...`). Every request of the venue, REST or
 * stream, draws from one request budget (`maxRequestsPerSecond`).
 *
 * @example
 * ```ts
 * import { createVenue, type Venue } from 'venue-rx'
 *
 * const venue: Venue = createVenue({ baseUrl: 'http://127.0.0.1:8787', apiKey })
 * const pools = await venue.rest.pools()
 * const books = venue.watchOrderBook(0).subscribe((book) => console.log(book.mid))
 * venue.health.subscribe((report) => console.log(report))
 * // on shutdown
 * books.unsubscribe()
 * await venue.close()
 * ```
 */
export interface Venue extends StreamMethods {
  /** One promise method per endpoint. */
  readonly rest: RestClient
  /** The validated options, with the key left out. */
  readonly settings: VenueSettings
  /**
   * Per-stream state (`ok`, `retrying` with attempt, next delay and last error code,
   * `failed`), keyed by stream key, e.g. `watchPool("1")`. Emits on every state change;
   * a new subscriber gets the current report at once.
   */
  readonly health: Observable<HealthReport>
  /**
   * Per polled stream, how fresh it is kept: its polls and changes a second (decaying
   * averages over about a second), the estimated mean staleness of its changes (half the
   * time between polls plus the round trip) and its priority, keyed as `health`. A report
   * at once, then one a second; relayed streams spend no budget and are not in it.
   *
   * @example
   * ```ts
   * venue.freshness.subscribe((report) => {
   *   for (const [stream, f] of Object.entries(report)) {
   *     console.log(stream, f.pollsPerSecond, f.changesPerSecond, f.stalenessMs)
   *   }
   * })
   * ```
   */
  readonly freshness: Observable<FreshnessReport>
  /**
   * Stops every poller (their streams complete), rejects requests waiting for the
   * budget and closes the connection pool. Later calls reject with `VenueAbortError`.
   */
  close(): Promise<void>
}

/**
 * Creates a venue client. Options are validated at once: a wrong one throws
 * `VenueInputError` naming it.
 *
 * @example
 * ```ts
 * import { createVenue } from 'venue-rx'
 *
 * const venue = createVenue({ baseUrl: 'http://127.0.0.1:8787', apiKey: process.env.VENUE_KEY })
 * const book = await venue.rest.depth({ poolId: 1, limit: 5 })
 * console.log(book.bids[0]) // [ '1.0452', '310.5' ]
 * venue.watchBalances().subscribe(({ changes }) => console.log(changes))
 *
 * // A recording replayed (`baseUrl` and the key may be left out): streams end with it.
 * const replayed = createVenue({ replay: { file: 'session.journal', speed: 'max' } })
 * ```
 */
export function createVenue(options: VenueOptions | ReplayVenueOptions): Venue {
  return buildVenue(options).venue
}

/**
 * A venue as {@link createVenue} makes it, and beside it the sources the relay publisher
 * reads on the same streams ({@link RelaySources}: the first poll of a stream as one
 * batch). For `startRelay` only: not exported by the package. The sources bypass the
 * `relay` option (`startRelay` refuses it: a relay polls the venue). `onRequest` is
 * called at each request the venue sends (after identical requests in flight were merged
 * into one), in the async context of whoever made it: the relay's metrics count them.
 *
 * @example
 * ```ts
 * const { venue, sources } = createRelayVenue({ baseUrl, apiKey }, () => requests++)
 * sources.openOrders() // the open orders, one batch per poll, the first flagged initial
 * venue.watchDepth(1) // the venue's streams as ever
 * ```
 */
export function createRelayVenue(
  options: VenueOptions,
  onRequest?: () => void,
): {
  readonly venue: Venue
  readonly sources: RelaySources
  /**
   * Spends `share` (0 to 1) of the venue's `pollsPerSecond` on polls: a relay that
   * publishes some of the streams of a fleet spends their share of the budget.
   */
  readonly sharePolls: (share: number) => void
} {
  return buildVenue(options, onRequest)
}

/** What {@link buildVenue} gives: the venue, and what `startRelay` takes beside it. */
interface BuiltVenue {
  readonly venue: Venue
  readonly sources: RelaySources
  readonly sharePolls: (share: number) => void
}

/**
 * The venue of `options`, and the relay sources on its {@link StreamContext}. `onRequest`
 * is called with each request handed to the HTTP pool (identical ones merged already).
 */
function buildVenue(
  options: VenueOptions | ReplayVenueOptions,
  onRequest?: () => void,
): BuiltVenue {
  const resolved = resolveOptions(options)
  const health = new HealthBoard()
  const { transport, closed, pacer } = venueTransport(resolved, health, onRequest)
  const restSettings = restSettingsOf(resolved)
  const context = streamContext(resolved, { transport, restSettings, health, closed, pacer })
  const guard = guardStreams(resolved.apiKey)
  const reading = relayReading(resolved, context)
  const streams =
    reading === undefined
      ? polledStreams(context, resolved.marketData)
      : relayStreams(reading.reader, reading.scope)
  const on: PollOn = {
    context,
    marketData: resolved.marketData,
    orderFeeds:
      reading === undefined
        ? polledOrderFeeds(context)
        : relayedOrderFeeds(
            context,
            relayedOrderStreams(streams, relayedKeptFills(reading.reader, reading.scope)),
          ),
  }
  const settings = visibleSettings(resolved)
  const venue: Venue = {
    rest: createRestClient({ transport, options: restSettings }),
    settings,
    health: redacted(health.changes, resolved.apiKey),
    freshness: timer(0, 1000, resolved.scheduler).pipe(
      map(() => pacer.report()),
      (reports) => redacted(reports, resolved.apiKey),
      takeUntil(closed),
    ),
    ...streamMethods(streams, on, guard),
    close: () => transport.close(),
  }
  Object.defineProperties(venue, {
    toJSON: { value: () => ({ settings }), enumerable: false },
    [inspect.custom]: { value: () => `Venue ${inspect(settings)}`, enumerable: false },
  })
  // Errors of the sources are cleaned of the key as the venue's streams' are, and name
  // the method of the relay stream each feeds.
  const { trades, openOrders } = relaySources(context, resolved.marketData)
  const sources: RelaySources = {
    trades: guard(relayedEntry('trades').method, 1, trades),
    openOrders: guard(relayedEntry('open-orders').method, 0, openOrders),
  }
  return {
    venue: Object.freeze(venue),
    sources,
    sharePolls: (share) => pacer.setPollsPerSecond(resolved.pollsPerSecond * share),
  }
}

/** What the venue shows of its options: no key, and where Redis is without its credentials. */
function visibleSettings(resolved: ResolvedVenueOptions): VenueSettings {
  const { apiKey, dispatcher, scheduler, relay, sharedBudget, ...visible } = resolved
  return Object.freeze({
    ...visible,
    relay:
      relay === undefined
        ? undefined
        : {
            redis: describeRedis(relay.redis),
            prefix: relay.prefix,
            readIntervalMs: relay.readIntervalMs,
          },
    sharedBudget:
      sharedBudget === undefined
        ? undefined
        : { redis: describeRedis(sharedBudget.redis), prefix: sharedBudget.prefix },
    hasApiKey: apiKey !== undefined,
    customDispatcher: dispatcher !== undefined,
    customScheduler: scheduler !== asyncScheduler,
  })
}

/** What a replay without an API key puts in account requests: the journal never sees it. */
const REPLAY_KEY = new ApiKey('venue-rx-replay-without-a-key')

/** The settings the REST layer uses, not the venue's options. */
function restSettingsOf(resolved: ResolvedVenueOptions): RestClientSettings {
  return {
    // Only to tell a user whose baseUrl ends in /api/v1 why every request answers 404.
    baseUrl: resolved.baseUrl,
    // A replay sends nothing: account requests go out (to the journal) without a key.
    apiKey: resolved.apiKey ?? (resolved.replay === undefined ? undefined : REPLAY_KEY),
    requestTimeoutMs: resolved.requestTimeoutMs,
    marketData: resolved.marketData,
    paramNames: resolved.paramNames,
  }
}

/** What every stream of the venue is built from. */
function streamContext(
  resolved: ResolvedVenueOptions,
  parts: Omit<VenueTransport, 'closed'> & {
    readonly closed: Observable<void>
    readonly restSettings: RestClientSettings
    readonly health: HealthBoard
  },
): StreamContext {
  const { transport, restSettings, health, closed, pacer } = parts
  const { scheduler } = resolved
  return {
    rest: (lane) =>
      createRestClient({ transport: laneTransport(transport, lane), options: restSettings }),
    registry: new StreamRegistry({
      lingerMs: resolved.lingerMs,
      health,
      closed,
      scheduler,
    }),
    scheduler,
    closed,
    health,
    pollIntervalMs: resolved.pollIntervalMs,
    backoff: resolved.backoff,
    settleMs: resolved.settleMs,
    orderLookups: resolved.orderLookups,
    fillGraceMs: resolved.fillGraceMs,
    lookups: venueLookups(),
    nudges: new Nudges(),
    pacer,
  }
}

/**
 * One source for the streams a relay can publish: Redis when `relay` is set, else the
 * venue itself. Either runs through the context's registry, health, backoff and clock.
 */
function relayReading(
  resolved: ResolvedVenueOptions,
  context: StreamContext,
): { readonly reader: RelayReader; readonly scope: RelayScope } | undefined {
  const { relay } = resolved
  if (relay === undefined) return undefined
  return {
    reader: {
      context,
      connection: sharedConnection(relay.redis, 'venue-rx-reader'),
      readIntervalMs: relay.readIntervalMs,
      waker: wakerFor(relay.redis),
    },
    scope: {
      prefix: relay.prefix,
      baseUrl: resolved.baseUrl,
      marketData: resolved.marketData,
      apiKey: resolved.apiKey?.reveal(),
    },
  }
}

/** Every `watch...` method of the venue, from the catalogue, each behind its guard. */
function streamMethods(streams: StreamSet, on: PollOn, guard: Guard): StreamMethods {
  return Object.fromEntries(
    streamOpeners(on, streams).map(({ method, arity, open }) => [
      method,
      guard(method, arity, open),
    ]),
  ) as StreamMethods
}

/** Wraps a stream's opener as a `watch...` method (see {@link guardStreams}). */
type Guard = <A extends unknown[], T>(
  method: string,
  arity: number,
  open: (...args: A) => Observable<T>,
) => (...args: A) => Observable<T>

/**
 * The entry point of every `watch...` method: no more arguments than the method takes
 * (`arity`: a defined one more is refused), and no error (thrown at the call or emitted by
 * the stream) that holds the API key.
 */
function guardStreams(key: ApiKey | undefined): Guard {
  const clean = (error: unknown) => (key === undefined ? error : redactError(error, key))
  return <A extends unknown[], T>(
    method: string,
    arity: number,
    open: (...args: A) => Observable<T>,
  ) =>
    (...args: A): Observable<T> => {
      let stream: Observable<T>
      try {
        if (args.length > arity) noArguments(method, args.slice(arity))
        stream = open(...(args.slice(0, arity) as A))
      } catch (error) {
        throw clean(error)
      }
      return key === undefined
        ? stream
        : stream.pipe(catchError((error: unknown) => throwError(() => clean(error))))
    }
}

/**
 * Stream keys quote a stream's arguments (`watchPool("...")`): a key pasted as a pool
 * symbol must not show in the health report (nor in the freshness report) either.
 */
function redacted<V>(
  reports: Observable<Readonly<Record<string, V>>>,
  key: ApiKey | undefined,
): Observable<Readonly<Record<string, V>>> {
  if (key === undefined) return reports
  return reports.pipe(
    map((report) => {
      const names = Object.keys(report)
      if (!names.some((name) => key.occursIn(name))) return report
      return Object.freeze(
        Object.fromEntries(names.map((name) => [key.redact(name), report[name] as V])),
      )
    }),
  )
}
