/**
 * The soak run, short: subscribe/unsubscribe churn over every stream of the venue against
 * the faulty simulator, for 120 subscriptions (under a second on an idle 2-core machine;
 * it counts work, not time, so a busy machine only takes longer). Proves that the churn
 * really ran (every stream, requests and faults at the simulator) and that after
 * `venue.close()` and the simulator's close no timer, socket or other handle is left.
 * `npm run soak` is the long run, by time.
 */
import { describe, expect, it } from 'vitest'
import { WATCH_METHODS as STREAMS } from './fuzz/calls.js'
import { runSoak } from './long/soak.js'

describe('soak, short', () => {
  // A busy machine slows the churn several times over (10 s for 300 beside two CPU-burning
  // processes): the time allowed is generous, the work is what is checked.
  it('churns every stream for 120 subscriptions and leaves no open handle after close', async () => {
    // A heap sample forces two full collections of the test worker's whole heap (shared with
    // the other test files it ran): two or three samples, not one per 100 ms.
    const report = await runSoak({
      subscriptions: 120,
      seed: 1,
      faultRate: 0.2,
      sampleEveryMs: 500,
    })

    expect(report.subscriptions).toBeGreaterThanOrEqual(120)
    expect(Object.keys(report.perStream).sort()).toEqual([...STREAMS].sort())
    expect(report.values).toBeGreaterThan(0)
    expect(report.faults.requests).toBeGreaterThan(0)
    expect(report.faults.error + report.faults.reset + report.faults.truncate).toBeGreaterThan(0)
    expect(report.firstHeap).toBeGreaterThan(0)

    expect(report.handlesLeft).toEqual({})
    expect(report.openHandles).toBe(0)
    expect(report.unhandledRejections).toBe(0)
    expect(report.uncaughtExceptions).toBe(0)
    // Every injected fault is retried: no stream ends with an error.
    expect(report.streamErrors).toEqual({})
  }, 90_000)
})
