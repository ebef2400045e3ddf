import type { OperatorFunction } from 'rxjs'
import type { OrderBook } from '../book/order-book.js'
import {
  addDecimal,
  divideDecimal,
  halfDecimal,
  isZeroDecimal,
  multiplyDecimal,
  subtractDecimal,
} from '../decimal.js'
import { bookSignal } from './book-signal.js'
import { fail, noExtraArguments, optionsObject, placesOption } from './checks.js'
import { bestLevel } from './inputs.js'

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
 * Emits only when the spread changes. A crossed book gives a negative spread.
 *
 * A book with an empty side (or both) has no spread: it gives `null`, once, so an alert
 * can see a side vanish (`filter((s) => s === null)`); so does a zero mid in bps. The
 * series operators (`threshold`, `ema`, ...) pass over a `null`.
 *
 * An input that is not an `OrderBook`, or whose best levels are not pairs of non-negative
 * decimal strings, errors the stream with a `TypeError`. Throws `VenueInputError` at the
 * call for a bad, unknown or `null` option, or an extra argument.
 *
 * @example
 * ```ts
 * import { spread } from 'venue-rx/signals'
 *
 * venue.watchOrderBook(1).pipe(spread({ unit: 'bps', places: 2 }))
 * // '7.65' for bid 1.0452 / ask 1.046; null while the asks are empty
 * ```
 */
export function spread(options?: SpreadOptions): OperatorFunction<OrderBook, string | null>
export function spread(
  options?: SpreadOptions,
  ...extra: unknown[]
): OperatorFunction<OrderBook, string | null> {
  noExtraArguments('spread', ['options'], extra)
  const given = optionsObject('spread', options, ['unit', 'places'])
  // `null` is no unit: only an absent option takes the default.
  const unit = given['unit'] === undefined ? 'absolute' : given['unit']
  if (unit !== 'absolute' && unit !== 'bps') {
    fail('spread', 'unit', "must be 'absolute' or 'bps'", unit)
  }
  const places = placesOption('spread', given)
  return bookSignal('spread', (book) => {
    const bid = bestLevel('spread', book, 'bids')
    const ask = bestLevel('spread', book, 'asks')
    if (bid === undefined || ask === undefined) return null
    const absolute = subtractDecimal(ask[0], bid[0])
    if (unit === 'absolute') return absolute
    const middle = halfDecimal(addDecimal(bid[0], ask[0]))
    if (isZeroDecimal(middle)) return null
    return divideDecimal(multiplyDecimal(absolute, '10000'), middle, places)
  })
}
