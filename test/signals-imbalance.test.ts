import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { OrderBook } from '../src/book/order-book.js'
import { VenueInputError } from '../src/errors/venue-input-error.js'
import { imbalance } from '../src/signals/index.js'
import { bookArb, imbalanceAt, ratio, run, sum, testScheduler, unitsAt } from './helpers/signals.js'

describe('imbalance', () => {
  it('compares the quantity of the top levels of each side', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const books = {
        a: new OrderBook(
          1,
          1,
          0,
          [
            ['1', '100'],
            ['0.9', '200'],
            ['0.8', '999'],
          ],
          [['1.1', '100']],
        ),
        b: new OrderBook(1, 2, 0, [['1', '300']], [['1.1', '100']]),
        c: new OrderBook(1, 3, 0, [], [['1.1', '1']]),
        d: new OrderBook(1, 4, 0, [], []),
        e: new OrderBook(1, 5, 0, [['1', '1']], [['1.1', '2']]),
      }
      // c: asks only, -1; d: both sides empty, null.
      expectObservable(cold('abcde|', books).pipe(imbalance(2, { places: 4 }))).toBe('a-cde|', {
        a: '0.5',
        c: '-1',
        d: null,
        e: '-0.3333',
      })
    })
  })

  it('is 1 with bids only and -1 with asks only: one side empty is no missing value', () => {
    const books = [
      new OrderBook(1, 1, 0, [['1', '5']], []),
      new OrderBook(1, 2, 0, [], [['1.1', '5']]),
    ]
    expect(run(books, imbalance(3))).toEqual(['1', '-1'])
  })

  it('throws VenueInputError for bad levels', () => {
    for (const levels of [0, -1, 1.5, Number.NaN, '3']) {
      expect(() => imbalance(levels as number)).toThrow(VenueInputError)
    }
    expect(() => imbalance(0)).toThrow(/imbalance: levels must be an integer >= 1/)
  })

  it('matches an exact reference', () => {
    fc.assert(
      fc.property(
        fc.array(bookArb(), { maxLength: 10 }),
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 0, max: 20 }),
        (books, levels, places) => {
          const expected: (bigint | null)[] = []
          for (const b of books) {
            const bids = sum(b.bids.slice(0, levels).map((l) => ratio(l[1])))
            const asks = sum(b.asks.slice(0, levels).map((l) => ratio(l[1])))
            const v = imbalanceAt(bids, asks, places) ?? null
            if (expected.length === 0 || expected.at(-1) !== v) expected.push(v)
          }
          expect(
            run(books, imbalance(levels, { places })).map((t) =>
              t === null ? null : unitsAt(t, places),
            ),
          ).toEqual(expected)
        },
      ),
    )
  })
})
