import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { OrderBook } from '../src/book/order-book.js'
import { VenueInputError } from '../src/errors/venue-input-error.js'
import { microprice } from '../src/signals/index.js'
import {
  add,
  bookArb,
  mul,
  quotientAt,
  ratio,
  run,
  testScheduler,
  unitsAt,
} from './helpers/signals.js'

const book = (bid: [string, string] | undefined, ask: [string, string] | undefined): OrderBook =>
  new OrderBook(1, 1, 0, bid ? [bid] : [], ask ? [ask] : [])

describe('microprice', () => {
  it('weights the best prices by the opposite quantity; null for an empty side or no quantity', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const books = {
        a: book(['1', '300'], ['1.02', '100']),
        b: book(['1', '3'], ['1.02', '1']),
        c: book(['1', '0'], ['1.02', '0']),
        d: book(undefined, ['1.02', '1']),
        e: book(['1', '1'], ['2', '2']),
        f: book(['1', '1'], undefined),
      }
      expectObservable(cold('abcdef|', books).pipe(microprice({ places: 6 }))).toBe('a-c-ef|', {
        a: '1.015',
        c: null,
        e: '1.333333',
        f: null,
      })
    })
  })

  it('rejects a bad places option', () => {
    expect(() => microprice({ places: 'x' as never })).toThrow(VenueInputError)
  })

  it('matches an exact reference', () => {
    fc.assert(
      fc.property(
        fc.array(bookArb(), { maxLength: 10 }),
        fc.integer({ min: 0, max: 20 }),
        (books, places) => {
          const expected: (bigint | null)[] = []
          for (const b of books) {
            const bid = b.bids[0]
            const ask = b.asks[0]
            const weighted =
              bid && ask
                ? add(mul(ratio(bid[0]), ratio(ask[1])), mul(ratio(ask[0]), ratio(bid[1])))
                : undefined
            const v =
              bid && ask && weighted
                ? (quotientAt(weighted, add(ratio(bid[1]), ratio(ask[1])), places) ?? null)
                : null
            if (expected.length === 0 || expected.at(-1) !== v) expected.push(v)
          }
          expect(
            run(books, microprice({ places })).map((t) => (t === null ? null : unitsAt(t, places))),
          ).toEqual(expected)
        },
      ),
    )
  })
})
