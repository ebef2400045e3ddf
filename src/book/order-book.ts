import {
  addDecimal,
  compareValidDecimals,
  halfDecimal,
  multiplyDecimal,
  subtractDecimal,
} from '../decimal.js'
import { VenueInputError } from '../errors/venue-input-error.js'
import type { Level } from './book-event.js'
import { applyChanges, type Chunks, firstLevels, flatten, toChunks } from './chunked-side.js'

/**
 * What filling a quantity against the book would take.
 *
 * @example
 * ```ts
 * // asks: 355.14 at 1.0477, then 1566.85 at 1.0478
 * const estimate: FillEstimate = book.costToFill('buy', '500')
 * // { filled: '500', cost: '523.864486', complete: true, worstPrice: '1.0478' }
 * if (!estimate.complete) console.warn(`only ${estimate.filled} on the book`)
 * ```
 */
export interface FillEstimate {
  /** Base quantity that the book can fill (at most the asked quantity). */
  readonly filled: string
  /** Quote cost (buy) or proceeds (sell) of `filled`, exact. */
  readonly cost: string
  /** Whether the whole quantity can be filled. */
  readonly complete: boolean
  /** Worst price touched, when anything fills. */
  readonly worstPrice: string | undefined
}

/**
 * The chunks of one side of a book: its levels in side order, as `top` reads them, but
 * with no copy. For the book signals, which read the top levels of every book; read only.
 */
export function sideChunks(book: OrderBook, side: 'bids' | 'asks'): Chunks {
  return chunksOf(book, side)
}

/** {@link sideChunks}, set by `OrderBook` (which alone reads its private sides). */
let chunksOf: (book: OrderBook, side: 'bids' | 'asks') => Chunks

/** Side views from `OrderBook.applying` to the constructor it calls (synchronously). */
let handOver: readonly [SideView, SideView] | undefined
const NO_LEVELS: readonly Level[] = Object.freeze([])

/**
 * An immutable view of one pool's order book: bids high to low, asks low to high,
 * `[price, quantity]` exact decimal strings. Built by `applyBookEvent`, which copies only
 * what a delta touches: the best levels, `spread`, `mid` and `top(side, n)` cost O(1) or
 * O(n) whatever the size of the book, and `bids` / `asks` are built once per side on first
 * read (frozen arrays). A side that an event did not touch is the same array as before
 * (cheap change detection with `===`).
 *
 * @example
 * ```ts
 * book.bestBid   // ['1.0452', '310.5']
 * book.spread    // '0.0008'
 * book.top('asks', 2) // [['1.046', '12'], ['1.0461', '80.5']]
 * book.costToFill('buy', '100') // { filled: '100', cost: '104.6', complete: true, worstPrice: '1.046' }
 * ```
 */
export class OrderBook {
  readonly poolId: number
  /** `seq` of the event this view reflects. */
  readonly seq: number
  /** The venue's timestamp of the poll this view reflects, epoch ms. */
  readonly timestamp: number
  readonly #bids: SideView
  readonly #asks: SideView

  static {
    chunksOf = (book, side) => (side === 'bids' ? book.#bids : book.#asks).chunks
  }

  /**
   * A book of the given sides, each in side order (not checked). A side given frozen is
   * kept as `bids` / `asks` as it is; an unfrozen one is copied.
   */
  constructor(
    poolId: number,
    seq: number,
    timestamp: number,
    bids: readonly Level[],
    asks: readonly Level[],
  ) {
    this.poolId = poolId
    this.seq = seq
    this.timestamp = timestamp
    // Views handed over by `applying`, else views of the sides given.
    const views = handOver
    handOver = undefined
    this.#bids = views?.[0] ?? SideView.of(bids)
    this.#asks = views?.[1] ?? SideView.of(asks)
    Object.freeze(this)
  }

  /** Every bid, high to low: a frozen array, built on first read and kept. */
  get bids(): readonly Level[] {
    return this.#bids.levels
  }

  /** Every ask, low to high: a frozen array, built on first read and kept. */
  get asks(): readonly Level[] {
    return this.#asks.levels
  }

  /** The book as data (`JSON.stringify` shows both sides). */
  toJSON(): {
    poolId: number
    seq: number
    timestamp: number
    bids: readonly Level[]
    asks: readonly Level[]
  } {
    return {
      poolId: this.poolId,
      seq: this.seq,
      timestamp: this.timestamp,
      bids: this.bids,
      asks: this.asks,
    }
  }

  /** `console.log(book)` shows both sides, as data. */
  [Symbol.for('nodejs.util.inspect.custom')](
    depth: number,
    options: object,
    inspect: (value: unknown, options: object) => string,
  ): string {
    return `OrderBook ${inspect(this.toJSON(), { ...options, depth })}`
  }

  /**
   * This book with a delta's changes applied, for `applyBookEvent`: only the chunks the
   * changes touch are copied. Throws a `RangeError` for changes out of side order.
   */
  static applying(
    book: OrderBook,
    seq: number,
    timestamp: number,
    bids: readonly Level[],
    asks: readonly Level[],
  ): OrderBook {
    handOver = [book.#bids.applying('bids', bids), book.#asks.applying('asks', asks)]
    try {
      return new OrderBook(book.poolId, seq, timestamp, NO_LEVELS, NO_LEVELS)
    } finally {
      handOver = undefined
    }
  }

  /**
   * The first `count` levels of a side, best first, in O(count).
   *
   * @example
   * ```ts
   * book.top('bids', 3) // [['1.0452', '310.5'], ['1.0451', '80'], ['1.045', '1200']]
   * ```
   */
  top(side: 'bids' | 'asks', count: number): readonly Level[] {
    if (side !== 'bids' && side !== 'asks') {
      throw new VenueInputError('side', `OrderBook.top: side must be 'bids' or 'asks'`)
    }
    if (!Number.isSafeInteger(count) || count < 0) {
      throw new VenueInputError('count', 'OrderBook.top: count must be a whole number from 0')
    }
    return Object.freeze(firstLevels((side === 'bids' ? this.#bids : this.#asks).chunks, count))
  }

  /** The highest bid. */
  get bestBid(): Level | undefined {
    return this.#bids.first
  }

  /** The lowest ask. */
  get bestAsk(): Level | undefined {
    return this.#asks.first
  }

  /** Best ask minus best bid; undefined when a side is empty. */
  get spread(): string | undefined {
    const bid = this.#bids.first
    const ask = this.#asks.first
    return bid && ask ? subtractDecimal(ask[0], bid[0]) : undefined
  }

  /** Halfway between best bid and best ask, exact; undefined when a side is empty. */
  get mid(): string | undefined {
    const bid = this.#bids.first
    const ask = this.#asks.first
    return bid && ask ? halfDecimal(addDecimal(bid[0], ask[0])) : undefined
  }

  /** True when the best bid is at or above the best ask. */
  get crossed(): boolean {
    const bid = this.#bids.first
    const ask = this.#asks.first
    return bid !== undefined && ask !== undefined && compareValidDecimals(bid[0], ask[0]) >= 0
  }

  /**
   * Base quantity available up to `price`: for `'buy'`, the asks at or below it; for
   * `'sell'`, the bids at or above it.
   */
  quantityUpTo(side: 'buy' | 'sell', price: string): string {
    let total = '0'
    for (const [levelPrice, quantity] of side === 'buy' ? this.asks : this.bids) {
      const order = compareValidDecimals(levelPrice, price)
      if (side === 'buy' ? order > 0 : order < 0) break
      total = addDecimal(total, quantity)
    }
    return total
  }

  /**
   * What buying (from the asks) or selling (into the bids) `quantity` of base would
   * cost or bring, walking the levels from the best price.
   */
  costToFill(side: 'buy' | 'sell', quantity: string): FillEstimate {
    let remaining = quantity
    let filled = '0'
    let cost = '0'
    let worstPrice: string | undefined
    for (const [price, available] of side === 'buy' ? this.asks : this.bids) {
      if (compareValidDecimals(remaining, '0') <= 0) break
      const take = compareValidDecimals(available, remaining) < 0 ? available : remaining
      filled = addDecimal(filled, take)
      cost = addDecimal(cost, multiplyDecimal(price, take))
      remaining = subtractDecimal(remaining, take)
      worstPrice = price
    }
    return { filled, cost, complete: compareValidDecimals(remaining, '0') <= 0, worstPrice }
  }
}

/**
 * One side of a book: its chunks, and the flat frozen array of its levels, built on first
 * read and kept. Books share the view of a side an event did not touch.
 */
class SideView {
  readonly chunks: Chunks
  #levels: readonly Level[] | undefined

  private constructor(chunks: Chunks, levels: readonly Level[] | undefined) {
    this.chunks = chunks
    this.#levels = levels
  }

  static of(levels: readonly Level[]): SideView {
    const kept = Object.isFrozen(levels) ? levels : Object.freeze([...levels])
    return new SideView(toChunks(kept), kept)
  }

  get levels(): readonly Level[] {
    this.#levels ??= Object.freeze(flatten(this.chunks))
    return this.#levels
  }

  get first(): Level | undefined {
    return this.chunks[0]?.[0]
  }

  /** This side with `changes` applied (itself when there are none). */
  applying(side: 'bids' | 'asks', changes: readonly Level[]): SideView {
    if (changes.length === 0) return this
    return new SideView(applyChanges(side, this.chunks, changes), undefined)
  }
}
