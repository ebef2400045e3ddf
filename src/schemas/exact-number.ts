/**
 * When number text and the double it becomes say the same number. One rule for the exact
 * JSON parse (src/rest/parse-json-exact.ts), which hands on as text any number a double
 * would change, and for the schemas of number fields, which refuse such text instead of
 * rounding it.
 *
 * @packageDocumentation
 */

/**
 * Number text: an optional `-`, digits with an optional point (a digit on at least one
 * side of it), an optional exponent. Covers JSON numbers, the numeric text of
 * `finiteNumber` and what `String(n)` writes for a finite double.
 */
const NUMBER_TEXT = /^-?(?=\.?\d)(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?$/

/**
 * A nonzero number as its significant digits (no leading or trailing zeros) and the
 * place of the point counted from the first of them (`0.0012` is `12` with the point at
 * -2; `1200` is `12` with the point at 4). Zero is `undefined`. Linear in the text, and no
 * digit string is ever built from the exponent, however large it is.
 */
function significant(text: string): { digits: string; point: number } | undefined {
  const match = NUMBER_TEXT.exec(text)
  if (match === null) return undefined
  const [, whole = '', fraction = '', exponent = '0'] = match
  const all = whole + fraction
  let first = 0
  while (first < all.length && all.charCodeAt(first) === 48) first += 1
  if (first === all.length) return undefined
  let end = all.length
  while (all.charCodeAt(end - 1) === 48) end -= 1
  // An exponent past 2^53 is no place a double can have: it compares unequal below.
  return { digits: all.slice(first, end), point: whole.length - first + Number(exponent) }
}

/**
 * Whether number `text` is exactly `Number(text)` as JavaScript writes that double (its
 * shortest round-trip decimal), up to how it is written: leading and trailing zeros, an
 * exponent, and the sign of a zero. `"0.003"`, `"3e-3"` and `"0.0030"` are exact (the
 * double prints as `0.003`); `"9007199254740993"` (the double is 9007199254740992) and
 * `"0.10000000000000000001"` (the double prints as `0.1`) are not, nor is any text whose
 * value overflows to an infinity or underflows to zero. So is `"18446744073709551616"`,
 * though 2^64 is a double: JavaScript writes it `18446744073709552000`, and text that
 * would print differently from what was sent is refused rather than reinterpreted.
 *
 * @example
 * ```ts
 * isExactNumberText('1e-4')                   // true
 * isExactNumberText('9007199254740993')       // false
 * isExactNumberText('0.10000000000000000001') // false
 * ```
 */
export function isExactNumberText(text: string): boolean {
  if (!NUMBER_TEXT.test(text)) return false
  const value = Number(text)
  if (!Number.isFinite(value)) return false
  const sent = significant(text)
  // Zero is exact when every digit is zero (`0e-99999999` is 0 too, and exact).
  if (value === 0) return sent === undefined
  const held = significant(String(value))
  return (
    sent !== undefined &&
    held !== undefined &&
    sent.digits === held.digits &&
    sent.point === held.point
  )
}
