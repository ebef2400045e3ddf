/**
 * The soak run, short (2 s): subscribe/unsubscribe churn over every stream of the venue
 * against the faulty simulator. Proves that the churn really ran (hundreds of
 * subscriptions, every stream, requests and faults at the simulator) and that after
 * `venue.close()` and the simulator's close no timer, socket or other handle is left.
 */
import { describe, expect, it } from 'vitest'
import { WATCH_METHODS as STREAMS } from './fuzz/calls.js'
import { runSoak } from './long/soak.js'

describe('soak, short', () => {
  it('churns every stream for 2 s and leaves no open handle after close', async () => {
    const report = await runSoak({ seconds: 2, seed: 1 })

    // About 550 on an idle 2-core machine; under a loaded full run it has dropped near 200.
    expect(report.subscriptions).toBeGreaterThan(150)
    expect(Object.keys(report.perStream).sort()).toEqual([...STREAMS].sort())
    expect(report.values).toBeGreaterThan(report.subscriptions)
    expect(report.faults.requests).toBeGreaterThan(200)
    expect(report.faults.error + report.faults.reset + report.faults.truncate).toBeGreaterThan(0)
    expect(report.samples.length).toBeGreaterThanOrEqual(2)
    expect(report.firstHeap).toBeGreaterThan(0)

    expect(report.handlesLeft).toEqual({})
    expect(report.openHandles).toBe(0)
    expect(report.unhandledRejections).toBe(0)
    expect(report.uncaughtExceptions).toBe(0)
    // Every injected fault is retried: no stream ends with an error.
    expect(report.streamErrors).toEqual({})
  })
})
