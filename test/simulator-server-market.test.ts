import { afterEach, describe, expect, it } from 'vitest'
import {
  type FaultSpec,
  type Simulator,
  startSimulator,
  type TradeDetailRecord,
  type TransferRecord,
} from '../src/simulator/index.js'

const running: Simulator[] = []

async function start(seed: number, faults?: FaultSpec): Promise<Simulator> {
  const sim = await startSimulator({ seed, clock: 'manual', ...(faults ? { faults } : {}) })
  running.push(sim)
  return sim
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((sim) => sim.close()))
})

async function data<T>(sim: Simulator, path: string): Promise<T> {
  const response = await fetch(`${sim.url}${path}`, { headers: { authorization: sim.apiKey } })
  expect(response.status).toBe(200)
  return ((await response.json()) as { data: T }).data
}

describe('simulator server over the built-in market', () => {
  it('pages every trade of the account exactly once with global_seq ascending', async () => {
    const sim = await start(7)
    sim.advance(400)
    const expected =
      sim.market
        .account(sim.apiKey)
        ?.trades()
        .map((t) => t.global_seq) ?? []
    expect(expected.length).toBeGreaterThan(100)
    const seen: number[] = []
    let cursor = 0
    for (;;) {
      const page = await data<TradeDetailRecord[]>(
        sim,
        `/api/v1/trades?global_seq=${cursor}&sort=asc&limit=100`,
      )
      if (page.length === 0) break
      seen.push(...page.map((t) => t.global_seq))
      cursor = page.at(-1)?.global_seq ?? cursor
    }
    expect(seen).toEqual(expected)
  })

  it('pages every transfer of the account exactly once with id ascending', async () => {
    const sim = await start(7)
    sim.advance(400)
    const expected =
      sim.market
        .account(sim.apiKey)
        ?.transfers()
        .map((t) => t.sid) ?? []
    expect(expected.length).toBeGreaterThan(0)
    const seen: string[] = []
    let cursor = '0'
    for (;;) {
      const page = await data<TransferRecord[]>(
        sim,
        `/api/v1/transfers?id=${cursor}&sort=asc&limit=3`,
      )
      if (page.length === 0) break
      seen.push(...page.map((t) => t.sid))
      cursor = page.at(-1)?.sid ?? cursor
    }
    expect(seen).toEqual(expected)
  })

  it('serves the same answers for the same seed, and faults do not change the market', async () => {
    const plain = await start(11)
    const faulty = await start(11, { errorRate: 0.5, rateLimitRate: 0.2, extraFields: true })
    for (let round = 0; round < 5; round += 1) {
      plain.advance(20)
      faulty.advance(20)
      // Requests to the faulty simulator draw fault decisions; the market must not notice.
      await fetch(`${faulty.url}/api/v1/depth/v2?pool_id=0`).then((r) => r.text())
    }
    faulty.faults.clear()
    for (const path of [
      '/api/v1/depth/v2?pool_id=0',
      '/api/v1/trades?limit=100',
      '/api/v1/balances',
    ]) {
      expect(await data(faulty, path)).toEqual(await data(plain, path))
    }
    expect(faulty.truth.trades()).toEqual(plain.truth.trades())
  })

  it('serves the pool price tick as the default depth precision', async () => {
    const sim = await start(3)
    sim.advance(10)
    const pools = await data<{ pool_id: number; price_precision: number }[]>(sim, '/api/v1/pools')
    for (const pool of pools) {
      const depth = await data<{ precision: string }>(sim, `/api/v1/depth?pool_id=${pool.pool_id}`)
      expect(depth.precision).toBe(
        pool.price_precision === 0
          ? '1'
          : (10 ** -pool.price_precision).toFixed(pool.price_precision),
      )
    }
  })
})
