/**
 * A short fleet run inside `npm test` (test/fleet/run-fleet.ts; `npm run fleet` is the
 * long one): 3 relays and 3 bots in their own processes, a real redis-server, the active
 * relay SIGKILLed, Redis restarted once, a bot restarted from its checkpoints. Every bot
 * gets every own trade, fill and transfer exactly once, in order; every book it holds is the one
 * the venue served at that time; a standby takes over within the lease; the venue sees
 * about one request per interval per stream for the whole fleet.
 */
import { describe, expect, it } from 'vitest'
import { runFleet } from './fleet/run-fleet.js'

describe('a fleet on one poller', () => {
  it('survives a relay killed and a Redis restart with nothing lost, repeated or wrong', async () => {
    const settings = {
      relays: 2,
      consumers: 3,
      runMs: 3_000,
      pollIntervalMs: 100,
      leaseMs: 800,
      seed: 5,
    }
    const report = await runFleet(settings)
    expect(report.problems).toEqual([])
    expect(report.trades).toBeGreaterThan(0)
    expect(report.transfers).toBeGreaterThan(0)
    expect(report.bookEvents).toBeGreaterThan(settings.consumers * 5)
    // A standby took over (how fast is a figure of `npm run fleet`, not a test: a busy
    // machine delays every timer of the lease).
    expect(report.leaseTakeoverMs).toBeDefined()
    expect(report.killToNextEventMs).toBeDefined()
    expect(report.killToNextEventAllBotsMs).toBeGreaterThanOrEqual(report.killToNextEventMs ?? 0)
    expect(report.healedConsumers).toBe(settings.consumers)
    // One poller for the whole fleet: the venue sees one relay's request budget at most
    // (two active relays would spend two), plus the few a takeover and the Redis restart
    // add (a new relay finds where to start, its first pages). Every stream is polled. How
    // much of the budget the pacer spends is a figure of `npm run fleet`, not a test: a busy
    // machine spends less.
    expect(report.totalRequests).toBeLessThanOrEqual(report.budgetRequests * 1.05 + 20)
    for (const [stream, count] of Object.entries(report.requests)) {
      expect(count, stream).toBeGreaterThan(0)
    }
  }, 60_000)
})
