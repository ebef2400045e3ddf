import { checkQuirks } from './check-quirks.js'
import type { VenueQuirks } from './quirk-spec.js'

/** No quirk: what a controller holds until `set`, and after `clear`. */
const NONE: VenueQuirks = Object.freeze({})

/**
 * The quirk controller of a simulator, changeable while it runs: the built-in market reads
 * it on every request to an account endpoint, so a change applies from the next request.
 * The simulator keeps the versions of orders and the times of trades whatever the spec, so
 * a lag turned on late also covers what happened before.
 *
 * @example
 * ```ts
 * import { Quirks } from 'venue-rx/simulator'
 *
 * const quirks = new Quirks({ ordersLagMs: 1000 })
 * quirks.set({ purgeCanceledAfterMs: 5000, purgeStatus: 500 }) // replaces the whole spec
 * quirks.get() // { purgeCanceledAfterMs: 5000, purgeStatus: 500 } (frozen)
 * quirks.clear() // back to a venue without quirks
 * // in a test: sim.quirks.set({ tradesLagMs: [0, 750] })
 * ```
 */
export class Quirks {
  #spec: VenueQuirks = NONE

  /** Starts with `spec` (checked as by {@link Quirks.set}), or with no quirk. */
  constructor(spec?: VenueQuirks) {
    if (spec !== undefined) this.set(spec)
  }

  /**
   * Replaces the whole spec (a field left out is off). Throws a `TypeError` / `RangeError`
   * naming the bad field and value (see {@link checkQuirks}); the spec in force stays then.
   */
  set(spec: VenueQuirks): void {
    this.#spec = checkQuirks(spec, 'quirks')
  }

  /** The spec in force (a frozen copy of what was set; `{}` for none). */
  get(): VenueQuirks {
    return this.#spec
  }

  /** Turns every quirk off. */
  clear(): void {
    this.#spec = NONE
  }
}
