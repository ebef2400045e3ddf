import { isWholeNumber } from '../checks.js'
import { isDecimal, numberToDecimalString } from '../decimal.js'
import { VenueInputError } from '../errors/venue-input-error.js'

/**
 * Argument checks of the signal operators, run at the call: each failure is a
 * {@link VenueInputError} naming the operator, the argument and what is allowed, as the
 * `watch...` methods throw for theirs (values in the stream are checked in inputs.ts).
 */

/** Default number of decimals of every division in the signals. */
export const DEFAULT_PLACES = 18

/** Most decimals a division may be asked for. */
const MAX_PLACES = 1000

/**
 * A decimal as a signal takes it: a decimal string or a finite number.
 *
 * @example
 * ```ts
 * import { of } from 'rxjs'
 * import { type DecimalLike, threshold } from 'venue-rx/signals'
 *
 * const mids: DecimalLike[] = ['1.0450', 1.05] // decimal strings or finite numbers
 * of(...mids).pipe(threshold({ above: '1.049' }))
 * // { type: 'above', value: '1.05', level: '1.049' }
 * ```
 */
export type DecimalLike = string | number

/** Throws the {@link VenueInputError} of a check: `method: argument rule (got value)`. */
export function fail(method: string, argument: string, rule: string, value: unknown): never {
  throw VenueInputError.quoting({
    argument,
    value,
    render: (name, shown) => `${method}: ${name} ${rule} (got ${shown})`,
  })
}

/**
 * An options object: absent, or an object whose keys are all in `allowed` (the check of
 * the `watch...` options, so a misspelt option fails the same way everywhere).
 */
export { streamOptions as optionsObject } from '../streams/stream-options.js'

/**
 * Refuses arguments past those an operator takes (`names`), as the `watch...` methods do:
 * `mid(5)` must not look like it did something with the 5. `extra` holds the arguments
 * after the named ones; an `undefined` there is no argument (as `noArguments` rules).
 */
export function noExtraArguments(
  method: string,
  names: readonly string[],
  extra: readonly unknown[],
): void {
  const at = extra.findIndex((value) => value !== undefined)
  if (at === -1) return
  const takes = names.length === 0 ? 'takes no arguments' : `takes (${names.join(', ')}) only`
  throw VenueInputError.quoting({
    argument: 'arguments',
    value: extra[at],
    render: (_, shown) =>
      `${method}: ${takes}; argument ${names.length + at + 1} is extra (got ${shown})`,
  })
}

/** An integer from `min` up (safe integer). */
export function integerFrom(method: string, argument: string, value: unknown, min: number): number {
  if (!isWholeNumber(value, min)) {
    fail(method, argument, `must be an integer >= ${min}`, value)
  }
  return value
}

/** `places`: absent (18) or an integer from 0 to 1000. */
export function placesOption(method: string, options: Record<string, unknown>): number {
  const value = options['places']
  if (value === undefined) return DEFAULT_PLACES
  if (!isWholeNumber(value, 0, MAX_PLACES)) {
    fail(method, 'places', `must be an integer from 0 to ${MAX_PLACES}`, value)
  }
  return value
}

/** A decimal argument (string or finite number) as decimal text, or `undefined` if not one. */
export function toDecimal(value: unknown): string | undefined {
  if (typeof value === 'string') return isDecimal(value) ? value : undefined
  if (typeof value === 'number' && Number.isFinite(value)) return numberToDecimalString(value)
  return undefined
}

/** A non-negative decimal argument (string or finite number), as decimal text. */
export function nonNegativeDecimal(method: string, argument: string, value: unknown): string {
  const text = toDecimal(value)
  if (text === undefined || text.startsWith('-')) {
    fail(method, argument, 'must be a non-negative decimal string or number', value)
  }
  return text
}
