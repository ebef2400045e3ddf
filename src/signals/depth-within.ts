import { distinctUntilChanged, filter, map, type OperatorFunction } from 'rxjs'
import type { Level } from '../book/book-event.js'
import type { OrderBook } from '../book/order-book.js'
import { addDecimal, compareDecimal, multiplyDecimal, subtractDecimal } from '../decimal.js'
import { nonNegativeDecimal } from './checks.js'

/**
 * Base quantity on each side of a book within a distance of the mid.
 *
 * @example
 * ```ts
 * import { compareDecimal } from 'venue-rx'
 * import { type Depth, depthWithin } from 'venue-rx/signals'
 *
 * venue.watchOrderBook(0).pipe(depthWithin(25)).subscribe((depth: Depth) => {
 *   // { bids: '1520.5', asks: '980' }: base quantity within 0.25 % of the mid
 *   if (compareDecimal(depth.asks, '1000') < 0) console.warn('thin asks:', depth.asks)
 * })
 * ```
 */
export interface Depth {
  /** Base quantity of the bids priced at or above `mid × (1 - bps / 10000)`. */
  readonly bids: string
  /** Base quantity of the asks priced at or below `mid × (1 + bps / 10000)`. */
  readonly asks: string
}

function within(levels: readonly Level[], inside: (price: string) => boolean): string {
  let total = '0'
  for (const [price, quantity] of levels) {
    // Levels are sorted from the best price out: the first one outside ends the walk.
    if (!inside(price)) break
    total = addDecimal(total, quantity)
  }
  return total
}

/**
 * Base quantity on each side of each order book within `bps` basis points of its mid:
 * `{ bids, asks }`, bounds included. Exact: prices are compared as
 * `price × 10000` against `mid × (10000 ± bps)`, so there is no division and no `places`
 * option. Emits only when either side changes; a book with an empty side (no mid) is
 * skipped. `bps` is a non-negative decimal string or number; a bad one throws
 * `VenueInputError` at the call.
 *
 * @example
 * ```ts
 * import { depthWithin } from 'venue-rx/signals'
 *
 * venue.watchOrderBook(1).pipe(depthWithin(50)) // { bids: '1520.5', asks: '980' }
 * ```
 */
export function depthWithin(bps: string | number): OperatorFunction<OrderBook, Depth> {
  const distance = nonNegativeDecimal('depthWithin', 'bps', bps)
  const below = subtractDecimal('10000', distance)
  const above = addDecimal('10000', distance)
  return (source) =>
    source.pipe(
      map((book): Depth | undefined => {
        const middle = book.mid
        if (middle === undefined) return undefined
        const low = multiplyDecimal(middle, below)
        const high = multiplyDecimal(middle, above)
        return {
          bids: within(
            book.bids,
            (price) => compareDecimal(multiplyDecimal(price, '10000'), low) >= 0,
          ),
          asks: within(
            book.asks,
            (price) => compareDecimal(multiplyDecimal(price, '10000'), high) <= 0,
          ),
        }
      }),
      filter((value): value is Depth => value !== undefined),
      distinctUntilChanged((a, b) => a.bids === b.bids && a.asks === b.asks),
    )
}
