import type { OperatorFunction } from 'rxjs'
import type { OrderBook } from '../book/order-book.js'
import { addDecimal, divideDecimal, isZeroDecimal, multiplyDecimal } from '../decimal.js'
import { bookSignal } from './book-signal.js'
import { noExtraArguments, optionsObject, placesOption } from './checks.js'
import { bestLevel } from './inputs.js'

/**
 * Options of {@link microprice}.
 *
 * @example
 * ```ts
 * import { microprice } from 'venue-rx/signals'
 *
 * venue.watchOrderBook(0).pipe(microprice({ places: 8 })) // '1.04751207', ...
 * ```
 */
export interface MicropriceOptions {
  /** Decimals of the division, rounded half to even; default 18. */
  readonly places?: number | undefined
}

/**
 * The size-weighted mid of each order book,
 * `(bidPrice × askQty + askPrice × bidQty) / (bidQty + askQty)` over the best levels: it
 * leans toward the side with less quantity, where the next trade is likelier to move the
 * price. Exact but for the division, to `places` decimals (default 18), rounded half to
 * even. Emits only when the value changes.
 *
 * A book with an empty side (or both) has no microprice: it gives `null`, once; so do best
 * levels that hold no quantity (0 / 0). The series operators pass over a `null`.
 *
 * An input that is not an `OrderBook`, or whose best levels are not pairs of non-negative
 * decimal strings, errors the stream with a `TypeError`. Throws `VenueInputError` at the
 * call for a bad, unknown or `null` option, or an extra argument.
 *
 * @example
 * ```ts
 * import { microprice } from 'venue-rx/signals'
 *
 * // bid 1.00 × 300, ask 1.02 × 100: leans to the ask
 * venue.watchOrderBook(1).pipe(microprice({ places: 6 })) // '1.015'; null with a side empty
 * ```
 */
export function microprice(options?: MicropriceOptions): OperatorFunction<OrderBook, string | null>
export function microprice(
  options?: MicropriceOptions,
  ...extra: unknown[]
): OperatorFunction<OrderBook, string | null> {
  noExtraArguments('microprice', ['options'], extra)
  const places = placesOption('microprice', optionsObject('microprice', options, ['places']))
  return bookSignal('microprice', (book) => {
    const bid = bestLevel('microprice', book, 'bids')
    const ask = bestLevel('microprice', book, 'asks')
    if (bid === undefined || ask === undefined) return null
    const total = addDecimal(bid[1], ask[1])
    if (isZeroDecimal(total)) return null
    const weighted = addDecimal(multiplyDecimal(bid[0], ask[1]), multiplyDecimal(ask[0], bid[1]))
    return divideDecimal(weighted, total, places)
  })
}
