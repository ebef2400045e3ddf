import type { Observable } from 'rxjs'
import { compareIds } from '../decimal.js'
import { unsignedId } from '../rest/index.js'
import type { Transfer } from '../schemas/transfer.js'
import { type CursorFeedOptions, cursorFeed, type FeedItem, feedOptions } from './cursor-feed.js'
import type { StreamContext } from './stream-context.js'
import { streamKey } from './stream-key.js'

/**
 * Options of `watchTransfers`: the cursor is a transfer id (`sid`), by the rule of every
 * id of the venue (unsigned 64-bit there): digits up to 18446744073709551615, or a
 * non-negative safe integer. Leading zeros are dropped (`'007'` is transfer 7): the feed,
 * its progress and its checkpoint hold canonical digits. Anything else throws
 * `VenueInputError` at the call, before any request.
 *
 * @example
 * ```ts
 * import { fileCheckpoint } from 'venue-rx'
 *
 * venue.watchTransfers({ checkpoint: fileCheckpoint<string>('./transfers.cursor.json') })
 *   .subscribe((t) => console.log(t.sid, t.side, t.amount, t.symbol))
 * // '93' 'deposit' '4302.6060' 'CHN'
 * ```
 */
export interface TransfersFeedOptions extends Omit<CursorFeedOptions<string>, 'cursor'> {
  /** Start after this transfer id (exclusive). Ignored when `checkpoint` holds a saved cursor. */
  readonly cursor?: string | number | undefined
}

const PAGE = 100

/**
 * The account's transfers (deposits and withdrawals), each exactly once, in ascending
 * id (`sid`): backfill, then tail. Resumable through `checkpoint`. Throws
 * `VenueInputError` at once for a cursor that is not a transfer id.
 */
export function watchTransfers(
  context: StreamContext,
  options?: TransfersFeedOptions,
): Observable<FeedItem<Transfer>> {
  const given = feedOptions('watchTransfers', options, []) as TransfersFeedOptions
  const cursor = given.cursor === undefined ? undefined : checkCursor(given.cursor)
  return cursorFeed<FeedItem<Transfer>, string>(
    context,
    {
      key: streamKey('watchTransfers'),
      pageSize: PAGE,
      fetchPage: (rest, after, signal) =>
        // No cursor yet: no id filter, so a transfer with sid 0 is not skipped.
        rest.transfers({ afterId: after, sort: 'asc', limit: PAGE }, { signal }),
      head: async (rest, signal) =>
        (await rest.transfers({ sort: 'desc', limit: 1 }, { signal }))[0]?.sid,
      cursorOf: (transfer) => transfer.sid,
      timeOf: (transfer) => transfer.created_at,
      compare: compareIds,
      checkCursor,
      // A new transfer moves the balances: they are polled at once.
      nudges: 'account',
    },
    { ...given, cursor },
  )
}

/**
 * A transfers cursor is a transfer id, checked as `rest.transfers` checks `afterId`: a
 * cursor the venue could not take is refused here, at the call (or when a checkpoint
 * loads), never by the request built from it later.
 */
function checkCursor(cursor: unknown): string {
  return unsignedId('watchTransfers', 'cursor', cursor)
}
