import { type FaultPlan, planFaults } from './fault-plan.js'
import { createFaultRandom } from './fault-random.js'
import { checkFaultSpec, type FaultSpec } from './fault-spec.js'

/**
 * How many faults of each kind were injected, and how many requests were seen.
 *
 * @example
 * ```ts
 * import type { FaultStats } from 'venue-rx/simulator'
 *
 * sim.faults.set({ errorRate: 0.2 })
 * // ... run the bot for a while
 * const stats: FaultStats = sim.faults.stats()
 * // { requests: 150, latency: 0, error: 31, rateLimit: 0, hang: 0, reset: 0, malformed: 0,
 * //   truncate: 0, extraFields: 0 }
 * ```
 */
export interface FaultStats {
  /** Requests that went through the fault controller. */
  requests: number
  /** Requests delayed by `latencyMs`. */
  latency: number
  /** Injected 5xx answers. */
  error: number
  /** Injected 429 answers. */
  rateLimit: number
  /** Requests left hanging. */
  hang: number
  /** Connections reset without an answer. */
  reset: number
  /** Answers with a non-JSON body. */
  malformed: number
  /** Answers cut in the middle. */
  truncate: number
  /** Answers with unknown extra fields. */
  extraFields: number
}

/**
 * Settings of a {@link Faults} controller.
 *
 * @example
 * ```ts
 * import { Faults } from 'venue-rx/simulator'
 *
 * // its own seed: the same faults on the same requests, run after run
 * const faults = new Faults({ seed: 7, spec: { errorRate: 0.1, latencyMs: [5, 50] } })
 * ```
 */
export interface FaultsOptions {
  /** Seed of the fault decisions (its own PRNG, not the market's). Default 1. */
  readonly seed?: number
  /** Initial global spec. */
  readonly spec?: FaultSpec
}

function zeroStats(): FaultStats {
  return {
    requests: 0,
    latency: 0,
    error: 0,
    rateLimit: 0,
    hang: 0,
    reset: 0,
    malformed: 0,
    truncate: 0,
    extraFields: 0,
  }
}

function checkRoute(route: string): string {
  if (typeof route !== 'string' || !route.startsWith('/')) {
    throw new TypeError(
      `faults: a route is a path such as '/api/v1/depth' (got ${JSON.stringify(route)})`,
    )
  }
  return route
}

/**
 * The fault controller of a simulator, changeable while it runs. A global spec applies to
 * every request; a per-route spec (keyed by the exact pathname, e.g. `/api/v1/trades`)
 * overrides the global spec field by field for that path.
 *
 * @example
 * ```ts
 * const faults = new Faults({ seed: 7 })
 * faults.set({ errorRate: 0.2 })                   // every route
 * faults.set({ errorRate: 0, hangRate: 1 }, '/api/v1/trades')
 * faults.get('/api/v1/trades') // { errorRate: 0, hangRate: 1 }
 * faults.clear('/api/v1/trades')                   // back to the global spec
 * faults.clear()                                   // no faults anywhere
 * faults.stats().error                             // 5xx injected so far
 * ```
 */
export class Faults {
  #global: FaultSpec = {}
  readonly #routes = new Map<string, FaultSpec>()
  readonly #random: () => number
  #stats: FaultStats = zeroStats()

  constructor(options: FaultsOptions = {}) {
    const seed = options.seed ?? 1
    if (!Number.isSafeInteger(seed)) {
      throw new TypeError(`faults: seed must be an integer (got ${JSON.stringify(seed)})`)
    }
    this.#random = createFaultRandom(seed)
    if (options.spec !== undefined) this.set(options.spec)
  }

  /**
   * Replaces the global spec, or the spec of one route (an exact pathname). Throws a
   * `TypeError` / `RangeError` naming the bad field (see {@link checkFaultSpec}).
   */
  set(spec: FaultSpec, route?: string): void {
    if (route === undefined) {
      this.#global = checkFaultSpec(spec, 'faults')
      return
    }
    this.#routes.set(checkRoute(route), checkFaultSpec(spec, `faults for ${route}`))
  }

  /** Removes one route's spec, or without a route every spec (global and per route). */
  clear(route?: string): void {
    if (route === undefined) {
      this.#global = {}
      this.#routes.clear()
      return
    }
    this.#routes.delete(checkRoute(route))
  }

  /** The spec in force for `route` (global merged with the route's), or the global spec. */
  get(route?: string): FaultSpec {
    if (route === undefined) return this.#global
    const own = this.#routes.get(route)
    return own === undefined ? this.#global : Object.freeze({ ...this.#global, ...own })
  }

  /** Counts of injected faults since creation (or the last {@link Faults.resetStats}). */
  stats(): FaultStats {
    return { ...this.#stats }
  }

  /** Sets every count of {@link Faults.stats} back to 0. */
  resetStats(): void {
    this.#stats = zeroStats()
  }

  /**
   * Decides the faults of one request to `pathname` and counts them. Used by the server.
   *
   * @internal
   */
  decide(pathname: string): FaultPlan {
    const plan = planFaults(this.get(pathname), this.#random)
    const stats = this.#stats
    stats.requests += 1
    if (plan.delayMs > 0 && plan.action !== 'hang') stats.latency += 1
    if (plan.action !== 'answer') stats[plan.action] += 1
    if (plan.body !== 'none') stats[plan.body] += 1
    const sendsJson = plan.action !== 'hang' && plan.action !== 'reset' && plan.body !== 'malformed'
    if (plan.extraFields && sendsJson) stats.extraFields += 1
    return plan
  }
}
