import { defer, distinctUntilChanged, map, type OperatorFunction } from 'rxjs'
import { type OrderBook, sideChunks } from '../book/order-book.js'
import { integerFrom, noExtraArguments, optionsObject, placesOption } from './checks.js'
import { orderBook, readLevelAmount, topLevels } from './inputs.js'
import { addUnits, imbalanceText, read, shiftUnits, type Units } from './scaled.js'

/**
 * Options of {@link imbalance}.
 *
 * @example
 * ```ts
 * import { imbalance } from 'venue-rx/signals'
 *
 * venue.watchOrderBook(0).pipe(imbalance(10, { places: 4 })) // '-0.2731', ...
 * ```
 */
export interface ImbalanceOptions {
  /** Decimals of the division, rounded half to even; default 18. */
  readonly places?: number | undefined
}

/** The largest safe integer: a sum in a number stays at most this. */
const MAX_SUM = Number.MAX_SAFE_INTEGER

/**
 * The quantity of the top levels of one side of each book of a subscription, summed
 * exactly. It remembers the levels of the book before: a level whose price and quantity
 * are the same text as those of a level of that book at the same place, or one place
 * either way (a level added or removed above it), was checked and read then, and its
 * quantity is taken as read. Only the text is compared, so a level is never taken for
 * another.
 */
class TopQuantity {
  readonly #side: 'bids' | 'asks'
  readonly #count: number
  // The levels of the book before: price, quantity, and the quantity read (units of
  // 10^-scale), the first `#known` of each array.
  #known = 0
  readonly #prices: unknown[] = []
  readonly #quantities: unknown[] = []
  readonly #units: Units[] = []
  readonly #scales: number[] = []
  /** The sum of the last book read, in units of 10^-scale. */
  units: Units = 0
  scale = 0

  constructor(side: 'bids' | 'asks', count: number) {
    this.#side = side
    this.#count = count
  }

  /**
   * Reads the quantity of the top levels of `book`'s side into `units` and `scale`;
   * `false` when a level is not a pair of non-negative decimal strings (the subscription
   * errors then, and this is not read again).
   */
  read(book: OrderBook): boolean {
    const chunks = sideChunks(book, this.#side)
    const count = this.#count
    const prices = this.#prices
    const quantities = this.#quantities
    const amounts = this.#units
    const scales = this.#scales
    const known = this.#known
    // The arrays are rewritten in place, place by place: what the place before held in
    // the book before, when this book changed it.
    let changed = false
    let lastPrice: unknown
    let lastQuantity: unknown
    let lastUnits: Units = 0
    let lastScale = 0
    let units: Units = 0
    // A part of the sum in a number, added to `units` before the scale changes or it
    // would pass the safe integers.
    let sum = 0
    let scale = 0
    // The top `count` levels, chunk by chunk.
    let i = 0
    for (let c = 0; c < chunks.length && i < count; c += 1) {
      const chunk = chunks[c] as readonly unknown[]
      for (let k = 0; k < chunk.length && i < count; k += 1, i += 1) {
        const level: unknown = chunk[k]
        if (!Array.isArray(level) || level.length !== 2) return false
        const price: unknown = level[0]
        const quantity: unknown = level[1]
        let amount: Units
        let amountScale: number
        if (i < known && prices[i] === price && quantities[i] === quantity) {
          // Where it was: nothing to rewrite.
          changed = false
          amount = amounts[i] as Units
          amountScale = scales[i] as number
        } else {
          if (i + 1 < known && prices[i + 1] === price && quantities[i + 1] === quantity) {
            // A level above it went.
            amount = amounts[i + 1] as Units
            amountScale = scales[i + 1] as number
          } else if (
            i > 0 &&
            (changed
              ? lastPrice === price && lastQuantity === quantity
              : prices[i - 1] === price && quantities[i - 1] === quantity)
          ) {
            // A level came above it.
            amount = changed ? lastUnits : (amounts[i - 1] as Units)
            amountScale = changed ? lastScale : (scales[i - 1] as number)
          } else {
            // New: the price is only checked (unless it is the text of the price there
            // before, a new quantity at the same price), the quantity read.
            const samePrice = i < known && prices[i] === price
            if (!(samePrice || readLevelAmount(level, 0)) || !readLevelAmount(level, 1)) {
              return false
            }
            amount = read.units
            amountScale = read.scale
          }
          changed = i < known
          if (changed) {
            lastPrice = prices[i]
            lastQuantity = quantities[i]
            lastUnits = amounts[i] as Units
            lastScale = scales[i] as number
          }
          prices[i] = price
          quantities[i] = quantity
          amounts[i] = amount
          scales[i] = amountScale
        }
        // Summed at the finest scale so far (in numbers while they are safe integers).
        if (amountScale === scale && typeof amount === 'number' && sum <= MAX_SUM - amount) {
          sum += amount
        } else if (amountScale > scale) {
          units = addUnits(shiftUnits(addUnits(units, sum), amountScale - scale), amount)
          sum = 0
          scale = amountScale
        } else {
          units = addUnits(addUnits(units, sum), shiftUnits(amount, scale - amountScale))
          sum = 0
        }
      }
    }
    this.#known = i
    this.units = addUnits(units, sum)
    this.scale = scale
    return true
  }
}

/** Throws the error of the first bad level, as the checks of the top levels word it. */
function fail(book: OrderBook, count: number): never {
  topLevels('imbalance', book, 'bids', count)
  topLevels('imbalance', book, 'asks', count)
  throw new TypeError('imbalance: top levels checked but not read')
}

/**
 * Order book imbalance over the top `levels` levels of each side,
 * `(bidQty - askQty) / (bidQty + askQty)`: from -1 (asks only) to 1 (bids only). Base
 * quantities are summed exactly; the division goes to `places` decimals (default 18),
 * rounded half to even. Emits only when the value changes.
 *
 * Unlike the other book signals, a book with one empty side has a value: `'1'` with bids
 * only, `'-1'` with asks only. A book with both sides empty (no quantity in those levels:
 * 0 / 0) gives `null`, once; the series operators pass over a `null`.
 *
 * An input that is not an `OrderBook`, or whose top levels are not pairs of non-negative
 * decimal strings, errors the stream with a `TypeError`. `levels` is an integer >= 1; a
 * bad argument or option, an unknown or `null` option, or an extra argument throws
 * `VenueInputError` at the call.
 *
 * @example
 * ```ts
 * import { imbalance } from 'venue-rx/signals'
 *
 * // top 5: bids hold 300, asks 100
 * venue.watchOrderBook(1).pipe(imbalance(5)) // '0.5'; '1' once the asks are gone
 * ```
 */
export function imbalance(
  levels: number,
  options?: ImbalanceOptions,
): OperatorFunction<OrderBook, string | null>
export function imbalance(
  levels: number,
  options?: ImbalanceOptions,
  ...extra: unknown[]
): OperatorFunction<OrderBook, string | null> {
  noExtraArguments('imbalance', ['levels', 'options'], extra)
  const count = integerFrom('imbalance', 'levels', levels, 1)
  const places = placesOption('imbalance', optionsObject('imbalance', options, ['places']))
  return (source) =>
    defer(() => {
      const bidSide = new TopQuantity('bids', count)
      const askSide = new TopQuantity('asks', count)
      // What bookSignal does (each input checked, then emitted when it changed, `null`
      // included), with operators of its own: bookSignal calls the value of every book
      // signal from one place, which the engine cannot specialise (bench/signals.ts).
      return source.pipe(
        map((input) => {
          const book = orderBook('imbalance', input)
          if (!bidSide.read(book) || !askSide.read(book)) fail(book, count)
          const { units: bids, scale: bidScale } = bidSide
          const { units: asks, scale: askScale } = askSide
          return imbalanceText(bids, bidScale, asks, askScale, places) ?? null
        }),
        distinctUntilChanged(),
      )
    })
}
