/**
 * How the relay writes to Redis: the events of one poll in one script call (one round
 * trip), counted with Redis's own `INFO commandstats` against the entries written.
 */
import { Redis } from 'ioredis'
import { firstValueFrom } from 'rxjs'
import { describe, expect, it, vi } from 'vitest'
import { createVenue } from '../src/index.js'
import { type RelayKeys, relayKeys } from '../src/redis/redis.js'
import { PublishPipeline } from '../src/relay-publisher/publish-pipeline.js'
import { PUBLISH } from '../src/relay-publisher/scripts.js'
import { onCleanup } from './helpers/cleanups.js'
import { healthOf, relayFixture } from './helpers/relay-fixture.js'
import { recordRequests } from './helpers/simulator-venue.js'
import { WAIT_MS, waitFor } from './helpers/wait-for.js'

const { redis: server, nextPrefix, simulator, relayOn, direct } = relayFixture('p')

/** A client of the file's Redis, closed after the test. */
function client(): Redis {
  const redis = new Redis(server().url)
  onCleanup(() => redis.disconnect())
  return redis
}

/** Calls of EVALSHA and EVAL since the last `CONFIG RESETSTAT`. */
async function scriptCalls(admin: Redis): Promise<{ evalsha: number; eval: number }> {
  const stats = await admin.info('commandstats')
  const calls = (name: string) =>
    Number(new RegExp(`^cmdstat_${name}:calls=(\\d+)`, 'm').exec(stats)?.[1] ?? 0)
  return { evalsha: calls('evalsha'), eval: calls('eval') }
}

/** The first value of `read` that `done` accepts, read every 5 ms of real time (WAIT_MS at most). */
async function until<T>(read: () => Promise<T>, what: string, done: (value: T) => boolean) {
  const deadline = Date.now() + WAIT_MS
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
      async () => (await admin.keys(`${prefix}:*}:my-trades:stream`)) as [string],
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
      const mine = keys.find((key) => key.endsWith('}:my-trades:stream'))
      const fills = keys.find((key) => key.endsWith('}:fills:stream'))
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

describe('relay: publishes pipelined', () => {
  /**
   * A pipeline of one stream's publishes on its own connection, the lease held by `me`;
   * what its hooks heard; `publish(from, n)` sends events `{ n: from }` .. `from + n - 1`.
   */
  async function pipelineRig() {
    const admin = client()
    const redis = client()
    const scope = { prefix: nextPrefix(), baseUrl: 'http://venue', marketData: 'v2' as const }
    const keys: RelayKeys = relayKeys(
      { ...scope, apiKey: undefined },
      { kind: 'trades', poolId: 0 },
    )
    await admin.set(keys.lease, 'me')
    const heard: string[] = []
    const pipeline = new PublishPipeline(
      { redis, keys, owner: 'me', session: 'me/1', maxLen: 1_000 },
      {
        written: (added) => heard.push(`written ${added}`),
        lost: () => heard.push('lost'),
        failed: (error) => heard.push(`failed ${(error as Error).message}`),
      },
    )
    const publish = (from: number, n: number, id = () => '*') =>
      pipeline.publish(
        Array.from({ length: n }, (_, i) => ({ id: id(), event: { n: from + i }, state: '' })),
      )
    const published = async () =>
      (await admin.xrange(keys.stream, '-', '+')).map(
        ([, fields]) => (JSON.parse(fields[1] ?? 'null') as { n: number }).n,
      )
    return { admin, redis, keys, pipeline, heard, publish, published }
  }

  const upTo = (n: number) => Array.from({ length: n }, (_, i) => i)

  it('sends every publish before the first reply; Redis not knowing the script, each is sent again in turn: every event once, in order', async () => {
    const { admin, redis, pipeline, heard, publish, published } = await pipelineRig()
    await admin.script('FLUSH')
    const sent = vi.spyOn(redis, 'evalsha')
    const results = upTo(20).map((i) => publish(2 * i, 2))
    // All twenty on the wire before any reply came back.
    expect(sent).toHaveBeenCalledTimes(20)
    expect(await Promise.all(results)).toEqual(upTo(20).map(() => true))
    expect(await pipeline.settled()).toBe(true)
    expect(await published()).toEqual(upTo(40))
    expect(heard).toEqual(upTo(20).map(() => 'written 2'))
  })

  it('a publish that ran while the one before it was not written (the script loaded in between) writes nothing and is sent again after it', async () => {
    const { admin, redis, heard, publish, published } = await pipelineRig()
    await admin.script('FLUSH')
    const evals = vi.spyOn(redis, 'eval')
    const evalshas = vi.spyOn(redis, 'evalsha')
    // In this order on the one connection: the first finds no script, the load, then the
    // next two find it but not the first one's entries.
    const first = publish(0, 2)
    const loaded = redis.script('LOAD', PUBLISH)
    const rest = [publish(2, 2), publish(4, 1)]
    expect(await Promise.all([first, ...rest])).toEqual([true, true, true])
    await loaded
    expect(await published()).toEqual(upTo(5))
    expect(heard).toEqual(['written 2', 'written 2', 'written 1'])
    // All three sent again in turn, by SHA1 (the script is known by then).
    expect(evalshas).toHaveBeenCalledTimes(3 + 3)
    expect(evals).not.toHaveBeenCalled()
  })

  it('after a publish that failed, nothing later is written, though it was sent', async () => {
    const { heard, publish, published } = await pipelineRig()
    const results = [
      publish(0, 2),
      publish(2, 2),
      // Redis refuses its first entry's id.
      publish(4, 2, () => 'not-an-id'),
      publish(6, 2),
      publish(8, 2),
    ]
    expect(await Promise.all(results)).toEqual([true, true, false, false, false])
    expect(await published()).toEqual(upTo(4))
    expect(heard.slice(0, 2)).toEqual(['written 2', 'written 2'])
    expect(heard.slice(2)).toEqual([expect.stringMatching(/^failed .*Invalid stream ID/)])
  })

  it('after the lease is lost between two publishes, neither that one nor any later one writes', async () => {
    const { redis, keys, heard, publish, published } = await pipelineRig()
    const first = publish(0, 2)
    // Sent between them on the same connection: Redis runs it between them.
    const taken = redis.set(keys.lease, 'another relay')
    const later = [publish(2, 2), publish(4, 2)]
    expect(await Promise.all([first, ...later])).toEqual([true, false, false])
    await taken
    expect(await published()).toEqual([0, 1])
    expect(heard).toEqual(['written 2', 'lost'])
  })
})

describe('relay reader: woken by new entries', () => {
  it('reads an entry as soon as it is added, long before readIntervalMs, in order', async () => {
    const prefix = nextPrefix()
    const admin = client()
    // Reads every 10 s at most: what comes sooner came with the waker.
    const venue = createVenue({
      baseUrl: 'http://127.0.0.1:9',
      relay: { redis: server().url, prefix, readIntervalMs: 10_000 },
    })
    onCleanup(() => venue.close())
    const scope = { prefix, baseUrl: venue.settings.baseUrl, marketData: 'v2' as const }
    const { stream } = relayKeys({ ...scope, apiKey: undefined }, { kind: 'trades', poolId: 0 })
    const seen: unknown[] = []
    const subscription = venue.watchTrades(0).subscribe((event) => seen.push(event))
    onCleanup(() => subscription.unsubscribe())
    await waitFor(() => healthOf(venue, 'relay trades:0') === 'ok', 'the first read')
    const add = (n: number) => admin.xadd(stream, '*', 'e', JSON.stringify({ n }))
    await add(1)
    await add(2)
    await waitFor(() => seen.length === 2, 'the first two entries')
    await add(3)
    await waitFor(() => seen.length === 3, 'the third entry')
    expect(seen).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }])
  })
})
