import type { Observable } from 'rxjs'
import { compareIds } from '../decimal.js'
import { checkPoolId, unsignedId } from '../rest/index.js'
import type { TradeDetail } from '../schemas/trade-detail.js'
import {
  type CursorFeedOptions,
  type CursorFeedSpec,
  cursorFeed,
  type FeedItem,
  feedOptions,
} from './cursor-feed.js'
import type { StreamContext } from './stream-context.js'
import { streamKey } from './stream-key.js'

/**
 * Options of `watchMyTrades`: the cursor is a `global_seq`, kept as digits, by the rule of
 * every id of the venue (unsigned 64-bit there): digits up to 18446744073709551615, or a
 * non-negative safe integer. Leading zeros are dropped (`'007'` is 7): the feed, its
 * progress and its checkpoint hold canonical digits. Anything else throws
 * `VenueInputError` at the call, before any request.
 *
 * @example
 * ```ts
 * import { fileCheckpoint } from 'venue-rx'
 *
 * venue.watchMyTrades({ poolId: 2, checkpoint: fileCheckpoint<string>('./trades.cursor.json') })
 *   .subscribe((trade) => console.log(trade.global_seq, trade.price, trade.base_quantity))
 * ```
 */
export interface MyTradesOptions extends Omit<CursorFeedOptions<string>, 'cursor'> {
  /** Start after this `global_seq` (exclusive). Ignored when `checkpoint` holds a saved cursor. */
  readonly cursor?: string | number | undefined
  /** Only this pool's trades. */
  readonly poolId?: number | undefined
}

/** The venue's largest page of trades. */
const PAGE = 100

/**
 * The account's own trades, each exactly once, in ascending `global_seq`: backfill in
 * full pages of 100, then tail. Resumable through `checkpoint`. Throws `VenueInputError`
 * at once for a bad pool id or cursor.
 */
export function watchMyTrades(
  context: StreamContext,
  options?: MyTradesOptions,
): Observable<FeedItem<TradeDetail>> {
  const given = feedOptions('watchMyTrades', options, ['poolId']) as MyTradesOptions
  const { poolId } = given
  if (poolId !== undefined) checkPoolId('watchMyTrades', poolId)
  const cursor = given.cursor === undefined ? undefined : checkCursor(given.cursor)
  return cursorFeed<FeedItem<TradeDetail>, string>(context, myTradesSpec(poolId), {
    ...given,
    cursor,
  })
}

/**
 * The feed spec of the account's own trades, optionally of one pool: its shared tail (key
 * `watchMyTrades()`, or with the pool) is the one poller of the account's trades, which
 * the fills feed and `watchOrder` follow too.
 */
export function myTradesSpec(poolId: number | undefined): CursorFeedSpec<TradeDetail, string> {
  return {
    key: streamKey('watchMyTrades', poolId === undefined ? [] : [{ poolId }]),
    pageSize: PAGE,
    fetchPage: (rest, after, signal) =>
      // No cursor yet: no filter at all, so a trade with global_seq 0 is not skipped.
      rest.trades({ poolId, afterSeq: after, sort: 'asc', limit: PAGE }, { signal }),
    head: async (rest, signal) =>
      (await rest.trades({ poolId, sort: 'desc', limit: 1 }, { signal }))[0]?.global_seq,
    cursorOf: (trade) => trade.global_seq,
    timeOf: (trade) => trade.timestamp,
    compare: compareIds,
    checkCursor,
    // A new own trade moves the balances and the open orders: they are polled at once.
    nudges: 'account',
  }
}

/**
 * A trades cursor is a `global_seq`: digits, or a safe integer (a checkpoint may hold a
 * number), as canonical digits.
 */
function checkCursor(cursor: unknown): string {
  return unsignedId('watchMyTrades', 'cursor', cursor)
}
