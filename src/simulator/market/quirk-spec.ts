/**
 * What a live venue does that the simulator, left alone, does not: the quirks a test can
 * turn on (checked by `checkQuirks`, check-quirks.ts).
 *
 * @packageDocumentation
 */

/**
 * Behaviours of a live venue the simulator reproduces on demand, deterministically, for the
 * accounts with API keys. Every field is optional; times are simulated ms (`market.now()`),
 * so with the manual clock `sim.advance(n)` reveals what a lag hides. `sim.truth` is never
 * affected.
 *
 * @example
 * ```ts
 * import { startSimulator, type VenueQuirks } from 'venue-rx/simulator'
 *
 * const quirks: VenueQuirks = {
 *   purgeCanceledAfterMs: 60_000, // unfilled cancels vanish after a simulated minute
 *   tradesLagMs: [0, 2_000], // trades show 0 to 2 s late, not always in global_seq order
 *   ordersLagMs: 500, // the order endpoints show the state of half a second ago
 *   orderTradesLimit: 100, // /orders/{id} lists the newest 100 trades of an order
 * }
 * const sim = await startSimulator({ clock: 'manual', quirks })
 * ```
 */
export interface VenueQuirks {
  /**
   * A canceled order that never filled (status 3, executed 0) is purged this many ms of
   * simulated time after it was canceled: /orders/{id} and /orders/client-id/{cid} then
   * answer `purgeStatus`, and it is gone from /history-orders. Off when left out.
   */
  readonly purgeCanceledAfterMs?: number
  /**
   * Answer for a purged order: 404 (envelope code 404, message 'not found') or 500
   * (code 500, 'service internal error', exactly as for an unknown order). Default 404.
   */
  readonly purgeStatus?: 404 | 500
  /**
   * How long after it happened a trade shows, in simulated ms, in /trades and in the
   * `trades` of /orders/{id}: a fixed number, or [min, max]: each trade's own lag drawn
   * uniformly from a seeded hash of its global_seq (stable: the same trade always gets the
   * same lag), so that a later trade can show before an earlier one (trades visible out of
   * global_seq order).
   */
  readonly tradesLagMs?: number | readonly [min: number, max: number]
  /**
   * The order endpoints (/orders/{id}, /orders/client-id/{cid}, /open-orders,
   * /history-orders) show every order as it was this many simulated ms ago: an order shows
   * only that long after it was placed (before that: the unknown-order 500), and its fills,
   * status changes and end show that long after they happen. Its trades in /orders/{id}
   * follow tradesLagMs, not this.
   */
  readonly ordersLagMs?: number
  /**
   * Only /open-orders lags: it lists the orders that were open this many simulated ms ago,
   * each with its record as it was then (an order placed less than that ago is not listed
   * yet; one that ended less than that ago is still listed). Overrides `ordersLagMs` for
   * /open-orders when both are set.
   */
  readonly openListLagMs?: number
  /** /orders/{id} lists only the latest N of the order's trades (the newest N by global_seq, still ascending). */
  readonly orderTradesLimit?: number
}
