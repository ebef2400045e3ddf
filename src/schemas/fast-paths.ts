/**
 * Fast paths of the hottest schemas. Each takes the same input as its zod schema and
 * returns exactly what the schema's `parse` would return, or `undefined` when the input is
 * anything but the plain, common form: the caller then runs the schema, which accepts
 * the unusual valid forms and reports the invalid ones with their paths. A fast path never
 * accepts what its schema refuses (property-tested in test/schemas-fast-paths.test.ts).
 */
import type { Depth, Level } from './depth.js'
import type { Envelope } from './envelope.js'
import { timestampMillis } from './primitives.js'

/**
 * Whether `text` is a plain decimal as the schemas take it (`-?\d+(\.\d+)?`): one pass
 * over the char codes, several times cheaper than the regular expression on short text.
 */
export function isDecimalText(text: string): boolean {
  const n = text.length
  let i = n > 0 && text.charCodeAt(0) === 45 /* - */ ? 1 : 0
  const start = i
  while (i < n && isDigit(text.charCodeAt(i))) i += 1
  if (i === start) return false
  if (i === n) return true
  if (text.charCodeAt(i) !== 46 /* . */) return false
  i += 1
  const fraction = i
  while (i < n && isDigit(text.charCodeAt(i))) i += 1
  return i === n && i > fraction
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

/** `levels` when it is an array of `[price, quantity]` pairs of decimal strings, as parsed. */
function plainLevels(levels: unknown): Level[] | undefined {
  if (!Array.isArray(levels)) return undefined
  for (let k = 0; k < levels.length; k += 1) {
    const level: unknown = levels[k]
    if (!Array.isArray(level) || level.length !== 2) return undefined
    const price: unknown = level[0]
    const quantity: unknown = level[1]
    if (typeof price !== 'string' || typeof quantity !== 'string') return undefined
    if (!isDecimalText(price) || !isDecimalText(quantity)) return undefined
  }
  // The parsed arrays are fresh from JSON.parse and held by nobody else.
  return levels as Level[]
}

/** {@link depthSchema}'s output for a plain depth answer, else `undefined`. */
export function fastDepth(data: unknown): Depth | undefined {
  if (!isPlainObject(data)) return undefined
  const { pool_id: poolId, precision } = data
  if (typeof poolId !== 'number' || !Number.isSafeInteger(poolId) || poolId < 0) return undefined
  if (typeof precision !== 'string' || !isDecimalText(precision)) return undefined
  const asks = plainLevels(data['asks'])
  if (asks === undefined) return undefined
  const bids = plainLevels(data['bids'])
  if (bids === undefined) return undefined
  const timestamp = timestampMillis.safeParse(data['timestamp'])
  if (!timestamp.success) return undefined
  return { asks, bids, pool_id: poolId, precision, timestamp: timestamp.data }
}

/** {@link envelopeSchema}'s output for a plain envelope, else `undefined`. */
export function fastEnvelope(json: unknown): Envelope | undefined {
  if (!isPlainObject(json)) return undefined
  const { code, message, meta } = json
  if (typeof code !== 'number' || !Number.isSafeInteger(code)) return undefined
  if (typeof message !== 'string' || !Object.hasOwn(json, 'data')) return undefined
  if (meta !== undefined && (!isPlainObject(meta) || Object.hasOwn(meta, '__proto__'))) {
    return undefined
  }
  return { code, message, data: json['data'], meta: meta === undefined ? {} : { ...meta } }
}
