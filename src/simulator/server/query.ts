/**
 * Readers of query parameters. Each throws a {@link ReplyError} with
 * `invalid parameter: <name>` when the value is there but bad; an absent or empty
 * parameter counts as missing.
 *
 * @packageDocumentation
 */
import { invalidParameter } from './error-replies.js'
import { ReplyError } from './reply-error.js'

const INTEGER_PATTERN = /^-?\d+$/
const DIGITS_PATTERN = /^\d+$/

/** Bounds of an integer parameter. */
export interface IntegerBounds {
  readonly min?: number
  readonly max?: number
  /** Above `max`, use `max` instead of answering 400 (the live orders lists do this). */
  readonly clampToMax?: boolean
}

/** Sort direction of the trades and transfers lists. */
export type SortDirection = 'asc' | 'desc'

function present(query: URLSearchParams, name: string): string | undefined {
  const value = query.get(name)
  return value === null || value === '' ? undefined : value
}

/** The parameter as an integer within `bounds`, or `undefined` when it is missing. */
export function optionalInteger(
  query: URLSearchParams,
  name: string,
  bounds: IntegerBounds = {},
): number | undefined {
  const text = present(query, name)
  if (text === undefined) return undefined
  const value = Number(text)
  if (!INTEGER_PATTERN.test(text) || !Number.isSafeInteger(value)) {
    throw new ReplyError(invalidParameter(name))
  }
  if (bounds.min !== undefined && value < bounds.min) throw new ReplyError(invalidParameter(name))
  if (bounds.max !== undefined && value > bounds.max) {
    if (bounds.clampToMax === true) return bounds.max
    throw new ReplyError(invalidParameter(name))
  }
  return value
}

/** The parameter as an integer within `bounds`, or `fallback` when it is missing. */
export function integerOr(
  query: URLSearchParams,
  name: string,
  fallback: number,
  bounds: IntegerBounds = {},
): number {
  return optionalInteger(query, name, bounds) ?? fallback
}

/** The parameter as an integer within `bounds`; 400 when it is missing. */
export function requiredInteger(
  query: URLSearchParams,
  name: string,
  bounds: IntegerBounds = {},
): number {
  const value = optionalInteger(query, name, bounds)
  if (value === undefined) throw new ReplyError(invalidParameter(name))
  return value
}

/** The parameter as a non-negative integer of any size, or `undefined` when missing. */
export function optionalDigits(query: URLSearchParams, name: string): bigint | undefined {
  const text = present(query, name)
  if (text === undefined) return undefined
  if (!DIGITS_PATTERN.test(text)) throw new ReplyError(invalidParameter(name))
  return BigInt(text)
}

/** The parameter as a string; 400 when it is missing. */
export function requiredString(query: URLSearchParams, name: string): string {
  const value = present(query, name)
  if (value === undefined) throw new ReplyError(invalidParameter(name))
  return value
}

/** The parameter as a string, or `undefined` when it is missing. */
export function optionalString(query: URLSearchParams, name: string): string | undefined {
  return present(query, name)
}

/** `asc` or `desc`, or `fallback` when missing; anything else is a 400. */
export function sortDirection(
  query: URLSearchParams,
  name: string,
  fallback: SortDirection,
): SortDirection {
  const text = present(query, name)
  if (text === undefined) return fallback
  if (text !== 'asc' && text !== 'desc') throw new ReplyError(invalidParameter(name))
  return text
}
