import { defer, map, type OperatorFunction } from 'rxjs'
import {
  addDecimal,
  divideDecimal,
  multiplyDecimal,
  normalizeDecimal,
  subtractDecimal,
} from '../decimal.js'
import {
  type DecimalLike,
  integerFrom,
  optionsObject,
  placesOption,
  seriesValue,
} from './checks.js'

/**
 * Options of {@link ema}.
 *
 * @example
 * ```ts
 * import { ema, mid } from 'venue-rx/signals'
 *
 * venue.watchOrderBook(0).pipe(mid(), ema(20, { places: 8 })) // '1.0476', '1.04759048', ...
 * ```
 */
export interface EmaOptions {
  /** Decimals of each step's division, rounded half to even; default 18. */
  readonly places?: number | undefined
}

/**
 * Exponential moving average of a series of decimal strings or numbers, in exact decimals:
 * seeded with the first value, then `ema += (value - ema) × 2 / (period + 1)` for each
 * value, the division of each step going to `places` decimals (default 18), rounded half
 * to even. Emits one decimal string for every value, from the first (trading-signals' EMA
 * computes the same values in floating point and calls them stable after `period` values;
 * `skip(period - 1)` gives that). A number is read by its shortest decimal text (`0.1` is
 * `"0.1"`); a value that is neither a decimal string nor a finite number errors the stream
 * with a `TypeError`. `period` is an integer >= 1; a bad argument throws `VenueInputError`
 * at the call.
 *
 * @example
 * ```ts
 * import { ema, mid } from 'venue-rx/signals'
 *
 * venue.watchOrderBook(1).pipe(mid(), ema(20, { places: 8 }))
 * of('10', '11', '12').pipe(ema(3)) // '10', '10.5', '11.25'
 * ```
 */
export function ema(period: number, options?: EmaOptions): OperatorFunction<DecimalLike, string> {
  const length = integerFrom('ema', 'period', period, 1)
  const places = placesOption('ema', optionsObject('ema', options, ['places']))
  const divisor = String(length + 1)
  return (source) =>
    defer(() => {
      let average: string | undefined
      return source.pipe(
        map((input) => {
          const value = seriesValue('ema', input)
          average =
            average === undefined
              ? normalizeDecimal(value)
              : addDecimal(
                  average,
                  divideDecimal(
                    multiplyDecimal(subtractDecimal(value, average), '2'),
                    divisor,
                    places,
                  ),
                )
          return average
        }),
      )
    })
}
