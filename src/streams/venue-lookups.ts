import { SharedLookup } from '../core/shared-lookup.js'
import type { Order } from '../schemas/order.js'
import type { Fill } from './fill.js'

/**
 * Answers that every stream of one venue shares, each asked once per venue (or once per
 * poll interval) by the module that uses it: the venue holds them in its `StreamContext`,
 * so that nothing is kept in module state keyed by a venue object. A failed answer is
 * dropped, so that the next caller asks again (a {@link SharedLookup} does it).
 *
 * @example
 * ```ts
 * const context: StreamContext = { ...settings, lookups: venueLookups() }
 * await chainAccount(context, rest) // asks account info once, then shares the answer
 * ```
 */
export interface VenueLookups {
  /** The venue's clock minus this process's, ms (`venueNow`). */
  readonly clockOffset: SharedLookup<'offset', number>
  /** The offset as a lower bound of the venue's clock, once `clockOffset` answered. */
  clockLowerOffset: number | undefined
  /** The account's chain account (`chainAccount`). */
  readonly chainAccount: SharedLookup<'account', string>
  /** Scans of the account's recent fills (`recentFills`), asked with `{ now, notBefore }`. */
  readonly recentFillScans: SharedLookup<string, Fill[]>
  /**
   * Pages of the account's newest ended orders by page index (`historyPage`), asked with
   * `{ now, maxAgeMs: pollIntervalMs }`.
   */
  readonly endedOrderPages: SharedLookup<number, Order[]>
  /** The orders asked for in this turn, read together from fresh pages (`endedInPages`). */
  endedAsks: EndedAsks | undefined
}

/** Orders asked for together, and their ended records once the pages are read. */
export interface EndedAsks {
  readonly ids: Set<string>
  /** Ended records by id; `undefined` when the pages were not read (one order asked). */
  readonly ended: Promise<ReadonlyMap<string, Order> | undefined>
}

/**
 * Empty lookups, for a new venue.
 *
 * @example
 * ```ts
 * const lookups = venueLookups() // every answer undefined until a stream asks
 * ```
 */
export function venueLookups(): VenueLookups {
  return {
    clockOffset: new SharedLookup(),
    clockLowerOffset: undefined,
    chainAccount: new SharedLookup(),
    recentFillScans: new SharedLookup(),
    endedOrderPages: new SharedLookup(),
    endedAsks: undefined,
  }
}
