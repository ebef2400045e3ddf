import { concatMap, map, type Observable, switchMap } from 'rxjs'
import { fromRequest } from '../core/from-request.js'
import { retryBackoff } from '../core/retry-backoff.js'
import { checkPoolId } from '../rest/index.js'
import type { Checkpoint } from './checkpoint.js'
import {
  type CursorFeedOptions,
  type CursorFeedSpec,
  cursorFeed,
  feedOptions,
  sharedTail,
  type TailEvent,
} from './cursor-feed.js'
import {
  chainAccount,
  checkFillCursor,
  compareFillCursors,
  type Fill,
  type FillAtCursor,
  fillsAtCursors,
  tradesCursorBefore,
} from './fills.js'
import type { StreamContext } from './stream-context.js'
import { streamKey } from './stream-key.js'
import { streamPipeline } from './stream-pipeline.js'
import { myTradesSpec } from './watch-my-trades.js'

/**
 * Options of `watchFills`. The cursor is a fill cursor: a `global_seq` (every fill of that
 * trade delivered; an own-trades cursor works as it is) or `global_seq/1` (the first fill
 * of a self-trade delivered). The `global_seq` follows the rule of every id of the venue
 * (unsigned 64-bit there): digits up to 18446744073709551615, or a non-negative safe
 * integer (without `/1`). Leading zeros are dropped (`'007/1'` is `'7/1'`): the feed, its
 * progress and its checkpoint hold canonical cursors. Anything else throws
 * `VenueInputError` at the call, before any request.
 *
 * @example
 * ```ts
 * import { fileCheckpoint } from 'venue-rx'
 *
 * // every fill of pool 0, resuming where the last run stopped (or after global_seq 1058)
 * venue.watchFills({
 *   poolId: 0,
 *   cursor: '1058',
 *   checkpoint: fileCheckpoint<string>('./fills.cursor.json'),
 *   onProgress: ({ phase }) => console.log(phase),
 * })
 * ```
 */
export interface FillsOptions extends Omit<CursorFeedOptions<string>, 'cursor' | 'checkpoint'> {
  /** Start after this cursor (exclusive). Ignored when `checkpoint` holds a saved cursor. */
  readonly cursor?: string | number | undefined
  /** Loaded at start, saved after each delivered fill. */
  readonly checkpoint?: Checkpoint<string> | undefined
  /** Only this pool's fills. */
  readonly poolId?: number | undefined
}

/** The venue's largest page of trades. */
const PAGE = 100

/**
 * The feed spec of the account's fills on the venue of `context`, optionally of one pool.
 * Its items are fills with their cursors ({@link FillAtCursor}): a self-trade's two fills
 * share a `global_seq`, so the cursor cannot be read off the fill.
 */
export function fillsSpec(
  context: StreamContext,
  poolId: number | undefined,
): CursorFeedSpec<FillAtCursor, string> {
  return {
    key: streamKey('watchFills', poolId === undefined ? [] : [{ poolId }]),
    pageSize: PAGE,
    fetchPage: async (rest, after, signal) => {
      const account = await chainAccount(context, rest)
      const trades = await rest.trades(
        { poolId, afterSeq: tradesCursorBefore(after), sort: 'asc', limit: PAGE },
        { signal },
      )
      return trades.flatMap((trade) => fillsAtCursors(trade, account))
    },
    head: async (rest, signal) =>
      (await rest.trades({ poolId, sort: 'desc', limit: 1 }, { signal }))[0]?.global_seq,
    cursorOf: (item) => item.cursor,
    timeOf: (item) => item.fill.timestamp,
    compare: compareFillCursors,
    checkCursor: (cursor) => checkFillCursor('watchFills', cursor),
    markLate: ({ fill, cursor }) => ({ fill: { ...fill, late: true }, cursor }),
  }
}

/**
 * Every fill of the account exactly once, in `global_seq` order: the own-trades feed,
 * each trade turned into the account's side of it (role, side and fee worked out from its
 * chain account); a self-trade gives two fills, maker first. Backfill, then the shared
 * tail, which follows the own-trades tail ({@link tradesFillsTail}): one poller of the
 * account's trades whether own trades, fills or both are watched. Resumable through
 * `checkpoint`. Throws `VenueInputError` at once for bad options.
 */
export function watchFills(context: StreamContext, options?: FillsOptions): Observable<Fill> {
  const given = feedOptions('watchFills', options, ['poolId']) as FillsOptions
  const { poolId } = given
  if (poolId !== undefined) checkPoolId('watchFills', poolId)
  const cursor =
    given.cursor === undefined ? undefined : checkFillCursor('watchFills', given.cursor)
  const spec = fillsSpec(context, poolId)
  return cursorFeed(context, spec, { ...given, cursor }, tradesFillsTail(context, poolId)).pipe(
    map((item) => item.fill),
  )
}

/**
 * The shared tail of the fills (of one pool, or all), made from the shared tail of the
 * own trades (`watchMyTrades()`), so that the trades are polled once for both: its start
 * and pages as they are (a `global_seq` is a fill cursor: the whole trade), each trade as
 * the account's fills in it. Shared and reported under the fills key (`watchFills()`),
 * after the chain account is known.
 */
export function tradesFillsTail(
  context: StreamContext,
  poolId: number | undefined,
): Observable<TailEvent<FillAtCursor, string>> {
  const trades = sharedTail(context, myTradesSpec(poolId))
  const key = fillsSpec(context, poolId).key
  return streamPipeline<TailEvent<FillAtCursor, string>>(context, key, (lane) =>
    fromRequest(() => chainAccount(context, lane.rest)).pipe(
      retryBackoff<string>(lane.retry()),
      switchMap((account) =>
        trades.pipe(
          concatMap((event): TailEvent<FillAtCursor, string>[] => {
            if (event.type !== 'item') {
              if (event.type === 'page') lane.ok()
              return [event]
            }
            const { position } = event
            return fillsAtCursors(event.item, account).map((item) => ({
              type: 'item',
              item,
              position,
            }))
          }),
        ),
      ),
    ),
  )
}

/**
 * The shared tail of every fill of the account (the one `watchFills` without a pool joins),
 * its items unwrapped to the fills: what `watchOrder` follows.
 */
export function fillsTail(context: StreamContext): Observable<TailEvent<Fill, string>> {
  return tradesFillsTail(context, undefined).pipe(
    map(
      (event): TailEvent<Fill, string> =>
        event.type === 'item'
          ? { type: 'item', item: event.item.fill, position: event.position }
          : event,
    ),
  )
}
