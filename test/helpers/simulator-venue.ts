/**
 * A simulator on a manual clock and a venue client on it, both closed after the current
 * test, with a log of every request the simulator received.
 */
import type { Venue, VenueOptions } from '../../src/index.js'
import { createVenue } from '../../src/index.js'
import type { Simulator } from '../../src/simulator/index.js'
import { startSimulator } from '../../src/simulator/index.js'
import { onCleanup } from './cleanups.js'

/** One request as the simulator received it, and what the fault controller did with it. */
export interface Hit {
  readonly path: string
  readonly at: number
  readonly action: string
  readonly body: string
}

/** Error codes of the transport failures the simulator's faults cause (all retried). */
export const TRANSPORT_CODES = [
  'VENUE_SERVER',
  'VENUE_NETWORK',
  'VENUE_TIMEOUT',
  'VENUE_RESPONSE',
  'VENUE_RATE_LIMITED',
]

/** Venue options for quick tests: short polls, lingers and backoffs. */
export const FAST: Partial<VenueOptions> = {
  pollIntervalMs: 20,
  // Two polls: the newest own trades and transfers are read twice before delivery.
  settleMs: 40,
  lingerMs: 50,
  requestTimeoutMs: 2_000,
  maxRequestsPerSecond: 1_000,
  backoff: { initialMs: 5, maxMs: 50 },
}

/**
 * Records every request at the simulator: its fault controller decides once per request
 * it receives, so wrapping `decide` logs requests per route, with arrival times.
 */
export function recordRequests(sim: Simulator): Hit[] {
  const hits: Hit[] = []
  const decide = sim.faults.decide.bind(sim.faults)
  sim.faults.decide = (pathname: string) => {
    const plan = decide(pathname)
    hits.push({ path: pathname, at: performance.now(), action: plan.action, body: plan.body })
    return plan
  }
  return hits
}

/** How many of `hits` went to `path`. */
export const count = (hits: readonly Hit[], path: string): number =>
  hits.filter((h) => h.path === path).length

export interface SimulatorVenueSettings {
  /** The simulator's seed (default 1). */
  readonly seed?: number
  /** Ticks the market advances before the venue is created (default 0). */
  readonly ticks?: number
  /** Whether the venue gets the simulator's demo API key (default true). */
  readonly withKey?: boolean
  /** Whether requests are logged in `hits` (default true; the log itself takes memory). */
  readonly record?: boolean
  /** Venue options that need the running simulator, e.g. a dispatcher on its URL. */
  readonly onSimulator?: (sim: Simulator) => Partial<VenueOptions>
}

export interface SimulatorVenue {
  readonly sim: Simulator
  readonly venue: Venue
  /** Every request the simulator received since the start, in arrival order. */
  readonly hits: Hit[]
}

/** Starts a simulator and a venue on it with `options` (nothing else but its URL and key). */
export async function startSimulatorVenue(
  options: Partial<VenueOptions> = {},
  { seed = 1, ticks = 0, withKey = true, record = true, onSimulator }: SimulatorVenueSettings = {},
): Promise<SimulatorVenue> {
  const sim = await startSimulator({ seed, clock: 'manual' })
  onCleanup(() => sim.close())
  sim.advance(ticks)
  const hits = record ? recordRequests(sim) : []
  const venue = createVenue({
    baseUrl: sim.url,
    ...(withKey ? { apiKey: sim.apiKey } : {}),
    ...onSimulator?.(sim),
    ...options,
  })
  onCleanup(() => venue.close())
  return { sim, venue, hits }
}

/**
 * Whether `hits` are no more than one poller every `intervalMs` sends over the time they
 * span (its polls start that far apart), with one to spare for where the span cuts.
 */
export function atMostOnePer(hits: readonly Hit[], intervalMs: number): boolean {
  if (hits.length < 2) return true
  const span = (hits.at(-1)?.at ?? 0) - (hits[0]?.at ?? 0)
  return hits.length <= Math.floor(span / intervalMs) + 2
}
