import { describe, expect, it } from 'vitest'
import { applyBookEvent } from '../src/book/apply-book-event.js'
import type { Level } from '../src/book/book-event.js'
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

  it('throws a RangeError for a snapshot whose bids are not strictly high to low, naming the prices', () => {
    const bids: Level[] = [
      ['1.04', '5'],
      ['1.0452', '310.5'],
    ]
    expect(() => applyBookEvent(undefined, snapshot(bids, ASKS))).toThrow(
      new RangeError(
        'applyBookEvent: snapshot 1 refused: the bids of the snapshot are not in side order (high to low, each price once): "1.0452" after "1.04"',
      ),
    )
  })

  it('throws a RangeError for a snapshot whose asks are not strictly low to high', () => {
    const asks: Level[] = [
      ['1.05', '10'],
      ['1.046', '100'],
    ]
    expect(() => applyBookEvent(undefined, snapshot(BIDS, asks))).toThrow(
      /the asks of the snapshot are not in side order \(low to high, each price once\): "1.046" after "1.05"/,
    )
  })

  it('throws a RangeError for a snapshot that names one price twice by value ("1.10" after "1.1")', () => {
    const asks: Level[] = [
      ['1.1', '1'],
      ['1.10', '2'],
    ]
    expect(() => applyBookEvent(undefined, snapshot([], asks))).toThrow(
      new RangeError(
        'applyBookEvent: snapshot 1 refused: the asks of the snapshot name one price twice: "1.10" after "1.1"',
      ),
    )
    expect(() => applyBookEvent(undefined, snapshot([...BIDS, ['1.04', '9']], []))).toThrow(
      /name one price twice: "1.04" after "1.04"/,
    )
  })

  it.each([
    ['a zero quantity', [['1.05', '0']], /with quantity "0" \(a snapshot lists levels above zero/],
    ['a zero quantity written 0.000', [['1.05', '0.000']], /with quantity "0.000"/],
    ['a negative zero', [['1.05', '-0']], /with quantity "-0"/],
    ['a negative quantity', [['1.05', '-3']], /with a negative quantity: "-3"/],
    [
      'a quantity that is no decimal',
      [['1.05', '1e3']],
      /quantity that is not a decimal number: "1e3"/,
    ],
    ['a price that is no decimal', [['NaN', '1']], /a price that is not a decimal number: "NaN"/],
    ['a level with three elements', [['1.05', '1', '2']], /not a \[price, quantity\] pair/],
    ['a number for a quantity', [['1.05', 1]], /not a \[price, quantity\] pair of strings/],
  ])('throws a RangeError for a snapshot with %s, naming the level', (_, asks, message) => {
    const event = snapshot([], asks as unknown as Level[], { seq: 4 })
    let thrown: unknown
    try {
      applyBookEvent(undefined, event)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(RangeError)
    expect((thrown as Error).message).toMatch(/^applyBookEvent: snapshot 4 refused: the asks /)
    expect((thrown as Error).message).toMatch(message)
  })

  it('throws a RangeError for a snapshot whose side is not an array', () => {
    expect(() => applyBookEvent(undefined, snapshot(BIDS, 'none' as never))).toThrow(
      /the asks of the snapshot are not an array of levels/,
    )
  })

  it('cuts a long price in its message to 40 characters', () => {
    const long = `1.${'0'.repeat(5_000)}1`
    let message = ''
    try {
      applyBookEvent(undefined, snapshot([[long, '-1']], []))
    } catch (caught) {
      message = (caught as Error).message
    }
    expect(message).toContain('"1.00000000000000000000000000000000000000…"')
    expect(message.length).toBeLessThan(250)
  })

  it('a snapshot that replaces a book is checked too; the book before it is still usable', () => {
    const before = applyBookEvent(undefined, snapshot(BIDS, ASKS))
    expect(() =>
      applyBookEvent(before, snapshot([['2', '0']], [], { seq: 2, reason: 'resync' })),
    ).toThrow(RangeError)
    expect(applyBookEvent(before, delta([['1.0452', '0']], [])).bids).toEqual(BIDS.slice(1))
  })

  it('still takes valid snapshots: empty sides, a single level, trailing zeros in the text', () => {
    expect(applyBookEvent(undefined, snapshot([], [])).bids).toEqual([])
    const b = applyBookEvent(
      undefined,
      snapshot(
        [
          ['1.10', '0.50'],
          ['1.09', '1'],
        ],
        [['1.2', '007']],
      ),
    )
    expect(b.mid).toBe('1.15')
  })

  it.each([
    [
      'a negative quantity',
      [['1.045', '-1']],
      /the bids of the delta hold the level "1.045" with a negative quantity/,
    ],
    [
      'a quantity that is no decimal',
      [['1.045', 'x']],
      /quantity that is not a decimal number: "x"/,
    ],
    ['a price that is no decimal', [['', '1']], /a price that is not a decimal number: ""/],
    ['a level that is no pair', [['1.045']], /not a \[price, quantity\] pair/],
  ])(
    'throws a RangeError for a delta with %s, and leaves the book as it was',
    (_, bids, message) => {
      const before = applyBookEvent(undefined, snapshot(BIDS, ASKS))
      expect(() => applyBookEvent(before, delta(bids as unknown as Level[], []))).toThrow(message)
      expect(before.bids).toEqual(BIDS)
    },
  )

  it('a delta quantity of zero, in any writing, still removes a level', () => {
    const before = applyBookEvent(undefined, snapshot(BIDS, ASKS))
    expect(applyBookEvent(before, delta([['1.045', '-0.00']], [])).bids).toEqual([
      ['1.0452', '310.5'],
      ['1.04', '5'],
    ])
  })
})
