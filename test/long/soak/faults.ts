/** The faults of a soak run: moderate, every kind. */
import type { FaultSpec } from '../../../src/simulator/index.js'

/** The moderate faults of a soak: every kind, the 5xx as 503 (retried by every stream). */
export function soakFaults(rate: number): FaultSpec {
  return {
    errorRate: rate * 0.4,
    errorStatus: 503,
    resetRate: rate * 0.15,
    truncateRate: rate * 0.15,
    malformedRate: rate * 0.1,
    rateLimitRate: rate * 0.15,
    retryAfterSeconds: 0,
    hangRate: rate * 0.05,
    latencyMs: [0, 5],
    extraFields: true,
  }
}
