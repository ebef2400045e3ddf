/**
 * Depth arithmetic on integer levels: merging two books and grouping by a precision.
 *
 * Precision: only powers of ten from 0.000000001 to 10 group a book (docs/venue-interface.md#numbers);
 * any other value yields an empty book. Bids round DOWN to a multiple of the precision,
 * asks round UP, quantities at one grouped price add up. Prices are written with as many
 * decimals as the precision has ("0.01" -> 2, "10" -> 0); quantities with the pool's base
 * precision (at most 8 decimals).
 *
 * @packageDocumentation
 */
import type { RawLevel } from './amm-levels.js'
import { formatFixed, pow10 } from './fixed-point.js'
import type { WireLevel } from './types.js'

/** Smallest and largest exponents of ten a depth precision may have. */
const MIN_EXPONENT = -9
const MAX_EXPONENT = 1

const PRECISION = /^(\d+)(?:\.(\d+))?$/

/**
 * The exponent e of a precision that is exactly 10^e with -9 <= e <= 1, else undefined.
 *
 * @example
 * ```ts
 * precisionExponent('0.01') // -2
 * precisionExponent('10')   // 1
 * precisionExponent('0.5')  // undefined
 * ```
 */
export function precisionExponent(text: string): number | undefined {
  const match = PRECISION.exec(text)
  if (match === null) return undefined
  const integer = (match[1] ?? '').replace(/^0+/, '')
  const fraction = (match[2] ?? '').replace(/0+$/, '')
  let exponent: number
  if (fraction !== '') {
    if (integer !== '' || !/^0*1$/.test(fraction)) return undefined
    exponent = -fraction.length
  } else {
    if (!/^10*$/.test(integer)) return undefined
    exponent = integer.length - 1
  }
  return exponent >= MIN_EXPONENT && exponent <= MAX_EXPONENT ? exponent : undefined
}

/** Merges two sides sorted best first (bids: descending), adding quantities at equal prices. */
export function mergeLevels(
  a: readonly RawLevel[],
  b: readonly RawLevel[],
  descending: boolean,
): RawLevel[] {
  const merged: RawLevel[] = []
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    const x = a[i]
    const y = b[j]
    if (y === undefined || (x !== undefined && (descending ? x[0] > y[0] : x[0] < y[0]))) {
      merged.push(x as RawLevel)
      i++
    } else if (x === undefined || x[0] !== y[0]) {
      merged.push(y)
      j++
    } else {
      merged.push([x[0], x[1] + y[1]])
      i++
      j++
    }
  }
  return merged
}

/**
 * Groups one side (sorted best first) at precision 10^exponent and writes up to `limit`
 * levels. `bids` rounds prices down, asks up.
 */
export function groupLevels(
  levels: readonly RawLevel[],
  exponent: number,
  pricePrecision: number,
  basePrecision: number,
  bids: boolean,
  limit: number,
): WireLevel[] {
  const decimals = Math.max(0, -exponent)
  const wire: WireLevel[] = []
  if (limit <= 0) return wire
  // Grouping size in price units; below one tick every level is its own group.
  const group = exponent + pricePrecision > 0 ? pow10(exponent + pricePrecision) : 1n
  let key: bigint | undefined
  let quantity = 0n
  const flush = (): void => {
    if (key !== undefined)
      wire.push([formatPrice(key, pricePrecision, decimals), formatFixed(quantity, basePrecision)])
  }
  for (const [price, size] of levels) {
    const remainder = price % group
    const grouped = remainder === 0n ? price : bids ? price - remainder : price - remainder + group
    if (grouped === key) {
      quantity += size
      continue
    }
    flush()
    if (wire.length >= limit) return wire
    key = grouped
    quantity = size
  }
  flush()
  return wire.slice(0, limit)
}

/** Writes `units` (price units with `precision` decimals) with exactly `decimals` decimals. */
function formatPrice(units: bigint, precision: number, decimals: number): string {
  return decimals >= precision
    ? formatFixed(units * pow10(decimals - precision), decimals)
    : formatFixed(units / pow10(precision - decimals), decimals)
}
