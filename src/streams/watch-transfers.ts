import type { Observable } from 'rxjs'
import { compareIds } from '../decimal.js'
import { VenueInputError } from '../errors/venue-input-error.js'
import type { Transfer } from '../schemas/transfer.js'
import { type CursorFeedOptions, cursorFeed, feedOptions } from './cursor-feed.js'
import type { StreamContext } from './stream-context.js'
import { streamKey } from './stream-key.js'

/**
 * Options of `watchTransfers`: the cursor is a transfer id (`sid`, digits).
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
export type TransfersFeedOptions = CursorFeedOptions<string>

const PAGE = 100

/**
 * The account's transfers (deposits and withdrawals), each exactly once, in ascending
 * id (`sid`): backfill, then tail. Resumable through `checkpoint`. Throws
 * `VenueInputError` at once for a cursor that is not a transfer id.
 */
export function watchTransfers(
  context: StreamContext,
  options?: TransfersFeedOptions,
): Observable<Transfer> {
  const given = feedOptions('watchTransfers', options, []) as TransfersFeedOptions
  if (given.cursor !== undefined) checkCursor(given.cursor)
  return cursorFeed<Transfer, string>(
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
      compare: compareIds,
      checkCursor,
    },
    given,
  )
}

/** A transfers cursor is a transfer id: digits without leading zeros. */
function checkCursor(cursor: unknown): string {
  if (typeof cursor !== 'string' || !/^(0|[1-9]\d*)$/.test(cursor)) {
    throw new VenueInputError(
      'cursor',
      'watchTransfers: cursor must be a transfer id (digits, no leading zeros)',
    )
  }
  return cursor
}
