import { concatMap, defer, from, map, type Observable, switchMap, take } from 'rxjs'
import { isCursorPosition } from '../core/cursor-position.js'
import type { CursorProgress } from '../core/paginate-cursor.js'
import { VenueNotFoundError } from '../errors/venue-not-found-error.js'
import { type RelayScope, relayKeys } from '../redis/redis.js'
import { type RelayStream, relayStreamName } from '../redis/stream-names.js'
import { checkPoolId, poolSegment } from '../rest/index.js'
import { RELAYED, relayedEntry, type StreamSet } from '../streams/catalogue.js'
import {
  type EventsRelay,
  type FeedRelay,
  RELAY_PARAMS,
  type RelayStyle,
  type SymbolLookup,
} from '../streams/catalogue-entry.js'
import type { Checkpoint } from '../streams/checkpoint.js'
import { feedOptions } from '../streams/cursor-feed.js'
import type { Fill } from '../streams/fill.js'
import { relayedOptions } from '../streams/stream-options.js'
import { balancesDecoder } from './balances-entries.js'
import {
  type FollowSpec,
  type FollowStart,
  followRelay,
  type RelayEntry,
  type RelayReader,
} from './follow.js'

/**
 * The streams a relay feeds, read from Redis through the venue's registry, health board,
 * backoff and scheduler, on its one Redis connection ({@link followRelay}): each relayed
 * stream of the catalogue, read as its style says ({@link READS}, or as a cursor feed).
 * Options a relayed stream cannot honour (a depth `limit`, klines `since`, ...) are
 * refused with `VenueInputError`: the relay publishes each stream one way for the whole
 * fleet.
 */
export function relayStreams(reader: RelayReader, scope: RelayScope): StreamSet {
  return Object.fromEntries(
    RELAYED.map(({ method, relay }) => [
      method,
      relay.style === 'feed'
        ? (options: unknown) => cursorFeed(reader, scope, options, method, relay)
        : relayedEvents(reader, scope, method, relay),
    ]),
  ) as unknown as StreamSet
}

/**
 * The account's fills as the relay keeps them, for the order streams: every fill its
 * stream still holds (from its floor; past entries trimmed while it reads), then each new
 * one. Unlike a relayed `watchFills` without a cursor, a trimmed past is not an error: an
 * order stream needs the fills of the orders it follows, which are recent.
 *
 * @example
 * ```ts
 * relayedKeptFills(reader, scope)({ onProgress: ({ phase }) => console.log(phase) })
 * ```
 */
export function relayedKeptFills(
  reader: RelayReader,
  scope: RelayScope,
): (options: {
  readonly onProgress?: ((progress: CursorProgress<string>) => void) | undefined
}) => Observable<Fill> {
  const { method, relay } = relayedEntry('fills')
  return (options) =>
    cursorFeed(reader, scope, options, method, relay as FeedRelay, 'kept') as Observable<Fill>
}

/** How a consumer reads a relayed stream of events, by its style. */
interface EventsRead {
  readonly start: FollowStart
  /**
   * A book or the pool list starts again from the stored state; an event stream whose
   * events were trimmed unread fails (they would be missing).
   */
  readonly onTrimmed: FollowSpec<unknown>['onTrimmed']
  /** Per subscription, the values of an entry; default its event. */
  readonly decoder?: () => (entry: RelayEntry) => readonly unknown[]
}

const READS: { readonly [S in Exclude<RelayStyle, 'feed'>]: EventsRead } = {
  book: { start: { from: 'state' }, onTrimmed: 'resync' },
  trades: { start: { from: 'end' }, onTrimmed: 'fail' },
  candles: { start: { from: 'state' }, onTrimmed: 'fail' },
  latest: { start: { from: 'state' }, onTrimmed: 'resync' },
  // The list its entries' changes apply to, per subscription (kept across a resync: the
  // stored list then says what changed since the last update).
  balances: {
    start: { from: 'state' },
    onTrimmed: 'resync',
    decoder: () => {
      const decode = balancesDecoder()
      return (entry) => decode(entry.event)
    },
  },
  'open-orders': { start: { from: 'state' }, onTrimmed: 'fail' },
}

/** An entry holds one event. */
const one = (entry: RelayEntry): readonly unknown[] => [entry.event]

/**
 * The relayed stream of `name` (a method of the venue): its arguments are the ones its
 * relay name holds, checked as the polled stream checks them, then its options (only
 * those it honours), then, for a stream others are built on, the method whose errors
 * these are (`watchOrderBook` folds the books).
 */
function relayedEvents(
  reader: RelayReader,
  scope: RelayScope,
  name: string,
  relay: EventsRelay,
): (...args: unknown[]) => Observable<unknown> {
  const { start, onTrimmed, decoder } = READS[relay.style]
  const { params, honours } = relay
  return (...args) => {
    const method = (args[params.length + 1] as string | undefined) ?? name
    // A stream taking a pool's id or symbol: the id (a number), or the symbol to look up.
    const pool = relay.bySymbol === undefined ? undefined : poolOrSymbol(method, args[0])
    const named = (values: readonly unknown[]) =>
      Object.fromEntries([
        ['kind', relay.kind],
        ...params.map((param, at) => [param, RELAY_PARAMS[param].check(method, values[at])]),
      ]) as RelayStream
    if (honours !== undefined)
      relayedOptions(method, args[params.length], honours, scope.marketData)
    const open = (stream: RelayStream) => {
      const follow = (decode: (entry: RelayEntry) => readonly unknown[]) =>
        followRelay(reader, {
          key: relayHealthKey(stream),
          keys: relayKeys(scope, stream),
          start,
          decode,
          method,
          onTrimmed,
        })
      return decoder === undefined ? follow(one) : defer(() => follow(decoder()))
    }
    if (typeof pool !== 'string') {
      return open(named(pool === undefined ? args : [pool, ...args.slice(1)]))
    }
    // A symbol: its id from the relayed pool list as it stands, then that pool's stream.
    const lookup = relay.bySymbol as SymbolLookup
    return latestOf(reader, scope, lookup.kind, method).pipe(
      take(1),
      map((list) => {
        const poolId = lookup.idOf(list as never, pool)
        if (poolId === undefined) throw noPoolOf(pool)
        return poolId
      }),
      switchMap((poolId) => open(named([poolId, ...args.slice(1)]))),
    )
  }
}

/**
 * The pool `value` names, for a stream taking a pool's id or symbol: its id (a number, or
 * a string of digits, as the venue reads one), else its symbol. Checked as the polled
 * stream checks it (`VenueInputError`).
 */
function poolOrSymbol(method: string, value: unknown): number | string {
  poolSegment(value, method)
  if (typeof value === 'number') return value
  const text = value as string
  return /^\d+$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : text
}

/** Each value of the relayed stream of `kind` (style `latest`, no params), from its last one. */
function latestOf(
  reader: RelayReader,
  scope: RelayScope,
  kind: string,
  method: string,
): Observable<unknown> {
  const stream = { kind } as RelayStream
  return followRelay(reader, {
    key: relayHealthKey(stream),
    keys: relayKeys(scope, stream),
    start: READS.latest.start,
    decode: one,
    method,
    onTrimmed: READS.latest.onTrimmed,
  })
}

/**
 * What the polled stream gives for a pool the venue does not know (the venue answers an
 * all-zero record with status 200): here, a symbol the relayed pool list does not hold.
 */
function noPoolOf(symbol: string): VenueNotFoundError {
  return new VenueNotFoundError(
    `pool: no pool ${JSON.stringify(symbol)} (the relayed pool list has no pool of that symbol)`,
    { status: 200, endpoint: 'pool' },
  )
}

/**
 * The key of a relayed stream in `venue.health`: `relay <name>`, e.g. `relay depth:1`
 * (shared by every subscription to that stream).
 */
const relayHealthKey = (stream: RelayStream): string => `relay ${relayStreamName(stream)}`

/**
 * A cursor feed read from a relay: from the checkpoint's cursor (or `cursor`), each item
 * once in order, the cursor saved after each entry before the next one is read, progress
 * after each batch (`backfill` while batches come full, then `tail`).
 */
function cursorFeed(
  reader: RelayReader,
  scope: RelayScope,
  given: unknown,
  method: string,
  relay: FeedRelay,
  /** Without a cursor: from the first entry ever (`'first'`), or from what is kept. */
  startAt: 'first' | 'kept' = 'first',
): Observable<unknown> {
  const { poolOf, cursor: ids } = relay
  const check = (cursor: unknown) => ids.check(method, cursor)
  const stream = { kind: relay.kind } as RelayStream
  const options = feedOptions(method, given, poolOf === undefined ? [] : ['poolId'])
  const poolId = options['poolId'] as number | undefined
  if (poolId !== undefined) checkPoolId(method, poolId)
  const decode = (entry: RelayEntry): readonly unknown[] => {
    const item = entry.event
    return poolId === undefined || poolOf?.(item as never) === poolId ? [item] : []
  }
  const checkpoint = options['checkpoint'] as Checkpoint<string> | undefined
  const onProgress = options['onProgress'] as
    | ((progress: CursorProgress<string>) => void)
    | undefined
  const cursorGiven = options['cursor'] === undefined ? undefined : check(options['cursor'])
  const keys = relayKeys(scope, stream)
  return defer(() => from(Promise.resolve(checkpoint?.load()))).pipe(
    concatMap((saved) => {
      // A position saved by a polling feed may list items above its watermark: the relay
      // is read from the watermark, and those are skipped.
      const position = isCursorPosition<unknown>(saved) ? saved : undefined
      const skip = new Set((position?.above ?? []).map((each) => check(each)))
      let cursor =
        saved === undefined
          ? cursorGiven
          : position === undefined
            ? check(saved)
            : position.watermark === undefined
              ? undefined
              : check(position.watermark)
      let pages = 0
      let items = 0
      return followRelay(reader, {
        key: relayHealthKey(stream),
        keys,
        start:
          cursor === undefined && startAt === 'kept'
            ? { from: 'kept' }
            : { from: 'after', id: cursor === undefined ? '0-0' : ids.idOf(cursor) },
        decode: (entry) => {
          if (skip.size > 0 && skip.delete(ids.cursorOf(entry.id))) return []
          const values = decode(entry)
          items += values.length
          return values
        },
        afterEntry: (entry) => {
          cursor = ids.cursorOf(entry.id)
          return checkpoint?.save({ watermark: cursor, above: [] })
        },
        afterBatch: (caughtUp) => {
          pages += 1
          // The relay publishes settled items only: nothing is held here.
          const phase = caughtUp ? 'tail' : 'backfill'
          onProgress?.({
            phase,
            pages,
            items,
            cursor,
            held: 0,
            newest: cursor,
            position: { watermark: cursor, above: [] },
          })
        },
        method,
        onTrimmed: 'fail',
      })
    }),
  )
}
