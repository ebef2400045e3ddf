import { firstValueFrom, type Observable, type Subscription, timer } from 'rxjs'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { HealthReport, StreamHealth, Venue, VenueOptions } from '../src/index.js'
import { VenueServerError } from '../src/index.js'
import type { FaultSpec, Simulator } from '../src/simulator/index.js'
import { onCleanup, runCleanups } from './helpers/cleanups.js'
import { healthWhere } from './helpers/observe.js'
import {
  count,
  FAST,
  type Hit,
  startSimulatorVenue,
  TRANSPORT_CODES,
} from './helpers/simulator-venue.js'
import { WAIT_MS, waitFor } from './helpers/wait-for.js'

interface Setup {
  readonly sim: Simulator
  readonly venue: Venue
  readonly hits: Hit[]
  /** Every health report, in order. */
  readonly reports: HealthReport[]
}

/** How long the waits here allow: faults slow every stream down, and so does a busy machine. */
const PATIENCE_MS = WAIT_MS

const unhandled: unknown[] = []
const onUnhandled = (reason: unknown) => {
  unhandled.push(reason)
}

beforeAll(() => {
  process.on('unhandledRejection', onUnhandled)
})

afterAll(() => {
  process.off('unhandledRejection', onUnhandled)
})

afterEach(async () => {
  await runCleanups()
  // Let any promise the teardown orphaned settle before checking.
  await firstValueFrom(timer(20))
  expect(unhandled).toEqual([])
})

async function setup(options: Partial<VenueOptions> = {}): Promise<Setup> {
  const { sim, venue, hits } = await startSimulatorVenue(
    { ...FAST, requestTimeoutMs: 200, ...options },
    { seed: 3 },
  )
  const reports: HealthReport[] = []
  const subscription = venue.health.subscribe((report) => reports.push(report))
  onCleanup(() => subscription.unsubscribe())
  return { sim, venue, hits, reports }
}

function keep<T>(source: Observable<T>): { values: T[]; errors: unknown[] } {
  const kept = { values: [] as T[], errors: [] as unknown[] }
  const subscription: Subscription = source.subscribe({
    next: (value) => kept.values.push(value),
    error: (error: unknown) => kept.errors.push(error),
  })
  onCleanup(() => subscription.unsubscribe())
  return kept
}

const retryingStates = (reports: readonly HealthReport[], key: string) =>
  reports
    .map((report) => report[key])
    .filter(
      (health): health is Extract<StreamHealth, { state: 'retrying' }> =>
        health?.state === 'retrying',
    )

describe('streams under faults', () => {
  it('keep emitting through 5xx, resets, hangs, truncated and malformed bodies and 429s, then recover', async () => {
    // A deadline the injected hangs run into, and that an answer a busy machine delays does
    // not: once the faults are off, the streams must stay ok.
    const { sim, venue, hits, reports } = await setup({ requestTimeoutMs: 1_000 })
    sim.faults.set({
      errorRate: 0.3,
      resetRate: 0.05,
      hangRate: 0.05,
      truncateRate: 0.05,
      malformedRate: 0.03,
      rateLimitRate: 0.02,
      retryAfterSeconds: 1,
    })
    const ticking = setInterval(() => sim.advance(1), 40)
    onCleanup(() => clearInterval(ticking))
    const balances = keep(venue.watchBalances())
    const pools = keep(venue.watchPools())

    await waitFor(
      () => {
        const stats = sim.faults.stats()
        return (
          stats.error > 0 &&
          stats.reset > 0 &&
          stats.hang > 0 &&
          stats.truncate > 0 &&
          stats.malformed > 0 &&
          balances.values.length >= 10 &&
          pools.values.length >= 10
        )
      },
      'every kind of fault, and 10 values of each stream',
      PATIENCE_MS,
    )
    expect(balances.errors).toEqual([])
    expect(pools.errors).toEqual([])
    // Deep-distinct even across retries: no two consecutive emissions are equal.
    for (let i = 1; i < pools.values.length; i += 1) {
      expect(pools.values[i]).not.toEqual(pools.values[i - 1])
    }

    const retrying = [
      ...retryingStates(reports, 'watchBalances()'),
      ...retryingStates(reports, 'watchPools()'),
    ]
    expect(retrying.length).toBeGreaterThan(0)
    for (const state of retrying) {
      expect(state.attempt).toBeGreaterThanOrEqual(1)
      expect(state.nextDelayMs).toBeGreaterThanOrEqual(0)
      expect(TRANSPORT_CODES).toContain(state.lastErrorCode)
      if (state.lastErrorCode === 'VENUE_RATE_LIMITED') {
        expect(state.nextDelayMs).toBeGreaterThanOrEqual(1_000)
      } else {
        expect(state.nextDelayMs).toBeLessThanOrEqual(50)
      }
    }
    const codes = new Set(retrying.map((s) => s.lastErrorCode))
    expect(codes.has('VENUE_SERVER')).toBe(true)
    expect(codes.size).toBeGreaterThanOrEqual(3)

    // Faults off: both streams report ok and stay ok while polls go on.
    sim.faults.clear()
    const clearedAt = performance.now()
    // Requests the simulator took before the clear may still fail (a hang runs into its
    // timeout, a 429 is waited out): once a stream has a request taken after the clear, its
    // earlier ones have ended (its requests never overlap), and none after it is faulty.
    await waitFor(
      () =>
        ['/api/v1/balances', '/api/v1/pools'].every((path) =>
          hits.some((h) => h.path === path && h.at > clearedAt),
        ),
      'a poll of each stream after the clear',
      PATIENCE_MS,
    )
    await healthWhere(
      venue,
      (r) => r['watchBalances()']?.state === 'ok' && r['watchPools()']?.state === 'ok',
      PATIENCE_MS,
    )
    const settledAt = reports.length
    const polled = hits.length
    await waitFor(() => hits.length >= polled + 10, '10 more polls', PATIENCE_MS)
    expect(reports.slice(settledAt)).toEqual([])
    const valuesBefore = balances.values.length
    await waitFor(() => balances.values.length > valuesBefore, 'balances keep coming', PATIENCE_MS)
  })

  const kinds: { name: string; spec: FaultSpec; code: string }[] = [
    { name: '503', spec: { errorRate: 1 }, code: 'VENUE_SERVER' },
    { name: 'connection reset', spec: { resetRate: 1 }, code: 'VENUE_NETWORK' },
    { name: 'hang past requestTimeoutMs', spec: { hangRate: 1 }, code: 'VENUE_TIMEOUT' },
    { name: 'truncated JSON', spec: { truncateRate: 1 }, code: 'VENUE_RESPONSE' },
    { name: 'malformed JSON', spec: { malformedRate: 1 }, code: 'VENUE_RESPONSE' },
    {
      name: '429 with Retry-After 0',
      spec: { rateLimitRate: 1, retryAfterSeconds: 0 },
      code: 'VENUE_RATE_LIMITED',
    },
  ]
  for (const { name, spec, code } of kinds) {
    it(`a ${name} puts health in retrying with ${code}, and clearing it brings ok and data`, async () => {
      const { sim, venue } = await setup()
      sim.faults.set(spec, '/api/v1/system-info')
      const info = keep(venue.watchSystemInfo())
      const report = await healthWhere(
        venue,
        (r) => {
          const health = r['watchSystemInfo()']
          return health?.state === 'retrying' && health.attempt >= 3
        },
        PATIENCE_MS,
      )
      expect(report['watchSystemInfo()']).toMatchObject({
        state: 'retrying',
        attempt: 3,
        lastErrorCode: code,
      })
      // (How long each try waits is the transport's: test/undici-transport.test.ts; the
      // backoff between tries is timed in virtual time: test/venue-scheduler.test.ts.)
      expect(info.values).toEqual([])
      sim.faults.clear('/api/v1/system-info')
      await healthWhere(venue, (r) => r['watchSystemInfo()']?.state === 'ok', PATIENCE_MS)
      await waitFor(() => info.values.length === 1, 'the system info', PATIENCE_MS)
      expect(info.errors).toEqual([])
    })
  }

  it('retry attempts count 1, 2, 3 ... and start again from 1 after a success', async () => {
    const { sim, venue, reports } = await setup()
    sim.faults.set({ errorRate: 1 }, '/api/v1/pools')
    keep(venue.watchPools())
    await healthWhere(
      venue,
      (r) => {
        const h = r['watchPools()']
        return h?.state === 'retrying' && h.attempt >= 5
      },
      PATIENCE_MS,
    )
    sim.faults.clear('/api/v1/pools')
    await healthWhere(venue, (r) => r['watchPools()']?.state === 'ok', PATIENCE_MS)
    const recovered = reports.length
    sim.faults.set({ errorRate: 1 }, '/api/v1/pools')
    await healthWhere(
      venue,
      (r) => {
        const h = r['watchPools()']
        return h?.state === 'retrying' && h.attempt >= 2
      },
      PATIENCE_MS,
    )
    const before = retryingStates(reports.slice(0, recovered), 'watchPools()').map((s) => s.attempt)
    const after = retryingStates(reports.slice(recovered), 'watchPools()').map((s) => s.attempt)
    expect(before.slice(0, 5)).toEqual([1, 2, 3, 4, 5])
    expect(after.slice(0, 2)).toEqual([1, 2])
  })
})

describe('the ambiguous 500 of single-resource streams', () => {
  it('watchPool ends with VenueServerError after 3 retries (4 requests)', async () => {
    const { sim, venue, hits } = await setup()
    const route = '/api/v1/pools/1'
    sim.faults.set({ errorRate: 1, errorStatus: 500 }, route)
    const error = await firstValueFrom(venue.watchPool(1)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(VenueServerError)
    expect(error).toMatchObject({ ambiguous: true, status: 500 })
    expect(hits.filter((h) => h.path === route)).toHaveLength(4)
    const report = await firstValueFrom(venue.health)
    expect(report['watchPool("1")']).toMatchObject({ state: 'failed', errorCode: 'VENUE_SERVER' })
    // The stream is over: no request follows.
    await firstValueFrom(timer(150))
    expect(hits.filter((h) => h.path === route)).toHaveLength(4)
  })

  it('a non-ambiguous 503 on the same route is retried without that bound', async () => {
    const { sim, venue, hits } = await setup()
    const route = '/api/v1/pools/1'
    sim.faults.set({ errorRate: 1, errorStatus: 503 }, route)
    const pool = keep(venue.watchPool(1))
    await waitFor(() => count(hits, route) >= 8, '8 tries', PATIENCE_MS)
    expect(pool.errors).toEqual([])
    sim.faults.clear(route)
    await waitFor(() => pool.values.length === 1, 'the pool', PATIENCE_MS)
    expect(pool.values[0]?.pool_id).toBe(1)
  })
})
