/**
 * Exact comparison of decimal strings, with no float rounding: `"1.10"` equals `"1.1"`.
 * Shared by input checks and, later, by the order book.
 */

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/

/** True when `text` is a plain decimal number: digits, an optional fraction, an optional `-`. */
export function isDecimal(text: string): boolean {
  return DECIMAL.test(text)
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
  const x = split(a)
  const y = split(b)
  if (x.negative !== y.negative) return x.negative ? -1 : 1
  const magnitude = compareMagnitude(x, y)
  return x.negative ? -magnitude : magnitude
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
  const frac = (match[3] ?? '').replace(/0+$/, '')
  // "-0" and "-0.000" are zero, and zero has no sign.
  const negative = match[1] === '-' && (int !== '0' || frac !== '')
  return { negative, int, frac }
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
