/**
 * The documented argument rules (docs/streams.md) of the `watch...` methods, written independently of the
 * code under test: which arguments of a call are wrong. A call with no wrong argument must
 * return an Observable; a call with any must throw `VenueInputError` naming one of them.
 */
import { WATCH_ARITY, type WatchMethodName } from './calls.js'
import { compareExact, isPlainDecimal, numberText } from './decimal-text.js'

const MAX_UINT64 = 2n ** 64n - 1n

function isPoolId(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
}

function isIntegerIn(value: unknown, min: number, max: number): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max
}

/** Non-empty, no control characters, no lone surrogates. */
function isText(value: unknown): value is string {
  if (typeof value !== 'string' || value === '') return false
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i)
    if (code <= 0x1f || code === 0x7f) return false
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(i + 1)
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false
      i += 1
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      return false
    }
  }
  return true
}

function isPoolRef(value: unknown): boolean {
  if (typeof value === 'number') return isPoolId(value)
  return isText(value) && value !== '.' && value !== '..'
}

/** A precision: a decimal from 0.00000001 to 10000, as exact text or a finite number. */
function isPrecision(value: unknown): boolean {
  let text: string | undefined
  if (typeof value === 'string' && isPlainDecimal(value)) text = value
  if (typeof value === 'number' && Number.isFinite(value)) text = numberText(value)
  return (
    text !== undefined && compareExact(text, '0.00000001') >= 0 && compareExact(text, '10000') <= 0
  )
}

/**
 * An id of the venue, as every feed cursor and `orderId` take it: digits (leading zeros
 * allowed) of at most 2^64 - 1, or a non-negative safe integer.
 */
function isId(value: unknown): boolean {
  if (typeof value === 'number') return isPoolId(value)
  return typeof value === 'string' && /^\d+$/.test(value) && BigInt(value) <= MAX_UINT64
}

/** A fill cursor: an id, or an id's digits followed by `/1`. */
function isFillCursor(value: unknown): boolean {
  if (typeof value === 'string' && value.endsWith('/1')) return isId(value.slice(0, -2))
  return isId(value)
}

function isCheckpoint(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false
  const store = value as { load?: unknown; save?: unknown }
  return typeof store.load === 'function' && typeof store.save === 'function'
}

/** A composite order id or its parts, as `rest.order` takes them. */
function isOrderRef(value: unknown): boolean {
  if (typeof value === 'string') {
    const match = /^(0|[1-9]\d*)-(0|[1-9]\d{0,19})-([01])$/.exec(value)
    return match !== null && isPoolId(Number(match[1])) && BigInt(match[2] ?? '') <= MAX_UINT64
  }
  if (typeof value !== 'object' || value === null || 'clientId' in value) {
    return isClientIdRef(value) && isClientId((value as { clientId: unknown }).clientId)
  }
  const parts = value as Record<string, unknown>
  return (
    Object.keys(parts).every((name) => ['poolId', 'orderId', 'side'].includes(name)) &&
    isPoolId(parts['poolId']) &&
    isId(parts['orderId']) &&
    (parts['side'] === 0 || parts['side'] === 1)
  )
}

/** `{ clientId }` and nothing else, whatever the client id. */
function isClientIdRef(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || !('clientId' in value)) return false
  return Object.keys(value).length === 1
}

/**
 * A client id the venue's path segment can carry: a non-empty string without control
 * characters or a lone surrogate half, and not `.` or `..` (URL normalisation).
 */
function isClientId(value: unknown): boolean {
  return (
    typeof value === 'string' &&
    value !== '' &&
    value !== '.' &&
    value !== '..' &&
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the rule is about them
    !/[\u0000-\u001f\u007f]/.test(value) &&
    !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value)
  )
}

/** A whole number of ms, 0 or more. */
const isWholeMs = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0

type OptionRules = Readonly<Record<string, (value: unknown) => boolean>>

const DEPTH_OPTIONS: OptionRules = {
  limit: (v) => isIntegerIn(v, 1, 5000),
  precision: isPrecision,
  source: (v) => v === 'v1' || v === 'v2',
}

const FEED_OPTIONS: OptionRules = {
  checkpoint: isCheckpoint,
  onProgress: (v) => typeof v === 'function',
  order: (v) => v === 'on-sight' || v === 'ascending',
}

/** Problems of an options object: `options` itself, unknown names, wrong values. */
function optionProblems(value: unknown, rules: OptionRules, problems: Set<string>): void {
  if (value === undefined) return
  // A plain object only (`{ ... }` or no prototype): an object of a class (a RegExp, a
  // Date) brings names of its prototype that its own keys do not show.
  const prototype: unknown =
    typeof value === 'object' && value !== null ? Object.getPrototypeOf(value) : undefined
  if (
    prototype === undefined ||
    (prototype !== null && Object.getPrototypeOf(prototype) !== null)
  ) {
    problems.add('options')
    return
  }
  const given = value as Record<string, unknown>
  for (const name of Object.keys(given)) {
    const rule = Object.hasOwn(rules, name) ? rules[name] : undefined
    if (rule === undefined) problems.add(name)
    else if (given[name] !== undefined && !rule(given[name])) problems.add(name)
  }
}

/**
 * The names of the wrong arguments of `venue[method](...args)`: `arguments` for extra
 * arguments, `poolId` / `idOrSymbol` for the positional pool, `options` for an options
 * value that is no object, and each unknown or wrong option by its name.
 */
export function watchInputProblems(
  method: WatchMethodName,
  args: readonly unknown[],
): ReadonlySet<string> {
  const problems = new Set<string>()
  if (args.slice(WATCH_ARITY[method]).some((arg) => arg !== undefined)) problems.add('arguments')
  const [first, second] = args
  switch (method) {
    case 'watchPool':
      if (!isPoolRef(first)) problems.add('idOrSymbol')
      break
    case 'watchDepth':
    case 'watchOrderBook':
      if (!isPoolId(first)) problems.add('poolId')
      optionProblems(second, DEPTH_OPTIONS, problems)
      break
    case 'watchTrades':
      if (!isPoolId(first)) problems.add('poolId')
      optionProblems(second, { source: DEPTH_OPTIONS['source'] as () => boolean }, problems)
      break
    case 'watchMyTrades':
      optionProblems(first, { ...FEED_OPTIONS, poolId: isPoolId, cursor: isId }, problems)
      break
    case 'watchTransfers':
      optionProblems(first, { ...FEED_OPTIONS, cursor: isId }, problems)
      break
    case 'watchFills':
      optionProblems(first, { ...FEED_OPTIONS, poolId: isPoolId, cursor: isFillCursor }, problems)
      break
    case 'watchOrder':
      if (!isOrderRef(first)) problems.add(isClientIdRef(first) ? 'clientId' : 'ref')
      optionProblems(
        second,
        {
          visibleWithinMs: isWholeMs,
          fillGraceMs: isWholeMs,
          // With a client id only.
          placedAfter: (v) => isWholeMs(v) && isClientIdRef(first),
        },
        problems,
      )
      break
    case 'watchKlines': {
      if (!isPoolId(first)) problems.add('poolId')
      const intervals = ['1m', '5m', '15m', '30m', '1h', '4h', '1d', '1w', '1M']
      if (!intervals.includes(second as string)) problems.add('interval')
      optionProblems(
        args[2],
        {
          source: DEPTH_OPTIONS['source'] as () => boolean,
          since: (v) =>
            typeof v === 'number' &&
            Number.isSafeInteger(v) &&
            (v === 0 || (v >= 1e11 && v < 1e14)),
        },
        problems,
      )
      break
    }
    case 'watchBalances':
      optionProblems(first, { includeValuation: (v) => typeof v === 'boolean' }, problems)
      break
    default:
      break
  }
  return problems
}
