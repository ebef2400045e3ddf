import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { type Simulator, startSimulator } from '../src/simulator/index.js'
import { createFakeMarket, type FakeMarket, KEY_A, KEY_B, START_MS } from './helpers/fake-market.js'

let sim: Simulator
let market: FakeMarket

async function start(): Promise<void> {
  market = createFakeMarket()
  sim = await startSimulator({ clock: 'manual', createMarket: () => market })
}

afterEach(async () => {
  await sim.close()
})

interface Answer {
  status: number
  body: { code: number; message: string; data: unknown; meta: Record<string, unknown> }
  headers: Headers
}

async function get(path: string, init: { key?: string; method?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = init.key === undefined ? {} : { authorization: init.key }
  const response = await fetch(`${sim.url}${path}`, { headers, method: init.method ?? 'GET' })
  const body = (await response.json()) as Answer['body']
  return { status: response.status, body, headers: response.headers }
}

const PUBLIC_ROUTES = [
  '/api/v1/depth?pool_id=0',
  '/api/v1/depth/v2?pool_id=0',
  '/api/v1/klines?pool_id=0&interval=1m&start=1&end=2',
  '/api/v1/klines/v2?pool_id=0&interval=1m&start=1&end=2',
  '/api/v1/latest-trades',
  '/api/v1/latest-trades/v2',
  '/api/v1/ping',
  '/api/v1/system-info',
  '/api/v1/pools',
  '/api/v1/pools/0',
  '/api/v1/tokens',
  '/api/v1/token/CHN',
]

const ACCOUNT_ROUTES = [
  '/api/v1/info',
  '/api/v1/balances',
  '/api/v1/history-orders',
  '/api/v1/open-orders',
  '/api/v1/orders/1-1-0',
  '/api/v1/orders/client-id/cid-alice-1',
  '/api/v1/trades',
  '/api/v1/transfers',
]

describe('simulator server: routes and envelope', () => {
  it('answers every public route with HTTP 200 and the success envelope, without a key', async () => {
    await start()
    for (const path of PUBLIC_ROUTES) {
      const { status, body, headers } = await get(path)
      expect({ path, status, code: body.code, message: body.message }).toEqual({
        path,
        status: 200,
        code: 0,
        message: '',
      })
      expect(body.data).not.toBeNull()
      expect(body.meta).toBeTypeOf('object')
      expect(headers.get('content-type')).toMatch(/^application\/json/)
    }
  })

  it('answers every account route with HTTP 200 and the success envelope with a key', async () => {
    await start()
    for (const path of ACCOUNT_ROUTES) {
      const { status, body } = await get(path, { key: KEY_A })
      expect({ path, status, code: body.code }).toEqual({ path, status: 200, code: 0 })
      expect(body.data).not.toBeNull()
    }
  })

  it('puts the count before paging in meta.total of list endpoints', async () => {
    await start()
    const history = await get('/api/v1/history-orders?limit=5', { key: KEY_A })
    expect(history.body.data).toHaveLength(5)
    expect(history.body.meta).toEqual({ total: 250 })
    const pools = await get('/api/v1/pools?limit=1')
    expect(pools.body.meta).toEqual({ total: 2 })
    const trades = await get('/api/v1/trades?limit=10', { key: KEY_A })
    expect(trades.body.meta).toEqual({ total: 537 })
    const transfers = await get('/api/v1/transfers?limit=10', { key: KEY_A })
    expect(transfers.body.meta).toEqual({ total: 123 })
  })

  it('answers an unknown path with HTTP 404, code 404, not found', async () => {
    await start()
    for (const path of ['/api/v1/nope', '/', '/api/v1/depth/v3', '/api/v1/ping/']) {
      const { status, body } = await get(path)
      expect({ path, status, body }).toEqual({
        path,
        status: 404,
        body: { code: 404, message: 'not found', data: null, meta: {} },
      })
    }
  })

  it('answers a request target that is not a URL with 404 and keeps serving', async () => {
    await start()
    const { port } = new URL(sim.url)
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.end('GET http://[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
      })
      let text = ''
      socket.on('data', (chunk) => {
        text += String(chunk)
      })
      socket.on('end', () => resolve(text))
      socket.on('error', reject)
    })
    expect(answer).toMatch(/^HTTP\/1\.1 404/)
    expect((await get('/api/v1/ping')).status).toBe(200)
  })

  it('answers methods other than GET with 405 and the envelope', async () => {
    await start()
    const { status, body, headers } = await get('/api/v1/ping', { method: 'POST' })
    expect(status).toBe(405)
    expect(body).toEqual({ code: 405, message: 'method not allowed', data: null, meta: {} })
    expect(headers.get('allow')).toBe('GET')
  })

  it('answers ping with the market time in Unix seconds', async () => {
    await start()
    sim.advance(8)
    const { body } = await get('/api/v1/ping')
    expect(body.data).toEqual({ timestamp: Math.floor((START_MS + 8 * 250) / 1000) })
  })

  it('serves fixed system info', async () => {
    await start()
    const { body } = await get('/api/v1/system-info')
    expect(Object.keys(body.data as object).sort()).toEqual([
      'app_contract',
      'pay_chain_account',
      'token_contract',
      'version',
    ])
  })
})

describe('simulator server: market data', () => {
  it('passes depth arguments through, with limit 100 and the pool price tick by default', async () => {
    await start()
    await get('/api/v1/depth?pool_id=0')
    expect(market.calls.depth).toEqual({ poolId: 0, source: 'v1', limit: 100, precision: '0.0001' })
    await get('/api/v1/depth/v2?pool_id=1&limit=5000&precision=0.1')
    expect(market.calls.depth).toEqual({ poolId: 1, source: 'v2', limit: 5000, precision: '0.1' })
    await get('/api/v1/depth/v2?pool_id=1')
    expect(market.calls.depth?.precision).toBe('0.01')
  })

  it('maps V1 and V2 paths of klines and latest trades to the market source', async () => {
    await start()
    await get('/api/v1/klines?pool_id=1&interval=1M&start=10&end=20')
    expect(market.calls.klines).toEqual({
      poolId: 1,
      source: 'v1',
      interval: '1M',
      start: 10,
      end: 20,
    })
    await get('/api/v1/klines/v2?pool_id=0&interval=4h&start=1&end=2')
    expect(market.calls.klines?.source).toBe('v2')
    await get('/api/v1/latest-trades')
    expect(market.calls.latestTrades).toEqual({ poolId: undefined, source: 'v1', limit: 10 })
    await get('/api/v1/latest-trades/v2?pool_id=1&limit=100')
    expect(market.calls.latestTrades).toEqual({ poolId: 1, source: 'v2', limit: 100 })
  })

  it('answers 400 invalid parameter for bad market-data parameters', async () => {
    await start()
    const cases: [string, string][] = [
      ['/api/v1/depth', 'pool_id'],
      ['/api/v1/depth?pool_id=abc', 'pool_id'],
      ['/api/v1/depth?pool_id=99', 'pool_id'],
      ['/api/v1/depth?pool_id=0&limit=0', 'limit'],
      ['/api/v1/depth?pool_id=0&limit=5001', 'limit'],
      ['/api/v1/depth?pool_id=0&limit=1.5', 'limit'],
      ['/api/v1/depth?pool_id=0&precision=0.000000001', 'precision'],
      ['/api/v1/depth?pool_id=0&precision=20000', 'precision'],
      ['/api/v1/depth?pool_id=0&precision=abc', 'precision'],
      ['/api/v1/klines?interval=1m&start=1&end=2', 'pool_id'],
      ['/api/v1/klines?pool_id=0&start=1&end=2', 'interval'],
      ['/api/v1/klines?pool_id=0&interval=1m&end=2', 'start'],
      ['/api/v1/klines/v2?pool_id=0&interval=1m&start=1', 'end'],
      ['/api/v1/klines?pool_id=0&interval=1m&start=x&end=2', 'start'],
      ['/api/v1/latest-trades?limit=101', 'limit'],
      ['/api/v1/latest-trades?pool_id=x', 'pool_id'],
    ]
    for (const [path, name] of cases) {
      const { status, body } = await get(path)
      expect({ path, status, body }).toEqual({
        path,
        status: 400,
        body: { code: 400, message: `invalid parameter: ${name}`, data: null, meta: {} },
      })
    }
  })

  it('answers 500 service internal error for an invalid kline interval', async () => {
    await start()
    for (const interval of ['2m', '1y', '1H']) {
      const { status, body } = await get(
        `/api/v1/klines/v2?pool_id=0&interval=${interval}&start=1&end=2`,
      )
      expect(status).toBe(500)
      expect(body).toEqual({ code: 500, message: 'service internal error', data: null, meta: {} })
    }
  })
})

describe('simulator server: general data', () => {
  it('answers an unknown pool with HTTP 200 and an all-zero record', async () => {
    await start()
    const { status, body } = await get('/api/v1/pools/42')
    expect(status).toBe(200)
    const data = body.data as Record<string, unknown>
    expect(data['pool_id']).toBe(0)
    expect(data['symbol']).toBe('')
    expect(data['maker_fee_rate']).toBe(0)
    expect(data['pool_stats']).toMatchObject({ pool_id: 0, symbol: '', last_price: '', trades: 0 })
  })

  it('finds a pool by id and by symbol', async () => {
    await start()
    const byId = await get('/api/v1/pools/1')
    const bySymbol = await get(
      `/api/v1/pools/${encodeURIComponent('chain.token-BTC-usdt.ext-USDT')}`,
    )
    expect(byId.body.data).toEqual(bySymbol.body.data)
    expect((byId.body.data as { pool_id: number }).pool_id).toBe(1)
  })

  it('filters pools by base and quote coin and pages them', async () => {
    await start()
    const btc = await get('/api/v1/pools?base_coin=BTC')
    expect((btc.body.data as { pool_id: number }[]).map((p) => p.pool_id)).toEqual([1])
    const usdt = await get('/api/v1/pools?quote_coin=usdt.ext-USDT&offset=1&limit=5')
    expect((usdt.body.data as { pool_id: number }[]).map((p) => p.pool_id)).toEqual([1])
    expect(usdt.body.meta).toEqual({ total: 2 })
  })

  it('answers an unknown token with HTTP 404 not found', async () => {
    await start()
    const { status, body } = await get('/api/v1/token/NOPE')
    expect(status).toBe(404)
    expect(body).toEqual({ code: 404, message: 'not found', data: null, meta: {} })
    expect((await get('/api/v1/token/USDT')).body.data).toMatchObject({ symbol: 'USDT' })
  })
})

describe('simulator server: auth', () => {
  it('answers HTTP 400 code 0 missing API key on every account route without a key', async () => {
    await start()
    for (const path of ACCOUNT_ROUTES) {
      const { status, body } = await get(path)
      expect({ path, status, body }).toEqual({
        path,
        status: 400,
        body: { code: 0, message: 'missing API key', data: null, meta: {} },
      })
    }
  })

  it('answers HTTP 400 code 0 invalid API key for an unknown key', async () => {
    await start()
    for (const path of ACCOUNT_ROUTES) {
      const { status, body } = await get(path, { key: 'k-unknown' })
      expect({ path, status, body }).toEqual({
        path,
        status: 400,
        body: { code: 0, message: 'invalid API key', data: null, meta: {} },
      })
    }
  })

  it('strips a leading Bearer from the Authorization header', async () => {
    await start()
    const { status, body } = await get('/api/v1/info', { key: `Bearer ${KEY_A}` })
    expect(status).toBe(200)
    expect(body.data).toEqual({
      chain_account: 'alice',
      parent_chain_account: '',
      permission: 'active',
    })
  })

  it('serves each key its own account', async () => {
    await start()
    const bob = await get('/api/v1/info', { key: KEY_B })
    expect((bob.body.data as { chain_account: string }).chain_account).toBe('bob')
  })

  it('ignores the Authorization header on market and general routes', async () => {
    await start()
    for (const path of PUBLIC_ROUTES) {
      const { status } = await get(path, { key: 'k-unknown' })
      expect({ path, status }).toEqual({ path, status: 200 })
    }
  })
})

describe('simulator server: orders', () => {
  it('returns an order by id with its trades', async () => {
    await start()
    const { body } = await get('/api/v1/orders/1-1-0', { key: KEY_A })
    expect(body.data).toMatchObject({ id: '1-1-0', order_id: 1, trades: [] })
  })

  it('answers 500 service internal error for a bad, unknown or foreign order id', async () => {
    await start()
    // 9001 belongs to bob: alice must not see it.
    for (const id of ['abc', '1-1', '1-1-2', '0-999999-0', '1-9001-0', '1-1-1']) {
      const { status, body } = await get(`/api/v1/orders/${id}`, { key: KEY_A })
      expect({ id, status, body }).toEqual({
        id,
        status: 500,
        body: { code: 500, message: 'service internal error', data: null, meta: {} },
      })
    }
    expect((await get('/api/v1/orders/1-9001-0', { key: KEY_B })).status).toBe(200)
  })

  it('finds an order by client id, percent-decoded, and answers 500 for an unknown one', async () => {
    await start()
    const found = await get('/api/v1/orders/client-id/cid%2Dalice%2D7', { key: KEY_A })
    expect(found.body.data).toMatchObject({ order_cid: 'cid-alice-7' })
    const unknown = await get('/api/v1/orders/client-id/a%2Fb', { key: KEY_A })
    expect(unknown.status).toBe(500)
    expect(unknown.body.message).toBe('service internal error')
    const foreign = await get('/api/v1/orders/client-id/cid-bob-9001', { key: KEY_A })
    expect(foreign.status).toBe(500)
  })

  it('lists open orders without the history-only fields', async () => {
    await start()
    const { body } = await get('/api/v1/open-orders?limit=1', { key: KEY_A })
    const [first] = body.data as Record<string, unknown>[]
    expect(first).toBeDefined()
    for (const field of ['filled_total', 'history', 'permission', 'status', 'unread']) {
      expect(first).not.toHaveProperty(field)
    }
    expect(first).toHaveProperty('order_id', 280)
  })
})
