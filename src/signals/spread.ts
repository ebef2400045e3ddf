import { distinctUntilChanged, filter, map, type OperatorFunction } from 'rxjs'
import type { OrderBook } from '../book/order-book.js'
import { divideDecimal, isZeroDecimal, multiplyDecimal } from '../decimal.js'
import { fail, optionsObject, placesOption } from './checks.js'

/**
 * Options of {@link spread}.
 *
 * @example
 * ```ts
 * import { spread } from 'venue-rx/signals'
 *
 * venue.watchOrderBook(0).pipe(spread())                            // '0.0002' (ask - bid)
 * venue.watchOrderBook(0).pipe(spread({ unit: 'bps', places: 2 })) // '1.91' (of the mid)
 * ```
 */
export interface SpreadOptions {
  /**
   * `'absolute'` (default): best ask minus best bid, in quote units, exact. `'bps'`: that
   * spread in basis points of the mid, `(ask - bid) × 10000 / mid`.
   */
  readonly unit?: 'absolute' | 'bps' | undefined
  /**
   * Decimals of the `'bps'` division, rounded half to even; default 18. The absolute
   * spread is exact and ignores it.
   */
  readonly places?: number | undefined
}

/**
 * The spread of each order book, as a decimal string: absolute (`ask - bid`, exact) or in
 * basis points of the mid (divided to `places` decimals, default 18, rounded half to even).
 * Emits only when the spread changes. A book with an empty side (or, in bps, a zero mid) is
 * skipped: nothing is emitted for it. A crossed book gives a negative spread. Throws
 * `VenueInputError` at the call for a bad option.
 *
 * @example
 * ```ts
 * import { spread } from 'venue-rx/signals'
 *
 * venue.watchOrderBook(1).pipe(spread({ unit: 'bps', places: 2 }))
 * // '7.65' for bid 1.0452 / ask 1.046
 * ```
 */
export function spread(options?: SpreadOptions): OperatorFunction<OrderBook, string> {
  const given = optionsObject('spread', options, ['unit', 'places'])
  const unit = given['unit'] ?? 'absolute'
  if (unit !== 'absolute' && unit !== 'bps')
    fail('spread', 'unit', "must be 'absolute' or 'bps'", unit)
  const places = placesOption('spread', given)
  return (source) =>
    source.pipe(
      map((book) => {
        const absolute = book.spread
        if (absolute === undefined || unit === 'absolute') return absolute
        const middle = book.mid
        if (middle === undefined || isZeroDecimal(middle)) return undefined
        return divideDecimal(multiplyDecimal(absolute, '10000'), middle, places)
      }),
      filter((value): value is string => value !== undefined),
      distinctUntilChanged(),
    )
}
