import { distinctUntilChanged, filter, map, type OperatorFunction } from 'rxjs'
import type { Level } from '../book/book-event.js'
import type { OrderBook } from '../book/order-book.js'
import { addDecimal, divideDecimal, isZeroDecimal, subtractDecimal } from '../decimal.js'
import { integerFrom, optionsObject, placesOption } from './checks.js'

/**
 * Options of {@link imbalance}.
 *
 * @example
 * ```ts
 * import { imbalance } from 'venue-rx/signals'
 *
 * venue.watchOrderBook(0).pipe(imbalance(10, { places: 4 })) // '-0.2731', ...
 * ```
 */
export interface ImbalanceOptions {
  /** Decimals of the division, rounded half to even; default 18. */
  readonly places?: number | undefined
}

function quantity(levels: readonly Level[], count: number): string {
  let total = '0'
  for (let i = 0; i < count && i < levels.length; i += 1) {
    total = addDecimal(total, (levels[i] as Level)[1])
  }
  return total
}

/**
 * Order book imbalance over the top `levels` levels of each side,
 * `(bidQty - askQty) / (bidQty + askQty)`: from -1 (asks only) to 1 (bids only). Base
 * quantities are summed exactly; the division goes to `places` decimals (default 18),
 * rounded half to even. Emits only when the value changes; a book with no quantity in those
 * levels is skipped. `levels` is an integer >= 1; a bad argument throws `VenueInputError`
 * at the call.
 *
 * @example
 * ```ts
 * import { imbalance } from 'venue-rx/signals'
 *
 * // top 5: bids hold 300, asks 100
 * venue.watchOrderBook(1).pipe(imbalance(5)) // '0.5'
 * ```
 */
export function imbalance(
  levels: number,
  options?: ImbalanceOptions,
): OperatorFunction<OrderBook, string> {
  const count = integerFrom('imbalance', 'levels', levels, 1)
  const places = placesOption('imbalance', optionsObject('imbalance', options, ['places']))
  return (source) =>
    source.pipe(
      map((book) => {
        const bids = quantity(book.top('bids', count), count)
        const asks = quantity(book.top('asks', count), count)
        const total = addDecimal(bids, asks)
        if (isZeroDecimal(total)) return undefined
        return divideDecimal(subtractDecimal(bids, asks), total, places)
      }),
      filter((value): value is string => value !== undefined),
      distinctUntilChanged(),
    )
}
