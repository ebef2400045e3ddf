import { concatMap, defer, type OperatorFunction } from 'rxjs'
import {
  addDecimal,
  divideDecimal,
  multiplyDecimal,
  normalizeDecimal,
  subtractDecimal,
} from '../decimal.js'
import {
  DEFAULT_PLACES,
  type DecimalLike,
  integerFrom,
  noExtraArguments,
  optionsObject,
  placesOption,
} from './checks.js'
import { seriesDecimal } from './inputs.js'

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
  /**
   * Decimals of each value emitted, rounded half to even; default 18. The average itself
   * keeps more (see {@link ema}), so rounding never holds it back.
   */
  readonly places?: number | undefined
}

/**
 * Decimals the average keeps inside: `max(places, 18)`, plus the digits of `period + 1`,
 * plus one. Each step rounds there, and those errors add up to at most
 * `(period + 1) / 4` units of that last decimal (they fade by `1 - 2 / (period + 1)` a
 * step), which is under 1/40 of a unit of the emitted last place: a steady input is
 * reached exactly in the output (no dead band), and the average stays within 1e-19 of the
 * exact one.
 */
export function innerPlaces(period: number, places: number): number {
  return Math.max(places, DEFAULT_PLACES) + String(period + 1).length + 1
}

/** The running average of {@link ema}, unrounded (kept to {@link innerPlaces}). */
export class EmaAverage {
  readonly #divisor: string
  readonly #places: number
  #average: string | undefined

  constructor(period: number, places: number) {
    this.#divisor = String(period + 1)
    this.#places = innerPlaces(period, places)
  }

  /** Adds a value (decimal text) and returns the new average. */
  add(value: string): string {
    const average = this.#average
    this.#average =
      average === undefined
        ? normalizeDecimal(value)
        : addDecimal(
            average,
            divideDecimal(
              multiplyDecimal(subtractDecimal(value, average), '2'),
              this.#divisor,
              this.#places,
            ),
          )
    return this.#average
  }
}

/**
 * Exponential moving average of a series of decimal strings or numbers: seeded with the
 * first value, then `ema += (value - ema) × 2 / (period + 1)` for each value. Emits one
 * decimal string for every value, from the first, rounded half to even to `places`
 * decimals (default 18). Only the emitted value is rounded: inside, the average keeps
 * `max(places, 18) + digits(period + 1) + 1` decimals, so `ema(20, { places: 2 })` over
 * `1.0456` then a run of `1.06` reaches `'1.06'` (rounding each step to 2 decimals would
 * stall at 1.0456 for good). trading-signals' EMA computes the same average in floating
 * point (stable after `period` values; `skip(period - 1)` waits as long); the average
 * here stays within 1e-12 of it (relative, for values above 1).
 *
 * A number is read by its shortest decimal text (`0.1` is `"0.1"`). A `null` (a book
 * signal's "no value") is passed over: no output, the average unchanged. Any other value
 * that is not a decimal string or a finite number errors the stream with a `TypeError`.
 * `period` is an integer >= 1; a bad argument or option, an unknown or `null` option, or
 * an extra argument throws `VenueInputError` at the call.
 *
 * @example
 * ```ts
 * import { ema, mid } from 'venue-rx/signals'
 *
 * venue.watchOrderBook(1).pipe(mid(), ema(20, { places: 8 }))
 * of('10', '11', '12').pipe(ema(3)) // '10', '10.5', '11.25'
 * ```
 */
export function ema(
  period: number,
  options?: EmaOptions,
): OperatorFunction<DecimalLike | null, string>
export function ema(
  period: number,
  options?: EmaOptions,
  ...extra: unknown[]
): OperatorFunction<DecimalLike | null, string> {
  noExtraArguments('ema', ['period', 'options'], extra)
  const length = integerFrom('ema', 'period', period, 1)
  const places = placesOption('ema', optionsObject('ema', options, ['places']))
  return (source) =>
    defer(() => {
      const average = new EmaAverage(length, places)
      return source.pipe(
        concatMap((input): string[] =>
          input === null
            ? []
            : [divideDecimal(average.add(seriesDecimal('ema', 'value', input)), '1', places)],
        ),
      )
    })
}
