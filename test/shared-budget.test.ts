/**
 * The request budget kept in Redis, against a real redis-server: a process's lanes are
 * served round-robin as by the local TokenBucket (one busy lane does not hold the others
 * back), and Redis out of reach fails every waiter with a retryable error.
 */
import { describe, expect, it } from 'vitest'
import { VenueRelayError } from '../src/errors/venue-relay-error.js'
import { SharedBudget } from '../src/relay/shared-budget.js'
import { onCleanup } from './helpers/cleanups.js'
import { freePort } from './helpers/redis-server.js'
import { redisForFile } from './helpers/relay-fixture.js'

const redis = redisForFile()

let keys = 0
/** A budget of `rate` a second on a bucket key of its own. */
function budget(rate: number, options: { url?: string } = {}) {
  const url = options.url ?? redis().url
  const created = new SharedBudget(url, `budget-test:${++keys}`, rate)
  onCleanup(() => created.close(new Error('test over')))
  return created
}

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
