import { request } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import {
  EXTRA_FIELD,
  type FaultSpec,
  Faults,
  type Simulator,
  startSimulator,
} from '../src/simulator/index.js'
import { planFaults } from '../src/simulator/server/fault-plan.js'
import { createFakeMarket, KEY_A } from './helpers/fake-market.js'
import { waitFor } from './helpers/wait-for.js'

const running: Simulator[] = []

async function start(options: { faults?: FaultSpec; faultSeed?: number } = {}): Promise<Simulator> {
  const market = createFakeMarket()
  const sim = await startSimulator({ clock: 'manual', createMarket: () => market, ...options })
  running.push(sim)
  return sim
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((sim) => sim.close()))
})

/** A GET through node:http: resolves with status, headers and raw body; rejects on socket errors. */
function rawGet(
  url: string,
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('error', reject)
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      )
    })
    req.on('error', reject)
    req.end()
  })
}

describe('simulator faults: each kind', () => {
  it('answers 503 service unavailable (or the chosen 5xx) instead of the real answer', async () => {
    const sim = await start({ faults: { errorRate: 1 } })
    const response = await fetch(`${sim.url}/api/v1/ping`)
    expect(response.status).toBe(503)
    expect(await response.json()).toEqual({
      code: 503,
      message: 'service unavailable',
      data: null,
      meta: {},
    })
    sim.faults.set({ errorRate: 1, errorStatus: 500 })
    const internal = await fetch(`${sim.url}/api/v1/ping`)
    expect(internal.status).toBe(500)
    expect(await internal.json()).toMatchObject({ code: 500, message: 'service internal error' })
    expect(sim.faults.stats().error).toBe(2)
  })

  it('answers 429 too many requests with Retry-After', async () => {
    const sim = await start({ faults: { rateLimitRate: 1 } })
    const response = await fetch(`${sim.url}/api/v1/pools`)
    expect(response.status).toBe(429)
    expect(response.headers.get('retry-after')).toBe('1')
    expect(await response.json()).toEqual({
      code: 429,
      message: 'too many requests',
      data: null,
      meta: {},
    })
    sim.faults.set({ rateLimitRate: 1, retryAfterSeconds: 7 })
    expect((await fetch(`${sim.url}/api/v1/pools`)).headers.get('retry-after')).toBe('7')
    expect(sim.faults.stats().rateLimit).toBe(2)
  })

  it('hangs until the client gives up', async () => {
    const sim = await start({ faults: { hangRate: 1 } })
    const attempt = fetch(`${sim.url}/api/v1/ping`, { signal: AbortSignal.timeout(200) })
    await expect(attempt).rejects.toMatchObject({ name: 'TimeoutError' })
    expect(sim.faults.stats().hang).toBe(1)
  })

  it('resets the connection without an answer', async () => {
    const sim = await start({ faults: { resetRate: 1 } })
    await expect(rawGet(`${sim.url}/api/v1/ping`)).rejects.toMatchObject({ code: 'ECONNRESET' })
    await expect(fetch(`${sim.url}/api/v1/ping`)).rejects.toThrow(TypeError)
    expect(sim.faults.stats().reset).toBe(2)
  })

  it('answers 200 with a body that is not JSON', async () => {
    const sim = await start({ faults: { malformedRate: 1 } })
    const { status, text } = await rawGet(`${sim.url}/api/v1/ping`)
    expect(status).toBe(200)
    expect(text.startsWith('{"code":0')).toBe(true)
    expect(() => JSON.parse(text)).toThrow(SyntaxError)
    expect(sim.faults.stats().malformed).toBe(1)
  })

  it('answers 200 with the real body cut in the middle and an honest Content-Length', async () => {
    const sim = await start()
    const full = await rawGet(`${sim.url}/api/v1/pools`)
    sim.faults.set({ truncateRate: 1 })
    const cut = await rawGet(`${sim.url}/api/v1/pools`)
    expect(cut.status).toBe(200)
    expect(cut.headers['content-length']).toBe(String(Buffer.byteLength(cut.text)))
    expect(cut.text.length).toBeGreaterThan(0)
    expect(cut.text.length).toBeLessThan(full.text.length)
    expect(full.text.startsWith(cut.text)).toBe(true)
    expect(() => JSON.parse(cut.text)).toThrow(SyntaxError)
    await expect(fetch(`${sim.url}/api/v1/pools`).then((r) => r.json())).rejects.toThrow()
  })

  it('adds unknown fields to the envelope and to every object in data, deep', async () => {
    const sim = await start({ faults: { extraFields: true } })
    const pool = (await (await fetch(`${sim.url}/api/v1/pools/0`)).json()) as {
      data: { pool_id: number; pool_stats: object }
    }
    expect(pool).toHaveProperty(EXTRA_FIELD)
    expect(pool.data).toHaveProperty(EXTRA_FIELD)
    expect(pool.data.pool_stats).toHaveProperty(EXTRA_FIELD)
    expect(pool.data.pool_id).toBe(0)
    const tokens = (await (await fetch(`${sim.url}/api/v1/tokens`)).json()) as {
      data: { info: { links: object[] } }[]
    }
    expect(tokens.data[0]?.info.links[0]).toHaveProperty(EXTRA_FIELD)
    const depth = (await (await fetch(`${sim.url}/api/v1/depth?pool_id=0`)).json()) as {
      data: { bids: unknown }
    }
    expect(depth.data.bids).toEqual([['1.04', '10']])
    expect(sim.faults.stats().extraFields).toBe(3)
  })

  it('delays answers by latencyMs', async () => {
    const sim = await start({ faults: { latencyMs: [120, 150] } })
    const started = performance.now()
    const response = await fetch(`${sim.url}/api/v1/ping`)
    expect(response.status).toBe(200)
    expect(performance.now() - started).toBeGreaterThanOrEqual(110)
    expect(sim.faults.stats().latency).toBe(1)
  })
})

describe('simulator faults: control', () => {
  it('lets a per-route spec override the global one, matched on the exact pathname', async () => {
    const sim = await start()
    sim.faults.set({ errorRate: 1 })
    sim.faults.set({ errorRate: 0 }, '/api/v1/ping')
    expect((await fetch(`${sim.url}/api/v1/ping`)).status).toBe(200)
    expect((await fetch(`${sim.url}/api/v1/pools`)).status).toBe(503)
    expect(sim.faults.get('/api/v1/ping')).toEqual({ errorRate: 0 })
    expect(sim.faults.get('/api/v1/pools')).toEqual({ errorRate: 1 })
  })

  it('applies a route-only spec to that path alone', async () => {
    const sim = await start()
    sim.faults.set({ rateLimitRate: 1 }, '/api/v1/trades')
    const trades = await fetch(`${sim.url}/api/v1/trades`, { headers: { authorization: KEY_A } })
    expect(trades.status).toBe(429)
    const transfers = await fetch(`${sim.url}/api/v1/transfers`, {
      headers: { authorization: KEY_A },
    })
    expect(transfers.status).toBe(200)
  })

  it('changes faults while running and clears them', async () => {
    const sim = await start()
    expect((await fetch(`${sim.url}/api/v1/ping`)).status).toBe(200)
    sim.faults.set({ errorRate: 1 })
    sim.faults.set({ errorRate: 1, errorStatus: 502 }, '/api/v1/tokens')
    expect((await fetch(`${sim.url}/api/v1/ping`)).status).toBe(503)
    expect((await fetch(`${sim.url}/api/v1/tokens`)).status).toBe(502)
    sim.faults.clear('/api/v1/tokens')
    expect((await fetch(`${sim.url}/api/v1/tokens`)).status).toBe(503)
    sim.faults.clear()
    expect((await fetch(`${sim.url}/api/v1/ping`)).status).toBe(200)
    expect(sim.faults.get()).toEqual({})
  })

  it('draws the same fault sequence for the same seed, a different one for another seed', async () => {
    const statuses = async (faultSeed: number): Promise<number[]> => {
      const sim = await start({ faults: { errorRate: 0.3, rateLimitRate: 0.3 }, faultSeed })
      const out: number[] = []
      for (let i = 0; i < 40; i += 1) out.push((await fetch(`${sim.url}/api/v1/ping`)).status)
      return out
    }
    const first = await statuses(11)
    expect(await statuses(11)).toEqual(first)
    expect(new Set(first)).toEqual(new Set([200, 429, 503]))
    expect(await statuses(12)).not.toEqual(first)
  })

  it('draws a fixed number of values per request, so one rate does not shift another', () => {
    let calls = 0
    const random = () => {
      calls += 1
      return 0.5
    }
    planFaults({}, random)
    const empty = calls
    planFaults({ errorRate: 1, latencyMs: [1, 9], truncateRate: 1 }, random)
    expect(calls - empty).toBe(empty)
    expect(planFaults({ resetRate: 1, hangRate: 1, errorRate: 1 }, random).action).toBe('reset')
    expect(planFaults({ errorRate: 1, malformedRate: 1 }, random).body).toBe('none')
  })

  it('rejects invalid specs with errors that name the field', () => {
    const faults = new Faults()
    expect(() => faults.set({ errorRate: 2 })).toThrow(
      /errorRate must be a number from 0 to 1 \(got 2\)/,
    )
    expect(() => faults.set({ hangRate: Number.NaN })).toThrow(RangeError)
    expect(() => faults.set({ latencyMs: [50, 10] })).toThrow(/latencyMs/)
    expect(() => faults.set({ latencyMs: -1 })).toThrow(/latencyMs/)
    expect(() => faults.set({ errorStatus: 404 })).toThrow(/errorStatus/)
    expect(() => faults.set({ retryAfterSeconds: 1.5 })).toThrow(/retryAfterSeconds/)
    expect(() => faults.set({ errorrate: 1 } as FaultSpec)).toThrow(
      /unknown fault field "errorrate"/,
    )
    expect(() => faults.set({}, 'api/v1/ping')).toThrow(/route/)
    expect(() => faults.set({ errorRate: 2 }, '/api/v1/ping')).toThrow(/faults for \/api\/v1\/ping/)
    expect(faults.get()).toEqual({})
  })
})

describe('simulator faults: close', () => {
  it('ends hanging requests on close(), and close() is idempotent', async () => {
    const sim = await start({ faults: { hangRate: 1 } })
    const hanging = rawGet(`${sim.url}/api/v1/ping`)
    const outcome = hanging.then(
      () => 'answered',
      () => 'ended',
    )
    // The request reached the server and hangs there (however long a busy machine takes).
    await waitFor(() => sim.faults.stats().hang === 1, 'the request to hang')
    await Promise.all([sim.close(), sim.close()])
    expect(await outcome).toBe('ended')
    await sim.close()
  })

  it('ends delayed requests on close() without waiting for the delay', async () => {
    const sim = await start({ faults: { latencyMs: 60_000 } })
    const outcome = rawGet(`${sim.url}/api/v1/ping`).then(
      () => 'answered',
      () => 'ended',
    )
    await waitFor(() => sim.faults.stats().latency === 1, 'the request to be delayed')
    await sim.close()
    expect(await outcome).toBe('ended')
  })
})
