import type { OperatorFunction } from 'rxjs'
import type { OrderBook } from '../book/order-book.js'
import {
  addDecimal,
  compareDecimal,
  halfDecimal,
  multiplyDecimal,
  subtractDecimal,
} from '../decimal.js'
import { bookSignal } from './book-signal.js'
import { noExtraArguments, nonNegativeDecimal } from './checks.js'
import { bestLevel, bookLevel } from './inputs.js'

/**
 * Base quantity on each side of a book within a distance of the mid.
 *
 * @example
 * ```ts
 * import { compareDecimal } from 'venue-rx'
 * import { type DepthWithin, depthWithin } from 'venue-rx/signals'
 *
 * venue.watchOrderBook(0).pipe(depthWithin(25)).subscribe((depth: DepthWithin | null) => {
 *   // { bids: '1520.5', asks: '980' }: base quantity within 0.25 % of the mid
 *   if (depth === null) console.warn('one-sided book: no mid to measure from')
 *   else if (compareDecimal(depth.asks, '1000') < 0) console.warn('thin asks:', depth.asks)
 * })
 * ```
 */
export interface DepthWithin {
  /** Base quantity of the bids priced at or above `mid × (1 - bps / 10000)`. */
  readonly bids: string
  /** Base quantity of the asks priced at or below `mid × (1 + bps / 10000)`. */
  readonly asks: string
}

/** Quantity of the levels of `side` from the best out while `inside(price)`, each checked. */
function within(
  book: OrderBook,
  side: 'bids' | 'asks',
  inside: (price: string) => boolean,
): string {
  let total = '0'
  const levels = side === 'bids' ? book.bids : book.asks
  for (const [index, level] of levels.entries()) {
    const [price, quantity] = bookLevel('depthWithin', side, index, level)
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
 * option. Emits only when either side changes.
 *
 * A book with an empty side (or both) has no mid to measure from: it gives `null`, once.
 *
 * An input that is not an `OrderBook`, or whose levels read are not pairs of non-negative
 * decimal strings, errors the stream with a `TypeError`. `bps` is a non-negative decimal
 * string or number; a bad one, or an extra argument, throws `VenueInputError` at the call.
 *
 * @example
 * ```ts
 * import { depthWithin } from 'venue-rx/signals'
 *
 * venue.watchOrderBook(1).pipe(depthWithin(50)) // { bids: '1520.5', asks: '980' }, or null
 * ```
 */
export function depthWithin(bps: string | number): OperatorFunction<OrderBook, DepthWithin | null>
export function depthWithin(
  bps: string | number,
  ...extra: unknown[]
): OperatorFunction<OrderBook, DepthWithin | null> {
  noExtraArguments('depthWithin', ['bps'], extra)
  const distance = nonNegativeDecimal('depthWithin', 'bps', bps)
  const below = subtractDecimal('10000', distance)
  const above = addDecimal('10000', distance)
  return bookSignal(
    'depthWithin',
    (book): DepthWithin | null => {
      const bid = bestLevel('depthWithin', book, 'bids')
      const ask = bestLevel('depthWithin', book, 'asks')
      if (bid === undefined || ask === undefined) return null
      const middle = halfDecimal(addDecimal(bid[0], ask[0]))
      const low = multiplyDecimal(middle, below)
      const high = multiplyDecimal(middle, above)
      const scaled = (price: string) => multiplyDecimal(price, '10000')
      return {
        bids: within(book, 'bids', (price) => compareDecimal(scaled(price), low) >= 0),
        asks: within(book, 'asks', (price) => compareDecimal(scaled(price), high) <= 0),
      }
    },
    (a, b) => a.bids === b.bids && a.asks === b.asks,
  )
}
