/**
 * The request budget kept in Redis, against a real redis-server: a process's lanes are
 * served round-robin as by the local TokenBucket (one busy lane does not hold the others
 * back), budgets on one key share one limit, every wait between tokens runs on the timers
 * given (an rxjs VirtualTimeScheduler here; a venue passes its scheduler), cancelled by
 * abort and close, and Redis out of reach fails every waiter with a retryable error.
 */
import { VirtualTimeScheduler } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { VenueAbortError } from '../src/errors/venue-abort-error.js'
import { VenueRelayError } from '../src/errors/venue-relay-error.js'
import { createVenue } from '../src/index.js'
import { SharedBudget } from '../src/shared-budget/shared-budget.js'
import { schedulerTimers } from '../src/timers.js'
import { onCleanup } from './helpers/cleanups.js'
import { settle, track } from './helpers/promises.js'
import { freePort } from './helpers/redis-server.js'
import { redisForFile } from './helpers/relay-fixture.js'
import { waitFor } from './helpers/wait-for.js'

const redis = redisForFile()

let keys = 0
/** A budget of `rate` a second on a bucket key of its own, or on `key` when given. */
function budget(
  rate: number,
  options: { key?: string; scheduler?: VirtualTimeScheduler; url?: string } = {},
) {
  const url = options.url ?? redis().url
  const created = new SharedBudget(
    url,
    options.key ?? `budget-test:${++keys}`,
    rate,
    options.scheduler === undefined ? {} : { timers: schedulerTimers(options.scheduler) },
  )
  onCleanup(() => created.close(new Error('test over')))
  return created
}

/** Timers the scheduler still holds (a cancelled one stays in its list, closed). */
const timersOf = (scheduler: VirtualTimeScheduler) =>
  scheduler.actions.filter((action) => !action.closed).length

describe('SharedBudget', () => {
  it('serves its lanes round robin: a lane with many waiters does not hold another back', async () => {
    const shared = budget(10)
    // Spend the burst: every request below waits for Redis to hand out a token.
    for (let i = 0; i < 10; i += 1) await shared.acquire('drain')
    const order: string[] = []
    const waits = [
      ...Array.from({ length: 6 }, (_, i) => shared.acquire('A').then(() => order.push(`A${i}`))),
      ...Array.from({ length: 2 }, (_, i) => shared.acquire('B').then(() => order.push(`B${i}`))),
    ]
    expect(shared.waiting).toBe(8)
    await Promise.all(waits)
    // One after the other in Redis's time, B's two among the first four, A in its own order.
    expect(order).toEqual(['A0', 'B0', 'A1', 'B1', 'A2', 'A3', 'A4', 'A5'])
    expect(shared.waiting).toBe(0)
  })

  it('holds two budgets on one key to one limit, waiting on the timers it was given', async () => {
    const key = `budget-test:${++keys}`
    const first = budget(5, { key })
    for (let i = 0; i < 5; i += 1) await first.acquire('rest')
    const scheduler = new VirtualTimeScheduler()
    const second = budget(5, { key, scheduler })
    const waiting = track(second.acquire('rest'))
    // Redis answered that the first took the whole burst: the wait is a virtual timer.
    await waitFor(() => timersOf(scheduler) === 1, "the second budget's wait for a token")
    await settle()
    expect(waiting.status).toBe('pending')
    expect(second.waiting).toBe(1)
  })

  it('cancels its wait on the timers when the only waiter aborts', async () => {
    const scheduler = new VirtualTimeScheduler()
    const shared = budget(1, { scheduler })
    await shared.acquire('rest')
    const controller = new AbortController()
    const aborted = track(shared.acquire('rest', controller.signal))
    await waitFor(() => timersOf(scheduler) === 1, 'the wait for the next token')
    controller.abort()
    await settle()
    expect(aborted.status).toBe('rejected')
    expect(aborted.error).toBeInstanceOf(VenueAbortError)
    expect(timersOf(scheduler)).toBe(0)
    expect(shared.waiting).toBe(0)
  })

  it('on close, rejects every waiter with its reason, cancels its wait and refuses later calls', async () => {
    const scheduler = new VirtualTimeScheduler()
    const shared = budget(1, { scheduler })
    await shared.acquire('rest')
    const waiters = [
      track(shared.acquire('A')),
      track(shared.acquire('A')),
      track(shared.acquire('B')),
    ]
    await waitFor(() => timersOf(scheduler) === 1, 'the wait for the next token')
    const reason = new VenueAbortError('the venue is closed')
    shared.close(reason)
    await settle()
    expect(waiters.map((state) => state.error)).toEqual([reason, reason, reason])
    expect(timersOf(scheduler)).toBe(0)
    await expect(shared.acquire('rest')).rejects.toBe(reason)
  })

  it("waits on a venue's scheduler when the venue keeps its budget in Redis", async () => {
    const scheduler = new VirtualTimeScheduler()
    const venue = createVenue({
      // Nothing listens there: a request that got its token fails at once.
      baseUrl: `http://127.0.0.1:${await freePort()}`,
      maxRequestsPerSecond: 1,
      scheduler,
      sharedBudget: { redis: redis().url, prefix: `budget-venue${++keys}` },
    })
    onCleanup(() => venue.close())
    const first = track(venue.rest.ping())
    const second = track(venue.rest.systemInfo())
    await waitFor(() => timersOf(scheduler) === 1, "the second request's wait for a token")
    expect(first.status).not.toBe('resolved')
    expect(second.status).toBe('pending')
  })

  it('rejects the waiters of every lane with a VenueRelayError while Redis is out of reach', async () => {
    const shared = budget(10, { url: `redis://127.0.0.1:${await freePort()}` })
    const results = await Promise.allSettled([shared.acquire('A'), shared.acquire('B')])
    for (const result of results) {
      expect(result.status).toBe('rejected')
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(VenueRelayError)
    }
    expect(shared.waiting).toBe(0)
  })
})
