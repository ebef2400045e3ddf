/**
 * What faults the simulator injects, and the checks on a spec.
 *
 * @packageDocumentation
 */

/**
 * Faults to inject into answers. Every field is optional; rates are probabilities from 0
 * to 1 drawn per request. When several rates fire on one request the first of reset, hang,
 * error, rate limit wins; malformed and truncated bodies apply to answers only (malformed
 * first).
 *
 * @example
 * ```ts
 * sim.faults.set({ latencyMs: [5, 50], errorRate: 0.1, rateLimitRate: 0.05 })
 * sim.faults.set({ hangRate: 1 }, '/api/v1/trades') // only /api/v1/trades hangs
 * ```
 */
export interface FaultSpec {
  /** Delay added before the answer, in ms: a fixed value or a uniform `[min, max]` range. */
  readonly latencyMs?: number | readonly [min: number, max: number]
  /** Probability of answering a 5xx (status `errorStatus`) instead of the real answer. */
  readonly errorRate?: number
  /**
   * HTTP status (and envelope code) of injected errors, 500..599; default 503
   * (`service unavailable`). 500 answers `service internal error` like the live service.
   */
  readonly errorStatus?: number
  /** Probability of answering 429 `too many requests` with a `Retry-After` header. */
  readonly rateLimitRate?: number
  /** `Retry-After` of injected 429s, whole seconds; default 1. */
  readonly retryAfterSeconds?: number
  /** Probability of never answering (until the client gives up or the simulator closes). */
  readonly hangRate?: number
  /** Probability of resetting the connection without an answer. */
  readonly resetRate?: number
  /** Probability of answering 200 with a body that is not JSON. */
  readonly malformedRate?: number
  /** Probability of answering 200 with the real body cut in the middle. */
  readonly truncateRate?: number
  /** Add unknown fields (`x_sim_extra`) to the envelope and to every object in `data`. */
  readonly extraFields?: boolean
}

const RATE_FIELDS = [
  'errorRate',
  'rateLimitRate',
  'hangRate',
  'resetRate',
  'malformedRate',
  'truncateRate',
] as const

const KNOWN_FIELDS: ReadonlySet<string> = new Set([
  ...RATE_FIELDS,
  'latencyMs',
  'errorStatus',
  'retryAfterSeconds',
  'extraFields',
])

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value)
}

function checkLatency(value: unknown, where: string): FaultSpec['latencyMs'] {
  if (isFiniteNumber(value) && value >= 0) return value
  if (Array.isArray(value) && value.length === 2) {
    const [min, max] = value as unknown[]
    if (isFiniteNumber(min) && isFiniteNumber(max) && min >= 0 && min <= max) {
      return Object.freeze([min, max] as const)
    }
  }
  throw new RangeError(
    `${where}: latencyMs must be a number of ms >= 0 or [min, max] with 0 <= min <= max (got ${JSON.stringify(value)})`,
  )
}

/**
 * Checks a fault spec and returns a frozen copy. Throws a `TypeError` for an unknown field
 * or a wrong type, a `RangeError` for a value out of range; the message names the field,
 * the route (`where`) and the value.
 *
 * @example
 * ```ts
 * checkFaultSpec({ errorRate: 2 }, 'faults')
 * // RangeError: faults: errorRate must be a number from 0 to 1 (got 2)
 * ```
 */
export function checkFaultSpec(spec: unknown, where: string): FaultSpec {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
    throw new TypeError(`${where}: a fault spec must be an object (got ${JSON.stringify(spec)})`)
  }
  const input = spec as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(input)) {
    if (!KNOWN_FIELDS.has(key)) {
      throw new TypeError(
        `${where}: unknown fault field "${key}" (known: ${[...KNOWN_FIELDS].join(', ')})`,
      )
    }
    if (value === undefined) continue
    out[key] = checkField(key, value, where)
  }
  return Object.freeze(out) as FaultSpec
}

function checkField(key: string, value: unknown, where: string): unknown {
  if ((RATE_FIELDS as readonly string[]).includes(key)) {
    if (isFiniteNumber(value) && value >= 0 && value <= 1) return value
    throw new RangeError(
      `${where}: ${key} must be a number from 0 to 1 (got ${JSON.stringify(value)})`,
    )
  }
  switch (key) {
    case 'latencyMs':
      return checkLatency(value, where)
    case 'errorStatus':
      if (Number.isInteger(value) && (value as number) >= 500 && (value as number) <= 599) {
        return value
      }
      throw new RangeError(
        `${where}: errorStatus must be an integer from 500 to 599 (got ${JSON.stringify(value)})`,
      )
    case 'retryAfterSeconds':
      if (Number.isSafeInteger(value) && (value as number) >= 0) return value
      throw new RangeError(
        `${where}: retryAfterSeconds must be an integer >= 0 (got ${JSON.stringify(value)})`,
      )
    default:
      if (typeof value === 'boolean') return value
      throw new TypeError(`${where}: extraFields must be a boolean (got ${JSON.stringify(value)})`)
  }
}
