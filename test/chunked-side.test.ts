/**
 * The chunked sides behind `OrderBook`: applying deltas equals a plain reference, keeps
 * the book before the delta as it was, keeps every chunk within bounds, and refuses a
 * delta out of side order.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { BookSide, Level } from '../src/book/book-event.js'
import {
  applyChanges,
  type Chunks,
  firstLevels,
  flatten,
  toChunks,
} from '../src/book/chunked-side.js'
import { applyBookEvent, OrderBook } from '../src/index.js'
import { params } from './fuzz/config.js'

/** A price of tick `t` with 2 decimals, written like the venue (`'12.05'`). */
function price(t: number): string {
  return `${Math.floor(t / 100)}.${String(t % 100).padStart(2, '0')}`
}

/** The side in side order from a map of tick to quantity. */
function ordered(side: BookSide, levels: ReadonlyMap<number, string>): Level[] {
  return [...levels]
    .sort((a, b) => (side === 'bids' ? b[0] - a[0] : a[0] - b[0]))
    .map(([t, q]): Level => [price(t), q])
}

const quantity = fc.constantFrom('1', '2.5', '0.001', '10', '0', '0.000')

/** A starting side (up to 300 levels) and deltas of up to 150 changes each. */
const scenario = fc.record({
  side: fc.constantFrom<BookSide>('bids', 'asks'),
  start: fc.uniqueArray(fc.integer({ min: 1, max: 2_000 }), { maxLength: 300 }),
  deltas: fc.array(
    fc.uniqueArray(fc.tuple(fc.integer({ min: 1, max: 2_000 }), quantity), {
      maxLength: 150,
      selector: ([t]) => t,
    }),
    { maxLength: 6 },
  ),
})

function checkChunks(chunks: Chunks): void {
  for (const chunk of chunks) {
    expect(chunk.length).toBeGreaterThan(0)
    expect(chunk.length).toBeLessThanOrEqual(64)
  }
}

describe('chunked book sides', () => {
  it('equal a plain reference after every delta; the side before a delta stays as it was', () => {
    fc.assert(
      fc.property(scenario, ({ side, start, deltas }) => {
        const reference = new Map(start.map((t): [number, string] => [t, '1']))
        let chunks = toChunks(ordered(side, reference))
        for (const delta of deltas) {
          const changes = ordered(side, new Map(delta))
          const before = flatten(chunks)
          const next = applyChanges(side, chunks, changes)
          expect(flatten(chunks)).toEqual(before)
          for (const [t, q] of delta) {
            if (/^0(\.0+)?$/.test(q)) reference.delete(t)
            else reference.set(t, q)
          }
          expect(flatten(next)).toEqual(ordered(side, reference))
          checkChunks(next)
          chunks = next
        }
      }),
      params(300),
    )
  })

  it('top(side, n) is the first n levels', () => {
    const levels = ordered('asks', new Map(Array.from({ length: 200 }, (_, i) => [i + 1, '1'])))
    const chunks = toChunks(levels)
    for (const n of [0, 1, 31, 32, 33, 199, 200, 500]) {
      expect(firstLevels(chunks, n)).toEqual(levels.slice(0, n))
    }
    const book = new OrderBook(0, 1, 0, [], levels)
    expect(book.top('asks', 3)).toEqual(levels.slice(0, 3))
    expect(book.top('bids', 3)).toEqual([])
    expect(() => book.top('asks', -1)).toThrow(/count must be a whole number/)
  })

  it('applyBookEvent refuses a delta whose levels are out of side order or repeat a price', () => {
    const book = applyBookEvent(undefined, {
      type: 'snapshot',
      poolId: 0,
      seq: 1,
      timestamp: 0,
      reason: 'initial',
      bids: [
        ['1.05', '1'],
        ['1.04', '1'],
      ],
      asks: [['1.06', '1']],
    })
    const delta = (bids: Level[], asks: Level[]) =>
      ({ type: 'delta', poolId: 0, seq: 2, prevSeq: 1, timestamp: 1, bids, asks }) as const
    expect(() =>
      applyBookEvent(
        book,
        delta(
          [
            ['1.03', '1'],
            ['1.04', '2'],
          ],
          [],
        ),
      ),
    ).toThrow(
      'applyBookEvent: delta 2 refused: the bids of the delta are not in side order (high to low, each price once): "1.04" after "1.03"',
    )
    expect(() =>
      applyBookEvent(
        book,
        delta(
          [],
          [
            ['1.07', '1'],
            ['1.070', '2'],
          ],
        ),
      ),
    ).toThrow(RangeError)
    // The book is unchanged and still takes an ordered delta.
    expect(applyBookEvent(book, delta([['1.04', '0']], [])).bids).toEqual([['1.05', '1']])
  })
})
