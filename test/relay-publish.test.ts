/**
 * How the relay writes to Redis: the events of one poll in one script call (one round
 * trip), counted with Redis's own `INFO commandstats` against the entries written.
 */
import { Redis } from 'ioredis'
import { describe, expect, it } from 'vitest'
import { PUBLISH } from '../src/relay-publisher/scripts.js'
import { onCleanup } from './helpers/cleanups.js'
import { relayFixture } from './helpers/relay-fixture.js'
import { recordRequests } from './helpers/simulator-venue.js'

const { redis: server, nextPrefix, simulator, relayOn } = relayFixture('p')

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
    expect(first.evalsha).toBeLessThanOrEqual(4)
    await admin.config('RESETSTAT')
    const before = polls()
    sim.advance(400)
    const total = truth().length
    expect(total - backfilled).toBeGreaterThan(50)
    await until(entries, 'the new items in Redis', (n) => n === total)
    const second = await scriptCalls(admin)
    expect(second.eval).toBe(0)
    expect(second.evalsha).toBeLessThanOrEqual(polls() - before)
    expect(second.evalsha).toBeLessThanOrEqual(4)
  })
})
