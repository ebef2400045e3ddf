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
import type { BurstSpec, MsRange } from './burst-spec.js'
import type { Crowd } from './crowd-traders.js'
import type { MarketCore } from './market-core.js'
import { hashSeed, Random } from './random.js'
import { randomSize } from './trade-sizing.js'

// Where the simulator's entry point and its users have always taken the type from.
export type { BurstSpec } from './burst-spec.js'

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
