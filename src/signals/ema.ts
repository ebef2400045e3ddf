import { defer, filter, map, type OperatorFunction } from 'rxjs'
import {
  DEFAULT_PLACES,
  type DecimalLike,
  integerFrom,
  noExtraArguments,
  optionsObject,
  placesOption,
} from './checks.js'
import { refuse, seriesDecimal } from './inputs.js'
import { formatUnits, pow10Big, quotientText, read, readDecimal } from './scaled.js'

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

/**
 * The running average of {@link ema}, unrounded (kept to {@link innerPlaces}): an integer
 * number of units of 10^-scale (a bigint), the scale being the inner places or the
 * decimals of the first value if it has more. Each step is that of decimal strings,
 * `average + divideDecimal((value - average) × 2, period + 1, innerPlaces)`, done on the
 * units: exact, and rounded half to even at the inner places as `divideDecimal` rounds.
 */
export class EmaAverage {
  /** `period + 1`. */
  readonly #divisor: bigint
  readonly #places: number
  #scale = 0
  #units: bigint | undefined

  constructor(period: number, places: number) {
    this.#divisor = BigInt(period + 1)
    this.#places = innerPlaces(period, places)
  }

  /** Adds a value (decimal text) and returns the new average, in the normal form. */
  add(value: string): string {
    if (!readDecimal(value)) throw new TypeError(`not a decimal number: ${JSON.stringify(value)}`)
    this.addRead()
    return formatUnits(this.#units ?? 0n, this.#scale)
  }

  /** Adds the value last read by `readDecimal` (in `read`). */
  addRead(): void {
    const units = read.units
    const scale = read.scale
    const average = this.#units
    const inner = this.#places
    if (average === undefined) {
      this.#scale = scale > inner ? scale : inner
      this.#units = BigInt(units) * pow10Big(this.#scale - scale)
      return
    }
    const own = this.#scale
    // value - average at the finer of the two scales, doubled.
    const twice =
      scale <= own
        ? (BigInt(units) * pow10Big(own - scale) - average) * 2n
        : (BigInt(units) - average * pow10Big(scale - own)) * 2n
    // Divided by period + 1 into units of 10^-inner, rounded half to even (on the
    // magnitude, as divideDecimal rounds).
    const finer = scale <= own ? own : scale
    const divisor = finer === inner ? this.#divisor : this.#divisor * pow10Big(finer - inner)
    let step = twice / divisor
    const rest = twice % divisor
    const doubled = (rest < 0n ? -rest : rest) * 2n
    if (doubled > divisor || (doubled === divisor && (step & 1n) === 1n)) {
      step += twice < 0n ? -1n : 1n
    }
    this.#units = average + (own === inner ? step : step * pow10Big(own - inner))
  }

  /** The average rounded half to even to `places` decimals, as decimal text. */
  rounded(places: number): string {
    return quotientText(this.#units ?? 0n, 1, -this.#scale, places)
  }
}

/** What a value of {@link ema} must be (the message of `seriesDecimal`). */
const MUST_BE = 'must be a decimal string or a finite number'

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
        filter((input): input is DecimalLike => input !== null),
        map((input) => {
          // A decimal string is read as it is checked; a number (or anything else) goes
          // through the check of every series, which writes a number as decimal text.
          if (typeof input !== 'string' || !readDecimal(input)) {
            const text = seriesDecimal('ema', 'value', input)
            if (!readDecimal(text)) refuse('ema', 'value', MUST_BE, input)
          }
          average.addRead()
          return average.rounded(places)
        }),
      )
    })
}
