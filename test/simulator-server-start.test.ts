import { readdirSync, readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import {
  createSimulatorServer,
  type MarketOptions,
  type Simulator,
  type SimulatorOptions,
  startSimulator,
  stopSimulatorServer,
} from '../src/simulator/index.js'
import { createFakeMarket, type FakeMarket, KEY_A, KEY_B, START_MS } from './helpers/fake-market.js'

const running: Simulator[] = []
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function start(
  options: SimulatorOptions = {},
): Promise<{ sim: Simulator; market: FakeMarket }> {
  const market = createFakeMarket()
  const sim = await startSimulator({ clock: 'manual', createMarket: () => market, ...options })
  running.push(sim)
  return { sim, market }
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((sim) => sim.close()))
})

async function pingSeconds(sim: Simulator): Promise<number> {
  const body = (await (await fetch(`${sim.url}/api/v1/ping`)).json()) as {
    data: { timestamp: number }
  }
  return body.data.timestamp
}

describe('startSimulator', () => {
  it('resolves to a url on 127.0.0.1, the API keys and the market', async () => {
    const { sim, market } = await start()
    expect(sim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(sim.apiKey).toBe(KEY_A)
    expect(sim.apiKeys).toEqual([KEY_A, KEY_B])
    expect(sim.market).toBe(market)
    expect(sim.truth).toBe(market.truth)
    expect(sim.faults.get()).toEqual({})
  })

  it('builds the market from seed, tickMs, pools and startTime', async () => {
    let received: MarketOptions | undefined
    const pools = [
      {
        base: 'CHN',
        quote: 'USDT',
        price: '1',
        pricePrecision: 4,
        basePrecision: 4,
        quotePrecision: 6,
      },
    ]
    const sim = await startSimulator({
      seed: 42,
      tickMs: 100,
      pools,
      startTime: START_MS,
      clock: 'manual',
      createMarket: (options) => {
        received = options
        return createFakeMarket()
      },
    })
    running.push(sim)
    // The quirk controller too: the market reads sim.quirks on every account request.
    expect(received).toEqual({
      seed: 42,
      tickMs: 100,
      pools,
      startTime: START_MS,
      quirks: sim.quirks,
    })
    expect(received?.quirks).toBe(sim.quirks)
  })

  it('moves a manual clock only on advance()', async () => {
    const { sim, market } = await start({ clock: 'manual', tickMs: 10 })
    await sleep(60)
    expect(market.ticks()).toBe(0)
    sim.advance()
    expect(market.ticks()).toBe(1)
    sim.advance(40)
    expect(market.ticks()).toBe(41)
    sim.advance(0)
    expect(market.ticks()).toBe(41)
    expect(await pingSeconds(sim)).toBe(Math.floor((START_MS + 41 * 250) / 1000))
    expect(() => sim.advance(-1)).toThrow(RangeError)
    expect(() => sim.advance(1.5)).toThrow(/ticks must be an integer/)
  })

  it('ticks a realtime clock every tickMs and stops ticking on close()', async () => {
    const { sim, market } = await start({ clock: 'realtime', tickMs: 10 })
    await sleep(120)
    expect(market.ticks()).toBeGreaterThan(0)
    await sim.close()
    const after = market.ticks()
    await sleep(60)
    expect(market.ticks()).toBe(after)
  })

  it('refuses connections after close(), and close() can be called again', async () => {
    const { sim } = await start()
    expect((await fetch(`${sim.url}/api/v1/ping`)).status).toBe(200)
    await sim.close()
    await sim.close()
    await expect(fetch(`${sim.url}/api/v1/ping`)).rejects.toThrow(TypeError)
  })

  it('takes initial faults and a fault seed from the options', async () => {
    const { sim } = await start({ faults: { errorRate: 1, errorStatus: 502 }, faultSeed: 3 })
    expect((await fetch(`${sim.url}/api/v1/ping`)).status).toBe(502)
  })

  it('rejects when the port is taken', async () => {
    const { sim } = await start()
    const port = Number(new URL(sim.url).port)
    await expect(start({ port })).rejects.toMatchObject({ code: 'EADDRINUSE' })
  })

  it('rejects invalid options with errors that name the option', async () => {
    const bad: [SimulatorOptions, RegExp][] = [
      [{ port: 70_000 }, /port must be an integer from 0 to 65535/],
      [{ port: 1.5 }, /port/],
      [{ tickMs: 0 }, /tickMs must be a positive number/],
      [{ tickMs: Number.POSITIVE_INFINITY }, /tickMs/],
      [{ seed: 1.5 }, /seed must be an integer/],
      [{ clock: 'fast' as 'manual' }, /clock must be 'realtime' or 'manual'/],
      [{ host: '' }, /host/],
      [{ faults: { errorRate: -1 } }, /errorRate/],
      [{ faultSeed: Number.NaN }, /faultSeed/],
    ]
    for (const [options, message] of bad) {
      await expect(start(options)).rejects.toThrow(message)
    }
  })
})

describe('createSimulatorServer', () => {
  it('serves a market on a server the caller listens with, and stops idempotently', async () => {
    const server = createSimulatorServer({ market: createFakeMarket() })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/info`, {
      headers: { authorization: KEY_B },
    })
    expect(await response.json()).toMatchObject({ code: 0, data: { chain_account: 'bob' } })
    await stopSimulatorServer(server)
    await stopSimulatorServer(server)
    expect(server.listening).toBe(false)
  })
})

describe('createSimulatorServer: market failures', () => {
  it('answers 500 service internal error with the error in meta.sim_error when the market throws', async () => {
    const market: FakeMarket = {
      ...createFakeMarket(),
      tokens: () => {
        throw new Error('boom')
      },
    }
    const { sim } = await start({ createMarket: () => market })
    const response = await fetch(`${sim.url}/api/v1/tokens`)
    expect(response.status).toBe(500)
    expect(await response.json()).toEqual({
      code: 500,
      message: 'service internal error',
      data: null,
      meta: { sim_error: 'Error: boom' },
    })
    expect((await fetch(`${sim.url}/api/v1/ping`)).status).toBe(200)
  })
})

describe('simulator entry point', () => {
  it('imports nothing outside src/simulator but node built-ins', () => {
    const root = resolve(dirname(fileURLToPath(import.meta.url)), '../src/simulator')
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.ts'),
    )
    const outside: string[] = []
    for (const file of files) {
      // Without comments: the examples in doc comments import from the package.
      const text = readFileSync(join(root, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '')
      for (const [, specifier = ''] of text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
        if (specifier.startsWith('node:')) continue
        const target = resolve(dirname(join(root, file)), specifier)
        if (!specifier.startsWith('.') || relative(root, target).startsWith('..')) {
          outside.push(`${file}: ${specifier}`)
        }
      }
    }
    expect(outside).toEqual([])
  })
})
