import { describe, expect, it } from 'vitest'
import { applyBookEvent } from '../src/book/apply-book-event.js'
import { OrderBook } from '../src/book/order-book.js'
import { ASKS, BIDS, delta, snapshot } from './helpers/book-fixtures.js'

describe('applyBookEvent', () => {
  it('builds a book from a snapshot', () => {
    const b = applyBookEvent(undefined, snapshot(BIDS, ASKS))
    expect(b).toBeInstanceOf(OrderBook)
    expect([b.poolId, b.seq, b.timestamp]).toEqual([7, 1, 1_000])
    expect(b.bids).toEqual(BIDS)
    expect(b.asks).toEqual(ASKS)
  })

  it('a snapshot replaces the whole book', () => {
    const before = applyBookEvent(undefined, snapshot(BIDS, ASKS))
    const after = applyBookEvent(
      before,
      snapshot([['2', '1']], [], { seq: 5, timestamp: 9_000, reason: 'resync' }),
    )
    expect(after.bids).toEqual([['2', '1']])
    expect(after.asks).toEqual([])
    expect([after.seq, after.timestamp]).toEqual([5, 9_000])
  })

  it('a delta changes, adds and removes levels (quantity 0 removes)', () => {
    const before = applyBookEvent(undefined, snapshot(BIDS, ASKS))
    const after = applyBookEvent(
      before,
      delta(
        [
          ['1.0455', '3'],
          ['1.045', '0'],
          ['1.04', '6'],
        ],
        [
          ['1.046', '0.000'],
          ['1.048', '7'],
          ['1.06', '1'],
        ],
      ),
    )
    expect(after.bids).toEqual([
      ['1.0455', '3'],
      ['1.0452', '310.5'],
      ['1.04', '6'],
    ])
    expect(after.asks).toEqual([
      ['1.047', '50'],
      ['1.048', '7'],
      ['1.05', '10'],
      ['1.06', '1'],
    ])
    expect([after.seq, after.timestamp]).toEqual([2, 2_000])
    // The previous view is untouched.
    expect(before.bids).toEqual(BIDS)
    expect(before.asks).toEqual(ASKS)
  })

  it('identifies a price by value: "1.10" removes or changes "1.1"', () => {
    const before = applyBookEvent(
      undefined,
      snapshot(
        [
          ['1.1', '5'],
          ['1.0', '2'],
        ],
        [['1.2', '1']],
      ),
    )
    const removed = applyBookEvent(before, delta([['1.10', '0']], []))
    expect(removed.bids).toEqual([['1.0', '2']])
    const changed = applyBookEvent(before, delta([], [['1.20', '4']]))
    expect(changed.asks).toEqual([['1.20', '4']])
  })

  it('removing a level that is not there changes nothing', () => {
    const before = applyBookEvent(undefined, snapshot(BIDS, ASKS))
    const after = applyBookEvent(before, delta([['1.0451', '0']], []))
    expect(after.bids).toEqual(BIDS)
  })

  it('reuses the side a delta does not touch (same array)', () => {
    const before = applyBookEvent(undefined, snapshot(BIDS, ASKS))
    const after = applyBookEvent(before, delta([['1.0452', '1']], []))
    expect(after.asks).toBe(before.asks)
    expect(after.bids).not.toBe(before.bids)
    const again = applyBookEvent(after, delta([], [['1.05', '0']], { seq: 3, prevSeq: 2 }))
    expect(again.bids).toBe(after.bids)
  })

  it('throws a RangeError on a gap (prevSeq is not the book seq)', () => {
    const before = applyBookEvent(undefined, snapshot(BIDS, ASKS))
    expect(() => applyBookEvent(before, delta([], [], { seq: 3, prevSeq: 2 }))).toThrow(RangeError)
  })

  it('throws a RangeError on a delta of another pool', () => {
    const before = applyBookEvent(undefined, snapshot(BIDS, ASKS))
    expect(() => applyBookEvent(before, delta([], [], { poolId: 8 }))).toThrow(RangeError)
  })

  it('throws a RangeError on a delta with no book (a snapshot comes first)', () => {
    expect(() => applyBookEvent(undefined, delta([['1', '1']], []))).toThrow(RangeError)
  })
})
