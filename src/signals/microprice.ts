import type { OperatorFunction } from 'rxjs'
import type { OrderBook } from '../book/order-book.js'
import { bookSignal } from './book-signal.js'
import { noExtraArguments, optionsObject, placesOption } from './checks.js'
import { bestLevel, readLevelAmount } from './inputs.js'
import { addUnits, multiplyUnits, quotientText, read, shiftUnits, type Units } from './scaled.js'

/**
 * Options of {@link microprice}.
 *
 * @example
 * ```ts
 * import { microprice } from 'venue-rx/signals'
 *
 * venue.watchOrderBook(0).pipe(microprice({ places: 8 })) // '1.04751207', ...
 * ```
 */
export interface MicropriceOptions {
  /** Decimals of the division, rounded half to even; default 18. */
  readonly places?: number | undefined
}

/**
 * The size-weighted mid of each order book,
 * `(bidPrice × askQty + askPrice × bidQty) / (bidQty + askQty)` over the best levels: it
 * leans toward the side with less quantity, where the next trade is likelier to move the
 * price. Exact but for the division, to `places` decimals (default 18), rounded half to
 * even. Emits only when the value changes.
 *
 * A book with an empty side (or both) has no microprice: it gives `null`, once; so do best
 * levels that hold no quantity (0 / 0). The series operators pass over a `null`.
 *
 * An input that is not an `OrderBook`, or whose best levels are not pairs of non-negative
 * decimal strings, errors the stream with a `TypeError`. Throws `VenueInputError` at the
 * call for a bad, unknown or `null` option, or an extra argument.
 *
 * @example
 * ```ts
 * import { microprice } from 'venue-rx/signals'
 *
 * // bid 1.00 × 300, ask 1.02 × 100: leans to the ask
 * venue.watchOrderBook(1).pipe(microprice({ places: 6 })) // '1.015'; null with a side empty
 * ```
 */
export function microprice(options?: MicropriceOptions): OperatorFunction<OrderBook, string | null>
export function microprice(
  options?: MicropriceOptions,
  ...extra: unknown[]
): OperatorFunction<OrderBook, string | null> {
  noExtraArguments('microprice', ['options'], extra)
  const places = placesOption('microprice', optionsObject('microprice', options, ['places']))
  return bookSignal('microprice', (book) => {
    const bid = book.bestBid
    const ask = book.bestAsk
    if (bid === undefined || ask === undefined || !readBest(bid, ask)) {
      // The checks of the best levels: they throw for a bad one, as they always have.
      bestLevel('microprice', book, 'bids')
      bestLevel('microprice', book, 'asks')
      if (bid === undefined || ask === undefined) return null
      // Both passed the checks, and readBest takes what they take.
      throw new TypeError('microprice: best levels checked but not read')
    }
    // Prices at one scale and quantities at another: the weighted sum is at their sum.
    const priceScale = Math.max(best.bidPriceScale, best.askPriceScale)
    const quantityScale = Math.max(best.bidQuantityScale, best.askQuantityScale)
    const bidPrice = shiftUnits(best.bidPrice, priceScale - best.bidPriceScale)
    const askPrice = shiftUnits(best.askPrice, priceScale - best.askPriceScale)
    const bidQuantity = shiftUnits(best.bidQuantity, quantityScale - best.bidQuantityScale)
    const askQuantity = shiftUnits(best.askQuantity, quantityScale - best.askQuantityScale)
    const total = addUnits(bidQuantity, askQuantity)
    if (total === 0) return null
    const weighted = addUnits(
      multiplyUnits(bidPrice, askQuantity),
      multiplyUnits(askPrice, bidQuantity),
    )
    return quotientText(weighted, total, -priceScale, places)
  })
}

/** The amounts of the best levels as {@link readBest} reads them. */
const best = {
  bidPrice: 0 as Units,
  bidPriceScale: 0,
  bidQuantity: 0 as Units,
  bidQuantityScale: 0,
  askPrice: 0 as Units,
  askPriceScale: 0,
  askQuantity: 0 as Units,
  askQuantityScale: 0,
}

/**
 * Reads the prices and quantities of the best levels into {@link best}; `false` when a
 * level is not a pair of non-negative decimal strings.
 */
function readBest(bid: unknown, ask: unknown): boolean {
  if (!readLevelAmount(bid, 0)) return false
  best.bidPrice = read.units
  best.bidPriceScale = read.scale
  if (!readLevelAmount(bid, 1)) return false
  best.bidQuantity = read.units
  best.bidQuantityScale = read.scale
  if (!readLevelAmount(ask, 0)) return false
  best.askPrice = read.units
  best.askPriceScale = read.scale
  if (!readLevelAmount(ask, 1)) return false
  best.askQuantity = read.units
  best.askQuantityScale = read.scale
  return true
}
