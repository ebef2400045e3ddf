/** The faults of a chaos run: every kind the simulator can inject, at once. */
import type { FaultSpec } from '../../../src/simulator/index.js'

/** How the fault rate is split across the kinds: shares of `faultRate`, summing to 1. */
const FAULT_SHARES = {
  errorRate: 0.35,
  resetRate: 0.15,
  truncateRate: 0.15,
  malformedRate: 0.1,
  rateLimitRate: 0.15,
  hangRate: 0.1,
} as const

/** The fault spec of a run (its `errorStatus` alternates between 503 and 500 as it runs). */
export function chaosFaults(faultRate: number): FaultSpec {
  return {
    errorRate: faultRate * FAULT_SHARES.errorRate,
    errorStatus: 503,
    resetRate: faultRate * FAULT_SHARES.resetRate,
    truncateRate: faultRate * FAULT_SHARES.truncateRate,
    malformedRate: faultRate * FAULT_SHARES.malformedRate,
    rateLimitRate: faultRate * FAULT_SHARES.rateLimitRate,
    // Retry-After: 0 keeps the run short; the client honours whatever it says.
    retryAfterSeconds: 0,
    hangRate: faultRate * FAULT_SHARES.hangRate,
    latencyMs: [0, 4],
    extraFields: true,
  }
}

/** The fault kinds a run injects (keys of `FaultStats`). */
export const CHAOS_FAULT_KINDS = [
  'error',
  'reset',
  'truncate',
  'malformed',
  'rateLimit',
  'hang',
  'latency',
  'extraFields',
] as const
