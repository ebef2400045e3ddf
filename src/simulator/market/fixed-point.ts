/**
 * Exact fixed-point arithmetic on BigInt. An amount with `decimals` decimals is held as
 * the integer `value * 10^decimals`; text is produced only at the edge.
 *
 * @packageDocumentation
 */

const POWERS: bigint[] = []

/** 10^n as a BigInt (n >= 0). */
export function pow10(n: number): bigint {
  if (n < 0 || !Number.isInteger(n)) throw new RangeError(`bad exponent ${n}`)
  let power = POWERS[n]
  if (power === undefined) {
    power = 10n ** BigInt(n)
    POWERS[n] = power
  }
  return power
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/

/**
 * Parses decimal text into units of 10^-decimals. Throws a `RangeError` when the text is
 * not a plain decimal or has more fraction digits than `decimals` (other than zeros).
 *
 * @example
 * ```ts
 * parseFixed('1.045', 4) // 10450n
 * ```
 */
export function parseFixed(text: string, decimals: number): bigint {
  const match = DECIMAL.exec(text)
  if (match === null) throw new RangeError(`not a decimal number: ${JSON.stringify(text)}`)
  const fraction = (match[3] ?? '').replace(/0+$/, '')
  if (fraction.length > decimals) {
    throw new RangeError(`${text} has more than ${decimals} decimals`)
  }
  const units = BigInt((match[2] ?? '0') + fraction.padEnd(decimals, '0'))
  return match[1] === '-' ? -units : units
}

/**
 * Formats units of 10^-decimals with exactly `decimals` fraction digits.
 *
 * @example
 * ```ts
 * formatFixed(10450n, 4) // '1.0450'
 * formatFixed(5n, 0)     // '5'
 * ```
 */
export function formatFixed(units: bigint, decimals: number): string {
  const negative = units < 0n
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0')
  const sign = negative ? '-' : ''
  if (decimals === 0) return sign + digits
  const cut = digits.length - decimals
  return `${sign}${digits.slice(0, cut)}.${digits.slice(cut)}`
}

/** Floor of `a / b` for b > 0. */
export function divFloor(a: bigint, b: bigint): bigint {
  const q = a / b
  return a % b !== 0n && a < 0n ? q - 1n : q
}

/** Ceiling of `a / b` for b > 0. */
export function divCeil(a: bigint, b: bigint): bigint {
  const q = a / b
  return a % b !== 0n && a > 0n ? q + 1n : q
}

/** Converts units of 10^-from into units of 10^-to (to >= from, exact). */
export function scaleUp(units: bigint, from: number, to: number): bigint {
  return units * pow10(to - from)
}

/** Integer square root: the largest r with r*r <= n (n >= 0). */
export function isqrt(n: bigint): bigint {
  if (n < 0n) throw new RangeError('square root of a negative number')
  if (n < 2n) return n
  // Newton's method from a start at or above the root decreases monotonically to it.
  const estimate = Math.sqrt(Number(n))
  let x = Number.isFinite(estimate)
    ? BigInt(Math.ceil(estimate * (1 + 2 ** -40))) + 1n
    : 1n << BigInt(Math.ceil(n.toString(2).length / 2))
  for (;;) {
    const y = (x + n / x) >> 1n
    if (y >= x) return x
    x = y
  }
}

/** Smallest r with r*r >= n (n >= 0). */
export function isqrtCeil(n: bigint): bigint {
  const r = isqrt(n)
  return r * r === n ? r : r + 1n
}

/** The smaller of two BigInts. */
export function minBig(a: bigint, b: bigint): bigint {
  return a < b ? a : b
}

/** The larger of two BigInts. */
export function maxBig(a: bigint, b: bigint): bigint {
  return a > b ? a : b
}
