import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { RestClient, Venue } from '../src/index.js'
import { createVenue, VenueAuthError, VenueInputError } from '../src/index.js'
import { eachCase } from './helpers/each-case.js'
import { dataFor, T } from './helpers/fixtures.js'
import { ok, type RecordingServer, startRecordingServer } from './helpers/recording-server.js'
import { ACCOUNT_CALLS, GENERAL_CALLS, MARKET_CALLS, type RestCall } from './helpers/rest-calls.js'

const KEY = 'k-DLTahpw5CKSZgov4BJRYfnu3AHQXemt29GPW'
const INTERVALS = '"1m", "5m", "15m", "30m", "1h", "4h", "1d", "1w", "1M"'

/** A value as it reads in a test name. */
function show(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value)
}

/** Passes a value the types forbid, as plain JavaScript callers can. */
function unchecked<T>(value: unknown): T {
  return value as T
}

/** A call that must fail its argument checks. */
interface RejectCase {
  readonly title: string
  /** Method name the message must start with. */
  readonly method: string
  /** Expected `VenueInputError.argument`. */
  readonly argument: string
  /** Texts the message must contain: the allowed range or rule. */
  readonly mentions: readonly string[]
  readonly call: RestCall
}

/**
 * Calls that break one rule, by test title: each error names `argument`, and its message
 * contains `mentions`. A title starts with the method's name, which the message must too.
 */
function breaking(
  argument: string,
  mentions: string | readonly string[],
  calls: Readonly<Record<string, RestCall>>,
): RejectCase[] {
  return Object.entries(calls).map(([title, call]) => ({
    title,
    method: title.slice(0, title.indexOf(' ')),
    argument,
    mentions: typeof mentions === 'string' ? [mentions] : mentions,
    call,
  }))
}

/** One call per value, by the title `title` gives it. */
function perValue<V>(
  values: readonly V[],
  title: (value: V) => string,
  call: (value: V) => RestCall,
): Record<string, RestCall> {
  return Object.fromEntries(values.map((value) => [title(value), call(value)]))
}

/** `method` rejects the unknown argument `key`: the message quotes it and names `meant`. */
function unknownKey(method: string, key: string, meant: string, call: RestCall): RejectCase {
  const title = `${method} rejects the unknown key ${key}`
  return { title, method, argument: key, mentions: [`"${key}"`, meant], call }
}

const ORDER_ID_FORM = '{poolId}-{orderId}-{side}'
const PRECISION_RANGE = 'from 0.00000001 to 10000'

const REJECTED: readonly RejectCase[] = [
  // bounds given in the wrong order
  ...breaking('after', 'must not be after before', {
    'trades rejects after later than before': (rest) => rest.trades({ after: 200, before: 100 }),
  }),
  ...breaking('start', 'must not be after end', {
    'transfers rejects start later than end': (rest) => rest.transfers({ start: 200, end: 100 }),
  }),
  ...breaking('start', 'start must not be after end', {
    'klines rejects start after end': (rest) =>
      rest.klines({ poolId: 1, interval: '1m', start: T + 60, end: T }),
  }),
  // order ids that are not canonical, not safe integers, or not of the form at all
  ...breaking('id', ORDER_ID_FORM, {
    ...perValue(
      ['00-1-0', '1-01-0', '99999999999999999999-1-0', '1-99999999999999999999-1'],
      (id) => `order rejects the id ${id}`,
      (id) => (rest) => rest.order(id),
    ),
    ...perValue(
      ['1-2', 'a-b-c', '1-2-3', '-1-2-0', '1-2-0-', ''],
      (id) => `order rejects the id ${show(id)}`,
      (id) => (rest) => rest.order(id),
    ),
  }),
  ...breaking('id', '"0-1-0"', {
    'order rejects a number': (rest) => rest.order(unchecked(7)),
  }),
  // texts: lone surrogates cannot be percent-encoded
  ...breaking('symbol', 'without control characters', {
    'token rejects a lone surrogate': (rest) => rest.token('\uD800'),
  }),
  ...breaking('clientId', 'without control characters', {
    'orderByClientId rejects a lone low surrogate': (rest) => rest.orderByClientId('a\uDC00'),
    'orderByClientId rejects a client id with a newline': (rest) => rest.orderByClientId('a\nb'),
  }),
  ...breaking('clientId', 'non-empty string', {
    'orderByClientId rejects an empty client id': (rest) => rest.orderByClientId(''),
  }),
  ...breaking('symbol', 'non-empty string', {
    'token rejects an empty symbol': (rest) => rest.token(''),
    'token rejects a non-string symbol': (rest) => rest.token(unchecked(5)),
  }),
  ...breaking('idOrSymbol', 'non-empty string', {
    'pool rejects an empty symbol': (rest) => rest.pool(''),
  }),
  // poolId and other integers
  ...breaking('poolId', 'integer >= 0', {
    ...perValue(
      [-1, 1.5, '1', Number.NaN, undefined],
      (poolId) => `depth rejects poolId ${show(poolId)}`,
      (poolId) => (rest) => rest.depth(unchecked({ poolId })),
    ),
    'klines rejects a negative poolId': (rest) => rest.klines({ poolId: -1, interval: '1m' }),
    'latestTrades rejects a fractional poolId': (rest) => rest.latestTrades({ poolId: 0.5 }),
    'historyOrders rejects a negative poolId': (rest) => rest.historyOrders({ poolId: -3 }),
    'openOrders rejects a string poolId': (rest) => rest.openOrders(unchecked({ poolId: '2' })),
    'trades rejects a NaN poolId': (rest) => rest.trades({ poolId: Number.NaN }),
    'order rejects a negative poolId': (rest) => rest.order({ poolId: -1, orderId: 1, side: 0 }),
  }),
  ...breaking('poolId', ['integer >= 0', 'NaN'], {
    'depth rejects poolId NaN, showing NaN in the message,': (rest) =>
      rest.depth({ poolId: Number.NaN }),
  }),
  ...breaking('idOrSymbol', 'integer >= 0', {
    'pool rejects a negative id': (rest) => rest.pool(-1),
    'pool rejects a fractional id': (rest) => rest.pool(2.5),
  }),
  ...breaking('orderId', 'integer >= 0', {
    'order rejects a negative orderId': (rest) => rest.order({ poolId: 1, orderId: -1, side: 0 }),
  }),
  ...breaking('offset', 'integer >= 0', {
    'historyOrders rejects a negative offset': (rest) => rest.historyOrders({ offset: -1 }),
  }),
  ...breaking('afterId', 'integer >= 0', {
    'transfers rejects a negative numeric afterId': (rest) => rest.transfers({ afterId: -1 }),
  }),
  // interval
  ...breaking(
    'interval',
    INTERVALS,
    perValue(
      ['2m', '1mo', '1H', '60', '', undefined],
      (interval) => `klines rejects interval ${show(interval)}`,
      (interval) => (rest) => rest.klines(unchecked({ poolId: 1, interval })),
    ),
  ),
  // precision
  ...breaking('precision', PRECISION_RANGE, {
    ...perValue(
      ['0.000000001', '10001', '10000.00000001', '0', '-1', '1e-2', 'abc', ''],
      (precision) => `depth rejects precision ${show(precision)}`,
      (precision) => (rest) => rest.depth({ poolId: 1, precision }),
    ),
    ...perValue(
      [1e-9, 10_001, Number.NaN, Number.POSITIVE_INFINITY],
      (precision) => `depth rejects precision ${String(precision)} (number)`,
      (precision) => (rest) => rest.depth({ poolId: 1, precision }),
    ),
  }),
  // limit
  ...breaking('limit', 'from 1 to 100', {
    ...perValue(
      [0, 101, 1.5, -1],
      (limit) => `trades rejects limit ${limit}`,
      (limit) => (rest) => rest.trades({ limit }),
    ),
    ...perValue(
      [0, 101, 2.5],
      (limit) => `latestTrades rejects limit ${limit}`,
      (limit) => (rest) => rest.latestTrades({ limit }),
    ),
    'historyOrders rejects limit 101': (rest) => rest.historyOrders({ limit: 101 }),
  }),
  // sort
  ...breaking('sort', '"asc", "desc"', {
    "trades rejects sort 'up'": (rest) => rest.trades(unchecked({ sort: 'up' })),
    "transfers rejects sort 'ASC'": (rest) => rest.transfers(unchecked({ sort: 'ASC' })),
  }),
  // times
  ...breaking('start', 'Unix seconds', {
    'klines rejects a fractional start': (rest) =>
      rest.klines({ poolId: 1, interval: '1m', start: T + 0.5 }),
    'klines rejects a string start': (rest) =>
      rest.klines(unchecked({ poolId: 1, interval: '1m', start: String(T) })),
    'transfers rejects a fractional start': (rest) => rest.transfers({ start: 1.25 }),
  }),
  ...breaking('end', 'Unix seconds', {
    'klines rejects a negative end': (rest) => rest.klines({ poolId: 1, interval: '1m', end: -1 }),
  }),
  ...breaking('before', 'Unix seconds', {
    'trades rejects a negative before': (rest) => rest.trades({ before: -60 }),
  }),
  ...breaking('start', 'seconds, not milliseconds', {
    'klines rejects a start in milliseconds': (rest) =>
      rest.klines({ poolId: 1, interval: '1m', start: Date.now() }),
  }),
  ...breaking('end', 'seconds, not milliseconds', {
    'klines rejects an end in milliseconds': (rest) =>
      rest.klines({ poolId: 1, interval: '1m', end: Date.now() }),
    'transfers rejects end in milliseconds': (rest) => rest.transfers({ end: Date.now() }),
  }),
  ...breaking('after', 'seconds, not milliseconds', {
    'trades rejects after in milliseconds': (rest) => rest.trades({ after: Date.now() }),
  }),
  // side, type, status
  ...breaking('side', 'one of 0, 1', {
    'historyOrders rejects side 2': (rest) => rest.historyOrders(unchecked({ side: 2 })),
    "openOrders rejects side '0' (a string)": (rest) => rest.openOrders(unchecked({ side: '0' })),
    'order rejects side 2 in the parts object': (rest) =>
      rest.order(unchecked({ poolId: 1, orderId: 1, side: 2 })),
  }),
  ...breaking('type', 'one of 0, 1', {
    'historyOrders rejects type 2': (rest) => rest.historyOrders(unchecked({ type: 2 })),
  }),
  ...breaking('status', 'one of 0, 1, 2, 3, 4', {
    'historyOrders rejects status 5': (rest) => rest.historyOrders(unchecked({ status: 5 })),
  }),
  // unknown argument keys
  unknownKey('depth', 'poolid', 'poolId', (rest) => rest.depth(unchecked({ poolid: 1 }))),
  unknownKey('klines', 'from', 'start', (rest) =>
    rest.klines(unchecked({ poolId: 1, interval: '1m', from: T })),
  ),
  unknownKey('trades', 'afterseq', 'afterSeq', (rest) => rest.trades(unchecked({ afterseq: 1 }))),
  unknownKey('transfers', 'afterID', 'afterId', (rest) =>
    rest.transfers(unchecked({ afterID: '1' })),
  ),
  unknownKey('openOrders', 'pool_id', 'poolId', (rest) =>
    rest.openOrders(unchecked({ pool_id: 1 })),
  ),
  unknownKey('pools', 'base', 'baseCoin', (rest) => rest.pools(unchecked({ base: 'x' }))),
  ...breaking('orderid', ['"orderid"', 'orderId'], {
    'order rejects an unknown key in the parts object': (rest) =>
      rest.order(unchecked({ poolId: 1, orderid: 1, side: 0 })),
  }),
  // transfer and trade ids
  ...breaking(
    'afterId',
    'digits of an unsigned 64-bit integer or a non-negative safe integer',
    perValue(
      ['12a', '', '-1', '1.5', ' 12', '18446744073709551616'],
      (afterId) => `transfers rejects afterId ${show(afterId)}`,
      (afterId) => (rest) => rest.transfers({ afterId }),
    ),
  ),
  ...breaking(
    'afterSeq',
    'digits of an unsigned 64-bit integer',
    perValue(
      ['9.5', '-3', 'x'],
      (afterSeq) => `trades rejects afterSeq ${show(afterSeq)}`,
      (afterSeq) => (rest) => rest.trades({ afterSeq }),
    ),
  ),
  // source and the arguments object
  ...breaking('source', "'v2' or 'v1'", {
    "depth rejects source 'v3'": (rest) => rest.depth(unchecked({ poolId: 1, source: 'v3' })),
    'depth rejects source null (not taken as "use the default")': (rest) =>
      rest.depth(unchecked({ poolId: 1, source: null })),
    'klines rejects source null (not taken as "use the default")': (rest) =>
      rest.klines(unchecked({ poolId: 1, interval: '1m', source: null })),
    'latestTrades rejects source null (not taken as "use the default")': (rest) =>
      rest.latestTrades(unchecked({ source: null })),
  }),
  ...breaking('args', 'must be an object', {
    'trades rejects arguments that are not an object': (rest) => rest.trades(unchecked(5)),
  }),
  // call options
  ...breaking('signl', 'unknown call option', {
    'ping rejects an unknown call option (a typo of signal)': (rest) =>
      rest.ping(unchecked({ signl: new AbortController().signal })),
  }),
  ...breaking('options', '{ signal }', {
    'ping rejects an array as call options': (rest) => rest.ping(unchecked([])),
    'accountInfo rejects call options that are not an object': (rest) =>
      rest.accountInfo(unchecked('fast')),
  }),
  ...breaking('signal', 'AbortSignal', {
    'ping rejects a signal that is not an AbortSignal': (rest) =>
      rest.ping(unchecked({ signal: { aborted: false, addEventListener() {} } })),
    'depth rejects a string signal': (rest) =>
      rest.depth({ poolId: 1 }, unchecked({ signal: 'abort' })),
    'balances rejects an AbortController in place of its signal': (rest) =>
      rest.balances(unchecked({ signal: new AbortController() })),
  }),
  ...breaking('onMeta', 'function', {
    'openOrders rejects an onMeta that is not a function': (rest) =>
      rest.openOrders({}, unchecked({ onMeta: 'total' })),
  }),
  ...nullArguments(),
]

/**
 * Every optional argument and call option of every method, given `null`: only `undefined`
 * means "not given", so `null` is refused naming it, never taken for the default.
 */
function nullArguments(): RejectCase[] {
  const table: readonly (readonly [
    method: string,
    names: readonly string[],
    call: (rest: RestClient, args: object) => Promise<unknown>,
  ])[] = [
    ['depth', ['limit', 'precision'], (rest, a) => rest.depth(unchecked({ poolId: 1, ...a }))],
    [
      'klines',
      ['start', 'end'],
      (rest, a) => rest.klines(unchecked({ poolId: 1, interval: '1m', ...a })),
    ],
    ['latestTrades', ['poolId', 'limit'], (rest, a) => rest.latestTrades(unchecked(a))],
    [
      'historyOrders',
      ['poolId', 'side', 'type', 'status', 'limit', 'offset'],
      (rest, a) => rest.historyOrders(unchecked(a)),
    ],
    [
      'openOrders',
      ['poolId', 'side', 'type', 'status', 'limit', 'offset'],
      (rest, a) => rest.openOrders(unchecked(a)),
    ],
    [
      'trades',
      ['poolId', 'limit', 'after', 'before', 'afterSeq', 'sort'],
      (rest, a) => rest.trades(unchecked(a)),
    ],
    [
      'transfers',
      ['afterId', 'start', 'end', 'sort', 'limit'],
      (rest, a) => rest.transfers(unchecked(a)),
    ],
    ['pools', ['baseCoin', 'quoteCoin', 'limit', 'offset'], (rest, a) => rest.pools(unchecked(a))],
    ['ping', ['signal', 'onMeta'], (rest, a) => rest.ping(unchecked(a))],
    ['pool', ['signal', 'onMeta'], (rest, a) => rest.pool(1, unchecked(a))],
  ]
  return table.flatMap(([method, names, call]) =>
    names.map(
      (name): RejectCase => ({
        title: `${method} rejects ${name} null (not taken as "not given")`,
        method,
        argument: name,
        mentions: [name],
        call: (rest) => call(rest, { [name]: null }),
      }),
    ),
  )
}

/** A call whose arguments are at the edge of what is allowed, and the query it sends. */
interface AcceptCase {
  readonly title: string
  readonly call: (rest: RestClient) => Promise<unknown>
  readonly query: Readonly<Record<string, string>>
}

const ACCEPTED: readonly AcceptCase[] = [
  ...(['1m', '5m', '15m', '30m', '1h', '4h', '1d', '1w', '1M'] as const).map(
    (interval): AcceptCase => ({
      title: `klines accepts interval ${interval}`,
      call: (rest) => rest.klines({ poolId: 1, interval, start: T - 60, end: T }),
      query: { interval },
    }),
  ),
  {
    title: "depth accepts precision '0.00000001' (the minimum)",
    call: (rest) => rest.depth({ poolId: 1, precision: '0.00000001' }),
    query: { precision: '0.00000001' },
  },
  {
    title: "depth accepts precision '10000' (the maximum)",
    call: (rest) => rest.depth({ poolId: 1, precision: '10000' }),
    query: { precision: '10000' },
  },
  {
    title: 'depth accepts precision 0.01 as a number and sends 0.01',
    call: (rest) => rest.depth({ poolId: 1, precision: 0.01 }),
    query: { precision: '0.01' },
  },
  {
    title: 'depth accepts precision 1e-8 as a number and sends it without an exponent',
    call: (rest) => rest.depth({ poolId: 1, precision: 1e-8 }),
    query: { precision: '0.00000001' },
  },
  {
    title: 'depth accepts poolId 0',
    call: (rest) => rest.depth({ poolId: 0 }),
    query: { pool_id: '0' },
  },
  ...[1, 100].map(
    (limit): AcceptCase => ({
      title: `trades accepts limit ${limit}`,
      call: (rest) => rest.trades({ limit }),
      query: { limit: String(limit) },
    }),
  ),
  ...[1, 100].map(
    (limit): AcceptCase => ({
      title: `latestTrades accepts limit ${limit}`,
      call: (rest) => rest.latestTrades({ limit }),
      query: { limit: String(limit) },
    }),
  ),
  ...(['asc', 'desc'] as const).map(
    (sort): AcceptCase => ({
      title: `trades accepts sort '${sort}'`,
      call: (rest) => rest.trades({ sort }),
      query: { sort },
    }),
  ),
  {
    title: "transfers sends afterId '007' as 7",
    call: (rest) => rest.transfers({ afterId: '007' }),
    query: { id: '7' },
  },
  {
    title: 'transfers sends a numeric afterId as digits',
    call: (rest) => rest.transfers({ afterId: 42 }),
    query: { id: '42' },
  },
  {
    title: 'trades sends an afterSeq beyond 2^53 as the exact digits',
    call: (rest) => rest.trades({ afterSeq: '18446744073709551615' }),
    query: { global_seq: '18446744073709551615' },
  },
  {
    title: 'transfers sends an afterId beyond 2^53 as the exact digits',
    call: (rest) => rest.transfers({ afterId: '18446744073709551615' }),
    query: { id: '18446744073709551615' },
  },
  {
    title: 'klines accepts start equal to end',
    call: (rest) => rest.klines({ poolId: 1, interval: '1m', start: T, end: T }),
    query: { start: String(T), end: String(T) },
  },
  {
    title: 'trades accepts after and before as Unix seconds',
    call: (rest) => rest.trades({ after: T - 1, before: T }),
    query: { after: String(T - 1), before: String(T) },
  },
]

/** The rejection of a call, failing the test if it throws synchronously or resolves. */
async function rejectionOf(call: () => Promise<unknown>): Promise<unknown> {
  let promise: Promise<unknown>
  try {
    promise = call()
  } catch (error) {
    throw new Error(`threw synchronously instead of rejecting: ${String(error)}`)
  }
  return promise.then(
    (value) => {
      throw new Error(`resolved instead of rejecting: ${JSON.stringify(value)}`)
    },
    (error: unknown) => error,
  )
}

let server: RecordingServer
let venue: Venue
let keyless: Venue

/** Waits for a request round trip on `on`, then checks nothing but that ping reached the server. */
async function expectNothingSent(on: Venue): Promise<void> {
  await on.rest.ping()
  expect(server.requests.map((r) => r.pathname)).toEqual(['/api/v1/ping'])
}

beforeAll(async () => {
  server = await startRecordingServer((r) => ok(dataFor(r.pathname)))
  venue = createVenue({ baseUrl: server.url, apiKey: KEY, maxRequestsPerSecond: 1e6 })
  keyless = createVenue({ baseUrl: server.url, maxRequestsPerSecond: 1e6 })
})

beforeEach(() => {
  server.requests.length = 0
})

afterAll(async () => {
  await venue?.close()
  await keyless?.close()
  await server?.close()
})

describe('argument checks', () => {
  eachCase(
    REJECTED,
    (r) => `${r.title} with VenueInputError and sends nothing`,
    async (c) => {
      const error = await rejectionOf(() => c.call(venue.rest))
      expect(error).toBeInstanceOf(VenueInputError)
      const inputError = error as VenueInputError
      expect(inputError.argument).toBe(c.argument)
      expect(inputError.message.startsWith(`${c.method}: `)).toBe(true)
      for (const text of c.mentions) expect(inputError.message).toContain(text)
      expect(inputError.retryable).toBe(false)
      await expectNothingSent(venue)
    },
  )

  it('the message of a millisecond time says seconds, not milliseconds', async () => {
    const now = Date.now()
    const error = await rejectionOf(() =>
      venue.rest.klines({ poolId: 1, interval: '1m', end: now }),
    )
    expect(error).toBeInstanceOf(VenueInputError)
    expect((error as Error).message).toBe(
      `klines: end must be Unix seconds, not milliseconds (got ${now})`,
    )
  })

  it('the message of an unknown key lists the allowed keys', async () => {
    const error = await rejectionOf(() => venue.rest.depth(unchecked({ poolid: 1 })))
    expect((error as Error).message).toBe(
      'depth: unknown argument "poolid" (allowed: poolId, limit, precision, source)',
    )
  })

  it('order sends an order id beyond 2^53 exactly, as parts or as the composite id', async () => {
    await venue.rest.order({ poolId: 1, orderId: '9007199254740993', side: 1 })
    await venue.rest.order('1-18446744073709551615-0')
    expect(server.requests.map((r) => r.pathname)).toEqual([
      '/api/v1/orders/1-9007199254740993-1',
      '/api/v1/orders/1-18446744073709551615-0',
    ])
    const error = await rejectionOf(() => venue.rest.order('1-18446744073709551616-0'))
    expect(error).toBeInstanceOf(VenueInputError)
    expect(server.requests).toHaveLength(2)
  })

  eachCase(
    ACCEPTED,
    (r) => r.title,
    async (c) => {
      await c.call(venue.rest)
      expect(server.requests).toHaveLength(1)
      expect(server.last().query).toMatchObject(c.query)
    },
  )
})

describe('API key', () => {
  /** One row per method of `calls`: its name and its call. */
  const rows = (calls: Readonly<Record<string, RestCall>>) =>
    Object.entries(calls).map(([name, call]) => ({ name, call }))
  const ACCOUNT = rows(ACCOUNT_CALLS)
  const PUBLIC = rows({ ...MARKET_CALLS, ...GENERAL_CALLS })

  eachCase(
    ACCOUNT,
    (r) => `${r.name} without apiKey rejects with VenueAuthError 'missing-key' and sends nothing`,
    async ({ name, call }) => {
      const error = await rejectionOf(() => call(keyless.rest))
      expect(error).toBeInstanceOf(VenueAuthError)
      expect(error).toMatchObject({ reason: 'missing-key', status: undefined, endpoint: name })
      expect((error as Error).message.startsWith(`${name}: `)).toBe(true)
      await expectNothingSent(keyless)
    },
  )

  eachCase(
    PUBLIC,
    (r) => `${r.name} works without apiKey and sends no authorization`,
    async ({ call }) => {
      await expect(call(keyless.rest)).resolves.toBeDefined()
      expect(server.requests).toHaveLength(1)
      expect(server.last().headers).not.toHaveProperty('authorization')
    },
  )

  it('argument checks run before the key check: bad arguments still give VenueInputError', async () => {
    const error = await rejectionOf(() => keyless.rest.trades({ limit: 0 }))
    expect(error).toBeInstanceOf(VenueInputError)
    await expectNothingSent(keyless)
  })
})
