import type { BookEvent } from './book-event.js'
import { snapshotSideProblem } from './book-side.js'
import { OrderBook } from './order-book.js'

/**
 * Applies one `BookEvent` to a book, purely: a snapshot replaces it, a delta changes
 * the levels it names (quantity `'0'` removes). Only what the delta touches is copied
 * (a side is kept in chunks of about 32 levels), so a delta of k levels costs about
 * O(k × 32 + n / 32) however large the book; the side a delta does not touch is reused.
 * Throws a `RangeError` when a delta does not follow `book` (`prevSeq !== book.seq`: a
 * gap), comes first, or has a side whose levels are not in side order or repeat a price
 * (applied as given, it would leave the book out of order). A snapshot is checked as a
 * delta is: each side in side order (bids strictly high to low, asks strictly low to high,
 * prices compared by value, so `"1.10"` after `"1.1"` is a repeat), and every level a pair
 * of decimal strings; a snapshot's quantities must be above zero, a delta's zero or more
 * (zero removes). The error names the side and the level at fault.
 *
 * @example
 * ```ts
 * venue.watchDepth(1).pipe(scan(applyBookEvent, undefined))
 * // an OrderBook after every event
 * ```
 */
export function applyBookEvent(book: OrderBook | undefined, event: BookEvent): OrderBook {
  if (event.type === 'snapshot') {
    // A hand-built snapshot out of order or with an empty level would be kept as given, and
    // the best prices, mid and microprice read from it would be silently wrong.
    const problem =
      snapshotSideProblem('bids', event.bids) ?? snapshotSideProblem('asks', event.asks)
    if (problem !== undefined) {
      throw new RangeError(`applyBookEvent: snapshot ${event.seq} refused: ${problem}`)
    }
    return new OrderBook(event.poolId, event.seq, event.timestamp, event.bids, event.asks)
  }
  if (book === undefined) {
    throw new RangeError(
      `applyBookEvent: delta ${event.seq} has no book to apply to (a snapshot comes first)`,
    )
  }
  if (event.prevSeq !== book.seq || event.poolId !== book.poolId) {
    throw new RangeError(
      `applyBookEvent: delta ${event.seq} follows ${event.prevSeq} of pool ${event.poolId}, the book is at ${book.seq} of pool ${book.poolId}`,
    )
  }
  try {
    return OrderBook.applying(book, event.seq, event.timestamp, event.bids, event.asks)
  } catch (error) {
    if (!(error instanceof RangeError)) throw error
    throw new RangeError(`applyBookEvent: delta ${event.seq} refused: ${error.message}`)
  }
}
