/**
 * One pool's resting limit orders: two sides of price levels, best level first, each a
 * FIFO queue (price-time priority).
 *
 * @packageDocumentation
 */
import { formatFixed } from './fixed-point.js'
import { type Order, remainingOf, type Side } from './order.js'
import type { WireLevel } from './types.js'

/** A price level: its orders in arrival order and their total unfilled quantity. */
export interface BookLevel {
  readonly price: bigint
  quantity: bigint
  readonly orders: Order[]
}

/** One side of the book; bids run high to low, asks low to high. */
export class BookSide {
  readonly side: Side
  readonly levels: BookLevel[] = []

  constructor(side: Side) {
    this.side = side
  }

  /** The best level, or undefined when the side is empty. */
  best(): BookLevel | undefined {
    return this.levels[0]
  }

  /** Appends a resting order to the queue of its price level. */
  add(order: Order): void {
    const index = this.#search(order.price)
    let level = this.levels[index]
    if (level === undefined || level.price !== order.price) {
      level = { price: order.price, quantity: 0n, orders: [] }
      this.levels.splice(index, 0, level)
    }
    level.orders.push(order)
    level.quantity += remainingOf(order)
  }

  /** Removes a resting order (before its status changes); false when it is not here. */
  remove(order: Order): boolean {
    const index = this.#search(order.price)
    const level = this.levels[index]
    if (level === undefined || level.price !== order.price) return false
    const position = level.orders.indexOf(order)
    if (position < 0) return false
    level.orders.splice(position, 1)
    level.quantity -= remainingOf(order)
    if (level.orders.length === 0) this.levels.splice(index, 1)
    return true
  }

  /** Records that the first order of the best level executed `quantity`. */
  fillBest(quantity: bigint, finished: boolean): void {
    const level = this.levels[0]
    if (level === undefined) return
    level.quantity -= quantity
    if (finished) level.orders.shift()
    if (level.orders.length === 0) this.levels.shift()
  }

  /** Levels in wire form. */
  wire(pricePrecision: number, basePrecision: number): WireLevel[] {
    return this.levels.map((level) => [
      formatFixed(level.price, pricePrecision),
      formatFixed(level.quantity, basePrecision),
    ])
  }

  /** Index of the level at `price`, or where it would be inserted. */
  #search(price: bigint): number {
    let low = 0
    let high = this.levels.length
    while (low < high) {
      const middle = (low + high) >> 1
      const level = this.levels[middle] as BookLevel
      const before = this.side === 0 ? level.price > price : level.price < price
      if (before) low = middle + 1
      else high = middle
    }
    return low
  }
}

/** A pool's order book. */
export class OrderBook {
  readonly bids = new BookSide(0)
  readonly asks = new BookSide(1)

  /** The side resting orders of `side` join. */
  sideOf(side: Side): BookSide {
    return side === 0 ? this.bids : this.asks
  }

  /** True when the best bid is at or above the best ask (never after matching). */
  crossed(): boolean {
    const bid = this.bids.best()
    const ask = this.asks.best()
    return bid !== undefined && ask !== undefined && bid.price >= ask.price
  }
}
