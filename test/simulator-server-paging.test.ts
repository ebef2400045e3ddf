import { afterEach, describe, expect, it } from 'vitest'
import type { OrderRecord, TradeDetailRecord, TransferRecord } from '../src/simulator/index.js'
import { type Simulator, startSimulator } from '../src/simulator/index.js'
import { createFakeMarket, type FakeMarketOptions, KEY_A, START_MS } from './helpers/fake-market.js'

let sim: Simulator

async function start(options: FakeMarketOptions = {}): Promise<void> {
  const market = createFakeMarket(options)
  sim = await startSimulator({ clock: 'manual', createMarket: () => market })
}

afterEach(async () => {
  await sim.close()
})

interface Page<T> {
  status: number
  data: T[]
  total: number
  message: string
}

async function page<T>(path: string): Promise<Page<T>> {
  const response = await fetch(`${sim.url}${path}`, { headers: { authorization: KEY_A } })
  const body = (await response.json()) as {
    data: T[]
    message: string
    meta: { total: number }
  }
  return { status: response.status, data: body.data, total: body.meta.total, message: body.message }
}

const T0 = START_MS / 1000

describe('simulator server: /trades', () => {
  it('covers every trade exactly once when paging by global_seq ascending, limit 100', async () => {
    await start({ trades: 537 })
    const seen: number[] = []
    let cursor = 0
    let pages = 0
    for (;;) {
      const { data } = await page<TradeDetailRecord>(
        `/api/v1/trades?global_seq=${cursor}&sort=asc&limit=100`,
      )
      pages += 1
      if (data.length === 0) break
      seen.push(...data.map((t) => t.global_seq))
      cursor = data.at(-1)?.global_seq ?? cursor
    }
    const expected = sim.truth.trades().map((t) => t.global_seq)
    expect(seen).toEqual(expected)
    expect(new Set(seen).size).toBe(537)
    expect(pages).toBe(7) // 6 pages of data (5 x 100 + 37) and one empty page
  })

  it('sorts newest first by default, with limit 50', async () => {
    await start({ trades: 537 })
    const { data, total } = await page<TradeDetailRecord>('/api/v1/trades')
    expect(total).toBe(537)
    expect(data).toHaveLength(50)
    const seqs = data.map((t) => t.global_seq)
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a))
    expect(seqs[0]).toBe(1000 + 536 * 3)
  })

  it('filters by pool and by exclusive after / before times', async () => {
    await start({ trades: 537 })
    const pool = await page<TradeDetailRecord>('/api/v1/trades?pool_id=1&limit=100')
    expect(pool.data.every((t) => t.pool_id === 1)).toBe(true)
    expect(pool.total).toBe(268)
    // Four trades per second: seconds T0+10 .. T0+12 exclusive leaves second T0+11 only.
    const window = await page<TradeDetailRecord>(
      `/api/v1/trades?after=${T0 + 10}&before=${T0 + 12}&sort=asc`,
    )
    expect(window.data.map((t) => t.timestamp)).toEqual([T0 + 11, T0 + 11, T0 + 11, T0 + 11])
  })

  it('answers 400 for a limit above 100, a bad sort or non-integer filters', async () => {
    await start()
    const cases: [string, string][] = [
      ['limit=101', 'limit'],
      ['limit=0', 'limit'],
      ['sort=up', 'sort'],
      ['global_seq=-1', 'global_seq'],
      ['after=1.5', 'after'],
      ['before=soon', 'before'],
      ['pool_id=x', 'pool_id'],
    ]
    for (const [query, name] of cases) {
      const { status, message } = await page(`/api/v1/trades?${query}`)
      expect({ query, status, message }).toEqual({
        query,
        status: 400,
        message: `invalid parameter: ${name}`,
      })
    }
  })
})

describe('simulator server: /transfers', () => {
  it('covers every transfer exactly once when paging by id ascending', async () => {
    await start({ transfers: 123 })
    const seen: string[] = []
    let cursor = '0'
    for (;;) {
      const { data } = await page<TransferRecord>(
        `/api/v1/transfers?id=${cursor}&sort=asc&limit=20`,
      )
      if (data.length === 0) break
      seen.push(...data.map((t) => t.sid))
      cursor = data.at(-1)?.sid ?? cursor
    }
    expect(seen).toEqual(sim.truth.transfers().map((t) => t.sid))
  })

  it('compares ids as integers, not as text', async () => {
    await start({ transfers: 123 })
    // sid runs from 999999950 to 1000000072: '999999999' > '1000000000' as text.
    const { data, total } = await page<TransferRecord>('/api/v1/transfers?id=999999999&sort=asc')
    expect(total).toBe(73)
    expect(data[0]?.sid).toBe('1000000000')
  })

  it('sorts newest first by default (created_at, then sid) with limit 50', async () => {
    await start({ transfers: 123 })
    const { data } = await page<TransferRecord>('/api/v1/transfers')
    expect(data).toHaveLength(50)
    expect(data.map((t) => t.sid)).toEqual(
      sim.truth
        .transfers()
        .map((t) => t.sid)
        .reverse()
        .slice(0, 50),
    )
  })

  it('filters by start and end seconds of created_at', async () => {
    await start({ transfers: 123 })
    const { data } = await page<TransferRecord>(
      `/api/v1/transfers?start=${T0 + 3}&end=${T0 + 4}&sort=asc`,
    )
    expect(data.map((t) => t.created_at)).toEqual([
      new Date((T0 + 3) * 1000).toISOString(),
      new Date((T0 + 3) * 1000).toISOString(),
      new Date((T0 + 4) * 1000).toISOString(),
      new Date((T0 + 4) * 1000).toISOString(),
    ])
  })

  it('accepts limits up to 1000 and answers 400 beyond', async () => {
    await start({ transfers: 123 })
    expect((await page('/api/v1/transfers?limit=1000')).data).toHaveLength(123)
    expect((await page('/api/v1/transfers?limit=1001')).message).toBe('invalid parameter: limit')
    expect((await page('/api/v1/transfers?id=-3')).message).toBe('invalid parameter: id')
    expect((await page('/api/v1/transfers?sort=ASC')).message).toBe('invalid parameter: sort')
  })
})

describe('simulator server: order lists', () => {
  it('pages history orders newest first with limit 20 and offset', async () => {
    await start({ historyOrders: 250 })
    const first = await page<OrderRecord>('/api/v1/history-orders')
    expect(first.data.map((o) => o.order_id)).toEqual(Array.from({ length: 20 }, (_, i) => 250 - i))
    const second = await page<OrderRecord>('/api/v1/history-orders?offset=20&limit=5')
    expect(second.data.map((o) => o.order_id)).toEqual([230, 229, 228, 227, 226])
    expect(second.total).toBe(250)
  })

  it('clamps a limit above 100 to 100', async () => {
    await start({ historyOrders: 250 })
    const { status, data } = await page<OrderRecord>('/api/v1/history-orders?limit=1000')
    expect(status).toBe(200)
    expect(data).toHaveLength(100)
  })

  it('filters by pool, side, type and status', async () => {
    await start({ historyOrders: 250, openOrders: 30 })
    const { data, total } = await page<OrderRecord>(
      '/api/v1/history-orders?pool_id=1&side=0&type=1&status=3&limit=100',
    )
    expect(total).toBeGreaterThan(0)
    for (const order of data) {
      expect(order).toMatchObject({ pool_id: 1, side: 0, type: 1, status: 3 })
    }
    const open = await page<OrderRecord>('/api/v1/open-orders?side=1&limit=100')
    expect(open.data.every((o) => o.side === 1)).toBe(true)
    expect(open.total).toBe(open.data.length)
  })

  it('answers 400 for bad order filters', async () => {
    await start()
    for (const [query, name] of [
      ['side=2', 'side'],
      ['type=x', 'type'],
      ['offset=-1', 'offset'],
      ['limit=0', 'limit'],
      ['status=1.5', 'status'],
    ]) {
      const { status, message } = await page(`/api/v1/open-orders?${query}`)
      expect({ status, message }).toEqual({ status: 400, message: `invalid parameter: ${name}` })
    }
  })
})
