/**
 * Exact decimal text for the fuzz oracles, written independently of `src/decimal.ts`:
 * canonical forms of decimal and JSON number text, and exact comparison.
 */

const PLAIN = /^-?\d+(\.\d+)?$/
const JSON_NUMBER = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?$/

/** `^-?\d+(\.\d+)?$`: the decimal text the venue and the checks accept. */
export function isPlainDecimal(text: string): boolean {
  return PLAIN.test(text)
}

/**
 * The canonical text of the exact value of a decimal or JSON number token (exponent
 * allowed): no leading zeros, no trailing fraction zeros, no exponent, `0` for any zero.
 * `undefined` when `text` is no number at all.
 */
export function canonicalNumber(text: string): string | undefined {
  const match = JSON_NUMBER.exec(text)
  if (match === null) return undefined
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = match
  const exponent = Number(exponentText)
  let digits = whole + fraction
  // Position of the decimal point within `digits`.
  let point = whole.length + exponent
  const leading = digits.length - digits.replace(/^0+/, '').length
  digits = digits.slice(leading)
  point -= leading
  // A loop, not /0+$/: that regular expression is quadratic on long runs of inner zeros.
  let end = digits.length
  while (end > 0 && digits.charCodeAt(end - 1) === 48) end -= 1
  digits = digits.slice(0, end)
  if (digits === '') return '0'
  let body: string
  if (point <= 0) body = `0.${'0'.repeat(-point)}${digits}`
  else if (point >= digits.length) body = digits + '0'.repeat(point - digits.length)
  else body = `${digits.slice(0, point)}.${digits.slice(point)}`
  return sign + body
}

/** Exact comparison of two plain decimals (or JSON number tokens): -1, 0 or 1. */
export function compareExact(a: string, b: string): number {
  const x = canonicalNumber(a)
  const y = canonicalNumber(b)
  if (x === undefined || y === undefined) throw new Error(`not numbers: ${a} ${b}`)
  const negX = x.startsWith('-')
  const negY = y.startsWith('-')
  if (negX !== negY) return negX ? -1 : 1
  const magnitude = compareMagnitude(x.replace('-', ''), y.replace('-', ''))
  return negX ? -magnitude : magnitude
}

function compareMagnitude(a: string, b: string): number {
  const [aw = '', af = ''] = a.split('.')
  const [bw = '', bf = ''] = b.split('.')
  if (aw.length !== bw.length) return aw.length < bw.length ? -1 : 1
  if (aw !== bw) return aw < bw ? -1 : 1
  const width = Math.max(af.length, bf.length)
  const ap = af.padEnd(width, '0')
  const bp = bf.padEnd(width, '0')
  return ap === bp ? 0 : ap < bp ? -1 : 1
}

/** A finite double as plain decimal text (the digits of its shortest round-trip form). */
export function numberText(n: number): string {
  const canonical = canonicalNumber(String(n))
  if (canonical === undefined) throw new Error(`not a finite number: ${n}`)
  return canonical
}
