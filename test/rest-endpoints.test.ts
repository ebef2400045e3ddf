import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type {
  CallOptions,
  MarketDataSource,
  OrdersArgs,
  RestClient,
  RestMethodName,
  Venue,
  VenueOptions,
} from '../src/index.js'
import { createVenue, DEFAULT_PARAM_NAMES, VenueInputError } from '../src/index.js'
import { ENDPOINTS } from '../src/rest/endpoints.js'
import { eachCase } from './helpers/each-case.js'
import { dataFor, depth, kline, publicTrade, T } from './helpers/fixtures.js'
import {
  ok,
  type RecordedRequest,
  type RecordingServer,
  startRecordingServer,
} from './helpers/recording-server.js'

const KEY = 'k-DLTahpw5CKSZgov4BJRYfnu3AHQXemt29GPW'

/** One `venue.rest` method: how to call it, and the request it must send. */
interface EndpointCase {
  /** Calls the method with arguments that exercise every filter it has. */
  readonly call: (rest: RestClient, options?: CallOptions) => Promise<unknown>
  /** Expected path, exactly as sent (percent-encoding included). */
  readonly path: string
  /** The `{id}` path segment, for endpoints with a path parameter. */
  readonly id?: string
  /** Expected query, with the snake_case wire names. */
  readonly query: Readonly<Record<string, string>>
  /** Whether the API key is sent (account endpoints, docs/venue-interface.md#auth). */
  readonly auth: boolean
}

/** A method that takes nothing but the call options, so sends no query. */
function optionsOnly(
  method: 'accountInfo' | 'balances' | 'ping' | 'systemInfo' | 'tokens',
  path: string,
  auth: boolean,
): EndpointCase {
  return { call: (rest, o) => rest[method](o), path, query: {}, auth }
}

/** A method whose one string argument is the `{id}` path segment, so sends no query. */
function byId(
  method: 'order' | 'orderByClientId' | 'token',
  id: string,
  path: string,
  auth: boolean,
): EndpointCase {
  return { call: (rest, o) => rest[method](id, o), path, id, query: {}, auth }
}

/**
 * An orders method (account) given every filter: each is sent under its own name, except
 * `poolId` as `pool_id`.
 */
function everyOrderFilter(
  method: 'historyOrders' | 'openOrders',
  path: string,
  filters: Required<OrdersArgs>,
): EndpointCase {
  const { poolId, side, type, status, limit, offset } = filters
  return {
    call: (rest, o) => rest[method](filters, o),
    path,
    query: {
      pool_id: String(poolId),
      side: String(side),
      type: String(type),
      status: String(status),
      limit: String(limit),
      offset: String(offset),
    },
    auth: true,
  }
}

/**
 * Every REST method. Typed as a record over `RestMethodName`, and checked at run time
 * against `ENDPOINTS` and `venue.rest`, so a new endpoint without a case fails.
 */
const CASES: Readonly<Record<RestMethodName, EndpointCase>> = {
  depth: {
    call: (rest, o) => rest.depth({ poolId: 1, limit: 5, precision: '0.01' }, o),
    path: '/api/v1/depth/v2',
    query: { pool_id: '1', limit: '5', precision: '0.01' },
    auth: false,
  },
  klines: {
    call: (rest, o) => rest.klines({ poolId: 2, interval: '5m', start: T - 3000, end: T }, o),
    path: '/api/v1/klines/v2',
    query: { pool_id: '2', interval: '5m', start: String(T - 3000), end: String(T) },
    auth: false,
  },
  latestTrades: {
    call: (rest, o) => rest.latestTrades({ poolId: 3, limit: 20 }, o),
    path: '/api/v1/latest-trades/v2',
    query: { pool_id: '3', limit: '20' },
    auth: false,
  },
  accountInfo: optionsOnly('accountInfo', '/api/v1/info', true),
  balances: optionsOnly('balances', '/api/v1/balances', true),
  historyOrders: everyOrderFilter('historyOrders', '/api/v1/history-orders', {
    poolId: 4,
    side: 1,
    type: 0,
    status: 3,
    limit: 50,
    offset: 100,
  }),
  openOrders: everyOrderFilter('openOrders', '/api/v1/open-orders', {
    poolId: 5,
    side: 0,
    type: 1,
    status: 0,
    limit: 10,
    offset: 0,
  }),
  order: byId('order', '1-7-0', '/api/v1/orders/1-7-0', true),
  orderByClientId: byId('orderByClientId', 'cid-7', '/api/v1/orders/client-id/cid-7', true),
  trades: {
    call: (rest, o) =>
      rest.trades(
        { poolId: 1, limit: 100, after: T - 60, before: T, afterSeq: 1000, sort: 'asc' },
        o,
      ),
    path: '/api/v1/trades',
    query: {
      pool_id: '1',
      limit: '100',
      after: String(T - 60),
      before: String(T),
      global_seq: '1000',
      sort: 'asc',
    },
    auth: true,
  },
  transfers: {
    call: (rest, o) =>
      rest.transfers({ limit: 500, start: T - 86_400, end: T, afterId: '16', sort: 'desc' }, o),
    path: '/api/v1/transfers',
    query: { limit: '500', start: String(T - 86_400), end: String(T), id: '16', sort: 'desc' },
    auth: true,
  },
  ping: optionsOnly('ping', '/api/v1/ping', false),
  systemInfo: optionsOnly('systemInfo', '/api/v1/system-info', false),
  pools: {
    call: (rest, o) =>
      rest.pools(
        { baseCoin: 'chain.token-CHN', quoteCoin: 'usdt.ext-USDT', limit: 10, offset: 20 },
        o,
      ),
    path: '/api/v1/pools',
    query: { base_coin: 'chain.token-CHN', quote_coin: 'usdt.ext-USDT', limit: '10', offset: '20' },
    auth: false,
  },
  pool: {
    call: (rest, o) => rest.pool(1, o),
    path: '/api/v1/pools/1',
    id: '1',
    query: {},
    auth: false,
  },
  tokens: optionsOnly('tokens', '/api/v1/tokens', false),
  token: byId('token', 'USDT', '/api/v1/token/USDT', false),
}

const ROWS = Object.entries(CASES).map(([name, c]) => ({ name: name as RestMethodName, ...c }))
const ACCOUNT_ROWS = ROWS.filter((row) => row.auth)
const PUBLIC_ROWS = ROWS.filter((row) => !row.auth)

/** The query of a recorded request, failing on a repeated name (which `query` would hide). */
function queryOf(request: RecordedRequest): Record<string, string> {
  const params = new URL(request.rawPath, 'http://127.0.0.1').searchParams
  const names = [...params.keys()]
  expect(new Set(names).size, `repeated query name in ${request.rawPath}`).toBe(names.length)
  return Object.fromEntries(params)
}

let server: RecordingServer
let venue: Venue
const extraVenues: Venue[] = []

/** A second venue on the same server, closed after the test. */
function openVenue(options: Partial<VenueOptions> = {}): Venue {
  const created = createVenue({ baseUrl: server.url, apiKey: KEY, ...options })
  extraVenues.push(created)
  return created
}

beforeAll(async () => {
  server = await startRecordingServer((r) => ok(dataFor(r.pathname)))
  venue = createVenue({ baseUrl: server.url, apiKey: KEY, maxRequestsPerSecond: 1e6 })
})

beforeEach(() => {
  server.handle((r) => ok(dataFor(r.pathname)))
  server.requests.length = 0
})

afterEach(async () => {
  await Promise.all(extraVenues.splice(0).map((v) => v.close()))
})

afterAll(async () => {
  await venue?.close()
  await server?.close()
})

describe('endpoint table', () => {
  it('has a test case for every ENDPOINTS entry and every venue.rest method', () => {
    const expected = Object.keys(CASES).sort()
    expect(Object.keys(ENDPOINTS).sort()).toEqual(expected)
    expect(Object.keys(venue.rest).sort()).toEqual(expected)
    expect(expected).toHaveLength(17)
  })

  eachCase(
    ROWS,
    (r) => `ENDPOINTS.${r.name} agrees with the expected path, group and auth`,
    (row) => {
      const endpoint = ENDPOINTS[row.name]
      const template = endpoint.v2Path ?? endpoint.path
      expect(template.replace('{id}', row.id ?? '')).toBe(row.path)
      expect(endpoint.auth).toBe(row.auth)
      expect(endpoint.group === 'account').toBe(row.auth)
    },
  )
})

describe('requests', () => {
  eachCase(
    ROWS,
    (r) => `${r.name} sends one GET to its exact path with the snake_case query`,
    async (row) => {
      await row.call(venue.rest)
      expect(server.requests).toHaveLength(1)
      const request = server.last()
      expect(request.method).toBe('GET')
      expect(request.rawPath.split('?')[0]).toBe(row.path)
      expect(request.pathname).toBe(row.path)
      expect(queryOf(request)).toEqual(row.query)
    },
  )

  eachCase(
    ACCOUNT_ROWS,
    (r) => `${r.name} sends the API key as the authorization header`,
    async (row) => {
      await row.call(venue.rest)
      expect(server.last().headers['authorization']).toBe(KEY)
    },
  )

  eachCase(
    PUBLIC_ROWS,
    (r) => `${r.name} sends no authorization header`,
    async (row) => {
      await row.call(venue.rest)
      expect(server.last().headers).not.toHaveProperty('authorization')
    },
  )

  eachCase(
    [
      { name: 'latestTrades', call: (rest: RestClient) => rest.latestTrades() },
      { name: 'historyOrders', call: (rest: RestClient) => rest.historyOrders() },
      { name: 'openOrders', call: (rest: RestClient) => rest.openOrders() },
      { name: 'trades', call: (rest: RestClient) => rest.trades() },
      { name: 'transfers', call: (rest: RestClient) => rest.transfers() },
      { name: 'pools', call: (rest: RestClient) => rest.pools() },
    ],
    (r) => `${r.name} without arguments sends no query string`,
    async ({ call }) => {
      await call(venue.rest)
      expect(server.last().rawPath).not.toContain('?')
    },
  )

  eachCase(
    ROWS,
    (r) => `${r.name} resolves to the schema-validated data, not the envelope`,
    async (row) => {
      const result = await row.call(venue.rest)
      expect(result).toEqual(ENDPOINTS[row.name].schema.parse(dataFor(row.path)))
      expect(result).not.toHaveProperty('code')
    },
  )

  eachCase(
    ROWS,
    (r) => `${r.name} accepts { signal } of a controller that never aborts`,
    async (row) => {
      const controller = new AbortController()
      const result = await row.call(venue.rest, { signal: controller.signal })
      expect(result).toEqual(ENDPOINTS[row.name].schema.parse(dataFor(row.path)))
      expect(server.last().pathname).toBe(row.path)
    },
  )

  it('an already aborted signal rejects without sending anything', async () => {
    const controller = new AbortController()
    controller.abort()
    await expect(venue.rest.ping({ signal: controller.signal })).rejects.toMatchObject({
      name: 'VenueAbortError',
    })
    expect(server.requests).toHaveLength(0)
  })

  eachCase(
    ROWS,
    (r) => `${r.name} is sent under the path prefix of the baseUrl`,
    async (row) => {
      const prefixed = openVenue({ baseUrl: `${server.url}/prefix/` })
      server.handle((r) => ok(dataFor(r.pathname.replace(/^\/prefix/, ''))))
      await row.call(prefixed.rest)
      expect(server.last().pathname).toBe(`/prefix${row.path}`)
      expect(queryOf(server.last())).toEqual(row.query)
    },
  )
})

describe('market data source', () => {
  const MARKET = [
    {
      name: 'depth',
      v1: '/api/v1/depth',
      v2: '/api/v1/depth/v2',
      call: (rest: RestClient, source?: MarketDataSource) => rest.depth({ poolId: 1, source }),
    },
    {
      name: 'klines',
      v1: '/api/v1/klines',
      v2: '/api/v1/klines/v2',
      call: (rest: RestClient, source?: MarketDataSource) =>
        rest.klines({ poolId: 1, interval: '1m', source }),
    },
    {
      name: 'latestTrades',
      v1: '/api/v1/latest-trades',
      v2: '/api/v1/latest-trades/v2',
      call: (rest: RestClient, source?: MarketDataSource) =>
        rest.latestTrades({ poolId: 1, source }),
    },
  ]

  eachCase(
    MARKET,
    (r) => `${r.name} reads the V2 path by default`,
    async ({ call, v2 }) => {
      await call(venue.rest)
      expect(server.last().pathname).toBe(v2)
      expect(venue.settings.marketData).toBe('v2')
    },
  )

  eachCase(
    MARKET,
    (r) => `${r.name} reads the V1 path with source: 'v1'`,
    async ({ call, v1 }) => {
      await call(venue.rest, 'v1')
      expect(server.last().pathname).toBe(v1)
      expect(queryOf(server.last())).not.toHaveProperty('source')
    },
  )

  eachCase(
    MARKET,
    (r) => `${r.name} reads the V1 path on a venue created with marketData 'v1'`,
    async ({ call, v1 }) => {
      const legacy = openVenue({ marketData: 'v1' })
      await call(legacy.rest)
      expect(server.last().pathname).toBe(v1)
    },
  )

  eachCase(
    MARKET,
    (r) => `${r.name}: source: 'v2' on a call overrides the venue's 'v1'`,
    async ({ call, v2 }) => {
      const legacy = openVenue({ marketData: 'v1' })
      await call(legacy.rest, 'v2')
      expect(server.last().pathname).toBe(v2)
      expect(queryOf(server.last())).not.toHaveProperty('source')
    },
  )
})

describe('returned values', () => {
  it("hands the envelope's meta to onMeta before resolving (the total of a list)", async () => {
    server.handle(() => ok([], { total: 250 }))
    const metas: unknown[] = []
    const orders = await venue.rest.openOrders(
      { limit: 100, offset: 200 },
      {
        onMeta: (meta) => metas.push(meta),
      },
    )
    expect(orders).toEqual([])
    expect(metas).toEqual([{ total: 250 }])
  })

  it('depth returns levels as decimal strings and the timestamp as epoch ms', async () => {
    server.handle(() => ok({ ...depth, checksum: 'abc' }))
    const book = await venue.rest.depth({ poolId: 1 })
    // The wire depth already has decimal strings and a timestamp in ms: only `checksum` goes.
    expect(book).toEqual(depth)
    expect(book.timestamp).toBe(T * 1000 + 123)
    expect(book.bids.flat().every((value) => typeof value === 'string')).toBe(true)
  })

  it('klines returns prices as decimal strings, times as epoch ms, unknown fields stripped', async () => {
    server.handle(() => ok([{ ...kline, vwap: 1.0449 }]))
    const candles = await venue.rest.klines({ poolId: 1, interval: '1m' })
    expect(candles).toEqual([
      {
        open: '1.04',
        high: '1.05',
        low: '1.03',
        close: '1.045',
        volume: '1200.5',
        turnover: '1254.1',
        count: 42,
        interval: '1m',
        pool_id: 1,
        timestamp: T * 1000,
      },
    ])
    expect(candles[0]).not.toHaveProperty('vwap')
  })

  it('latestTrades returns traded_at (Unix seconds on the wire) as epoch ms', async () => {
    server.handle(() => ok([{ ...publicTrade, id: 99 }]))
    const trades = await venue.rest.latestTrades()
    expect(trades).toEqual([{ ...publicTrade, traded_at: T * 1000 }])
  })

  it('ping returns the server time as epoch ms', async () => {
    await expect(venue.rest.ping()).resolves.toEqual({ timestamp: T * 1000 })
  })

  it('transfers returns created_at (ISO-8601) as epoch ms', async () => {
    const [transfer] = await venue.rest.transfers()
    expect(transfer?.created_at).toBe(T * 1000)
    expect(transfer?.sid).toBe('17')
  })
})

describe('klines start and end', () => {
  it('without start and end sends end = now and start = end - 100 intervals (seconds)', async () => {
    const before = Math.floor(Date.now() / 1000)
    await venue.rest.klines({ poolId: 1, interval: '1h' })
    const after = Math.floor(Date.now() / 1000)
    const query = queryOf(server.last())
    const end = Number(query['end'])
    expect(end).toBeGreaterThanOrEqual(before)
    expect(end).toBeLessThanOrEqual(after)
    expect(Number(query['start'])).toBe(end - 100 * 3600)
  })

  eachCase(
    [
      { interval: '1m', seconds: 60 },
      { interval: '1d', seconds: 86_400 },
      { interval: '1w', seconds: 604_800 },
    ] as const,
    (r) => `the default span for ${r.interval} is 100 × ${r.seconds} s`,
    async ({ interval, seconds }) => {
      await venue.rest.klines({ poolId: 1, interval })
      const query = queryOf(server.last())
      expect(Number(query['end']) - Number(query['start'])).toBe(100 * seconds)
    },
  )

  it('sends a given start and end as they are', async () => {
    await venue.rest.klines({ poolId: 1, interval: '1m', start: 1_600_000_000, end: 1_600_000_600 })
    expect(queryOf(server.last())).toEqual({
      pool_id: '1',
      interval: '1m',
      start: '1600000000',
      end: '1600000600',
    })
  })

  it('with only end given, sends it and start = end - 100 intervals', async () => {
    await venue.rest.klines({ poolId: 1, interval: '5m', end: 1_600_000_000 })
    const query = queryOf(server.last())
    expect(query['end']).toBe('1600000000')
    expect(query['start']).toBe(String(1_600_000_000 - 100 * 300))
  })

  it('with only start given, sends it and end = now', async () => {
    const before = Math.floor(Date.now() / 1000)
    await venue.rest.klines({ poolId: 1, interval: '5m', start: 1_600_000_000 })
    const query = queryOf(server.last())
    expect(query['start']).toBe('1600000000')
    expect(Number(query['end'])).toBeGreaterThanOrEqual(before)
    expect(Number(query['end'])).toBeLessThanOrEqual(Math.floor(Date.now() / 1000))
  })
})

describe('path parameters', () => {
  eachCase(
    [
      { ref: '0-1-0', path: '/api/v1/orders/0-1-0' },
      { ref: { poolId: 0, orderId: 1, side: 0 }, path: '/api/v1/orders/0-1-0' },
      { ref: { poolId: 12, orderId: 345, side: 1 }, path: '/api/v1/orders/12-345-1' },
    ] as const,
    (r) => `order(${JSON.stringify(r.ref)}) requests ${r.path}`,
    async ({ ref, path }) => {
      await venue.rest.order(ref)
      expect(server.last().rawPath).toBe(path)
    },
  )

  it("orderByClientId('../ping') stays under /orders/client-id/ and never reaches /ping", async () => {
    await venue.rest.orderByClientId('../ping')
    const request = server.last()
    expect(request.rawPath).toBe('/api/v1/orders/client-id/..%2Fping')
    expect(request.pathname.startsWith('/api/v1/orders/client-id/')).toBe(true)
    expect(server.requests.map((r) => r.pathname)).not.toContain('/api/v1/ping')
  })

  /** A call with one path argument, and the raw path it must request. */
  const SEGMENTS: readonly {
    readonly method: 'orderByClientId' | 'token' | 'pool'
    readonly arg: string | number
    readonly rawPath: string
  }[] = [
    {
      method: 'orderByClientId',
      arg: 'a b/c?d#e',
      rawPath: '/api/v1/orders/client-id/a%20b%2Fc%3Fd%23e',
    },
    {
      method: 'orderByClientId',
      arg: "it's(1)*!",
      rawPath: '/api/v1/orders/client-id/it%27s%281%29%2A%21',
    },
    { method: 'token', arg: 'US DT', rawPath: '/api/v1/token/US%20DT' },
    {
      method: 'pool',
      arg: 'chain.token-CHN-usdt.ext-USDT',
      rawPath: '/api/v1/pools/chain.token-CHN-usdt.ext-USDT',
    },
    { method: 'pool', arg: 3, rawPath: '/api/v1/pools/3' },
  ]

  /** The call as it reads in source, e.g. `token('US DT')`. */
  function shown(method: string, arg: string | number): string {
    if (typeof arg === 'number') return `${method}(${arg})`
    return arg.includes("'") ? `${method}(${JSON.stringify(arg)})` : `${method}('${arg}')`
  }

  eachCase(
    SEGMENTS,
    (r) => `${shown(r.method, r.arg)} is sent as one encoded path segment: ${r.rawPath}`,
    async ({ method, arg, rawPath }) => {
      // Each method takes a string here; `pool` also takes the number.
      await venue.rest[method](arg as string)
      const request = server.last()
      expect(request.rawPath).toBe(rawPath)
      expect(queryOf(request)).toEqual({})
      const segment = request.rawPath.split('/').at(-1) ?? ''
      expect(decodeURIComponent(segment)).toBe(String(arg))
    },
  )

  eachCase(
    [
      {
        title: "orderByClientId('..')",
        argument: 'clientId',
        call: (r: RestClient) => r.orderByClientId('..'),
      },
      {
        title: "orderByClientId('.')",
        argument: 'clientId',
        call: (r: RestClient) => r.orderByClientId('.'),
      },
      { title: "pool('..')", argument: 'idOrSymbol', call: (r: RestClient) => r.pool('..') },
      { title: "token('.')", argument: 'symbol', call: (r: RestClient) => r.token('.') },
    ],
    (r) => `${r.title} rejects with VenueInputError and sends nothing`,
    async ({ call, argument }) => {
      const promise = call(venue.rest)
      await expect(promise).rejects.toBeInstanceOf(VenueInputError)
      await expect(promise).rejects.toMatchObject({ argument })
      await venue.rest.ping()
      expect(server.requests.map((r) => r.pathname)).toEqual(['/api/v1/ping'])
    },
  )
})

describe('filter wire names', () => {
  it('DEFAULT_PARAM_NAMES holds the documented default names', () => {
    expect(DEFAULT_PARAM_NAMES).toEqual({
      trades: {
        poolId: 'pool_id',
        limit: 'limit',
        after: 'after',
        before: 'before',
        afterSeq: 'global_seq',
        sort: 'sort',
      },
      transfers: { limit: 'limit', start: 'start', end: 'end', afterId: 'id', sort: 'sort' },
      orders: {
        poolId: 'pool_id',
        side: 'side',
        type: 'type',
        status: 'status',
        limit: 'limit',
        offset: 'offset',
      },
    })
  })

  it('a paramNames override renames trades afterSeq and keeps the other default names', async () => {
    const custom = openVenue({ paramNames: { trades: { afterSeq: 'seq_gt' } } })
    await custom.rest.trades({ afterSeq: 5 })
    expect(queryOf(server.last())).toEqual({ seq_gt: '5' })

    await custom.rest.trades({
      poolId: 1,
      limit: 7,
      after: T - 1,
      before: T,
      afterSeq: 6,
      sort: 'desc',
    })
    const names = DEFAULT_PARAM_NAMES.trades
    expect(queryOf(server.last())).toEqual({
      [names.poolId]: '1',
      [names.limit]: '7',
      [names.after]: String(T - 1),
      [names.before]: String(T),
      seq_gt: '6',
      [names.sort]: 'desc',
    })
  })

  it('a paramNames override renames transfers afterId and keeps the other default names', async () => {
    const custom = openVenue({
      paramNames: { trades: { afterSeq: 'seq_gt' }, transfers: { afterId: 'sid_gt' } },
    })
    await custom.rest.transfers({ afterId: 9, limit: 3, start: T - 10, end: T, sort: 'asc' })
    const names = DEFAULT_PARAM_NAMES.transfers
    expect(queryOf(server.last())).toEqual({
      sid_gt: '9',
      [names.limit]: '3',
      [names.start]: String(T - 10),
      [names.end]: String(T),
      [names.sort]: 'asc',
    })
  })

  it('a paramNames override of one group leaves the orders names at their defaults', async () => {
    const custom = openVenue({
      paramNames: { trades: { afterSeq: 'seq_gt' }, transfers: { afterId: 'sid_gt' } },
    })
    await custom.rest.historyOrders({ poolId: 1, side: 0, type: 1, status: 2, limit: 3, offset: 4 })
    expect(queryOf(server.last())).toEqual({
      pool_id: '1',
      side: '0',
      type: '1',
      status: '2',
      limit: '3',
      offset: '4',
    })
  })

  it('a paramNames override does not change the names another venue sends', async () => {
    openVenue({ paramNames: { trades: { afterSeq: 'seq_gt' } } })
    await venue.rest.trades({ afterSeq: 5 })
    expect(queryOf(server.last())).toEqual({ global_seq: '5' })
  })
})
