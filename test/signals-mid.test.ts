import fc from 'fast-check'
import { scan } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { applyBookEvent } from '../src/book/apply-book-event.js'
import type { BookEvent } from '../src/book/book-event.js'
import { OrderBook } from '../src/book/order-book.js'
import { mid } from '../src/signals/index.js'
import { add, bookArb, cmp, div, type Ratio, ratio, run, testScheduler } from './helpers/signals.js'

const book = (bid?: string, ask?: string): OrderBook =>
  new OrderBook(1, 1, 0, bid ? [[bid, '1']] : [], ask ? [[ask, '1']] : [])

describe('mid', () => {
  it('emits the mid when it changes and skips one-sided books', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const books = {
        a: book('1', '2'),
        b: book('1.0', '2.00'),
        c: book(undefined, '2'),
        d: book('1', '3'),
        e: book('1.5', '2.5'),
      }
      expectObservable(cold('abcde|', books).pipe(mid())).toBe('a--d-|', { a: '1.5', d: '2' })
    })
  })

  it('composes with a watchOrderBook-like stream of book events in one pipe', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const events: Record<string, BookEvent> = {
        s: {
          type: 'snapshot',
          poolId: 7,
          seq: 1,
          timestamp: 0,
          bids: [['1.0452', '310.5']],
          asks: [['1.046', '100']],
          reason: 'initial',
        },
        d: {
          type: 'delta',
          poolId: 7,
          seq: 2,
          prevSeq: 1,
          timestamp: 1,
          bids: [['1.0452', '0']],
          asks: [],
        },
        e: {
          type: 'delta',
          poolId: 7,
          seq: 3,
          prevSeq: 2,
          timestamp: 2,
          bids: [['1.045', '3']],
          asks: [
            ['1.046', '0'],
            ['1.047', '2'],
          ],
        },
      }
      const books = cold('s-d-e|', events).pipe(
        scan<BookEvent, OrderBook, undefined>(applyBookEvent, undefined),
        mid(),
      )
      expectObservable(books).toBe('s---e|', { s: '1.0456', e: '1.046' })
    })
  })

  it('matches (bid + ask) / 2 exactly, once per change', () => {
    fc.assert(
      fc.property(fc.array(bookArb(), { maxLength: 12 }), (books) => {
        const expected: Ratio[] = []
        for (const b of books) {
          const bid = b.bids[0]
          const ask = b.asks[0]
          if (!bid || !ask) continue
          const m = div(add(ratio(bid[0]), ratio(ask[0])), { n: 2n, d: 1n })
          const last = expected.at(-1)
          if (last !== undefined && cmp(last, m) === 0) continue
          expected.push(m)
        }
        const actual = run(books, mid())
        expect(actual.map(ratio).map((r, i) => cmp(r, expected[i] ?? r))).toEqual(
          actual.map(() => 0),
        )
        expect(actual).toHaveLength(expected.length)
      }),
    )
  })
})
