/**
 * The bursty regime of the market (`bursts` of `MarketOptions` and `SimulatorOptions`),
 * off by default: a market whose moves come in bursts, to measure how fresh polled
 * streams stay when the market moves unevenly.
 *
 * - Each pool alternates bursts and quiet spells (lengths drawn from `burstMs` and
 *   `quietMs`; whether a pool starts in a burst is drawn too). In a burst the crowd acts
 *   in the pool once every `changeGapMs` of simulated time (its makers requote, a taker
 *   may trade, a noise trader may swap: the book changes at nearly every action); in a
 *   quiet spell the crowd leaves the pool alone.
 * - The demo account (the first API key) sends a market order every `ownTradeGapMs`, in a
 *   pool drawn at random, buy and sell in turn, for 0.1 to 0.3 typical sizes: an own trade
 *   that changes its balances and that pool's book and public trades, quiet or not.
 * - The keyed accounts' own strategies (`DemoTrader`, its opening script included) do not
 *   act: between its market orders nothing changes the demo account's trades or balances.
 *
 * Times are simulated ms from the market's start; a step is taken at the first tick at or
 * after its time (at most one crowd action per pool per tick), so `tickMs` should be well
 * under `changeGapMs` for the gaps to hold. The schedule draws from a PRNG of its own
 * seeded by the market's seed; the crowd's orders still come from the market's PRNG. The
 * same seed, the same spec and the same ticks give the same market.
 *
 * @packageDocumentation
 */
import type { Crowd } from './crowd-traders.js'
import type { MarketCore } from './market-core.js'
import { hashSeed, Random } from './random.js'
import { randomSize } from './trade-sizing.js'

/** A range of simulated ms, `[min, max]`; each length is drawn uniformly from it. */
export type MsRange = readonly [min: number, max: number]

/**
 * The bursty regime ({@link MarketOptions.bursts}): every field optional, `{}` is the
 * defaults.
 *
 * @example
 * ```ts
 * import { startSimulator } from 'venue-rx/simulator'
 *
 * // bursts of 1-4 s with a book change every 20-50 ms, quiet spells of 2-8 s,
 * // an own trade of the demo account every 5-7 s; 10 ms ticks
 * const sim = await startSimulator({ clock: 'manual', tickMs: 10, bursts: {} })
 * const shorter = { burstMs: [500, 1000], quietMs: [5000, 5000] } as const
 * ```
 */
export interface BurstSpec {
  /** Length of a burst, simulated ms; default `[1000, 4000]`. */
  readonly burstMs?: MsRange
  /** Length of a quiet spell, simulated ms; default `[2000, 8000]`. */
  readonly quietMs?: MsRange
  /** Time between two crowd actions in a pool during its burst, ms; default `[20, 50]`. */
  readonly changeGapMs?: MsRange
  /** Time between two market orders of the demo account, ms; default `[5000, 7000]`. */
  readonly ownTradeGapMs?: MsRange
}

const DEFAULTS: Required<BurstSpec> = {
  burstMs: [1000, 4000],
  quietMs: [2000, 8000],
  changeGapMs: [20, 50],
  ownTradeGapMs: [5000, 7000],
}

/** `spec` with its defaults; throws a `RangeError` naming the field for a bad one. */
export function checkBurstSpec(spec: BurstSpec): Required<BurstSpec> {
  if (typeof spec !== 'object' || spec === null) {
    throw new RangeError(`bursts must be an object (got ${JSON.stringify(spec)})`)
  }
  const known = Object.keys(DEFAULTS)
  for (const name of Object.keys(spec)) {
    if (!known.includes(name)) {
      throw new RangeError(`bursts.${name} is not a setting (known: ${known.join(', ')})`)
    }
  }
  const checked = { ...DEFAULTS, ...spec }
  for (const name of known as (keyof BurstSpec)[]) {
    const range = checked[name]
    const [min, max] = Array.isArray(range) ? range : []
    const valid =
      Array.isArray(range) &&
      range.length === 2 &&
      typeof min === 'number' &&
      typeof max === 'number' &&
      Number.isFinite(min) &&
      Number.isFinite(max) &&
      min > 0 &&
      max >= min
    if (!valid) {
      throw new RangeError(
        `bursts.${name} must be [min, max] ms with 0 < min <= max (got ${JSON.stringify(range)})`,
      )
    }
  }
  return checked
}

interface PoolPhase {
  bursting: boolean
  /** When the current spell ends, simulated ms. */
  until: number
  /** When the crowd acts next in the pool (during a burst), simulated ms. */
  nextChange: number
}

/** Runs the crowd and the demo account's orders on the bursty schedule; one `act` per tick. */
export class BurstRegime {
  readonly #core: MarketCore
  readonly #crowd: Crowd
  readonly #spec: Required<BurstSpec>
  readonly #account: string
  readonly #random: Random
  readonly #phases: PoolPhase[]
  #nextOwnTrade: number
  #buyNext = true

  constructor(core: MarketCore, crowd: Crowd, spec: Required<BurstSpec>, account: string) {
    this.#core = core
    this.#crowd = crowd
    this.#spec = spec
    this.#account = account
    this.#random = new Random(hashSeed(core.seed, 'bursts'))
    const start = core.nowMs()
    this.#phases = core.pools.map(() => {
      const bursting = this.#random.chance(0.5)
      return {
        bursting,
        until: start + this.#draw(bursting ? spec.burstMs : spec.quietMs),
        nextChange: start,
      }
    })
    this.#nextOwnTrade = start + this.#draw(spec.ownTradeGapMs)
  }

  /** Whether pool `poolId` is in a burst now (after the latest `act`). */
  bursting(poolId: number): boolean {
    return this.#phases[poolId]?.bursting ?? false
  }

  /** One tick: the spells that ended flip, the pools whose action is due act, maybe an own trade. */
  act(): void {
    const now = this.#core.nowMs()
    for (const [poolId, phase] of this.#phases.entries()) {
      while (now >= phase.until) {
        phase.bursting = !phase.bursting
        const started = phase.until
        phase.until = started + this.#draw(phase.bursting ? this.#spec.burstMs : this.#spec.quietMs)
        if (phase.bursting) phase.nextChange = started
      }
      if (phase.bursting && now >= phase.nextChange) {
        this.#crowd.actIn(poolId)
        phase.nextChange += this.#draw(this.#spec.changeGapMs)
      }
    }
    if (now >= this.#nextOwnTrade) {
      this.#ownTrade()
      this.#nextOwnTrade += this.#draw(this.#spec.ownTradeGapMs)
    }
  }

  #ownTrade(): void {
    const pool = this.#random.pick(this.#core.pools)
    const side = this.#buyNext ? 0 : 1
    this.#buyNext = !this.#buyNext
    const amount = randomSize(this.#random, pool, 1, 3)
    this.#core.submit(pool.id, { account: this.#account, side, type: 0, amount })
  }

  #draw([min, max]: MsRange): number {
    return min + this.#random.next() * (max - min)
  }
}
