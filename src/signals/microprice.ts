import { distinctUntilChanged, filter, map, type OperatorFunction } from 'rxjs'
import type { OrderBook } from '../book/order-book.js'
import { addDecimal, divideDecimal, isZeroDecimal, multiplyDecimal } from '../decimal.js'
import { optionsObject, placesOption } from './checks.js'

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
 * even. Emits only when the value changes; a book with an empty side, or whose best levels
 * hold no quantity, is skipped. Throws `VenueInputError` at the call for a bad option.
 *
 * @example
 * ```ts
 * import { microprice } from 'venue-rx/signals'
 *
 * // bid 1.00 × 300, ask 1.02 × 100: leans to the ask
 * venue.watchOrderBook(1).pipe(microprice({ places: 6 })) // '1.015'
 * ```
 */
export function microprice(options?: MicropriceOptions): OperatorFunction<OrderBook, string> {
  const places = placesOption('microprice', optionsObject('microprice', options, ['places']))
  return (source) =>
    source.pipe(
      map((book) => {
        const bid = book.bestBid
        const ask = book.bestAsk
        if (bid === undefined || ask === undefined) return undefined
        const total = addDecimal(bid[1], ask[1])
        if (isZeroDecimal(total)) return undefined
        const weighted = addDecimal(
          multiplyDecimal(bid[0], ask[1]),
          multiplyDecimal(ask[0], bid[1]),
        )
        return divideDecimal(weighted, total, places)
      }),
      filter((value): value is string => value !== undefined),
      distinctUntilChanged(),
    )
}
