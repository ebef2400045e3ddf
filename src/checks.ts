import { VenueInputError } from './errors/venue-input-error.js'

/*
 * The checks every argument and option of a number goes through (`createVenue`'s
 * options, the `watch...` arguments, the REST arguments, `startRelay`'s options, the CLI's
 * flags): what a whole number, a positive number or a number in a range is, said once,
 * and the input error of a failed check. Each caller keeps the words of its own message.
 */

/**
 * A whole number from `min` to `max` (both included): a safe integer, so that a count or
 * a time in ms stays exact.
 *
 * @example
 * ```ts
 * isWholeNumber(5, 0)         // true
 * isWholeNumber(2.5, 0)       // false
 * isWholeNumber(2 ** 53, 0)   // false: not exact
 * isWholeNumber(10_001, 5, 10_000) // false
 * ```
 */
export function isWholeNumber(
  value: unknown,
  min = Number.MIN_SAFE_INTEGER,
  max = Number.MAX_SAFE_INTEGER,
): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max
}

/**
 * A finite number above 0.
 *
 * @example
 * ```ts
 * isPositiveNumber(0.5) // true
 * isPositiveNumber(0)   // false
 * isPositiveNumber(Infinity) // false
 * isPositiveNumber('5') // false
 * ```
 */
export function isPositiveNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0
}

/**
 * A finite number from `min` to `max` (both included).
 *
 * @example
 * ```ts
 * isNumberIn(0.001, 0.001, 1_000_000) // true
 * isNumberIn(NaN, 0, 1)                // false
 * ```
 */
export function isNumberIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max
}

/**
 * Throws the {@link VenueInputError} of a failed check, naming `argument`:
 * `method: argument rule (got value)`. The value is quoted as input errors quote (a
 * string in quotes, cut after 40 characters unless `whole`; an object by its kind), and
 * the API key redacted from it where the venue redacts.
 *
 * @example
 * ```ts
 * failCheck('createVenue', 'lingerMs', 'must be a positive finite number', -1, { whole: true })
 * // VenueInputError: createVenue: lingerMs must be a positive finite number (got -1)
 * ```
 */
export function failCheck(
  method: string,
  argument: string,
  rule: string,
  value: unknown,
  options: { readonly whole?: boolean } = {},
): never {
  throw VenueInputError.quoting({
    argument,
    value,
    ...(options.whole === true ? { whole: true } : {}),
    render: (name, shown) => `${method}: ${name} ${rule} (got ${shown})`,
  })
}
