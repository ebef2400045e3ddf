/**
 * Exact decimal text helpers for test assertions, written independently of the code
 * under test: decimal text <-> BigInt units at a given number of decimals.
 */

/** Digits after the point. */
export function decimalsOf(text: string): number {
  return text.split('.')[1]?.length ?? 0
}

/** `"1.25"` at 4 decimals → 12500n. */
export function units(text: string, decimals: number = decimalsOf(text)): bigint {
  const [int = '0', frac = ''] = text.replace('-', '').split('.')
  const value = BigInt(int + frac.padEnd(decimals, '0'))
  return text.startsWith('-') ? -value : value
}

/** 12500n at 4 decimals → `"1.2500"`. */
export function format(value: bigint, decimals: number): string {
  const negative = value < 0n
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0')
  const body = decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`
  return negative ? `-${body}` : body
}

/** Division rounded up, for positive operands. */
export function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b
}
