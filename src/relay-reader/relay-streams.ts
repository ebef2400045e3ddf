import { concatMap, defer, from, type Observable } from 'rxjs'
import type { BookEvent } from '../book/book-event.js'
import { isCursorPosition } from '../core/cursor-position.js'
import type { CursorProgress } from '../core/paginate-cursor.js'
import { VenueInputError } from '../errors/venue-input-error.js'
import { isPlainObject } from '../plain-object.js'
import { type RelayScope, relayKeys } from '../redis/redis.js'
import { type RelayStream, relayStreamName } from '../redis/stream-names.js'
import { checkPoolId, checkSource, unsignedId } from '../rest/index.js'
import type { PoolSummary } from '../schemas/pool-summary.js'
import type { TradeDetail } from '../schemas/trade-detail.js'
import type { Transfer } from '../schemas/transfer.js'
import type { Checkpoint } from '../streams/checkpoint.js'
import { feedOptions } from '../streams/cursor-feed.js'
import { checkFillCursor, type Fill } from '../streams/fills.js'
import { priorityOption } from '../streams/stream-options.js'
import type { StreamSet } from '../streams/stream-set.js'
import type { BalancesUpdate } from '../streams/watch-balances.js'
import { checkInterval, type KlineEvent } from '../streams/watch-klines.js'
import type { OpenOrderEvent } from '../streams/watch-open-orders.js'
import type { PublicTradeEvent } from '../streams/watch-trades.js'
import { balancesDecoder } from './balances-entries.js'
import { type FollowStart, followRelay, type RelayEntry, type RelayReader } from './follow.js'

/** Entry ids of the cursor feeds: the cursor itself, so a reader starts right after it. */
export const feedIds = {
  /** `global_seq` → `<global_seq>-0`; a transfer's `sid` likewise. */
  ofCursor: (cursor: string): string => `${cursor}-0`,
  cursorOf: (id: string): string => id.slice(0, id.indexOf('-')),
  /** A fill cursor `g/1` (first fill of trade g) → `g-0`; `g` (all of it) → `g-1`. */
  ofFillCursor: (cursor: string): string =>
    cursor.endsWith('/1') ? `${cursor.slice(0, -2)}-0` : `${cursor}-1`,
  fillCursorOf: (id: string): string => {
    const [seq, half] = id.split('-')
    return half === '0' ? `${seq}/1` : (seq as string)
  },
}

/**
 * The streams a relay feeds, read from Redis through the venue's registry, health board,
 * backoff and scheduler, on its one Redis connection ({@link followRelay}). Options a
 * relayed stream cannot honour (a depth `limit`, klines `since`, ...) are refused with
 * `VenueInputError`: the relay publishes each stream one way for the whole fleet.
 */
export function relayStreams(reader: RelayReader, scope: RelayScope): StreamSet {
  const keysOf = (stream: RelayStream) => relayKeys(scope, stream)
  const follow = <T>(
    method: string,
    stream: RelayStream,
    start: FollowStart,
    decode: (entry: RelayEntry) => readonly T[],
    // A book or the pool list starts again from the stored state; an event stream whose
    // events were trimmed unread fails (they would be missing).
    onTrimmed: 'resync' | 'fail' = 'fail',
  ) =>
    followRelay<T>(reader, {
      key: relayHealthKey(stream),
      keys: keysOf(stream),
      start,
      decode,
      method,
      onTrimmed,
    })
  const one = <T>(entry: RelayEntry): readonly T[] => [entry.event as T]
  // The options of the polled stream that a relayed one honours: the market data the
  // relay publishes (`source`, when it is the venue's own).
  const relayedOptions = (method: string, options: unknown, honoured: readonly string[]) => {
    if (options === undefined) return
    if (!isPlainObject(options)) {
      const what = honoured.length > 0 ? ` with ${honoured.join(', ')}` : ''
      throw new VenueInputError('options', `${method}: options must be an object${what}`)
    }
    const given = options as Record<string, unknown>
    const keys = Object.keys(given)
    for (const name of keys) {
      if (!honoured.includes(name) && given[name] !== undefined) {
        throw new VenueInputError(
          name,
          `${method}: a relayed stream takes no ${name} (the relay publishes it one way for the whole fleet)`,
        )
      }
    }
    // Checked, then left to the relay: a relayed stream spends no request budget.
    priorityOption(method, given['priority'])
    if (given['source'] !== undefined) {
      const source = checkSource(method, given['source'], scope.marketData)
      if (source !== scope.marketData) {
        throw new VenueInputError(
          'source',
          `${method}: the relay publishes the ${scope.marketData} market data, not ${source}`,
        )
      }
    }
  }

  return {
    watchDepth: (poolId, options, method = 'watchDepth') => {
      checkPoolId(method, poolId)
      relayedOptions(method, options, ['source', 'priority'])
      return follow(method, { kind: 'depth', poolId }, { from: 'state' }, one<BookEvent>, 'resync')
    },
    watchTrades: (poolId, options) => {
      checkPoolId('watchTrades', poolId)
      relayedOptions('watchTrades', options, ['source', 'priority'])
      return follow(
        'watchTrades',
        { kind: 'trades', poolId },
        { from: 'end' },
        one<PublicTradeEvent>,
      )
    },
    watchKlines: (poolId, interval, options) => {
      checkPoolId('watchKlines', poolId)
      const stream: RelayStream = {
        kind: 'klines',
        poolId,
        interval: checkInterval('watchKlines', interval),
      }
      relayedOptions('watchKlines', options, ['source'])
      return follow('watchKlines', stream, { from: 'state' }, one<KlineEvent>)
    },
    watchMyTrades: (options) =>
      cursorFeed<TradeDetail>(reader, scope, options, {
        method: 'watchMyTrades',
        stream: { kind: 'my-trades' },
        check: (cursor) => unsignedId('watchMyTrades', 'cursor', cursor),
        ids: SEQ_IDS,
        poolOf: (trade) => trade.pool_id,
      }),
    watchTransfers: (options) =>
      cursorFeed<Transfer>(reader, scope, options, {
        method: 'watchTransfers',
        stream: { kind: 'transfers' },
        check: (cursor) => unsignedId('watchTransfers', 'cursor', cursor),
        ids: SEQ_IDS,
      }),
    watchFills: (options) =>
      cursorFeed<Fill>(reader, scope, options, {
        method: 'watchFills',
        stream: { kind: 'fills' },
        check: (cursor) => checkFillCursor('watchFills', cursor),
        ids: { idOf: feedIds.ofFillCursor, cursorOf: feedIds.fillCursorOf },
        poolOf: (fill) => fill.poolId,
      }),
    watchBalances: (options) => {
      relayedOptions('watchBalances', options, ['priority'])
      // Per subscription: the list its entries' changes apply to (kept across a resync:
      // the stored list then says what changed since the last update).
      return defer(() => {
        const decode = balancesDecoder()
        return follow<BalancesUpdate>(
          'watchBalances',
          { kind: 'balances' },
          { from: 'state' },
          (entry) => decode(entry.event),
          'resync',
        )
      })
    },
    watchOpenOrders: () =>
      follow('watchOpenOrders', { kind: 'open-orders' }, { from: 'state' }, one<OpenOrderEvent>),
    watchPools: () =>
      follow('watchPools', { kind: 'pools' }, { from: 'state' }, one<PoolSummary[]>, 'resync'),
  }
}

/**
 * The key of a relayed stream in `venue.health`: `relay <name>`, e.g. `relay depth:1`
 * (shared by every subscription to that stream).
 */
const relayHealthKey = (stream: RelayStream): string => `relay ${relayStreamName(stream)}`

/** Entry ids of the feeds whose cursor is one number (`global_seq`, a transfer's `sid`). */
const SEQ_IDS = { idOf: feedIds.ofCursor, cursorOf: feedIds.cursorOf }

interface FeedSpec<T> {
  readonly method: string
  readonly stream: RelayStream
  readonly check: (cursor: unknown) => string
  /** A cursor's entry id, and back. */
  readonly ids: {
    readonly idOf: (cursor: string) => string
    readonly cursorOf: (id: string) => string
  }
  /** The pool of an item, for a feed that takes `poolId` (it filters what the relay publishes). */
  readonly poolOf?: (item: T) => number
}

/**
 * A cursor feed read from a relay: from the checkpoint's cursor (or `cursor`), each item
 * once in order, the cursor saved after each entry before the next one is read, progress
 * after each batch (`backfill` while batches come full, then `tail`).
 */
function cursorFeed<T>(
  reader: RelayReader,
  scope: RelayScope,
  given: unknown,
  spec: FeedSpec<T>,
): Observable<T> {
  const { method, poolOf } = spec
  const options = feedOptions(method, given, poolOf === undefined ? [] : ['poolId'])
  const poolId = options['poolId'] as number | undefined
  if (poolId !== undefined) checkPoolId(method, poolId)
  const decode = (entry: RelayEntry): readonly T[] => {
    const item = entry.event as T
    return poolId === undefined || poolOf?.(item) === poolId ? [item] : []
  }
  const checkpoint = options['checkpoint'] as Checkpoint<string> | undefined
  const onProgress = options['onProgress'] as
    | ((progress: CursorProgress<string>) => void)
    | undefined
  const cursorGiven = options['cursor'] === undefined ? undefined : spec.check(options['cursor'])
  const keys = relayKeys(scope, spec.stream)
  return defer(() => from(Promise.resolve(checkpoint?.load()))).pipe(
    concatMap((saved) => {
      // A position saved by a polling feed may list items above its watermark: the relay
      // is read from the watermark, and those are skipped.
      const position = isCursorPosition<unknown>(saved) ? saved : undefined
      const skip = new Set((position?.above ?? []).map((each) => spec.check(each)))
      let cursor =
        saved === undefined
          ? cursorGiven
          : position === undefined
            ? spec.check(saved)
            : position.watermark === undefined
              ? undefined
              : spec.check(position.watermark)
      let pages = 0
      let items = 0
      const start = cursor === undefined ? '0-0' : spec.ids.idOf(cursor)
      return followRelay<T>(reader, {
        key: relayHealthKey(spec.stream),
        keys,
        start: { from: 'after', id: start },
        decode: (entry) => {
          if (skip.size > 0 && skip.delete(spec.ids.cursorOf(entry.id))) return []
          const values = decode(entry)
          items += values.length
          return values
        },
        afterEntry: (entry) => {
          cursor = spec.ids.cursorOf(entry.id)
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
        method: spec.method,
        onTrimmed: 'fail',
      })
    }),
  )
}
