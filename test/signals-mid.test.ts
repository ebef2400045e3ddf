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
  it('emits the mid when it changes, and null once when a side is empty', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const books = {
        a: book('1', '2'),
        b: book('1.0', '2.00'),
        c: book(undefined, '2'),
        d: book('1'),
        e: book('1', '2'),
        f: book('1.5', '2.5'),
      }
      // After the null, the same mid as before it is a change again.
      expectObservable(cold('abcdef|', books).pipe(mid())).toBe('a-c-ef|', {
        a: '1.5',
        c: null,
        e: '1.5',
        f: '2',
      })
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
      // The delta empties the bids: the mid is null until the next one refills them.
      expectObservable(books).toBe('s-d-e|', { s: '1.0456', d: null, e: '1.046' })
    })
  })

  it('matches (bid + ask) / 2 exactly (null without one), once per change', () => {
    fc.assert(
      fc.property(fc.array(bookArb(), { maxLength: 12 }), (books) => {
        const expected: (Ratio | null)[] = []
        for (const b of books) {
          const bid = b.bids[0]
          const ask = b.asks[0]
          const m = !bid || !ask ? null : div(add(ratio(bid[0]), ratio(ask[0])), { n: 2n, d: 1n })
          const last = expected.at(-1)
          const same =
            last !== undefined && (last === null || m === null ? last === m : cmp(last, m) === 0)
          if (!same) expected.push(m)
        }
        const actual = run(books, mid())
        expect(actual).toHaveLength(expected.length)
        actual.forEach((a, i) => {
          const e = expected[i] ?? null
          if (a === null || e === null) expect(a).toBe(e)
          else expect(cmp(ratio(a), e)).toBe(0)
        })
      }),
    )
  })
})
