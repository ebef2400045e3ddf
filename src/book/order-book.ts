import {
  addDecimal,
  compareValidDecimals,
  halfDecimal,
  multiplyDecimal,
  subtractDecimal,
} from '../decimal.js'
import type { Level } from './book-event.js'

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
 * An immutable view of one pool's order book: bids high to low, asks low to high,
 * `[price, quantity]` exact decimal strings. Built by `applyBookEvent`; a side that an
 * event did not touch is the same array as before (cheap change detection with `===`).
 *
 * @example
 * ```ts
 * book.bestBid   // ['1.0452', '310.5']
 * book.spread    // '0.0008'
 * book.costToFill('buy', '100') // { filled: '100', cost: '104.6', complete: true, worstPrice: '1.046' }
 * ```
 */
export class OrderBook {
  readonly poolId: number
  /** `seq` of the event this view reflects. */
  readonly seq: number
  /** The venue's timestamp of the poll this view reflects, epoch ms. */
  readonly timestamp: number
  readonly bids: readonly Level[]
  readonly asks: readonly Level[]

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
    this.bids = Object.isFrozen(bids) ? bids : Object.freeze([...bids])
    this.asks = Object.isFrozen(asks) ? asks : Object.freeze([...asks])
    Object.freeze(this)
  }

  /** The highest bid. */
  get bestBid(): Level | undefined {
    return this.bids[0]
  }

  /** The lowest ask. */
  get bestAsk(): Level | undefined {
    return this.asks[0]
  }

  /** Best ask minus best bid; undefined when a side is empty. */
  get spread(): string | undefined {
    const bid = this.bids[0]
    const ask = this.asks[0]
    return bid && ask ? subtractDecimal(ask[0], bid[0]) : undefined
  }

  /** Halfway between best bid and best ask, exact; undefined when a side is empty. */
  get mid(): string | undefined {
    const bid = this.bids[0]
    const ask = this.asks[0]
    return bid && ask ? halfDecimal(addDecimal(bid[0], ask[0])) : undefined
  }

  /** True when the best bid is at or above the best ask. */
  get crossed(): boolean {
    const bid = this.bids[0]
    const ask = this.asks[0]
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
