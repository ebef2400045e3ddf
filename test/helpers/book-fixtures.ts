import type { BookDelta, BookSnapshot, Level } from '../../src/book/book-event.js'
import { OrderBook } from '../../src/book/order-book.js'

/** A small two-sided book of pool 7: three bid levels and three ask levels. */
export const BIDS: readonly Level[] = [
  ['1.0452', '310.5'],
  ['1.045', '20'],
  ['1.04', '5'],
]
export const ASKS: readonly Level[] = [
  ['1.046', '100'],
  ['1.047', '50'],
  ['1.05', '10'],
]

/** An `OrderBook` of pool 7 with these levels. */
export function book(bids: readonly Level[] = BIDS, asks: readonly Level[] = ASKS): OrderBook {
  return new OrderBook(7, 1, 1_700_000_000_000, bids, asks)
}

/** A snapshot event of pool 7 (seq 1), with `overrides`. */
export function snapshot(
  bids: readonly Level[],
  asks: readonly Level[],
  overrides: Partial<BookSnapshot> = {},
): BookSnapshot {
  return {
    type: 'snapshot',
    poolId: 7,
    seq: 1,
    timestamp: 1_000,
    bids,
    asks,
    reason: 'initial',
    ...overrides,
  }
}

/** A delta event of pool 7 (seq 2 after 1), with `overrides`. */
export function delta(
  bids: readonly Level[],
  asks: readonly Level[],
  overrides: Partial<BookDelta> = {},
): BookDelta {
  return {
    type: 'delta',
    poolId: 7,
    seq: 2,
    prevSeq: 1,
    timestamp: 2_000,
    bids,
    asks,
    ...overrides,
  }
}
