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
    if (
      bid === undefined ||
      ask === undefined ||
      !readLevel(bid, bidRead) ||
      !readLevel(ask, askRead)
    ) {
      // The checks of the best levels: they throw for a bad one, as they always have.
      bestLevel('microprice', book, 'bids')
      bestLevel('microprice', book, 'asks')
      if (bid === undefined || ask === undefined) return null
      // Both passed the checks, and readLevel takes what they take.
      throw new TypeError('microprice: best levels checked but not read')
    }
    // Prices at one scale and quantities at another: the weighted sum is at their sum.
    const priceScale = Math.max(bidRead.priceScale, askRead.priceScale)
    const quantityScale = Math.max(bidRead.quantityScale, askRead.quantityScale)
    const bidPrice = shiftUnits(bidRead.price, priceScale - bidRead.priceScale)
    const askPrice = shiftUnits(askRead.price, priceScale - askRead.priceScale)
    const bidQuantity = shiftUnits(bidRead.quantity, quantityScale - bidRead.quantityScale)
    const askQuantity = shiftUnits(askRead.quantity, quantityScale - askRead.quantityScale)
    const total = addUnits(bidQuantity, askQuantity)
    if (total === 0) return null
    const weighted = addUnits(
      multiplyUnits(bidPrice, askQuantity),
      multiplyUnits(askPrice, bidQuantity),
    )
    return quotientText(weighted, total, -priceScale, places)
  })
}

/** A best level's price and quantity, each in units of 10^-scale. */
interface LevelUnits {
  price: Units
  priceScale: number
  quantity: Units
  quantityScale: number
}

/** The best levels as {@link readLevel} last read them. */
const bidRead: LevelUnits = { price: 0, priceScale: 0, quantity: 0, quantityScale: 0 }
const askRead: LevelUnits = { price: 0, priceScale: 0, quantity: 0, quantityScale: 0 }

/**
 * Reads the price and quantity of a level into `into`; `false` when the level is not a
 * pair of non-negative decimal strings.
 */
function readLevel(level: unknown, into: LevelUnits): boolean {
  if (!readLevelAmount(level, 0)) return false
  into.price = read.units
  into.priceScale = read.scale
  if (!readLevelAmount(level, 1)) return false
  into.quantity = read.units
  into.quantityScale = read.scale
  return true
}
