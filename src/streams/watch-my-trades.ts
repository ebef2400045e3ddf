import type { Observable } from 'rxjs'
import { poolId as checkPoolId } from '../rest/checks.js'
import type { TradeDetail } from '../schemas/trade-detail.js'
import { type CursorFeedOptions, cursorFeed } from './cursor-feed.js'
import type { StreamContext } from './stream-context.js'
import { streamKey } from './stream-key.js'

/** Options of `watchMyTrades`: the cursor is a `global_seq`. */
export interface MyTradesOptions extends CursorFeedOptions<number> {
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
  options: MyTradesOptions = {},
): Observable<TradeDetail> {
  const { poolId } = options
  if (poolId !== undefined) checkPoolId('watchMyTrades', poolId)
  if (options.cursor !== undefined) checkCursor(options.cursor)
  return cursorFeed<TradeDetail, number>(
    context,
    {
      key: streamKey('watchMyTrades', poolId === undefined ? [] : [{ poolId }]),
      pageSize: PAGE,
      fetchPage: (rest, cursor, signal) =>
        // No cursor yet: no filter at all, so a trade with global_seq 0 is not skipped.
        rest.trades({ poolId, afterSeq: cursor, sort: 'asc', limit: PAGE }, { signal }),
      cursorOf: (trade) => trade.global_seq,
      compare: (a, b) => a - b,
      checkCursor,
    },
    options,
  )
}

/** A trades cursor is a `global_seq`: a non-negative safe integer. */
function checkCursor(cursor: unknown): number {
  return checkPoolId('watchMyTrades', cursor, 'cursor')
}
