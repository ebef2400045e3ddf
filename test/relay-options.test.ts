/**
 * Every option of `startRelay` and of the request budget, checked at the call: bounds on
 * the numbers (`leaseMs`, `maxLen`, `maxRequestsPerSecond`), the shape of `streams`
 * (holes, too many) and of `redis` (port, database, host), each refused with a
 * `VenueInputError` naming the option. The largest lease and the slowest shared budget
 * run in virtual time against a real redis-server: their timers stay what was asked for
 * (no overflow into a 1 ms loop), and the budget asks Redis once per wait.
 */
import { VirtualTimeScheduler } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { createVenue, VenueInputError } from '../src/index.js'
import { type RelayOptions, startRelay } from '../src/relay.js'
import { SharedBudget } from '../src/shared-budget/shared-budget.js'
import { MAX_TIMER_MS, schedulerTimers } from '../src/timers.js'
import { onCleanup } from './helpers/cleanups.js'
import { freePort } from './helpers/redis-server.js'
import { redisForFile } from './helpers/relay-fixture.js'
import { waitFor } from './helpers/wait-for.js'

const redis = redisForFile()
const BASE = 'http://127.0.0.1:1'

/** What `startRelay(options)` rejects with; fails if it starts. */
async function refusal(options: Record<string, unknown>): Promise<VenueInputError> {
  const started = startRelay({
    baseUrl: BASE,
    redis: 'redis://127.0.0.1:1',
    streams: ['depth:1'],
    ...options,
  } as RelayOptions)
  const error = await started.then(
    async (relay) => {
      await relay.close()
      throw new Error(`startRelay accepted ${JSON.stringify(options)}`)
    },
    (rejected: unknown) => rejected,
  )
  expect(error).toBeInstanceOf(VenueInputError)
  return error as VenueInputError
}

/** `names` with a hole at `at` (a sparse array). */
function withHole(names: string[], at: number): string[] {
  delete names[at]
  return names
}

/** Delays of the timers `scheduler` holds now. */
const delaysOf = (scheduler: VirtualTimeScheduler) =>
  scheduler.actions.filter((action) => !action.closed).map((action) => action.delay)

describe('startRelay option bounds', () => {
  it.each([
    ['leaseMs', 1e10],
    ['leaseMs', 3_600_001],
    ['leaseMs', 99],
    ['leaseMs', 500.5],
    ['leaseMs', Number.NaN],
    ['leaseMs', '500'],
    ['maxLen', 1_000_001],
    ['maxLen', 1e9],
    ['maxLen', 99],
    ['maxLen', Number.POSITIVE_INFINITY],
  ])('refuses %s %s, naming it and its range', async (name, value) => {
    const error = await refusal({ [name]: value })
    expect(error.argument).toBe(name)
    expect(error.message).toMatch(
      name === 'leaseMs'
        ? 'leaseMs must be an integer from 100 to 3600000'
        : 'maxLen must be an integer from 100 to 1000000',
    )
  })

  it.each([
    ['a sparse array', new Array(2), /stream name must be a string/],
    [
      'a name and a hole',
      withHole(['depth:1', 'x', 'trades:1'], 1),
      /stream name must be a string/,
    ],
    ['a number', [1], /stream name must be a string/],
    ['1,001 names', Array.from({ length: 1001 }, (_, i) => `depth:${i}`), /at most 1000/],
    ['a string', 'depth:1', /at least one stream/],
    ['an unknown name', ['depth:1:5m'], /unknown stream "depth:1:5m"/],
  ])('refuses streams as %s, naming streams', async (_, streams, message) => {
    const error = await refusal({ streams })
    expect(error.argument).toBe('streams')
    expect(error.message).toMatch(message)
  })

  it.each([
    ['redis://127.0.0.1:6379/abc', 'redis'],
    ['redis://127.0.0.1:6379/70000', 'redis'],
    ['redis://127.0.0.1:6379/1/2', 'redis'],
    [{ host: '127.0.0.1', port: 70_000 }, 'redis.port'],
    [{ host: '127.0.0.1', port: '6379' }, 'redis.port'],
    [{ host: '127.0.0.1', port: 6379.5 }, 'redis.port'],
    [{ host: '', port: 6379 }, 'redis.host'],
    [{ host: 7, port: 6379 }, 'redis.host'],
    [{ port: 6379, db: -1 }, 'redis.db'],
    [{ port: 6379, db: 1.5 }, 'redis.db'],
  ])('refuses redis %o, naming %s', async (value, argument) => {
    const error = await refusal({ redis: value })
    expect(error.argument).toBe(argument)
  })

  it.each([
    ['prefix', 'a'.repeat(65)],
    ['prefix', 'a b'],
    ['prefix', ''],
    ['relayId', 'a'.repeat(65)],
    ['relayId', 'a:b'],
    ['relayId', 7],
  ])('refuses %s %o', async (name, value) => {
    expect((await refusal({ [name]: value })).argument).toBe(name)
  })

  it('takes the longest lease: renews every quarter of it on the venue clock, not every 1 ms', async () => {
    const scheduler = new VirtualTimeScheduler()
    const relay = await startRelay({
      baseUrl: BASE,
      redis: redis().url,
      prefix: 'bounds-lease',
      streams: ['depth:1'],
      leaseMs: 3_600_000,
      scheduler,
      backoff: { initialMs: 60_000, maxMs: 60_000 },
    })
    onCleanup(() => relay.close())
    await waitFor(() => relay.status()['depth:1']?.state === 'active', 'the lease')
    expect(delaysOf(scheduler)).toContain(900_000)
    expect(Math.min(...delaysOf(scheduler))).toBeGreaterThan(1)
  })
})

describe('maxRequestsPerSecond bounds, local and shared budget alike', () => {
  it.each([1e-9, 0.000_999, 1_000_001, 1e12])('createVenue refuses %s', (rate) => {
    for (const sharedBudget of [{}, { sharedBudget: { redis: 'redis://127.0.0.1:1' } }]) {
      let thrown: unknown
      try {
        createVenue({ baseUrl: BASE, maxRequestsPerSecond: rate, ...sharedBudget })
      } catch (error) {
        thrown = error
      }
      expect(thrown).toBeInstanceOf(VenueInputError)
      expect((thrown as VenueInputError).argument).toBe('maxRequestsPerSecond')
      expect((thrown as VenueInputError).message).toContain('from 0.001 to 1000000')
    }
  })

  it('startRelay refuses a rate out of bounds as createVenue does', async () => {
    const error = await refusal({ maxRequestsPerSecond: 1e-9 })
    expect(error.argument).toBe('maxRequestsPerSecond')
  })

  it('takes the bounds themselves', async () => {
    for (const rate of [0.001, 1_000_000]) {
      const venue = createVenue({
        baseUrl: BASE,
        maxRequestsPerSecond: rate,
        sharedBudget: { redis: redis().url },
      })
      await venue.close()
    }
  })

  it('the slowest shared budget waits one token (1,000 s) on its clock, asking Redis once per wait', async () => {
    const scheduler = new VirtualTimeScheduler()
    const key = `bounds-budget:${await freePort()}`
    const shared = new SharedBudget(redis().url, key, 0.001, {
      timers: schedulerTimers(scheduler),
    })
    onCleanup(() => shared.close(new Error('test over')))
    await shared.acquire('rest')
    void shared.acquire('rest').catch(() => undefined)
    await waitFor(() => delaysOf(scheduler).length === 1, 'the wait for the next token')
    const [wait] = delaysOf(scheduler)
    expect(wait).toBeGreaterThan(990_000)
    expect(wait).toBeLessThanOrEqual(1_000_000)
    // The wait runs out in virtual time; Redis's clock has not moved: one more ask, one more wait.
    scheduler.flush()
    await waitFor(() => delaysOf(scheduler).length === 1, 'the next wait')
    expect(delaysOf(scheduler)[0]).toBeGreaterThan(990_000)
    expect(shared.waiting).toBe(1)
  })

  it('a wait longer than a timer keeps (a budget made below the bounds) is clamped, not a 1 ms loop', async () => {
    const scheduler = new VirtualTimeScheduler()
    const shared = new SharedBudget(redis().url, `bounds-budget:${await freePort()}`, 1e-9, {
      timers: schedulerTimers(scheduler),
    })
    onCleanup(() => shared.close(new Error('test over')))
    await shared.acquire('rest')
    void shared.acquire('rest').catch(() => undefined)
    await waitFor(() => delaysOf(scheduler).length === 1, 'the wait for the next token')
    expect(delaysOf(scheduler)).toEqual([MAX_TIMER_MS])
  })
})
