/**
 * Where simulated time starts: at the wall clock with the realtime clock (so the latest
 * candles are today's), at the fixed reproducible default with the manual clock, at
 * `startTime` when it is given. No waiting: a long `tickMs` keeps the realtime clock from
 * ticking during a test, and `advance()` moves it.
 */
import { afterEach, describe, expect, it } from 'vitest'
import {
  type KlineRecord,
  type Simulator,
  type SimulatorOptions,
  startSimulator,
} from '../src/simulator/index.js'
import { onCleanup, runCleanups } from './helpers/cleanups.js'

afterEach(runCleanups)

/** The fixed start of the manual clock: 2023-11-14T22:13:20Z. */
const DEFAULT_START = 1_700_000_000_000
/** Long enough that the realtime clock never ticks by itself during a test. */
const SLOW_TICK_MS = 600_000

async function start(options: SimulatorOptions): Promise<Simulator> {
  const sim = await startSimulator(options)
  onCleanup(() => sim.close())
  return sim
}

async function json<T>(sim: Simulator, path: string): Promise<T> {
  const response = await fetch(`${sim.url}/api/v1${path}`)
  expect(response.status, path).toBe(200)
  return ((await response.json()) as { data: T }).data
}

describe('simulator clock: where simulated time starts', () => {
  it('starts a realtime clock at the wall clock, rounded down to a whole second', async () => {
    const before = Math.floor(Date.now() / 1000) * 1000
    const sim = await start({ clock: 'realtime', tickMs: SLOW_TICK_MS })
    const after = Date.now()
    expect(sim.market.ticks()).toBe(0)
    const now = sim.market.now()
    expect(now % 1000).toBe(0)
    expect(now).toBeGreaterThanOrEqual(before)
    expect(now).toBeLessThanOrEqual(after)
    const ping = await json<{ timestamp: number }>(sim, '/ping')
    expect(ping.timestamp).toBe(now / 1000)
  })

  it('serves candles in the last hour of the wall clock once a realtime market has traded', async () => {
    const sim = await start({ clock: 'realtime', tickMs: 1000, seed: 3 })
    sim.advance(90)
    const end = Math.floor(Date.now() / 1000) + 120
    const candles = await json<KlineRecord[]>(
      sim,
      `/klines?pool_id=0&interval=1m&start=${end - 3720}&end=${end}`,
    )
    expect(candles.length).toBeGreaterThan(0)
    for (const candle of candles) expect(candle.count).toBeGreaterThan(0)
    const pools = await json<{ updated_at: number }[]>(sim, '/pools')
    expect(Math.abs((pools[0]?.updated_at ?? 0) - Date.now() / 1000)).toBeLessThan(3600)
  })

  it('keeps the fixed default start with the manual clock', async () => {
    const sim = await start({ clock: 'manual' })
    expect(sim.market.now()).toBe(DEFAULT_START)
    sim.advance(4)
    expect(sim.market.now()).toBe(DEFAULT_START + 4 * 250)
  })

  it('starts either clock at startTime when it is given', async () => {
    const startTime = 1_650_000_000_500
    const realtime = await start({ clock: 'realtime', tickMs: SLOW_TICK_MS, startTime })
    const manual = await start({ clock: 'manual', startTime })
    expect(realtime.market.now()).toBe(startTime)
    expect(manual.market.now()).toBe(startTime)
  })

  it('stamps a placed order with the simulated time, whichever clock', async () => {
    const sim = await start({ clock: 'realtime', tickMs: SLOW_TICK_MS })
    const placed = await sim.placeOrder({ poolId: 1, side: 'buy', type: 'market', amount: '0.01' })
    const response = await fetch(`${sim.url}/api/v1/orders/${placed.id}`, {
      headers: { authorization: sim.apiKey },
    })
    const { data } = (await response.json()) as { data: { order_time: number } }
    expect(data.order_time).toBe(sim.market.now() / 1000)
    expect(Math.abs(data.order_time - Date.now() / 1000)).toBeLessThan(60)
  })
})
