/**
 * Arbitraries of venue answers: valid payloads of every endpoint and their mutations
 * (dropped fields, wrong types, huge and inexact numbers as raw JSON text, nested nulls,
 * truncated text, HTML, empty bodies, error envelopes with any status and `Retry-After`,
 * huge arrays).
 */
import fc from 'fast-check'
import type { RestMethodName } from '../../src/index.js'
import * as fixtures from '../helpers/fixtures.js'
import type { Reply } from '../helpers/recording-server.js'

/** A step of a path into a JSON value; `'*'` in a pattern stands for every array index. */
export type PathStep = string | number
type Pattern = readonly (PathStep | '*')[]

/** The valid wire data each REST method gets (as in test/helpers/fixtures.ts). */
export const VALID_DATA: Readonly<Record<RestMethodName, unknown>> = {
  depth: fixtures.depth,
  klines: [fixtures.kline],
  latestTrades: [fixtures.publicTrade],
  accountInfo: fixtures.accountInfo,
  balances: [fixtures.balance],
  historyOrders: [fixtures.order],
  openOrders: [fixtures.openOrder],
  order: fixtures.orderWithTrades,
  orderByClientId: fixtures.order,
  trades: [fixtures.tradeDetail],
  transfers: [fixtures.transfer],
  ping: fixtures.ping,
  systemInfo: fixtures.systemInfo,
  pools: [fixtures.poolSummary],
  pool: fixtures.poolDetail,
  tokens: [fixtures.token],
  token: fixtures.token,
}

const ORDER_DECIMALS = [
  'order_price',
  'order_amount',
  'order_total',
  'avg_price',
  'executed_amount',
]
const TRADE_DECIMALS = ['base_quantity', 'quote_quantity', 'price', 'taker_fee', 'maker_fee']
const SUMMARY_DECIMALS = ['last_price', 'high', 'low', 'change', 'volume', 'turnover']
const CHAIN_DECIMALS = [
  'withdraw_fee',
  'ext_withdraw_fee',
  'min_deposit_amount',
  'min_withdraw_amount',
]
const KLINE_DECIMALS = ['open', 'high', 'low', 'close', 'volume', 'turnover']

const under = (head: Pattern, names: readonly string[]): Pattern[] =>
  names.map((name) => [...head, name])

/** Where each method's data holds exact decimals (kept as strings). */
export const DECIMAL_PATHS: Readonly<Record<RestMethodName, readonly Pattern[]>> = {
  depth: [['bids', '*', 0], ['bids', '*', 1], ['asks', '*', 0], ['asks', '*', 1], ['precision']],
  klines: under(['*'], KLINE_DECIMALS),
  latestTrades: under(['*'], ['price', 'quantity']),
  accountInfo: [],
  balances: [
    ...under(['*'], ['balance', 'locked', 'stablecoin_price']),
    ['*', 'locks', '*', 'balance'],
  ],
  historyOrders: under(['*'], [...ORDER_DECIMALS, 'filled_total']),
  openOrders: under(['*'], ORDER_DECIMALS),
  order: [
    ...under([], [...ORDER_DECIMALS, 'filled_total']),
    ...under(['trades', '*'], TRADE_DECIMALS),
  ],
  orderByClientId: under([], [...ORDER_DECIMALS, 'filled_total']),
  trades: under(['*'], TRADE_DECIMALS),
  transfers: [['*', 'amount']],
  ping: [],
  systemInfo: [],
  pools: under(['*'], SUMMARY_DECIMALS),
  pool: [['min_amount'], ...under(['pool_stats'], SUMMARY_DECIMALS)],
  tokens: under(['*', 'support_chain', '*'], CHAIN_DECIMALS),
  token: under(['support_chain', '*'], CHAIN_DECIMALS),
}

const TRADE_IDS = ['global_seq', 'taker_order_id', 'maker_order_id']

/** Where each method's data holds unsigned 64-bit ids (kept as digit strings). */
export const ID_PATHS: Readonly<Record<RestMethodName, readonly Pattern[]>> = {
  depth: [],
  klines: [],
  latestTrades: [],
  accountInfo: [],
  balances: [],
  historyOrders: [['*', 'order_id']],
  openOrders: [['*', 'order_id']],
  order: [['order_id'], ...under(['trades', '*'], TRADE_IDS)],
  orderByClientId: [['order_id']],
  trades: under(['*'], TRADE_IDS),
  transfers: [['*', 'sid']],
  ping: [],
  systemInfo: [],
  pools: [],
  pool: [],
  tokens: [],
  token: [],
}

/** Every concrete path of `value` that `pattern` matches. */
export function expand(value: unknown, pattern: Pattern): PathStep[][] {
  if (pattern.length === 0) return [[]]
  const [step, ...rest] = pattern
  if (step === '*') {
    if (!Array.isArray(value)) return []
    return value.flatMap((item, i) => expand(item, rest).map((path) => [i, ...path]))
  }
  if (typeof value !== 'object' || value === null || step === undefined) return []
  if (!Object.hasOwn(value, step)) return []
  return expand((value as Record<PathStep, unknown>)[step], rest).map((path) => [step, ...path])
}

/** The value at `path`, or `undefined`. */
export function getAt(value: unknown, path: readonly PathStep[]): unknown {
  let current = value
  for (const step of path) {
    if (typeof current !== 'object' || current === null) return undefined
    current = (current as Record<PathStep, unknown>)[step]
  }
  return current
}

/** Sets (or, with `drop`, removes) the value at a non-empty `path` of a mutable JSON value. */
export function setAt(value: unknown, path: readonly PathStep[], next: unknown, drop = false) {
  const parent = getAt(value, path.slice(0, -1))
  const last = path.at(-1)
  if (typeof parent !== 'object' || parent === null || last === undefined) return
  if (Array.isArray(parent) && typeof last === 'number') {
    if (drop) parent.splice(last, 1)
    else parent[last] = next
  } else if (drop) {
    delete (parent as Record<PathStep, unknown>)[last]
  } else {
    Object.defineProperty(parent, last, {
      value: next,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
}

/** Every path below the root of a JSON value. */
export function allPaths(value: unknown, prefix: PathStep[] = []): PathStep[][] {
  if (typeof value !== 'object' || value === null) return []
  const entries: [PathStep, unknown][] = Array.isArray(value)
    ? value.map((item, i) => [i, item])
    : Object.entries(value)
  return entries.flatMap(([step, item]) => {
    const path = [...prefix, step]
    return [path, ...allPaths(item, path)]
  })
}

/** A raw JSON number token is written where this placeholder string is. */
const RAW = (i: number) => `__raw_number_${i}__`

/**
 * JSON text of `value` in which each string {@link RAW}(i) is replaced by `tokens[i]`,
 * unquoted: a way to send numbers `JSON.stringify` cannot write (9007199254740993, 1e400).
 */
export function jsonWithRawNumbers(value: unknown, tokens: readonly string[]): string {
  let text = JSON.stringify(value)
  tokens.forEach((token, i) => {
    text = text.replace(JSON.stringify(RAW(i)), token)
  })
  return text
}

/** JSON text of `data` in a success envelope, with `token` written raw at `path` of `data`. */
export function envelopeWithRawNumber(
  data: unknown,
  path: readonly PathStep[],
  token: string,
): string {
  const body = { code: 0, message: '', data: copy(data), meta: {} }
  setAt(body, ['data', ...path], RAW(0))
  return jsonWithRawNumbers(body, [token])
}

/** A deep copy of a JSON value. */
export function copy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T
}

/** Raw JSON number tokens: beyond 2^53, beyond doubles, inexact fractions, exponents, -0. */
export const rawNumber: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '9007199254740993',
      '9007199254740992',
      '18446744073709551615',
      '18446744073709551616',
      '123456789012345678901234567890',
      '1e308',
      '1.7976931348623157e308',
      '1e400',
      '-1e400',
      '1e-400',
      '5e-324',
      '0.10000000000000000001',
      '0.1',
      '1.10',
      '-0',
      '-0.0',
      '0e5',
      '1E5',
      '1.5e-7',
      '2.5e+3',
      '1e21',
      '-9007199254740993',
    ),
  },
  { weight: 1, arbitrary: fc.bigInt({ min: 2n ** 53n, max: 2n ** 80n }).map(String) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.stringMatching(/^(0|[1-9]\d{0,20})$/), fc.stringMatching(/^\d{1,30}$/))
      .map(([whole, fraction]) => `${whole}.${fraction}`),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.stringMatching(/^[1-9]\d{0,18}$/), fc.integer({ min: -400, max: 400 }))
      .map(([mantissa, exponent]) => `${mantissa}e${exponent}`),
  },
)

/** Decimal text as the venue sends it: sign, leading and trailing zeros kept. */
export const decimalText: fc.Arbitrary<string> = fc.oneof(
  fc.stringMatching(/^-?\d{1,25}(\.\d{1,25})?$/),
  fc.constantFrom('0', '-0', '0.0', '1.10', '000.000100', '9007199254740993', '100000'),
)

/** Values of the wrong type or shape, for any field. */
export const wrongValue: fc.Arbitrary<unknown> = fc.constantFrom<unknown>(
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  2 ** 64,
  '',
  'abc',
  '1.5',
  '-0',
  '1e5',
  'NaN',
  '9007199254740993',
  '99999999999999999999',
  '2024-13-45T00:00:00Z',
  '\u0000',
  'x'.repeat(10_000),
  [],
  {},
  [null],
  { a: null },
  [[null, [null]]],
  { bids: null, asks: [null] },
  JSON.parse('{"__proto__":{"polluted":1}}'),
  JSON.parse(`${'['.repeat(60)}1${']'.repeat(60)}`),
)

/** A change to one node of a payload: dropped, replaced, or written as a raw number. */
type Mutation =
  | { readonly at: number; readonly kind: 'drop' }
  | { readonly at: number; readonly kind: 'replace'; readonly value: unknown }
  | { readonly at: number; readonly kind: 'raw'; readonly token: string }

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ at: fc.nat(), kind: fc.constant('drop' as const) }),
  fc.record({ at: fc.nat(), kind: fc.constant('replace' as const), value: wrongValue }),
  fc.record({ at: fc.nat(), kind: fc.constant('raw' as const), token: rawNumber }),
)

/** `data` with `mutations` applied, as JSON text of a success envelope. */
export function mutatedEnvelope(data: unknown, mutations: readonly Mutation[]): string {
  const envelope = { code: 0, message: '', data: copy(data), meta: { total: 1 } }
  const tokens: string[] = []
  for (const change of mutations) {
    const paths = allPaths(envelope.data).map((path) => ['data', ...path])
    const path = paths.length === 0 ? ['data'] : (paths[change.at % paths.length] as PathStep[])
    if (change.kind === 'drop') setAt(envelope, path, undefined, true)
    // A copy: the constants of `wrongValue` are shared by every run and must stay as they are.
    if (change.kind === 'replace') setAt(envelope, path, copy(change.value))
    if (change.kind === 'raw') {
      setAt(envelope, path, RAW(tokens.length))
      tokens.push(change.token)
    }
  }
  return jsonWithRawNumbers(envelope, tokens)
}

const STATUSES = [
  200, 200, 200, 201, 204, 299, 302, 400, 401, 403, 404, 418, 429, 499, 500, 502, 503, 504, 599,
]

const RETRY_AFTER = [
  '0',
  '1',
  '-1',
  '1.5',
  '86400',
  '99999999999999999999999',
  '1e9',
  'soon',
  '',
  ' ',
  'NaN',
  'Infinity',
  'Wed, 21 Oct 2015 07:28:00 GMT',
  'Fri, 31 Dec 9999 23:59:59 GMT',
]

const MESSAGES = [
  '',
  'service internal error',
  'invalid API key',
  'missing API key',
  'not found',
  'too many requests',
  'invalid parameter',
  'x'.repeat(5_000),
  '\u0000\u202e\ud800',
]

const status = fc.constantFrom(...STATUSES)

const retryAfter = fc.option(fc.constantFrom(...RETRY_AFTER), { nil: undefined })

/** A reply with a body text and an optional `Retry-After`. */
export function reply(statusCode: number, body: string, after?: string, type = 'application/json') {
  return {
    status: statusCode,
    raw: body,
    headers: { 'content-type': type, ...(after === undefined ? {} : { 'retry-after': after }) },
  } satisfies Reply
}

/** Every kind of answer an endpoint whose valid data is `data` can get. */
export function answer(data: unknown): fc.Arbitrary<Reply> {
  const valid = JSON.stringify({ code: 0, message: '', data, meta: {} })
  const huge = hugeVersion(data)
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(fc.array(mutation, { minLength: 1, maxLength: 4 }), fc.constantFrom(200, 200, 201))
        .map(([changes, code]) => reply(code, mutatedEnvelope(data, changes))),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          status,
          fc.oneof(fc.constantFrom(0, 1, -1, 429, 500, 10_001), fc.integer()),
          fc.oneof(fc.constantFrom(...MESSAGES), fc.string({ maxLength: 20 })),
          fc.constantFrom<unknown>(null, undefined, data, 'x'),
          retryAfter,
        )
        .map(([code, venueCode, message, extra, after]) =>
          reply(code, JSON.stringify({ code: venueCode, message, data: extra }), after),
        ),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(status, fc.nat({ max: valid.length - 1 }))
        .map(([code, cut]) => reply(code, valid.slice(0, cut))),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(status, retryAfter)
        .map(([code, after]) =>
          reply(code, '<html><body><h1>502 Bad Gateway</h1></body></html>', after, 'text/html'),
        ),
    },
    { weight: 1, arbitrary: status.map((code) => reply(code, '')) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          status,
          fc.constantFrom(
            'null',
            '[]',
            '1',
            '"ok"',
            'true',
            '{}',
            '{"data":{}}',
            '{"code":"0","data":null}',
            '{"code":0,"message":5,"data":null}',
            '{"code":0,"meta":[],"data":null}',
            '{"code":1.5,"data":null}',
            '{"code":9007199254740993,"message":"x","data":null}',
            '{"code":0,"data":null}',
            '{"code":0}',
            '{"code":0,"data":1}{"code":0}',
            '\ufeff{"code":0,"data":null}',
          ),
        )
        .map(([code, body]) => reply(code, body)),
    },
    ...(huge === undefined
      ? []
      : [
          {
            weight: 1,
            arbitrary: fc
              .integer({ min: 1_000, max: 5_000 })
              .map((size) =>
                reply(200, JSON.stringify({ code: 0, message: '', data: huge(size) })),
              ),
          },
        ]),
  )
}

/** A builder of `data` with thousands of entries (list endpoints and depth), if any. */
function hugeVersion(data: unknown): ((size: number) => unknown) | undefined {
  if (Array.isArray(data) && data.length > 0) {
    return (size) => Array.from({ length: size }, () => data[0])
  }
  if (data === fixtures.depth) {
    return (size) => ({
      ...fixtures.depth,
      bids: Array.from({ length: size }, (_, i) => [`${size + 1 - i}.5`, '1']),
      asks: Array.from({ length: size }, (_, i) => [`${size + 2 + i}.5`, '1']),
    })
  }
  return undefined
}
