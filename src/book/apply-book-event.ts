import type { BookEvent } from './book-event.js'
import { applySide } from './book-side.js'
import { OrderBook } from './order-book.js'

/**
 * Applies one `BookEvent` to a book, purely: a snapshot replaces it, a delta changes
 * the levels it names (quantity `'0'` removes). The side a delta does not touch is
 * reused, not copied. Throws a `RangeError` when a delta does not follow `book`
 * (`prevSeq !== book.seq`: a gap) or comes first.
 *
 * @example
 * ```ts
 * venue.watchDepth(1).pipe(scan(applyBookEvent, undefined))
 * // an OrderBook after every event
 * ```
 */
export function applyBookEvent(book: OrderBook | undefined, event: BookEvent): OrderBook {
  if (event.type === 'snapshot') {
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
  return new OrderBook(
    book.poolId,
    event.seq,
    event.timestamp,
    applySide('bids', book.bids, event.bids),
    applySide('asks', book.asks, event.asks),
  )
}
