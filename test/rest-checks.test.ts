import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { RestClient, Venue } from '../src/index.js'
import { createVenue, VenueAuthError, VenueInputError } from '../src/index.js'
import { eachCase } from './helpers/each-case.js'
import { dataFor, T } from './helpers/fixtures.js'
import { ok, type RecordingServer, startRecordingServer } from './helpers/recording-server.js'

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
  readonly call: (rest: RestClient) => Promise<unknown>
}

const REJECTED: readonly RejectCase[] = [
  // bounds given in the wrong order
  {
    title: 'trades rejects after later than before',
    method: 'trades',
    argument: 'after',
    mentions: ['must not be after before'],
    call: (rest) => rest.trades({ after: 200, before: 100 }),
  },
  {
    title: 'transfers rejects start later than end',
    method: 'transfers',
    argument: 'start',
    mentions: ['must not be after end'],
    call: (rest) => rest.transfers({ start: 200, end: 100 }),
  },
  // order ids that are not canonical or not safe integers
  ...['00-1-0', '1-01-0', '99999999999999999999-1-0', '1-99999999999999999999-1'].map(
    (id): RejectCase => ({
      title: `order rejects the id ${id}`,
      method: 'order',
      argument: 'id',
      mentions: ['{poolId}-{orderId}-{side}'],
      call: (rest) => rest.order(id),
    }),
  ),
  // lone surrogates cannot be percent-encoded
  {
    title: 'token rejects a lone surrogate',
    method: 'token',
    argument: 'symbol',
    mentions: ['without control characters'],
    call: (rest) => rest.token('\uD800'),
  },
  {
    title: 'orderByClientId rejects a lone low surrogate',
    method: 'orderByClientId',
    argument: 'clientId',
    mentions: ['without control characters'],
    call: (rest) => rest.orderByClientId('a\uDC00'),
  },
  // call options
  {
    title: 'ping rejects an unknown call option (a typo of signal)',
    method: 'ping',
    argument: 'signl',
    mentions: ['unknown call option'],
    call: (rest) => rest.ping(unchecked({ signl: new AbortController().signal })),
  },
  {
    title: 'ping rejects an array as call options',
    method: 'ping',
    argument: 'options',
    mentions: ['{ signal }'],
    call: (rest) => rest.ping(unchecked([])),
  },
  // poolId
  ...[-1, 1.5, '1', Number.NaN, undefined].map(
    (poolId): RejectCase => ({
      title: `depth rejects poolId ${show(poolId)}`,
      method: 'depth',
      argument: 'poolId',
      mentions: ['integer >= 0'],
      call: (rest) => rest.depth(unchecked({ poolId })),
    }),
  ),
  {
    title: 'depth rejects poolId NaN, showing NaN in the message,',
    method: 'depth',
    argument: 'poolId',
    mentions: ['integer >= 0', 'NaN'],
    call: (rest) => rest.depth({ poolId: Number.NaN }),
  },
  {
    title: 'klines rejects a negative poolId',
    method: 'klines',
    argument: 'poolId',
    mentions: ['integer >= 0'],
    call: (rest) => rest.klines({ poolId: -1, interval: '1m' }),
  },
  {
    title: 'latestTrades rejects a fractional poolId',
    method: 'latestTrades',
    argument: 'poolId',
    mentions: ['integer >= 0'],
    call: (rest) => rest.latestTrades({ poolId: 0.5 }),
  },
  {
    title: 'historyOrders rejects a negative poolId',
    method: 'historyOrders',
    argument: 'poolId',
    mentions: ['integer >= 0'],
    call: (rest) => rest.historyOrders({ poolId: -3 }),
  },
  {
    title: 'openOrders rejects a string poolId',
    method: 'openOrders',
    argument: 'poolId',
    mentions: ['integer >= 0'],
    call: (rest) => rest.openOrders(unchecked({ poolId: '2' })),
  },
  {
    title: 'trades rejects a NaN poolId',
    method: 'trades',
    argument: 'poolId',
    mentions: ['integer >= 0'],
    call: (rest) => rest.trades({ poolId: Number.NaN }),
  },
  {
    title: 'order rejects a negative poolId',
    method: 'order',
    argument: 'poolId',
    mentions: ['integer >= 0'],
    call: (rest) => rest.order({ poolId: -1, orderId: 1, side: 0 }),
  },
  {
    title: 'pool rejects a negative id',
    method: 'pool',
    argument: 'idOrSymbol',
    mentions: ['integer >= 0'],
    call: (rest) => rest.pool(-1),
  },
  {
    title: 'pool rejects a fractional id',
    method: 'pool',
    argument: 'idOrSymbol',
    mentions: ['integer >= 0'],
    call: (rest) => rest.pool(2.5),
  },
  // interval
  ...['2m', '1mo', '1H', '60', '', undefined].map(
    (interval): RejectCase => ({
      title: `klines rejects interval ${show(interval)}`,
      method: 'klines',
      argument: 'interval',
      mentions: [INTERVALS],
      call: (rest) => rest.klines(unchecked({ poolId: 1, interval })),
    }),
  ),
  // precision
  ...['0.000000001', '10001', '10000.00000001', '0', '-1', '1e-2', 'abc', ''].map(
    (precision): RejectCase => ({
      title: `depth rejects precision ${show(precision)}`,
      method: 'depth',
      argument: 'precision',
      mentions: ['from 0.00000001 to 10000'],
      call: (rest) => rest.depth({ poolId: 1, precision }),
    }),
  ),
  ...[1e-9, 10_001, Number.NaN, Number.POSITIVE_INFINITY].map(
    (precision): RejectCase => ({
      title: `depth rejects precision ${String(precision)} (number)`,
      method: 'depth',
      argument: 'precision',
      mentions: ['from 0.00000001 to 10000'],
      call: (rest) => rest.depth({ poolId: 1, precision }),
    }),
  ),
  // limit
  ...[0, 101, 1.5, -1].map(
    (limit): RejectCase => ({
      title: `trades rejects limit ${limit}`,
      method: 'trades',
      argument: 'limit',
      mentions: ['from 1 to 100'],
      call: (rest) => rest.trades({ limit }),
    }),
  ),
  ...[0, 101, 2.5].map(
    (limit): RejectCase => ({
      title: `latestTrades rejects limit ${limit}`,
      method: 'latestTrades',
      argument: 'limit',
      mentions: ['from 1 to 100'],
      call: (rest) => rest.latestTrades({ limit }),
    }),
  ),
  {
    title: 'historyOrders rejects limit 101',
    method: 'historyOrders',
    argument: 'limit',
    mentions: ['from 1 to 100'],
    call: (rest) => rest.historyOrders({ limit: 101 }),
  },
  // sort
  {
    title: "trades rejects sort 'up'",
    method: 'trades',
    argument: 'sort',
    mentions: ['"asc", "desc"'],
    call: (rest) => rest.trades(unchecked({ sort: 'up' })),
  },
  {
    title: "transfers rejects sort 'ASC'",
    method: 'transfers',
    argument: 'sort',
    mentions: ['"asc", "desc"'],
    call: (rest) => rest.transfers(unchecked({ sort: 'ASC' })),
  },
  // times
  {
    title: 'klines rejects a fractional start',
    method: 'klines',
    argument: 'start',
    mentions: ['Unix seconds'],
    call: (rest) => rest.klines({ poolId: 1, interval: '1m', start: T + 0.5 }),
  },
  {
    title: 'klines rejects a negative end',
    method: 'klines',
    argument: 'end',
    mentions: ['Unix seconds'],
    call: (rest) => rest.klines({ poolId: 1, interval: '1m', end: -1 }),
  },
  {
    title: 'klines rejects a start in milliseconds',
    method: 'klines',
    argument: 'start',
    mentions: ['seconds, not milliseconds'],
    call: (rest) => rest.klines({ poolId: 1, interval: '1m', start: Date.now() }),
  },
  {
    title: 'klines rejects an end in milliseconds',
    method: 'klines',
    argument: 'end',
    mentions: ['seconds, not milliseconds'],
    call: (rest) => rest.klines({ poolId: 1, interval: '1m', end: Date.now() }),
  },
  {
    title: 'klines rejects a string start',
    method: 'klines',
    argument: 'start',
    mentions: ['Unix seconds'],
    call: (rest) => rest.klines(unchecked({ poolId: 1, interval: '1m', start: String(T) })),
  },
  {
    title: 'trades rejects after in milliseconds',
    method: 'trades',
    argument: 'after',
    mentions: ['seconds, not milliseconds'],
    call: (rest) => rest.trades({ after: Date.now() }),
  },
  {
    title: 'trades rejects a negative before',
    method: 'trades',
    argument: 'before',
    mentions: ['Unix seconds'],
    call: (rest) => rest.trades({ before: -60 }),
  },
  {
    title: 'transfers rejects a fractional start',
    method: 'transfers',
    argument: 'start',
    mentions: ['Unix seconds'],
    call: (rest) => rest.transfers({ start: 1.25 }),
  },
  {
    title: 'transfers rejects end in milliseconds',
    method: 'transfers',
    argument: 'end',
    mentions: ['seconds, not milliseconds'],
    call: (rest) => rest.transfers({ end: Date.now() }),
  },
  {
    title: 'klines rejects start after end',
    method: 'klines',
    argument: 'start',
    mentions: ['start must not be after end'],
    call: (rest) => rest.klines({ poolId: 1, interval: '1m', start: T + 60, end: T }),
  },
  // side, type, status
  {
    title: 'historyOrders rejects side 2',
    method: 'historyOrders',
    argument: 'side',
    mentions: ['one of 0, 1'],
    call: (rest) => rest.historyOrders(unchecked({ side: 2 })),
  },
  {
    title: "openOrders rejects side '0' (a string)",
    method: 'openOrders',
    argument: 'side',
    mentions: ['one of 0, 1'],
    call: (rest) => rest.openOrders(unchecked({ side: '0' })),
  },
  {
    title: 'historyOrders rejects type 2',
    method: 'historyOrders',
    argument: 'type',
    mentions: ['one of 0, 1'],
    call: (rest) => rest.historyOrders(unchecked({ type: 2 })),
  },
  {
    title: 'historyOrders rejects status 5',
    method: 'historyOrders',
    argument: 'status',
    mentions: ['one of 0, 1, 2, 3, 4'],
    call: (rest) => rest.historyOrders(unchecked({ status: 5 })),
  },
  {
    title: 'historyOrders rejects a negative offset',
    method: 'historyOrders',
    argument: 'offset',
    mentions: ['integer >= 0'],
    call: (rest) => rest.historyOrders({ offset: -1 }),
  },
  // unknown argument keys
  {
    title: 'depth rejects the unknown key poolid',
    method: 'depth',
    argument: 'poolid',
    mentions: ['"poolid"', 'poolId'],
    call: (rest) => rest.depth(unchecked({ poolid: 1 })),
  },
  {
    title: 'klines rejects the unknown key from',
    method: 'klines',
    argument: 'from',
    mentions: ['"from"', 'start'],
    call: (rest) => rest.klines(unchecked({ poolId: 1, interval: '1m', from: T })),
  },
  {
    title: 'trades rejects the unknown key afterseq',
    method: 'trades',
    argument: 'afterseq',
    mentions: ['"afterseq"', 'afterSeq'],
    call: (rest) => rest.trades(unchecked({ afterseq: 1 })),
  },
  {
    title: 'transfers rejects the unknown key afterID',
    method: 'transfers',
    argument: 'afterID',
    mentions: ['"afterID"', 'afterId'],
    call: (rest) => rest.transfers(unchecked({ afterID: '1' })),
  },
  {
    title: 'openOrders rejects the unknown key pool_id',
    method: 'openOrders',
    argument: 'pool_id',
    mentions: ['"pool_id"', 'poolId'],
    call: (rest) => rest.openOrders(unchecked({ pool_id: 1 })),
  },
  {
    title: 'pools rejects the unknown key base',
    method: 'pools',
    argument: 'base',
    mentions: ['"base"', 'baseCoin'],
    call: (rest) => rest.pools(unchecked({ base: 'x' })),
  },
  {
    title: 'order rejects an unknown key in the parts object',
    method: 'order',
    argument: 'orderid',
    mentions: ['"orderid"', 'orderId'],
    call: (rest) => rest.order(unchecked({ poolId: 1, orderid: 1, side: 0 })),
  },
  // order ids
  ...['1-2', 'a-b-c', '1-2-3', '-1-2-0', '1-2-0-', ''].map(
    (id): RejectCase => ({
      title: `order rejects the id ${show(id)}`,
      method: 'order',
      argument: 'id',
      mentions: ['{poolId}-{orderId}-{side}'],
      call: (rest) => rest.order(id),
    }),
  ),
  {
    title: 'order rejects a negative orderId',
    method: 'order',
    argument: 'orderId',
    mentions: ['integer >= 0'],
    call: (rest) => rest.order({ poolId: 1, orderId: -1, side: 0 }),
  },
  {
    title: 'order rejects side 2 in the parts object',
    method: 'order',
    argument: 'side',
    mentions: ['one of 0, 1'],
    call: (rest) => rest.order(unchecked({ poolId: 1, orderId: 1, side: 2 })),
  },
  {
    title: 'order rejects a number',
    method: 'order',
    argument: 'id',
    mentions: ['"0-1-0"'],
    call: (rest) => rest.order(unchecked(7)),
  },
  // texts
  {
    title: 'orderByClientId rejects an empty client id',
    method: 'orderByClientId',
    argument: 'clientId',
    mentions: ['non-empty string'],
    call: (rest) => rest.orderByClientId(''),
  },
  {
    title: 'orderByClientId rejects a client id with a newline',
    method: 'orderByClientId',
    argument: 'clientId',
    mentions: ['without control characters'],
    call: (rest) => rest.orderByClientId('a\nb'),
  },
  {
    title: 'token rejects an empty symbol',
    method: 'token',
    argument: 'symbol',
    mentions: ['non-empty string'],
    call: (rest) => rest.token(''),
  },
  {
    title: 'token rejects a non-string symbol',
    method: 'token',
    argument: 'symbol',
    mentions: ['non-empty string'],
    call: (rest) => rest.token(unchecked(5)),
  },
  {
    title: 'pool rejects an empty symbol',
    method: 'pool',
    argument: 'idOrSymbol',
    mentions: ['non-empty string'],
    call: (rest) => rest.pool(''),
  },
  // transfer ids
  ...['12a', '', '-1', '1.5', ' 12', '18446744073709551616'].map(
    (afterId): RejectCase => ({
      title: `transfers rejects afterId ${show(afterId)}`,
      method: 'transfers',
      argument: 'afterId',
      mentions: ['digits of an unsigned 64-bit integer or a non-negative safe integer'],
      call: (rest) => rest.transfers({ afterId }),
    }),
  ),
  ...['9.5', '-3', 'x'].map(
    (afterSeq): RejectCase => ({
      title: `trades rejects afterSeq ${show(afterSeq)}`,
      method: 'trades',
      argument: 'afterSeq',
      mentions: ['digits of an unsigned 64-bit integer'],
      call: (rest) => rest.trades({ afterSeq }),
    }),
  ),
  {
    title: 'transfers rejects a negative numeric afterId',
    method: 'transfers',
    argument: 'afterId',
    mentions: ['integer >= 0'],
    call: (rest) => rest.transfers({ afterId: -1 }),
  },
  // source and the arguments object
  {
    title: "depth rejects source 'v3'",
    method: 'depth',
    argument: 'source',
    mentions: ["'v2' or 'v1'"],
    call: (rest) => rest.depth(unchecked({ poolId: 1, source: 'v3' })),
  },
  ...(['depth', 'klines', 'latestTrades'] as const).map(
    (method): RejectCase => ({
      title: `${method} rejects source null (not taken as "use the default")`,
      method,
      argument: 'source',
      mentions: ["'v2' or 'v1'"],
      call: (rest) =>
        method === 'depth'
          ? rest.depth(unchecked({ poolId: 1, source: null }))
          : method === 'klines'
            ? rest.klines(unchecked({ poolId: 1, interval: '1m', source: null }))
            : rest.latestTrades(unchecked({ source: null })),
    }),
  ),
  {
    title: 'trades rejects arguments that are not an object',
    method: 'trades',
    argument: 'args',
    mentions: ['must be an object'],
    call: (rest) => rest.trades(unchecked(5)),
  },
  // call options
  {
    title: 'ping rejects a signal that is not an AbortSignal',
    method: 'ping',
    argument: 'signal',
    mentions: ['AbortSignal'],
    call: (rest) => rest.ping(unchecked({ signal: { aborted: false, addEventListener() {} } })),
  },
  {
    title: 'depth rejects a string signal',
    method: 'depth',
    argument: 'signal',
    mentions: ['AbortSignal'],
    call: (rest) => rest.depth({ poolId: 1 }, unchecked({ signal: 'abort' })),
  },
  {
    title: 'balances rejects an AbortController in place of its signal',
    method: 'balances',
    argument: 'signal',
    mentions: ['AbortSignal'],
    call: (rest) => rest.balances(unchecked({ signal: new AbortController() })),
  },
  {
    title: 'accountInfo rejects call options that are not an object',
    method: 'accountInfo',
    argument: 'options',
    mentions: ['{ signal }'],
    call: (rest) => rest.accountInfo(unchecked('fast')),
  },
]

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
  const ACCOUNT: readonly { name: string; call: (rest: RestClient) => Promise<unknown> }[] = [
    { name: 'accountInfo', call: (rest) => rest.accountInfo() },
    { name: 'balances', call: (rest) => rest.balances() },
    { name: 'historyOrders', call: (rest) => rest.historyOrders() },
    { name: 'openOrders', call: (rest) => rest.openOrders() },
    { name: 'order', call: (rest) => rest.order('0-1-0') },
    { name: 'orderByClientId', call: (rest) => rest.orderByClientId('cid-7') },
    { name: 'trades', call: (rest) => rest.trades() },
    { name: 'transfers', call: (rest) => rest.transfers() },
  ]

  const PUBLIC: readonly { name: string; call: (rest: RestClient) => Promise<unknown> }[] = [
    { name: 'depth', call: (rest) => rest.depth({ poolId: 1 }) },
    { name: 'klines', call: (rest) => rest.klines({ poolId: 1, interval: '1m' }) },
    { name: 'latestTrades', call: (rest) => rest.latestTrades() },
    { name: 'ping', call: (rest) => rest.ping() },
    { name: 'systemInfo', call: (rest) => rest.systemInfo() },
    { name: 'pools', call: (rest) => rest.pools() },
    { name: 'pool', call: (rest) => rest.pool(1) },
    { name: 'tokens', call: (rest) => rest.tokens() },
    { name: 'token', call: (rest) => rest.token('USDT') },
  ]

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
