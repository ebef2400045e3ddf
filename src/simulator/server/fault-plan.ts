import type { FaultSpec } from './fault-spec.js'

/** What happens to one request instead of (or besides) its normal answer. */
export type FaultAction = 'answer' | 'error' | 'rateLimit' | 'hang' | 'reset'

/** How the body of an answer is damaged. */
export type BodyFault = 'none' | 'malformed' | 'truncate'

/** The faults decided for one request. */
export interface FaultPlan {
  /** Delay before acting, ms (0 for none). */
  readonly delayMs: number
  readonly action: FaultAction
  /** Status of an `error` action. */
  readonly errorStatus: number
  /** `Retry-After` of a `rateLimit` action, seconds. */
  readonly retryAfterSeconds: number
  /** Damage to the body; only for `answer`. */
  readonly body: BodyFault
  readonly extraFields: boolean
}

/** Number of random draws per request, fixed so one rate never shifts another's draws. */
export const DRAWS_PER_REQUEST = 7

/**
 * Decides the faults of one request from `spec`. It always draws exactly
 * {@link DRAWS_PER_REQUEST} values from `random`, whatever the spec, so the same seed gives
 * the same sequence of decisions for the same rates.
 *
 * @example
 * ```ts
 * planFaults({ errorRate: 1 }, Math.random).action // 'error'
 * planFaults({}, Math.random).action // 'answer'
 * ```
 */
export function planFaults(spec: FaultSpec, random: () => number): FaultPlan {
  const [latencyDraw = 0, ...draws] = Array.from({ length: DRAWS_PER_REQUEST }, () => random())
  // One draw per fault, in this order; the first fault whose draw is below its rate wins.
  const fired = <T>(faults: readonly (readonly [T, number | undefined])[], offset: number) =>
    faults.find(([, rate], index) => (draws[offset + index] ?? 1) < (rate ?? 0))?.[0]
  const action: FaultAction =
    fired<FaultAction>(
      [
        ['reset', spec.resetRate],
        ['hang', spec.hangRate],
        ['error', spec.errorRate],
        ['rateLimit', spec.rateLimitRate],
      ],
      0,
    ) ?? 'answer'
  // A body is damaged only when it is answered.
  const body: BodyFault =
    action !== 'answer'
      ? 'none'
      : (fired<BodyFault>(
          [
            ['malformed', spec.malformedRate],
            ['truncate', spec.truncateRate],
          ],
          4,
        ) ?? 'none')
  return {
    delayMs: delayOf(spec.latencyMs, latencyDraw),
    action,
    errorStatus: spec.errorStatus ?? 503,
    retryAfterSeconds: spec.retryAfterSeconds ?? 1,
    body,
    extraFields: spec.extraFields === true,
  }
}

function delayOf(latency: FaultSpec['latencyMs'], draw: number): number {
  if (latency === undefined) return 0
  if (typeof latency === 'number') return latency
  const [min, max] = latency
  return Math.round(min + draw * (max - min))
}
