import { describe, expect, it } from 'vitest'
import { applyBookEvent } from '../src/book/apply-book-event.js'
import type { BookDelta, BookSnapshot, Level } from '../src/book/book-event.js'
import {
  applySide,
  diffSide,
  isOrdered,
  isZeroQuantity,
  sameSide,
  sideOrder,
  sortSide,
  withoutEmptyLevels,
} from '../src/book/book-side.js'
import { OrderBook } from '../src/book/order-book.js'

const BIDS: readonly Level[] = [
  ['1.0452', '310.5'],
  ['1.045', '20'],
  ['1.04', '5'],
]
const ASKS: readonly Level[] = [
  ['1.046', '100'],
  ['1.047', '50'],
  ['1.05', '10'],
]

function book(bids: readonly Level[] = BIDS, asks: readonly Level[] = ASKS): OrderBook {
  return new OrderBook(7, 1, 1_700_000_000_000, bids, asks)
}

function snapshot(
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

function delta(
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

describe('OrderBook getters', () => {
  it('gives the best bid, best ask, spread and an exact mid', () => {
    const b = book()
    expect(b.bestBid).toEqual(['1.0452', '310.5'])
    expect(b.bestAsk).toEqual(['1.046', '100'])
    expect(b.spread).toBe('0.0008')
    expect(b.mid).toBe('1.0456')
    expect(b.crossed).toBe(false)
  })

  it('keeps an odd last digit in the mid instead of rounding', () => {
    const b = book([['1.0001', '1']], [['1.0004', '1']])
    expect(b.mid).toBe('1.00025')
    expect(b.spread).toBe('0.0003')
  })

  it('has no best price, spread or mid on an empty side, and is not crossed', () => {
    const noAsks = book(BIDS, [])
    expect(noAsks.bestAsk).toBeUndefined()
    expect(noAsks.spread).toBeUndefined()
    expect(noAsks.mid).toBeUndefined()
    expect(noAsks.crossed).toBe(false)
    const empty = book([], [])
    expect(empty.bestBid).toBeUndefined()
    expect(empty.bestAsk).toBeUndefined()
    expect(empty.crossed).toBe(false)
  })

  it('is crossed when the best bid is at or above the best ask (by value)', () => {
    expect(book([['1.05', '1']], [['1.050', '1']]).crossed).toBe(true)
    const above = book([['1.06', '1']], [['1.05', '1']])
    expect(above.crossed).toBe(true)
    expect(above.spread).toBe('-0.01')
    expect(book([['1.049', '1']], [['1.05', '1']]).crossed).toBe(false)
  })

  it('keeps poolId, seq and timestamp', () => {
    const b = book()
    expect([b.poolId, b.seq, b.timestamp]).toEqual([7, 1, 1_700_000_000_000])
  })
})

describe('OrderBook.quantityUpTo', () => {
  it('buy walks the asks at or below the price', () => {
    const b = book()
    expect(b.quantityUpTo('buy', '1.046')).toBe('100')
    expect(b.quantityUpTo('buy', '1.0470')).toBe('150')
    expect(b.quantityUpTo('buy', '1.049')).toBe('150')
    expect(b.quantityUpTo('buy', '2')).toBe('160')
    expect(b.quantityUpTo('buy', '1.0459')).toBe('0')
  })

  it('sell walks the bids at or above the price', () => {
    const b = book()
    expect(b.quantityUpTo('sell', '1.0452')).toBe('310.5')
    expect(b.quantityUpTo('sell', '1.045')).toBe('330.5')
    expect(b.quantityUpTo('sell', '0')).toBe('335.5')
    expect(b.quantityUpTo('sell', '1.05')).toBe('0')
  })

  it('is 0 on an empty side', () => {
    expect(book([], []).quantityUpTo('buy', '100')).toBe('0')
    expect(book([], []).quantityUpTo('sell', '0')).toBe('0')
  })
})

describe('OrderBook.costToFill', () => {
  it('fills completely within the first levels, with the exact cost and worst price', () => {
    expect(book().costToFill('buy', '120')).toEqual({
      filled: '120',
      cost: '125.54',
      complete: true,
      worstPrice: '1.047',
    })
    expect(book().costToFill('buy', '100')).toEqual({
      filled: '100',
      cost: '104.6',
      complete: true,
      worstPrice: '1.046',
    })
  })

  it('sells into the bids from the highest', () => {
    // 310.5 × 1.0452 + 4.5 × 1.045
    expect(book().costToFill('sell', '315')).toEqual({
      filled: '315',
      cost: '329.2371',
      complete: true,
      worstPrice: '1.045',
    })
  })

  it('fills partially when the side runs out', () => {
    // 100 × 1.046 + 50 × 1.047 + 10 × 1.05
    expect(book().costToFill('buy', '200')).toEqual({
      filled: '160',
      cost: '167.45',
      complete: false,
      worstPrice: '1.05',
    })
  })

  it('is complete when the quantity is exactly the whole side', () => {
    expect(book().costToFill('buy', '160.000')).toEqual({
      filled: '160',
      cost: '167.45',
      complete: true,
      worstPrice: '1.05',
    })
  })

  it('fills nothing on an empty side', () => {
    expect(book(BIDS, []).costToFill('buy', '1')).toEqual({
      filled: '0',
      cost: '0',
      complete: false,
      worstPrice: undefined,
    })
  })

  it('a zero quantity is complete and touches no price', () => {
    expect(book().costToFill('sell', '0')).toEqual({
      filled: '0',
      cost: '0',
      complete: true,
      worstPrice: undefined,
    })
  })
})

describe('OrderBook immutability', () => {
  it('freezes the view and both sides', () => {
    const b = book()
    expect(Object.isFrozen(b)).toBe(true)
    expect(Object.isFrozen(b.bids)).toBe(true)
    expect(Object.isFrozen(b.asks)).toBe(true)
    expect(Reflect.set(b, 'seq', 99)).toBe(false)
    expect(b.seq).toBe(1)
    expect(() => (b.bids as Level[]).push(['1', '1'])).toThrow(TypeError)
  })

  it('copies sides it was given unfrozen, so later changes to them do not leak in', () => {
    const bids: Level[] = [['1', '1']]
    const b = book(bids, [])
    bids.push(['0.5', '1'])
    expect(b.bids).toEqual([['1', '1']])
    expect(b.bids).not.toBe(bids)
  })

  it('reuses a side that is already frozen', () => {
    const asks = Object.freeze([['2', '1']] as Level[])
    expect(book([], asks).asks).toBe(asks)
  })
})

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

describe('book-side', () => {
  it('sideOrder: bids run high to low, asks low to high, by value', () => {
    expect(sideOrder('bids', '2', '1')).toBeLessThan(0)
    expect(sideOrder('asks', '1', '2')).toBeLessThan(0)
    expect(sideOrder('bids', '0.9', '10')).toBeGreaterThan(0)
    expect(sideOrder('asks', '1.10', '1.1')).toBe(0)
  })

  it('isZeroQuantity', () => {
    for (const zero of ['0', '0.000', '00']) expect(isZeroQuantity(zero), zero).toBe(true)
    for (const other of ['1', '0.001', '10', '0.10'])
      expect(isZeroQuantity(other), other).toBe(false)
  })

  it('diffSide lists new and changed levels as in next, and vanished ones with quantity 0', () => {
    const previous: Level[] = [
      ['1.05', '1'],
      ['1.04', '2'],
      ['1.03', '3'],
    ]
    const next: Level[] = [
      ['1.06', '9'],
      ['1.05', '1'],
      ['1.03', '4'],
      ['1.01', '1'],
    ]
    expect(diffSide('bids', previous, next)).toEqual([
      ['1.06', '9'],
      ['1.04', '0'],
      ['1.03', '4'],
      ['1.01', '1'],
    ])
  })

  it('diffSide walks asks low to high', () => {
    expect(
      diffSide(
        'asks',
        [
          ['1', '1'],
          ['3', '1'],
        ],
        [
          ['2', '1'],
          ['3', '2'],
        ],
      ),
    ).toEqual([
      ['1', '0'],
      ['2', '1'],
      ['3', '2'],
    ])
  })

  it('diffSide finds no change when only the text of a price or quantity changed', () => {
    expect(
      diffSide(
        'asks',
        [
          ['1.1', '5'],
          ['1.2', '2.50'],
        ],
        [
          ['1.10', '5.0'],
          ['1.2', '2.5'],
        ],
      ),
    ).toEqual([])
  })

  it('diffSide from and to an empty side', () => {
    expect(diffSide('bids', [], [['1', '1']])).toEqual([['1', '1']])
    expect(diffSide('bids', [['1', '1']], [])).toEqual([['1', '0']])
    expect(diffSide('bids', [], [])).toEqual([])
  })

  it('diffSide is undefined when next is not strictly in side order', () => {
    expect(
      diffSide(
        'bids',
        [],
        [
          ['1', '1'],
          ['2', '1'],
        ],
      ),
    ).toBeUndefined()
    expect(
      diffSide(
        'asks',
        [],
        [
          ['1.1', '1'],
          ['1.10', '1'],
        ],
      ),
    ).toBeUndefined()
    expect(
      diffSide(
        'asks',
        [['5', '1']],
        [
          ['1', '1'],
          ['3', '1'],
          ['2', '1'],
        ],
      ),
    ).toBeUndefined()
  })

  it('applySide applies changes and is the inverse of diffSide', () => {
    const previous: Level[] = [
      ['1', '1'],
      ['2', '2'],
      ['4', '4'],
    ]
    const next: Level[] = [
      ['0.5', '1'],
      ['2', '3'],
      ['3', '3'],
    ]
    const changes = diffSide('asks', previous, next) ?? []
    const applied = applySide('asks', previous, changes)
    expect(applied).toEqual(next)
    expect(Object.isFrozen(applied)).toBe(true)
  })

  it('applySide returns the same array when there is nothing to apply', () => {
    const levels: Level[] = [['1', '1']]
    expect(applySide('bids', levels, [])).toBe(levels)
  })

  it('isOrdered needs strictly decreasing bids and strictly increasing asks, by value', () => {
    expect(isOrdered('bids', [])).toBe(true)
    expect(isOrdered('bids', [['1', '1']])).toBe(true)
    expect(
      isOrdered('bids', [
        ['10', '1'],
        ['9.5', '1'],
      ]),
    ).toBe(true)
    expect(
      isOrdered('asks', [
        ['9.5', '1'],
        ['10', '1'],
      ]),
    ).toBe(true)
    expect(
      isOrdered('bids', [
        ['9.5', '1'],
        ['10', '1'],
      ]),
    ).toBe(false)
    expect(
      isOrdered('asks', [
        ['1.1', '1'],
        ['1.10', '2'],
      ]),
    ).toBe(false)
  })

  it('sortSide sorts into side order and keeps the last level of a repeated price', () => {
    const sorted = sortSide('bids', [
      ['1', '1'],
      ['3', '1'],
      ['1.0', '2'],
      ['2', '1'],
    ])
    expect(sorted).toEqual([
      ['3', '1'],
      ['2', '1'],
      ['1.0', '2'],
    ])
    expect(Object.isFrozen(sorted)).toBe(true)
    expect(
      sortSide('asks', [
        ['3', '1'],
        ['1', '1'],
      ]),
    ).toEqual([
      ['1', '1'],
      ['3', '1'],
    ])
  })

  it('withoutEmptyLevels drops zero quantities and returns the same array when there are none', () => {
    const levels: Level[] = [
      ['3', '1'],
      ['2', '0.00'],
      ['1', '0'],
      ['0.5', '2'],
    ]
    const kept = withoutEmptyLevels(levels)
    expect(kept).toEqual([
      ['3', '1'],
      ['0.5', '2'],
    ])
    expect(Object.isFrozen(kept)).toBe(true)
    const full: Level[] = [['1', '1']]
    expect(withoutEmptyLevels(full)).toBe(full)
  })

  it('sameSide compares prices and quantities by value', () => {
    const a: Level[] = [
      ['1.10', '2.0'],
      ['1', '3'],
    ]
    expect(sameSide(a, a)).toBe(true)
    expect(
      sameSide(a, [
        ['1.1', '2'],
        ['1.000', '3.00'],
      ]),
    ).toBe(true)
    expect(sameSide(a, [['1.1', '2']])).toBe(false)
    expect(
      sameSide(a, [
        ['1.1', '2'],
        ['1', '3.01'],
      ]),
    ).toBe(false)
    expect(
      sameSide(a, [
        ['1.2', '2'],
        ['1', '3'],
      ]),
    ).toBe(false)
  })
})
