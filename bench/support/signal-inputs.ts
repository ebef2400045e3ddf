/**
 * The inputs of bench/signals.ts, made from a seeded random source: prices, order books
 * and trades as the signals take them.
 */
import { applyBookEvent } from '../../src/book/apply-book-event.js'
import type { Level } from '../../src/book/book-event.js'
import { OrderBook } from '../../src/book/order-book.js'
import type { PublicTrade } from '../../src/schemas/public-trade.js'
import { fixed, tickLevels } from './measure.js'

/** Inputs of each list. */
export const COUNT = 2_000

/** `units` of 10^-decimals as decimal text, with all its decimals (`'1.0450'`). */
function text(units: number, decimals: number): string {
  return decimals === 0 ? String(units) : fixed(units, decimals)
}

/** A random walk around 1.0456, each price with 4 to 8 decimals. */
export function prices(random: () => number): string[] {
  let units = 104_560_000 // 10^-8
  return Array.from({ length: COUNT }, () => {
    units += Math.round((random() - 0.5) * 20_000)
    const decimals = 4 + Math.floor(random() * 5)
    const step = 10 ** (8 - decimals)
    return text(Math.round(units / step), decimals)
  })
}

/** Books of 50 levels a side, each one to three changes near the top from the last. */
export function books(random: () => number): OrderBook[] {
  const sides = { bids: new Map<number, number>(), asks: new Map<number, number>() }
  for (let k = 0; k < 50; k += 1) {
    sides.bids.set(1_045_600 - 1 - 2 * k, 1 + Math.floor(random() * 5e7))
    sides.asks.set(1_045_600 + 1 + 2 * k, 1 + Math.floor(random() * 5e7))
  }
  const write = tickLevels(6)
  const sorted = (name: 'bids' | 'asks', entries: Iterable<[number, number]>) =>
    [...entries].sort((a, b) => (name === 'bids' ? b[0] - a[0] : a[0] - b[0]))
  let book = applyBookEvent(undefined, write.snapshot(sides))
  const out: OrderBook[] = []
  for (let n = 0; n < COUNT; n += 1) {
    const touched = { bids: new Map<number, number>(), asks: new Map<number, number>() }
    const changes = 1 + Math.floor(random() * 3)
    for (let c = 0; c < changes; c += 1) {
      const name = random() < 0.5 ? 'bids' : 'asks'
      const map = sides[name]
      const top = sorted(name, map).slice(0, 12)
      let tick = (top[Math.floor(random() * top.length)] as [number, number])[0]
      const roll = random()
      // A new level beside an existing one, else a new quantity, else (if the side keeps
      // 40 levels) a removal.
      if (roll < 0.2) while (map.has(tick)) tick += name === 'bids' ? -1 : 1
      if (touched[name].has(tick)) continue
      if (roll < 0.85 || map.size <= 40) map.set(tick, 1 + Math.floor(random() * 5e7))
      else map.delete(tick)
      touched[name].set(tick, map.get(tick) ?? 0)
    }
    book = applyBookEvent(book, write.delta(n, touched))
    out.push(book)
  }
  return out
}

/**
 * Books of 12 levels a side at fixed prices whose every quantity is new each book (as a
 * book rebuilt from a whole new answer would be): the worst case of `imbalance`, which
 * reads again each level whose text changed since the book before.
 */
export function freshBooks(random: () => number): OrderBook[] {
  const side = (first: number, step: number) =>
    Array.from(
      { length: 12 },
      (_, k): Level => [fixed(first + step * k, 6), fixed(1 + Math.floor(random() * 5e7), 4)],
    )
  return Array.from(
    { length: COUNT },
    (_, n) => new OrderBook(0, n + 1, n, side(1_045_599, -2), side(1_045_601, 2)),
  )
}

/** Trades 0 to 200 ms apart: prices with 4 to 8 decimals, quantities with 1 to 4. */
export function trades(random: () => number): PublicTrade[] {
  let at = 1_700_000_000_000
  return prices(random).map((price, i) => {
    at += Math.floor(random() * 201)
    const decimals = 1 + Math.floor(random() * 4)
    const quantity = text(1 + Math.floor(random() * 10 ** (decimals + 3)), decimals)
    const side = random() < 0.5 ? ('buy' as const) : ('sell' as const)
    return { pool_id: 0, price, quantity, side, traded_at: at, buyer: `b${i}`, seller: `s${i}` }
  })
}
