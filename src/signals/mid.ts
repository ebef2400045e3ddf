import type { OperatorFunction } from 'rxjs'
import type { OrderBook } from '../book/order-book.js'
import { addDecimal, halfDecimal } from '../decimal.js'
import { bookSignal } from './book-signal.js'
import { noExtraArguments } from './checks.js'
import { bestLevel } from './inputs.js'

/**
 * The mid price of each order book, `(bestBid + bestAsk) / 2`, exact (no division option
 * is needed: halving adds one decimal at most). Emits only when the mid changes (`"1.10"`
 * and `"1.1"` are the same value; the text is the shortest form).
 *
 * A book with an empty side (or both) has no mid: it gives `null`, once, like any change,
 * so a side that vanishes is seen instead of leaving the last mid standing. The series
 * operators (`ema`, `crossover`, `threshold`, `indicator`) pass over a `null`.
 *
 * An input that is not an `OrderBook`, or whose best levels are not pairs of non-negative
 * decimal strings, errors the stream with a `TypeError`; an argument throws
 * `VenueInputError` at the call (`mid` takes none).
 *
 * @example
 * ```ts
 * import { mid } from 'venue-rx/signals'
 *
 * venue.watchOrderBook(1).pipe(mid()).subscribe((price) => {
 *   if (price === null) console.warn('one-sided book: no mid')
 *   else console.log(price) // '1.0456'
 * })
 * ```
 */
export function mid(): OperatorFunction<OrderBook, string | null>
export function mid(...extra: unknown[]): OperatorFunction<OrderBook, string | null> {
  noExtraArguments('mid', [], extra)
  return bookSignal('mid', (book) => {
    const bid = bestLevel('mid', book, 'bids')
    const ask = bestLevel('mid', book, 'asks')
    return bid === undefined || ask === undefined ? null : halfDecimal(addDecimal(bid[0], ask[0]))
  })
}
