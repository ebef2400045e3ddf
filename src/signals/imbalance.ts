import type { OperatorFunction } from 'rxjs'
import type { Level } from '../book/book-event.js'
import type { OrderBook } from '../book/order-book.js'
import { addDecimal, divideDecimal, isZeroDecimal, subtractDecimal } from '../decimal.js'
import { bookSignal } from './book-signal.js'
import { integerFrom, noExtraArguments, optionsObject, placesOption } from './checks.js'
import { topLevels } from './inputs.js'

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

function quantity(levels: readonly Level[]): string {
  let total = '0'
  for (const [, size] of levels) total = addDecimal(total, size)
  return total
}

/**
 * Order book imbalance over the top `levels` levels of each side,
 * `(bidQty - askQty) / (bidQty + askQty)`: from -1 (asks only) to 1 (bids only). Base
 * quantities are summed exactly; the division goes to `places` decimals (default 18),
 * rounded half to even. Emits only when the value changes.
 *
 * Unlike the other book signals, a book with one empty side has a value: `'1'` with bids
 * only, `'-1'` with asks only. A book with both sides empty (no quantity in those levels:
 * 0 / 0) gives `null`, once; the series operators pass over a `null`.
 *
 * An input that is not an `OrderBook`, or whose top levels are not pairs of non-negative
 * decimal strings, errors the stream with a `TypeError`. `levels` is an integer >= 1; a
 * bad argument or option, an unknown or `null` option, or an extra argument throws
 * `VenueInputError` at the call.
 *
 * @example
 * ```ts
 * import { imbalance } from 'venue-rx/signals'
 *
 * // top 5: bids hold 300, asks 100
 * venue.watchOrderBook(1).pipe(imbalance(5)) // '0.5'; '1' once the asks are gone
 * ```
 */
export function imbalance(
  levels: number,
  options?: ImbalanceOptions,
): OperatorFunction<OrderBook, string | null>
export function imbalance(
  levels: number,
  options?: ImbalanceOptions,
  ...extra: unknown[]
): OperatorFunction<OrderBook, string | null> {
  noExtraArguments('imbalance', ['levels', 'options'], extra)
  const count = integerFrom('imbalance', 'levels', levels, 1)
  const places = placesOption('imbalance', optionsObject('imbalance', options, ['places']))
  return bookSignal('imbalance', (book) => {
    const bids = quantity(topLevels('imbalance', book, 'bids', count))
    const asks = quantity(topLevels('imbalance', book, 'asks', count))
    const total = addDecimal(bids, asks)
    if (isZeroDecimal(total)) return null
    return divideDecimal(subtractDecimal(bids, asks), total, places)
  })
}
