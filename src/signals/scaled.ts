/**
 * Exact decimal arithmetic on scaled integers, for the hot paths of the signals: a decimal
 * is `units × 10^-scale`, its units a `number` while they are a safe integer and a
 * `bigint` past that. Every result is exact (a `number` is only kept when the operation
 * provably gave the exact integer) and the text written is that of src/decimal.ts: the
 * same digits as its string functions, at a fraction of the cost of parsing and writing
 * strings at each step.
 */

import { trailingZerosAt } from '../decimal.js'

/**
 * The units of a decimal: a safe integer as a `number` (never `-0`), else a `bigint`
 * (always outside the safe range: {@link narrow} keeps one form per value, so a zero is
 * always the number `0`).
 */
export type Units = number | bigint

const MAX = Number.MAX_SAFE_INTEGER
const MAX_BIG = BigInt(MAX)

/** 10^0 to 10^15 as numbers: all exact, and 10^15 × 9 is still a safe integer. */
const POW10 = Array.from({ length: 16 }, (_, k) => 10 ** k)

/**
 * 10^0 to 10^63 as bigints, the powers of the usual scales. Larger ones are made when asked
 * and not kept: a decimal of 60,000 digits must not leave every power below it behind.
 */
const POW10_BIG = Array.from({ length: 64 }, (_, k) => 10n ** BigInt(k))

/** 10^k as a bigint. */
export function pow10Big(k: number): bigint {
  return k < POW10_BIG.length ? (POW10_BIG[k] as bigint) : 10n ** BigInt(k)
}

/** A bigint in its {@link Units} form: a number when it is a safe integer. */
export function narrow(x: bigint): Units {
  return x <= MAX_BIG && x >= -MAX_BIG ? Number(x) : x
}

/** Whether a finite number is within the safe integers (a product or sum of two was exact). */
function safe(x: number): boolean {
  return x <= MAX && x >= -MAX
}

// The sum or product of two safe integers is exact when its float is within the safe
// range: an exact result of magnitude 2^53 or more rounds to a float of 2^53 or more.

/** `a + b`, exactly. */
export function addUnits(a: Units, b: Units): Units {
  if (typeof a === 'number' && typeof b === 'number') {
    const sum = a + b
    if (safe(sum)) return sum
  }
  return narrow(BigInt(a) + BigInt(b))
}

/** `a - b`, exactly. */
export function subtractUnits(a: Units, b: Units): Units {
  if (typeof a === 'number' && typeof b === 'number') {
    const difference = a - b
    if (safe(difference)) return difference
  }
  return narrow(BigInt(a) - BigInt(b))
}

/** `a × b`, exactly. */
export function multiplyUnits(a: Units, b: Units): Units {
  if (typeof a === 'number' && typeof b === 'number') {
    const product = a * b
    // `0 × -5` is -0 in floating point: the units of zero are `0`.
    if (safe(product)) return product === 0 ? 0 : product
  }
  return narrow(BigInt(a) * BigInt(b))
}

/** `a × 10^k` (k >= 0), exactly. */
export function shiftUnits(a: Units, k: number): Units {
  if (k === 0) return a
  return k < POW10.length ? multiplyUnits(a, POW10[k] as number) : narrow(BigInt(a) * pow10Big(k))
}

/** A decimal read by {@link readDecimal}: its units and scale. */
export const read: { units: Units; scale: number } = { units: 0, scale: 0 }

/**
 * Reads `text` into {@link read} when it is a plain decimal (exactly what `isDecimal` of
 * src/decimal.ts takes: an optional `-`, digits, an optional fraction with digits) and
 * returns `true`; `false` for anything else, {@link read} left as it was. One pass over
 * the char codes, no allocation below 2^53 units.
 */
export function readDecimal(text: string): boolean {
  const n = text.length
  let i = 0
  let code = text.charCodeAt(0)
  const negative = code === 45 /* - */
  if (negative) {
    i = 1
    code = text.charCodeAt(1)
  }
  // A digit first (past the end, `code` is NaN: no digit).
  if (!(code >= 48 && code <= 57)) return false
  const start = i
  // Exact while it stays a safe integer; once past, the float is past too (rounding is
  // monotonic and every step grows it), and the units are read again as a bigint.
  let units = code - 48
  let point = -1
  for (i += 1; i < n; i += 1) {
    code = text.charCodeAt(i)
    if (code >= 48 && code <= 57) {
      units = units * 10 + (code - 48)
    } else if (code === 46 /* . */ && point === -1) {
      point = i
    } else {
      return false
    }
  }
  // A point must have digits after it.
  if (point === n - 1) return false
  read.scale = point === -1 ? 0 : n - 1 - point
  if (units <= MAX) {
    // `0 - 0` is 0, not -0: "-0.00" is zero, and zero has no sign.
    read.units = negative ? 0 - units : units
  } else {
    const digits =
      point === -1 ? text.slice(start) : text.slice(start, point) + text.slice(point + 1)
    const big = BigInt(digits)
    read.units = negative ? -big : big
  }
  return true
}

/**
 * The decimal text of `digits` (a magnitude, leading zeros allowed) with a point `scale`
 * digits from the right, in the normal form of src/decimal.ts: no leading zeros but the
 * last of the integer part, no trailing zeros of the fraction, no point when no fraction
 * is left, `-` only before a non-zero value.
 */
export function placePoint(negative: boolean, digits: string, scale: number): string {
  const length = digits.length
  let int: string
  let frac = ''
  if (scale === 0) {
    int = digits
  } else if (length > scale) {
    int = digits.slice(0, length - scale)
    const end = trailingZerosAt(digits)
    if (end > length - scale) frac = digits.slice(length - scale, end)
  } else {
    int = '0'
    const end = trailingZerosAt(digits)
    if (end > 0) frac = '0'.repeat(scale - length) + digits.slice(0, end)
  }
  let lead = 0
  while (lead < int.length - 1 && int.charCodeAt(lead) === 48) lead += 1
  if (lead > 0) int = int.slice(lead)
  if (frac === '') {
    // With no fraction, leading zeros also went: the zero from any digits is `0`.
    if (negative && int !== '0') return `-${int}`
    return int
  }
  return negative ? `-${int}.${frac}` : `${int}.${frac}`
}

/** `units × 10^-scale` as decimal text in the normal form (`normalizeDecimal`'s). */
export function formatUnits(units: Units, scale: number): string {
  const negative = units < 0
  const digits = negative
    ? typeof units === 'number'
      ? String(0 - units)
      : String(-units)
    : String(units)
  return placePoint(negative, digits, scale)
}

/** `digits` plus one in its last digit (a run of 9s carried): `'0199'` → `'0200'`. */
function incremented(digits: string): string {
  let at = digits.length - 1
  while (at >= 0 && digits.charCodeAt(at) === 57 /* 9 */) at -= 1
  const zeros = '0'.repeat(digits.length - 1 - at)
  if (at < 0) return `1${zeros}`
  return `${digits.slice(0, at)}${String.fromCharCode(digits.charCodeAt(at) + 1)}${zeros}`
}

/**
 * Below this, `Math.floor(x / d)` is the integer quotient or one off (the float quotient
 * errs by under one), and `quotient × d` stays an exact safe integer (d <= x / 10 or the
 * chunk below is 0), so the remainder `x - quotient × d` is exact and tells which.
 */
const FLOOR_LIMIT = 2 ** 52

/** The integer quotient of the last {@link divide}; its remainder is returned. */
let quotient = 0

/**
 * `x / d` of non-negative safe integers into {@link quotient}, returning the remainder:
 * in floating point, corrected by one when the float quotient was (`%` of two doubles is a
 * call to fmod, several times slower).
 */
function divide(x: number, d: number): number {
  if (x > FLOOR_LIMIT) {
    const rest = x % d
    quotient = (x - rest) / d
    return rest
  }
  let q = Math.floor(x / d)
  let rest = x - q * d
  if (rest < 0) {
    q -= 1
    rest += d
  } else if (rest >= d) {
    q += 1
    rest -= d
  }
  quotient = q
  return rest
}

/**
 * The quotient `n × 10^shift / d` (d > 0) rounded half to even to `places` decimals, as
 * decimal text in the normal form: what `divideDecimal` of src/decimal.ts writes for the
 * same values. With safe-integer operands it is a long division in numbers, a chunk of
 * digits at a time (each step exact: the remainder times the chunk's power of ten stays
 * below 2^52); else in bigints.
 */
export function quotientText(n: Units, d: Units, shift: number, places: number): string {
  if (typeof n === 'number' && typeof d === 'number') {
    const text =
      shift <= 0 && shift + places >= 0 && -shift < POW10.length
        ? pointQuotient(n, d, -shift, places)
        : digitQuotient(n, d, shift, places)
    if (text !== undefined) return text
  }
  return bigQuotientText(BigInt(n), BigInt(d), shift + places, places)
}

/**
 * `(a - b) / (a + b)` of two non-negative amounts, `a` in units of 10^-aScale and `b` of
 * 10^-bScale, rounded half to even to `places` decimals (the imbalance of bids against
 * asks, of buys against sells); `undefined` when both are 0.
 */
export function imbalanceText(
  a: Units,
  aScale: number,
  b: Units,
  bScale: number,
  places: number,
): string | undefined {
  const x = aScale < bScale ? shiftUnits(a, bScale - aScale) : a
  const y = bScale < aScale ? shiftUnits(b, aScale - bScale) : b
  const total = addUnits(x, y)
  return total === 0 ? undefined : quotientText(subtractUnits(x, y), total, 0, places)
}

/** Digits per chunk of a long division by `divisor`: the remainder × 10^chunk < 2^52. */
function chunkFor(divisor: number): number {
  let chunk = 0
  while (chunk < POW10.length - 1 && divisor * (POW10[chunk + 1] as number) <= FLOOR_LIMIT) {
    chunk += 1
  }
  return chunk
}

/** The chunks of the fraction of {@link pointQuotient}, and their widths in digits. */
const parts: number[] = []
const widths: number[] = []

/**
 * {@link quotientText} of safe integers for a shift of 0 or less (`low` = -shift, at most
 * 15, no more than `places`): the quotient `n / d` to `places - low` decimals, its last
 * `low` integer digits moved into the fraction. The digits stay numbers until the text is
 * written (rounding carries through them, trailing zeros go). `undefined` when the
 * divisor is too large for a chunk of one digit.
 */
function pointQuotient(n: number, d: number, low: number, places: number): string | undefined {
  const decimals = places - low
  const chunk = chunkFor(d)
  if (chunk === 0 && decimals > 0) return undefined
  const negative = n < 0
  let rest = divide(negative ? 0 - n : n, d)
  let whole = quotient
  let count = 0
  for (let left = decimals; left > 0; left -= chunk) {
    const width = left < chunk ? left : chunk
    rest = divide(rest * (POW10[width] as number), d)
    parts[count] = quotient
    widths[count] = width
    count += 1
  }
  // Half to even: the parity of the last digit is that of the last chunk (or of the
  // integer quotient), which `& 1` reads (modulo 2^32 keeps the parity).
  const twice = rest * 2
  const last = count > 0 ? (parts[count - 1] as number) : whole
  if (twice > d || (twice === d && (last & 1) === 1)) {
    let at = count - 1
    while (at >= 0) {
      const next = (parts[at] as number) + 1
      if (next < (POW10[widths[at] as number] as number)) {
        parts[at] = next
        break
      }
      parts[at] = 0
      at -= 1
    }
    if (at < 0) whole += 1
  }
  // The integer part, and its last `low` digits as the first chunk of the fraction.
  let int = whole
  let lowDigits = 0
  if (low > 0) {
    lowDigits = divide(whole, POW10[low] as number)
    int = quotient
  }
  // The fraction without its trailing zeros: up to its last chunk that is not 0, that
  // chunk's own trailing zeros cut.
  let end = count
  while (end > 0 && parts[end - 1] === 0) end -= 1
  let fraction = ''
  if (end > 0 || lowDigits !== 0) {
    let lastValue = end > 0 ? (parts[end - 1] as number) : lowDigits
    let lastWidth = end > 0 ? (widths[end - 1] as number) : low
    while (lastValue === Math.floor(lastValue / 10) * 10) {
      lastValue /= 10
      lastWidth -= 1
    }
    if (end > 0) {
      if (low > 0) fraction = padded(lowDigits, low)
      for (let i = 0; i < end - 1; i += 1)
        fraction += padded(parts[i] as number, widths[i] as number)
    }
    fraction += padded(lastValue, lastWidth)
  }
  const body = fraction === '' ? String(int) : `${int}.${fraction}`
  return negative && (int !== 0 || fraction !== '') ? `-${body}` : body
}

/** `value` written in `width` digits, zeros before it. */
function padded(value: number, width: number): string {
  const text = String(value)
  return text.length === width ? text : text.padStart(width, '0')
}

/**
 * {@link quotientText} of safe integers for any shift: the digits of the rounded units as
 * text, then the point placed. `undefined` when a divisor is too large for numbers.
 */
function digitQuotient(n: number, d: number, shift: number, places: number): string | undefined {
  // units of 10^-places: round(n × 10^exponent / d), a negative exponent folded into d.
  let exponent = shift + places
  let divisor = d
  if (exponent < 0) {
    if (-exponent >= POW10.length) return undefined
    divisor = d * (POW10[-exponent] as number)
    exponent = 0
  }
  const chunk = chunkFor(divisor)
  if (divisor > MAX || (chunk === 0 && exponent > 0)) return undefined
  const negative = n < 0
  let rest = divide(negative ? 0 - n : n, divisor)
  let digits = String(quotient)
  for (let left = exponent; left > 0; left -= chunk) {
    const width = left < chunk ? left : chunk
    rest = divide(rest * (POW10[width] as number), divisor)
    digits += padded(quotient, width)
  }
  const twice = rest * 2
  if (twice > divisor || (twice === divisor && (digits.charCodeAt(digits.length - 1) & 1) === 1)) {
    digits = incremented(digits)
  }
  return placePoint(negative, digits, places)
}

/** {@link quotientText} in bigints: `divideDecimal`'s own steps. */
function bigQuotientText(n: bigint, d: bigint, exponent: number, places: number): string {
  const negative = n < 0n
  const numerator = (negative ? -n : n) * pow10Big(exponent > 0 ? exponent : 0)
  const denominator = d * pow10Big(exponent < 0 ? -exponent : 0)
  let quotient = numerator / denominator
  const twice = (numerator % denominator) * 2n
  if (twice > denominator || (twice === denominator && (quotient & 1n) === 1n)) quotient += 1n
  return placePoint(negative, quotient.toString(), places)
}
