import { isExactNumberText } from '../schemas/exact-number.js'

/**
 * Whether `text` may hold a JSON number a JavaScript number cannot hold exactly: such a
 * number has more than 15 significant digits or an exponent (overflow, underflow), so it
 * shows a run of 16 digits and dots, or a digit followed by `e`, outside a string. Text
 * inside strings (prices, hex transaction ids) is skipped, so almost every answer goes
 * straight to `JSON.parse`. One pass over the char codes: a regular expression for the
 * same test costs two to four times as much on digit-heavy bodies such as a book.
 */
export function mayHoldInexactNumber(text: string): boolean {
  let run = 0
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i)
    if (c === 34 /* " */) {
      // Skip the string, escapes included; an unterminated one is JSON.parse's to refuse.
      i = closingQuote(text, i)
      run = 0
    } else if ((c >= 48 && c <= 57) || c === 46) {
      run += 1
      if (run >= 16) return true
    } else {
      if ((c === 101 || c === 69) && run > 0) return true
      run = 0
    }
  }
  return false
}

/**
 * Index of the quote that closes the string opened at `open` (a quote preceded by an even
 * number of backslashes), or the end of the text. `indexOf` jumps over the string's
 * content natively, which is most of an answer's bytes.
 */
function closingQuote(text: string, open: number): number {
  for (let at = text.indexOf('"', open + 1); at !== -1; at = text.indexOf('"', at + 1)) {
    let backslashes = 0
    while (text.charCodeAt(at - 1 - backslashes) === 92) backslashes += 1
    if (backslashes % 2 === 0) return at
  }
  return text.length
}

/** A string (skipped whole, so digits inside it are never taken for a number) or a number. */
const TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/g

/**
 * `JSON.parse` that never changes a number's value: a number whose double differs from
 * the digits sent (`9007199254740993`, `0.10000000000000000001`, `1e400`), and any integer
 * beyond 2^53, is handed on as its exact text in a string, so a decimal or id field keeps every digit, and a field
 * that needs a JavaScript number refuses it (a schema error) instead of rounding it.
 * Throws `SyntaxError` like `JSON.parse`.
 *
 * @example
 * ```ts
 * parseJsonExact('{"price":9007199254740993,"qty":1.5}')
 * // { price: '9007199254740993', qty: 1.5 }
 * ```
 */
export function parseJsonExact(text: string): unknown {
  if (!mayHoldInexactNumber(text)) return JSON.parse(text)
  let out = ''
  let from = 0
  TOKEN.lastIndex = 0
  for (let match = TOKEN.exec(text); match !== null; match = TOKEN.exec(text)) {
    const token = match[0]
    if (token.charCodeAt(0) === 34 /* " */ || isExact(token)) continue
    out += `${text.slice(from, match.index)}"${token}"`
    from = match.index + token.length
  }
  return JSON.parse(from === 0 ? text : out + text.slice(from))
}

/**
 * Whether `Number(token)` has exactly the value the digits of `token` say, and, for an
 * integer written as digits, lies within the safe range (beyond it, a number next to it
 * would read the same, so integer fields take such ids as digit strings).
 */
function isExact(token: string): boolean {
  if (/^-?\d+$/.test(token)) return Number.isSafeInteger(Number(token))
  // The rule the schemas of number fields apply to text, so that a number kept as a
  // number here is one they would have taken as text too.
  return isExactNumberText(token)
}

/** A JSON number token written without an exponent, digits kept exactly. */
export function plainDecimal(token: string): string {
  const e = token.search(/[eE]/)
  if (e < 0) return token
  const negative = token.startsWith('-')
  const mantissa = token.slice(negative ? 1 : 0, e)
  const exponent = Number(token.slice(e + 1))
  const point = mantissa.indexOf('.')
  const digits = point < 0 ? mantissa : mantissa.slice(0, point) + mantissa.slice(point + 1)
  const position = (point < 0 ? mantissa.length : point) + exponent
  let body: string
  if (position <= 0) body = `0.${'0'.repeat(-position)}${digits}`
  else if (position >= digits.length) body = digits + '0'.repeat(position - digits.length)
  else body = `${digits.slice(0, position)}.${digits.slice(position)}`
  return (negative ? '-' : '') + body
}
