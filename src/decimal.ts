/**
 * Exact comparison and arithmetic of decimal strings, with no float rounding:
 * `"1.10"` equals `"1.1"`. Shared by input checks, the order book and the signals.
 */

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/

/**
 * True when `text` is a plain decimal number: digits, an optional fraction, an optional `-`.
 *
 * @example
 * ```ts
 * isDecimal('1.0450') // true
 * isDecimal('-3')     // true
 * isDecimal('1e-7')   // false
 * isDecimal('.5')     // false
 * ```
 */
export function isDecimal(text: string): boolean {
  // One pass over the char codes: several times cheaper than DECIMAL on the short text of
  // a price, and the schemas' fast paths call it for every level of a book.
  const n = text.length
  let i = 0
  let code = text.charCodeAt(0)
  if (code === 45 /* - */) {
    i = 1
    code = text.charCodeAt(1)
  }
  // A digit first (past the end, `code` is NaN: no digit).
  if (!isDigit(code)) return false
  let point = -1
  for (i += 1; i < n; i += 1) {
    code = text.charCodeAt(i)
    if (isDigit(code)) continue
    if (code !== 46 /* . */ || point !== -1) return false
    point = i
  }
  // A point must have digits after it.
  return point !== n - 1
}

/** Whether a char code is an ASCII digit. */
export function isDigit(code: number): boolean {
  return code >= 48 && code <= 57
}

/**
 * Compares two decimal strings exactly: negative when `a < b`, 0 when equal, positive
 * when `a > b`. Throws a `TypeError` when either is not a plain decimal.
 *
 * @example
 * ```ts
 * compareDecimal('1.10', '1.1')   // 0
 * compareDecimal('0.9', '10')     // -1
 * ```
 */
export function compareDecimal(a: string, b: string): number {
  if (!isDecimal(a) || !isDecimal(b)) {
    throw new TypeError(`not a decimal number: ${JSON.stringify(isDecimal(a) ? b : a)}`)
  }
  return compareValidDecimals(a, b)
}

/**
 * {@link compareDecimal} for text already known to be plain decimals (validated by a
 * schema): no validation on the fast path, for the order book's hot loops.
 */
export function compareValidDecimals(a: string, b: string): number {
  if (a === b) return 0
  // The common case of one venue precision: two non-negative decimals with as many
  // integer digits and as many fraction digits order like their text.
  if (
    a.length === b.length &&
    a.charCodeAt(0) !== 45 &&
    b.charCodeAt(0) !== 45 &&
    a.indexOf('.') === b.indexOf('.')
  ) {
    return a < b ? -1 : 1
  }
  if (a.charCodeAt(0) !== 45 && b.charCodeAt(0) !== 45) return compareUnsigned(a, b)
  const x = split(a)
  const y = split(b)
  if (x.negative !== y.negative) return x.negative ? -1 : 1
  const magnitude = compareMagnitude(x, y)
  // `0 - m`, not `-m`: equal negatives compare as 0, not -0.
  return x.negative ? 0 - magnitude : magnitude
}

/**
 * Two valid non-negative decimals compared digit by digit, without splitting them into
 * new strings: leading zeros skipped, integer parts by length then digits, fractions as if
 * padded with zeros.
 */
function compareUnsigned(a: string, b: string): number {
  let i = 0
  let j = 0
  // Leading zeros of the integer part (keep its last digit).
  while (a.charCodeAt(i) === 48 && isDigitAt(a, i + 1)) i += 1
  while (b.charCodeAt(j) === 48 && isDigitAt(b, j + 1)) j += 1
  const aPoint = pointAt(a)
  const bPoint = pointAt(b)
  const aInt = aPoint - i
  const bInt = bPoint - j
  if (aInt !== bInt) return aInt < bInt ? -1 : 1
  for (; i < aPoint; i += 1, j += 1) {
    const d = a.charCodeAt(i) - b.charCodeAt(j)
    if (d !== 0) return d < 0 ? -1 : 1
  }
  // The fractions, a missing digit read as 0.
  const aEnd = a.length
  const bEnd = b.length
  for (i = aPoint + 1, j = bPoint + 1; i < aEnd || j < bEnd; i += 1, j += 1) {
    const x = i < aEnd ? a.charCodeAt(i) : 48
    const y = j < bEnd ? b.charCodeAt(j) : 48
    if (x !== y) return x < y ? -1 : 1
  }
  return 0
}

/** Index of the point of a valid decimal, or its length when it has none. */
function pointAt(text: string): number {
  const point = text.indexOf('.')
  return point === -1 ? text.length : point
}

function isDigitAt(text: string, index: number): boolean {
  return isDigit(text.charCodeAt(index))
}

interface Parts {
  readonly negative: boolean
  readonly int: string
  readonly frac: string
}

function split(text: string): Parts {
  const match = DECIMAL.exec(text)
  if (match === null) throw new TypeError(`not a decimal number: ${JSON.stringify(text)}`)
  const int = (match[2] ?? '').replace(/^0+(?=\d)/, '')
  const frac = withoutTrailingZeros(match[3] ?? '')
  // "-0" and "-0.000" are zero, and zero has no sign.
  const negative = match[1] === '-' && (int !== '0' || frac !== '')
  return { negative, int, frac }
}

/**
 * `text` without its trailing `0`s. A loop, not `/0+$/`: that expression retries at every
 * zero of a long run that does not end the text, quadratic in a 60,000-digit fraction.
 */
function withoutTrailingZeros(text: string): string {
  const end = trailingZerosAt(text)
  return end === text.length ? text : text.slice(0, end)
}

/**
 * Where the run of `0`s that ends `text` starts (`text.length` when it ends in another
 * character): `trailingZerosAt('1.2300')` is 4.
 */
export function trailingZerosAt(text: string): number {
  let end = text.length
  while (end > 0 && text.charCodeAt(end - 1) === 48) end -= 1
  return end
}

function compareMagnitude(x: Parts, y: Parts): number {
  if (x.int.length !== y.int.length) return x.int.length < y.int.length ? -1 : 1
  if (x.int !== y.int) return x.int < y.int ? -1 : 1
  const width = Math.max(x.frac.length, y.frac.length)
  const xf = x.frac.padEnd(width, '0')
  const yf = y.frac.padEnd(width, '0')
  if (xf === yf) return 0
  return xf < yf ? -1 : 1
}

/** A decimal as an integer number of units of 10^-scale. */
interface Scaled {
  readonly units: bigint
  readonly scale: number
}

function scaled(text: string): Scaled {
  const { negative, int, frac } = split(text)
  const units = BigInt(int + frac)
  return { units: negative ? -units : units, scale: frac.length }
}

function rescale(value: Scaled, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale)
}

/** Writes units at a scale as the shortest decimal text: no trailing zeros, `"0"` for zero. */
function format(units: bigint, scale: number): string {
  const negative = units < 0n
  let digits = (negative ? -units : units).toString()
  if (scale > 0) {
    digits = digits.padStart(scale + 1, '0')
    const int = digits.slice(0, -scale)
    const frac = withoutTrailingZeros(digits.slice(-scale))
    digits = frac === '' ? int : `${int}.${frac}`
  }
  return negative && digits !== '0' ? `-${digits}` : digits
}

/**
 * `a + b`, exactly.
 *
 * @example
 * ```ts
 * addDecimal('0.1', '0.2') // '0.3'
 * ```
 */
export function addDecimal(a: string, b: string): string {
  const x = scaled(a)
  const y = scaled(b)
  const scale = Math.max(x.scale, y.scale)
  return format(rescale(x, scale) + rescale(y, scale), scale)
}

/**
 * `a - b`, exactly.
 *
 * @example
 * ```ts
 * subtractDecimal('1.046', '1.0452') // '0.0008'
 * ```
 */
export function subtractDecimal(a: string, b: string): string {
  const x = scaled(a)
  const y = scaled(b)
  const scale = Math.max(x.scale, y.scale)
  return format(rescale(x, scale) - rescale(y, scale), scale)
}

/**
 * `a × b`, exactly.
 *
 * @example
 * ```ts
 * multiplyDecimal('1.5', '0.25') // '0.375'
 * ```
 */
export function multiplyDecimal(a: string, b: string): string {
  const x = scaled(a)
  const y = scaled(b)
  return format(x.units * y.units, x.scale + y.scale)
}

/**
 * `a / b` to `places` decimals, rounded half to even; exact whenever the quotient has at
 * most `places` decimals. Throws `RangeError` for a zero divisor.
 *
 * @example
 * ```ts
 * divideDecimal('10', '4', 18) // '2.5'
 * divideDecimal('1', '3', 4) // '0.3333'
 * ```
 */
export function divideDecimal(a: string, b: string, places: number): string {
  const x = scaled(a)
  const y = scaled(b)
  if (y.units === 0n) throw new RangeError('divideDecimal: division by zero')
  // units of 10^-places: a × 10^places / b, with the scales folded in.
  const numerator = x.units * 10n ** BigInt(places + y.scale)
  const denominator = y.units * 10n ** BigInt(x.scale)
  const negative = numerator < 0n !== denominator < 0n
  const n = numerator < 0n ? -numerator : numerator
  const d = denominator < 0n ? -denominator : denominator
  let quotient = n / d
  const twice = (n % d) * 2n
  if (twice > d || (twice === d && quotient % 2n === 1n)) quotient += 1n
  return format(negative ? -quotient : quotient, places)
}

/**
 * `a / 2`, exactly (one more decimal at most).
 *
 * @example
 * ```ts
 * halfDecimal('2.001') // '1.0005'
 * ```
 */
export function halfDecimal(a: string): string {
  const x = scaled(a)
  return format(x.units * 5n, x.scale + 1)
}

/**
 * The shortest text of a decimal: `"1.10"` → `"1.1"`, `"-0.0"` → `"0"`, `"007"` → `"7"`.
 * Two decimals are equal exactly when their normal forms are the same text.
 *
 * @example
 * ```ts
 * normalizeDecimal('1.10') // '1.1'
 * normalizeDecimal('-0.0') // '0'
 * normalizeDecimal('007')  // '7'
 * normalizeDecimal('1.10') === normalizeDecimal('1.1') // true
 * ```
 */
export function normalizeDecimal(a: string): string {
  // Text only, no BigInt: linear in the length, however many digits a venue sends.
  const { negative, int, frac } = split(a)
  const body = frac === '' ? int : `${int}.${frac}`
  return negative ? `-${body}` : body
}

/**
 * True when the decimal is zero (`"0"`, `"0.000"`, `"-0"`).
 *
 * @example
 * ```ts
 * isZeroDecimal('0.000') // true
 * isZeroDecimal('-0')    // true
 * isZeroDecimal('0.001') // false
 * ```
 */
export function isZeroDecimal(a: string): boolean {
  return /^-?0+(?:\.0+)?$/.test(a)
}

/**
 * Compares two canonical digit strings (no sign, no leading zeros) as integers, exactly at
 * any size: ids and sequence numbers of the venue pass 2^53.
 *
 * @example
 * ```ts
 * compareIds('9007199254740993', '9007199254740992') // > 0
 * compareIds('10', '9') // > 0
 * ```
 */
export function compareIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * The largest id or sequence number of the venue, 2^64 - 1: its ids are unsigned 64-bit
 * integers. One bound for what a caller may pass and what an answer may hold.
 *
 * @example
 * ```ts
 * BigInt(MAX_ID) === 2n ** 64n - 1n // true
 * ```
 */
export const MAX_ID = '18446744073709551615'

/**
 * Whether canonical digits (no sign, no leading zeros, as {@link compareIds} takes them)
 * are an id the venue can hold: at most {@link MAX_ID}. By length, then by text: no
 * BigInt, as the schemas' fast paths call it for every id of a page.
 *
 * @example
 * ```ts
 * withinMaxId('18446744073709551615') // true
 * withinMaxId('18446744073709551616') // false
 * withinMaxId('99999999999999999999') // false
 * ```
 */
export function withinMaxId(digits: string): boolean {
  return digits.length < MAX_ID.length || (digits.length === MAX_ID.length && digits <= MAX_ID)
}

/**
 * The canonical digits of an id of the venue given as digit text (leading zeros are
 * dropped: `'007'` is id 7) or as a non-negative safe-integer number; `undefined` for
 * anything else, an id above {@link MAX_ID} included. The one rule of every id and cursor a
 * caller passes (`rest.trades({ afterSeq })`, the feeds' `cursor`, their checkpoints).
 *
 * @example
 * ```ts
 * canonicalId('007')                  // '7'
 * canonicalId(1058)                   // '1058'
 * canonicalId('18446744073709551616') // undefined (2^64)
 * canonicalId(-1)                     // undefined
 * canonicalId('1.5')                  // undefined
 * ```
 */
export function canonicalId(value: unknown): string | undefined {
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined
  }
  if (typeof value !== 'string' || !/^\d+$/.test(value)) return undefined
  const digits = value.replace(/^0+(?=\d)/, '')
  return withinMaxId(digits) ? digits : undefined
}

/** Output of `String(n)` when JavaScript chooses exponent notation. */
const EXPONENT_FORM = /^(-?)(\d+)(?:\.(\d+))?e([-+]\d+)$/

/**
 * Writes a finite number as a plain decimal string, never in exponent notation.
 *
 * The digits are those of JavaScript's shortest round-trip representation, so
 * `numberToDecimalString(0.1)` is `"0.1"`, `numberToDecimalString(1e-7)` is
 * `"0.0000001"` and `numberToDecimalString(1.5e21)` is `"1500000000000000000000"`.
 * Negative zero is written `"0"`.
 *
 * @param n - A finite number.
 * @returns The decimal text of `n`.
 * @throws RangeError when `n` is NaN or infinite.
 */
export function numberToDecimalString(n: number): string {
  if (!Number.isFinite(n)) {
    throw new RangeError(`Cannot write ${String(n)} as a decimal string`)
  }
  const text = String(n)
  const match = EXPONENT_FORM.exec(text)
  if (match === null) return text
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = match
  const digits = whole + fraction
  // Position of the decimal point within `digits` once the exponent is applied.
  const point = whole.length + Number(exponentText)
  let body: string
  if (point <= 0) {
    body = `0.${'0'.repeat(-point)}${digits}`
  } else if (point >= digits.length) {
    body = digits + '0'.repeat(point - digits.length)
  } else {
    body = `${digits.slice(0, point)}.${digits.slice(point)}`
  }
  return sign + body
}
