import { failCheck as fail, isWholeNumber } from '../checks.js'
import { compareDecimal, isDecimal, numberToDecimalString } from '../decimal.js'
import { VenueInputError } from '../errors/venue-input-error.js'
import { isPlainObject } from '../plain-object.js'
import type { MarketDataSource } from './args.js'

/**
 * Argument checks run before any request. Each failure is a {@link VenueInputError}
 * naming the method, the argument and what is allowed.
 */

/** Seconds above this look like milliseconds (1e11 s is the year 5138). */
const MAX_SECONDS = 1e11

/** Throws the {@link VenueInputError} of a check: `method: argument rule (got value)`. */
export { fail }

/** An integer within `min..max` (inclusive). */
export function integerIn(
  method: string,
  argument: string,
  value: unknown,
  min: number,
  max: number,
): number {
  if (!isWholeNumber(value, min, max)) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`
    fail(method, argument, `must be an integer ${range}`, value)
  }
  return value
}

/** A pool id: a non-negative integer. */
export function poolId(method: string, value: unknown, argument = 'poolId'): number {
  return integerIn(method, argument, value, 0, Number.MAX_SAFE_INTEGER)
}

/** One of a fixed set of values. */
export function oneOf<T extends string | number>(
  method: string,
  argument: string,
  value: unknown,
  allowed: readonly T[],
): T {
  if (!allowed.includes(value as T)) {
    fail(
      method,
      argument,
      `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`,
      value,
    )
  }
  return value as T
}

/** Unix seconds: a non-negative integer that does not look like milliseconds. */
export function seconds(method: string, argument: string, value: unknown): number {
  if (!isWholeNumber(value, 0)) {
    fail(method, argument, 'must be an integer of Unix seconds', value)
  }
  if (value >= MAX_SECONDS) {
    fail(method, argument, 'must be Unix seconds, not milliseconds', value)
  }
  return value
}

/** A decimal (string or number) within `min..max`, compared exactly; returned as a string. */
export function decimalIn(
  method: string,
  argument: string,
  value: unknown,
  min: string,
  max: string,
): string {
  let text: string | undefined
  if (typeof value === 'string' && isDecimal(value)) text = value
  else if (typeof value === 'number' && Number.isFinite(value)) text = numberToDecimalString(value)
  if (text === undefined || compareDecimal(text, min) < 0 || compareDecimal(text, max) > 0) {
    return fail(method, argument, `must be a decimal from ${min} to ${max}`, value)
  }
  return text
}

/** A non-empty string without control characters. */
export function text(method: string, argument: string, value: unknown): string {
  if (
    typeof value !== 'string' ||
    value === '' ||
    // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
    /[\u0000-\u001f\u007f]/.test(value) ||
    LONE_SURROGATE.test(value)
  ) {
    fail(method, argument, 'must be a non-empty string without control characters', value)
  }
  return value
}

/** Half of a UTF-16 pair without its other half: cannot be percent-encoded. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/**
 * Encodes one path segment. Everything but unreserved characters is percent-encoded,
 * so `/`, `?` and `#` cannot change the path. `.` and `..` are refused: URL
 * normalisation would turn them into a different path whatever their encoding.
 */
export function pathSegment(method: string, argument: string, value: string): string {
  if (value === '.' || value === '..') fail(method, argument, 'cannot be "." or ".."', value)
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )
}

/** Rejects keys that are not arguments of the method (catches typos such as `poolid`). */
export function knownKeys(method: string, args: object, allowed: readonly string[]): void {
  for (const key of Object.keys(args)) {
    if (!allowed.includes(key)) {
      throw VenueInputError.quoting({
        argument: key,
        render: (name) =>
          `${method}: unknown argument ${JSON.stringify(name)} (allowed: ${allowed.join(', ')})`,
      })
    }
  }
}

/** The arguments object itself: a plain object or absent. */
export function argsObject(method: string, value: unknown): Record<string, unknown> {
  if (value === undefined) return {}
  if (!isPlainObject(value)) {
    throw new VenueInputError('args', `${method}: arguments must be an object ({ ... })`)
  }
  return value
}

/** `source`: `'v2'` or `'v1'`; absent (`undefined`, never `null`) takes `fallback`. */
export function source(
  method: string,
  value: unknown,
  fallback: MarketDataSource,
): MarketDataSource {
  if (value === undefined) return fallback
  if (value === 'v1' || value === 'v2') return value
  return fail(method, 'source', "must be 'v2' or 'v1'", value)
}
