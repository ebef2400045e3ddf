/**
 * Arbitraries of hostile JavaScript values: what a plain JavaScript caller (or a bug in a
 * bot) can pass where the types ask for a pool id, a limit, a symbol or an options object.
 */
import fc from 'fast-check'

/**
 * An object with exactly these own enumerable keys, `__proto__` included (an object
 * literal `{ __proto__: x }` would set the prototype instead of adding a key).
 */
export function withOwnKeys(entries: readonly (readonly [string, unknown])[]): object {
  const target: Record<string, unknown> = {}
  for (const [key, value] of entries) {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return target
}

/** Strings that have broken path, query and text handling before. */
export const SPECIAL_STRINGS: readonly string[] = [
  '',
  ' ',
  '.',
  '..',
  '../x',
  '..%2F',
  '%2e%2e',
  '%2E',
  '%',
  '/',
  '?',
  '#',
  '&',
  '=',
  '+',
  'a b',
  'a/b',
  '\u0000',
  '\n',
  '\r\n',
  '\t',
  'a\u0001b',
  '\u007f',
  '\u0085',
  '\u2028',
  '\uD800',
  '\uDC00',
  'a\uD800b',
  '\uDFFF\uD800',
  '\uD83D\uDE00',
  '\uFEFF',
  'é',
  '1',
  '0',
  '-1',
  '-0',
  '01',
  '1.0',
  '1.5',
  '1e3',
  '0x1F',
  ' 1',
  '1 ',
  'NaN',
  'Infinity',
  'null',
  'undefined',
  'true',
  '__proto__',
  'constructor',
  'toString',
  'v1',
  'v2',
  'V2',
  'asc',
  'DESC',
  '1m',
  '1M',
  'USDT',
  '0-1-0',
  '1-7-0',
  '9007199254740993',
  '18446744073709551615',
  '18446744073709551616',
  '1'.repeat(400),
  'x'.repeat(10_000),
]

/** Numbers at and beyond every boundary the checks have. */
export const SPECIAL_NUMBERS: readonly number[] = [
  0,
  -0,
  1,
  -1,
  0.5,
  1.5,
  -0.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  2 ** 53,
  2 ** 53 + 2,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  Number.EPSILON,
  1e21,
  1e-7,
  1e-9,
  1e11,
  1e12,
  2 ** 31,
  2 ** 32,
  100,
  101,
  1000,
  1001,
  5000,
  5001,
  10_000,
  10_001,
]

/** A UTF-16 code unit of any value, lone surrogates included. */
const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code))

/** Characters that matter to URLs, JSON and terminals. */
const trickyChar = fc.constantFrom(
  '.',
  '/',
  '\\',
  '?',
  '#',
  '%',
  '&',
  '=',
  '+',
  ' ',
  '"',
  "'",
  '\u0000',
  '\n',
  '\u001b',
  '\u007f',
  '\uD800',
  '\uDC00',
  '~',
)

/** Strings of any code units, weighted towards URL and control characters. */
export const anyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
  {
    weight: 2,
    arbitrary: fc.string({ unit: fc.oneof(anyCodeUnit, trickyChar), maxLength: 12 }),
  },
)

/** Numbers of any kind, weighted towards boundaries. */
export const anyNumber: fc.Arbitrary<number> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL_NUMBERS) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
)

/** Values that are neither strings nor numbers. */
const otherValues: fc.Arbitrary<unknown> = fc.constantFrom<unknown>(
  null,
  undefined,
  true,
  false,
  10n,
  -1n,
  Symbol('fuzz'),
  () => 1,
  async () => 1,
  [],
  [1],
  ['v2'],
  {},
  Object.create(null),
  JSON.parse('{"__proto__":1}'),
  JSON.parse('{"__proto__":{"poolId":2}}'),
  { constructor: 1 },
  { toString: 'x' },
  { valueOf: () => 1 },
  new Date(0),
  /x/,
  new Map([['poolId', 1]]),
  new Number(1),
  new String('v2'),
  new Error('not an argument'),
  new AbortController().signal,
)

/** Names that are no argument of any method, with prototype keys among them. */
export const unknownKeyName: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'valueOf',
      'pool_id',
      'poolid',
      'PoolId',
      'pool',
      'signal',
      'poolId ',
      '',
      ' ',
      '0',
      'limit\u0000',
      'x'.repeat(200),
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
)

/** Any hostile value: odd strings and numbers, wrong types, prototype keys, functions. */
export const nasty: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: anyString },
  { weight: 3, arbitrary: anyNumber },
  { weight: 3, arbitrary: otherValues },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.tuple(unknownKeyName, fc.oneof(anyNumber, anyString)), { maxLength: 2 })
      .map(withOwnKeys),
  },
)

/** Mostly `valid`, sometimes {@link nasty}, sometimes `undefined`. */
export function mostly<T>(valid: fc.Arbitrary<T>, validWeight = 4): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: validWeight, arbitrary: valid as fc.Arbitrary<unknown> },
    { weight: 1, arbitrary: nasty },
  )
}

/** Valid-looking values per argument kind. */
export const valid = {
  poolId: fc.oneof(fc.nat({ max: 20 }), fc.constantFrom(0, Number.MAX_SAFE_INTEGER)),
  limit: (max: number) => fc.oneof(fc.integer({ min: 1, max }), fc.constantFrom(1, max)),
  offset: fc.oneof(fc.nat({ max: 1000 }), fc.constant(Number.MAX_SAFE_INTEGER)),
  precision: fc.constantFrom<string | number>(
    '0.00000001',
    '0.0001',
    '0.010',
    '1',
    '10000',
    0.01,
    1e-8,
    10_000,
  ),
  source: fc.constantFrom('v1', 'v2'),
  interval: fc.constantFrom('1m', '5m', '15m', '30m', '1h', '4h', '1d', '1w', '1M'),
  seconds: fc.oneof(
    fc.integer({ min: 0, max: 2_000_000_000 }),
    fc.constantFrom(0, 1_700_000_000, 99_999_999_999),
  ),
  unsignedId: fc.oneof(
    fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(String),
    fc.nat(),
    fc.constantFrom('0', '007', '9007199254740993', '18446744073709551615'),
  ),
  /** A feed cursor: mostly an id of the venue, sometimes just past the 64-bit range. */
  feedCursor: fc.oneof(
    { weight: 3, arbitrary: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(String) },
    { weight: 1, arbitrary: fc.nat() },
    { weight: 1, arbitrary: fc.bigInt({ min: 2n ** 64n, max: 2n ** 70n }).map(String) },
    {
      weight: 2,
      arbitrary: fc.constantFrom<unknown>(
        '0',
        '007',
        '00018446744073709551615',
        '18446744073709551615',
        '18446744073709551616',
        '99999999999999999999',
        '-1',
        -1,
        1.5,
        2 ** 53,
        '1e3',
      ),
    },
  ),
  /** A fill cursor: a feed cursor, or digits with `/1`, in range and out of it. */
  fillCursor: fc.oneof(
    { weight: 2, arbitrary: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(String) },
    {
      weight: 2,
      arbitrary: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map((seq) => `${seq}/1`),
    },
    { weight: 1, arbitrary: fc.nat() },
    {
      weight: 2,
      arbitrary: fc.constantFrom<unknown>(
        '0/1',
        '007/1',
        '18446744073709551615/1',
        '18446744073709551616/1',
        '99999999999999999999/1',
        '18446744073709551616',
        '-1/1',
        '/1',
        '7/2',
        '7/1/1',
        '7/',
      ),
    },
  ),
  sort: fc.constantFrom('asc', 'desc'),
  side: fc.constantFrom(0, 1),
  status: fc.constantFrom(0, 1, 2, 3, 4),
  text: fc.oneof(
    fc.constantFrom('USDT', 'CHN', 'chain.token-CHN', 'cid-7', 'a b', 'a/b', '../x', '%2e%2e'),
    fc.string({ minLength: 1, maxLength: 10 }),
  ),
  orderRef: fc.oneof(
    fc
      .tuple(
        fc.nat({ max: 50 }),
        fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
        fc.constantFrom(0, 1),
      )
      .map(([pool, order, side]) => `${pool}-${order}-${side}`),
    fc.record({
      poolId: fc.nat({ max: 50 }),
      orderId: fc.oneof(fc.nat(), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(String)),
      side: fc.constantFrom(0, 1),
    }),
  ),
}

/**
 * An arguments (or options) object: any subset of `shape`'s keys with mostly valid
 * values, sometimes an unknown key (prototype keys included), sometimes no object at all.
 */
export function argsObject(shape: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  const fields: Record<string, fc.Arbitrary<unknown>> = {}
  for (const [name, arbitrary] of Object.entries(shape)) fields[name] = mostly(arbitrary)
  const record = fc.record(fields, { requiredKeys: [] })
  const extra = fc.oneof(
    { weight: 5, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.tuple(unknownKeyName, fc.oneof(anyNumber, anyString)) },
  )
  const objects = fc.tuple(record, extra, fc.boolean()).map(([given, unknown, nullPrototype]) => {
    const entries = Object.entries(given)
    const built = withOwnKeys(unknown === undefined ? entries : [...entries, unknown])
    return nullPrototype ? Object.assign(Object.create(null), built) : built
  })
  return fc.oneof(
    { weight: 8, arbitrary: objects },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: nasty },
  )
}

/** The last argument of every REST method: mostly absent, sometimes `{ signal }`, sometimes wrong. */
export const callOptions: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: fc.constant(undefined) },
  {
    weight: 2,
    arbitrary: fc.constantFrom('live', 'aborted').map((kind) => ({
      signal: kind === 'live' ? new AbortController().signal : AbortSignal.abort(),
    })),
  },
  {
    weight: 1,
    arbitrary: fc.oneof(
      nasty,
      fc.tuple(unknownKeyName, nasty).map(([name, value]) => withOwnKeys([[name, value]])),
      nasty.map((signal) => ({ signal })),
    ),
  },
)

/** Whether a value is a `{ signal }` object whose signal has already fired. */
export function hasAbortedSignal(options: unknown): boolean {
  if (typeof options !== 'object' || options === null) return false
  const signal = (options as { signal?: unknown }).signal
  return signal instanceof AbortSignal && signal.aborted
}
