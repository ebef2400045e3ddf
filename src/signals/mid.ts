import { distinctUntilChanged, filter, map, type OperatorFunction } from 'rxjs'
import type { OrderBook } from '../book/order-book.js'

/**
 * The mid price of each order book, `(bestBid + bestAsk) / 2`, exact (no division option
 * is needed: halving adds one decimal at most). Emits only when the mid changes (`"1.10"`
 * and `"1.1"` are the same value; the text is the shortest form). A book with an empty side
 * has no mid and is skipped: nothing is emitted for it, and the next mid is compared with
 * the last one emitted.
 *
 * @example
 * ```ts
 * import { mid } from 'venue-rx/signals'
 *
 * venue.watchOrderBook(1).pipe(mid()).subscribe((price) => console.log(price)) // '1.0456'
 * ```
 */
export function mid(): OperatorFunction<OrderBook, string> {
  return (source) =>
    source.pipe(
      map((book) => book.mid),
      filter((value): value is string => value !== undefined),
      distinctUntilChanged(),
    )
}
