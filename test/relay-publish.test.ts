/**
 * How the relay writes to Redis: the events of one poll in one script call (one round
 * trip), counted with Redis's own `INFO commandstats` against the entries written.
 */
import { Redis } from 'ioredis'
import { firstValueFrom } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { relayKeys } from '../src/redis/redis.js'
import { PUBLISH } from '../src/relay-publisher/scripts.js'
import { onCleanup } from './helpers/cleanups.js'
import { relayFixture } from './helpers/relay-fixture.js'
import { recordRequests } from './helpers/simulator-venue.js'

const { redis: server, nextPrefix, simulator, relayOn, direct } = relayFixture('p')

/** Calls of EVALSHA and EVAL since the last `CONFIG RESETSTAT`. */
async function scriptCalls(admin: Redis): Promise<{ evalsha: number; eval: number }> {
  const stats = await admin.info('commandstats')
  const calls = (name: string) =>
    Number(new RegExp(`^cmdstat_${name}:calls=(\\d+)`, 'm').exec(stats)?.[1] ?? 0)
  return { evalsha: calls('evalsha'), eval: calls('eval') }
}

/** The first value of `read` that `done` accepts, read every 5 ms of real time (5 s at most). */
async function until<T>(read: () => Promise<T>, what: string, done: (value: T) => boolean) {
  const deadline = Date.now() + 5_000
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

describe('relay: one round trip per poll', () => {
  it("writes a feed's items of each poll in one script call, whatever their number", async () => {
    const sim = await simulator(400)
    const hits = recordRequests(sim)
    const prefix = nextPrefix()
    const truth = () => sim.market.account(sim.apiKey)?.trades() ?? []
    const admin = new Redis(server().url)
    onCleanup(() => admin.disconnect())
    // Known to Redis already: every publish is one EVALSHA.
    await admin.script('LOAD', PUBLISH)
    await admin.config('RESETSTAT')
    // A long lease: no renewal during the test, only the one EVAL that takes it.
    await relayOn(sim, prefix, ['my-trades'], { leaseMs: 120_000 })
    const [stream] = await until(
      async () => (await admin.keys(`${prefix}:*my-trades}:stream`)) as [string],
      'the stream',
      (keys) => keys.length === 1,
    )
    const entries = () => admin.xlen(stream)
    const polls = () => hits.filter((hit) => hit.path === '/api/v1/trades').length
    const backfilled = truth().length
    expect(backfilled).toBeGreaterThan(50)
    await until(entries, 'the backfill in Redis', (n) => n === backfilled)
    const first = await scriptCalls(admin)
    expect(first.eval).toBe(1)
    // A page of up to 100 items in one call; the newest come as the settle window lets
    // them go, poll by poll: at most one call per poll, a few in all.
    expect(first.evalsha).toBeLessThanOrEqual(polls())
    expect(first.evalsha).toBeLessThanOrEqual(6)
    await admin.config('RESETSTAT')
    const before = polls()
    sim.advance(400)
    const total = truth().length
    expect(total - backfilled).toBeGreaterThan(50)
    await until(entries, 'the new items in Redis', (n) => n === total)
    const second = await scriptCalls(admin)
    expect(second.eval).toBe(0)
    expect(second.evalsha).toBeLessThanOrEqual(polls() - before)
    expect(second.evalsha).toBeLessThanOrEqual(6)
  })
})

describe('relay: one poll of the account trades for my-trades and fills', () => {
  it('reads /trades once per interval with both relayed, as /balances is', async () => {
    const sim = await simulator(400)
    const prefix = nextPrefix()
    const admin = new Redis(server().url)
    onCleanup(() => admin.disconnect())
    // The fills stream's lease held elsewhere for 300 ms: the relay publishes fills from a
    // later moment than own trades (a poller of its own would poll in a phase of its own).
    const scope = { prefix, baseUrl: direct(sim).settings.baseUrl, marketData: 'v2' as const }
    const fillsKeys = relayKeys({ ...scope, apiKey: sim.apiKey }, { kind: 'fills' })
    await admin.set(fillsKeys.lease, 'another-relay', 'PX', 300)
    // Interval pacing: each poller once per interval, whatever its stream's changes.
    const relay = await relayOn(sim, prefix, ['my-trades', 'fills', 'balances'], {
      pacing: 'interval',
    })
    const own = sim.market.account(sim.apiKey)?.trades() ?? []
    expect(own.length).toBeGreaterThan(20)
    const lengths = async () => {
      const keys = await admin.keys(`${prefix}:*:stream`)
      const mine = keys.find((key) => key.includes('my-trades}'))
      const fills = keys.find((key) => key.includes('fills}'))
      if (mine === undefined || fills === undefined) return [0, 0]
      return [await admin.xlen(mine), await admin.xlen(fills)]
    }
    await until(lengths, 'both feeds published', ([trades = 0, fills = 0]) => {
      return trades === own.length && fills >= own.length
    })
    // Both feeds are in their tails once their own backfills have ended.
    const report = () => firstValueFrom(relay.venue.health)
    await until(report, 'the backfills handed over', (health) => {
      const keys = Object.keys(health)
      return keys.includes('watchMyTrades()') && !keys.some((key) => key.includes('#'))
    })
    const hits = recordRequests(sim)
    const count = (path: string) => hits.filter((hit) => hit.path === path).length
    await until(
      async () => count('/api/v1/balances'),
      '40 polls of the balances',
      (n) => n >= 40,
    )
    const trades = count('/api/v1/trades')
    const balances = count('/api/v1/balances')
    // One poller each: within a request of each other. (Two pollers of /trades made
    // 1.07 to 1.86 requests per interval: identical requests in flight together share
    // one, so how many depended on their phase.)
    expect(Math.abs(trades - balances)).toBeLessThanOrEqual(2)
    expect(count('/api/v1/account')).toBe(0)
  })

  it('follows the own-trades poller for fills alone too', async () => {
    const sim = await simulator(400)
    const relay = await relayOn(sim, nextPrefix(), ['fills'])
    // The fills tail is made from the own trades' shared tail: its poller is the one.
    await until(
      () => firstValueFrom(relay.venue.health),
      'the fills tail',
      (health) => health['watchFills()']?.state === 'ok' && 'watchMyTrades()' in health,
    )
  })
})
