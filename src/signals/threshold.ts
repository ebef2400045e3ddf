import { concatMap, defer, type OperatorFunction } from 'rxjs'
import { addDecimal, compareDecimal, normalizeDecimal, subtractDecimal } from '../decimal.js'
import {
  type DecimalLike,
  fail,
  noExtraArguments,
  nonNegativeDecimal,
  optionsObject,
  toDecimal,
} from './checks.js'
import { seriesDecimal } from './inputs.js'

/**
 * Options of {@link threshold}: at least one of `above` and `below`.
 *
 * @example
 * ```ts
 * import { mid, threshold } from 'venue-rx/signals'
 *
 * // alert once above 1.05, not again until the mid has been back at 1.048 or lower
 * venue.watchOrderBook(0)
 *   .pipe(mid(), threshold({ above: '1.05', below: '1.04', hysteresis: '0.002' }))
 * ```
 */
export interface ThresholdOptions {
  /** Alert when the series goes strictly above this level. */
  readonly above?: DecimalLike | undefined
  /** Alert when the series goes strictly below this level. */
  readonly below?: DecimalLike | undefined
  /**
   * How far back the series must come before the same alert can fire again: an `above`
   * alert re-arms at `value <= above - hysteresis`, a `below` alert at
   * `value >= below + hysteresis`. Non-negative; default 0.
   */
  readonly hysteresis?: DecimalLike | undefined
}

/**
 * An alert of {@link threshold}.
 *
 * @example
 * ```ts
 * import { mid, type ThresholdEvent, threshold } from 'venue-rx/signals'
 *
 * venue.watchOrderBook(0)
 *   .pipe(mid(), threshold({ above: '1.05', below: '1.04' }))
 *   .subscribe((alert: ThresholdEvent) => console.log(alert.type, alert.value, alert.level))
 * // 'above' '1.0502' '1.05'
 * ```
 */
export interface ThresholdEvent {
  /** Which level was crossed. */
  readonly type: 'above' | 'below'
  /** The value that crossed, as a decimal string. */
  readonly value: string
  /** The level it crossed, as a decimal string. */
  readonly level: string
}

function level(name: 'above' | 'below', value: unknown): string | undefined {
  if (value === undefined) return undefined
  const text = toDecimal(value)
  if (text === undefined) fail('threshold', name, 'must be a decimal string or number', value)
  return normalizeDecimal(text)
}

/**
 * Alerts when a series of decimal strings or numbers crosses a level: `above` once when a
 * value is strictly above `options.above`, then not again until the series has come back
 * to `above - hysteresis` or lower; `below` likewise under `options.below`, re-armed at
 * `below + hysteresis` or higher. Both alerts start armed, so a first value already beyond
 * a level alerts. Comparisons are exact; there is no division.
 *
 * A `null` (a book signal's "no value", e.g. `spread` of a one-sided book) is passed over:
 * no alert, nothing re-armed; watch for it before `threshold` to alert on it. Any other
 * value that is not a decimal string or a finite number errors the stream with a
 * `TypeError`. Throws `VenueInputError` at the call when neither level is given, an option
 * is bad, unknown or `null`, or an extra argument is given.
 *
 * @example
 * ```ts
 * import { spread, threshold } from 'venue-rx/signals'
 *
 * venue.watchOrderBook(1)
 *   .pipe(spread({ unit: 'bps' }), threshold({ above: 25, hysteresis: 5 }))
 *   .subscribe((alert) => console.log(`spread ${alert.value} bps > ${alert.level}`))
 * ```
 */
export function threshold(
  options: ThresholdOptions,
): OperatorFunction<DecimalLike | null, ThresholdEvent>
export function threshold(
  options: ThresholdOptions,
  ...extra: unknown[]
): OperatorFunction<DecimalLike | null, ThresholdEvent> {
  noExtraArguments('threshold', ['options'], extra)
  const given = optionsObject('threshold', options, ['above', 'below', 'hysteresis'])
  const above = level('above', given['above'])
  const below = level('below', given['below'])
  if (above === undefined && below === undefined) {
    fail('threshold', 'options', 'must set above or below', options)
  }
  const hysteresis =
    given['hysteresis'] === undefined
      ? '0'
      : nonNegativeDecimal('threshold', 'hysteresis', given['hysteresis'])
  const rearmAbove = above === undefined ? undefined : subtractDecimal(above, hysteresis)
  const rearmBelow = below === undefined ? undefined : addDecimal(below, hysteresis)
  return (source) =>
    defer(() => {
      let armedAbove = true
      let armedBelow = true
      return source.pipe(
        concatMap((input): ThresholdEvent[] => {
          if (input === null) return []
          const value = normalizeDecimal(seriesDecimal('threshold', 'value', input))
          const events: ThresholdEvent[] = []
          if (above !== undefined && rearmAbove !== undefined) {
            if (armedAbove && compareDecimal(value, above) > 0) {
              armedAbove = false
              events.push({ type: 'above', value, level: above })
            } else if (!armedAbove && compareDecimal(value, rearmAbove) <= 0) {
              armedAbove = true
            }
          }
          if (below !== undefined && rearmBelow !== undefined) {
            if (armedBelow && compareDecimal(value, below) < 0) {
              armedBelow = false
              events.push({ type: 'below', value, level: below })
            } else if (!armedBelow && compareDecimal(value, rearmBelow) >= 0) {
              armedBelow = true
            }
          }
          return events
        }),
      )
    })
}
