import { afterEach, describe, expect, it } from 'vitest'
import { type Simulator, startSimulator } from '../src/simulator/index.js'

const running: Simulator[] = []

async function start(seed: number): Promise<Simulator> {
  const sim = await startSimulator({ seed, clock: 'manual', tickMs: 1000 })
  running.push(sim)
  return sim
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((sim) => sim.close()))
})

/** One request per route of the venue, with parameters that give content. */
function everyRoute(sim: Simulator): string[] {
  const order = sim.truth
    .orders()
    .find((o) => o.trader === sim.market.account(sim.apiKey)?.info().chain_account)
  const end = Math.floor(sim.market.now() / 1000)
  return [
    '/api/v1/depth?pool_id=0',
    '/api/v1/depth/v2?pool_id=1&limit=50&precision=1',
    `/api/v1/klines?pool_id=0&interval=1m&start=${end - 3600}&end=${end}`,
    `/api/v1/klines/v2?pool_id=2&interval=5m&start=${end - 3600}&end=${end}`,
    '/api/v1/latest-trades?pool_id=0&limit=20',
    '/api/v1/latest-trades/v2?limit=20',
    '/api/v1/info',
    '/api/v1/balances',
    '/api/v1/history-orders?limit=100',
    '/api/v1/open-orders',
    `/api/v1/orders/${order?.id ?? 'missing'}`,
    `/api/v1/orders/client-id/${encodeURIComponent(order?.order_cid ?? 'missing')}`,
    '/api/v1/trades?limit=100',
    '/api/v1/transfers?limit=100',
    '/api/v1/ping',
    '/api/v1/system-info',
    '/api/v1/pools',
    '/api/v1/pools/1',
    '/api/v1/tokens',
    '/api/v1/token/USDT',
  ]
}

async function bodies(sim: Simulator, paths: readonly string[]): Promise<string[]> {
  const texts: string[] = []
  for (const path of paths) {
    const response = await fetch(sim.url + path, { headers: { authorization: sim.apiKey } })
    expect(response.status, path).toBe(200)
    texts.push(await response.text())
  }
  return texts
}

describe('simulator reproducibility', () => {
  it('answers every endpoint byte for byte the same for the same seed and the same ticks', async () => {
    const a = await start(5)
    const b = await start(5)
    expect(b.apiKey).toBe(a.apiKey)
    for (const ticks of [20, 150, 400]) {
      a.advance(ticks)
      b.advance(ticks)
      const paths = everyRoute(a)
      expect(paths).toEqual(everyRoute(b))
      const [left, right] = await Promise.all([bodies(a, paths), bodies(b, paths)])
      for (const [i, path] of paths.entries()) expect(right[i], path).toBe(left[i])
    }
  })

  it('gives a different market for another seed', async () => {
    const a = await start(5)
    const b = await start(6)
    a.advance(200)
    b.advance(200)
    const paths = ['/api/v1/depth/v2?pool_id=0', '/api/v1/trades?limit=100']
    expect(await bodies(b, paths)).not.toEqual(await bodies(a, paths))
  })
})

describe('simulator /trades paging', () => {
  it('returns every trade exactly once, ascending, whatever the page size and pool filter', async () => {
    const sim = await start(9)
    sim.advance(400)
    sim.faults.set({ extraFields: true })
    const all = sim.market.account(sim.apiKey)?.trades() ?? []
    // More than a page of the largest size: the whole account takes several pages at each.
    expect(all.length).toBeGreaterThan(100)
    for (const poolId of [undefined, 0, 1, 2]) {
      const expected = all
        .filter((t) => poolId === undefined || t.pool_id === poolId)
        .map((t) => t.global_seq)
      for (const limit of [1, 7, 100]) {
        const seen: number[] = []
        let cursor = 0
        for (;;) {
          const pool = poolId === undefined ? '' : `&pool_id=${poolId}`
          const response = await fetch(
            `${sim.url}/api/v1/trades?global_seq=${cursor}&sort=asc&limit=${limit}${pool}`,
            {
              headers: { authorization: sim.apiKey },
            },
          )
          const { data } = (await response.json()) as { data: { global_seq: number }[] }
          if (data.length === 0) break
          expect(data.length).toBeLessThanOrEqual(limit)
          seen.push(...data.map((t) => t.global_seq))
          cursor = data.at(-1)?.global_seq ?? cursor
        }
        expect(seen, `pool ${poolId} limit ${limit}`).toEqual(expected)
      }
    }
  })
})
