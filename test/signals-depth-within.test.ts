import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { OrderBook } from '../src/book/order-book.js'
import { VenueInputError } from '../src/errors/venue-input-error.js'
import { type DepthWithin, depthWithin } from '../src/signals/index.js'
import {
  add,
  bookArb,
  cmp,
  mul,
  type Ratio,
  ratio,
  run,
  sum,
  testScheduler,
} from './helpers/signals.js'

/** A quantity (at most 4 decimals) as its units of 10^-4. */
const key4 = (r: Ratio): string => String((r.n * 10000n) / r.d)

describe('depthWithin', () => {
  it('sums the quantity within bps of the mid, bounds included', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      // mid 100; 100 bps: bids >= 99, asks <= 101
      const books = {
        a: new OrderBook(
          1,
          1,
          0,
          [
            ['99.5', '1'],
            ['99', '2'],
            ['98.99', '4'],
          ],
          [
            ['100.5', '3'],
            ['101.01', '5'],
          ],
        ),
        b: new OrderBook(
          1,
          2,
          0,
          [
            ['99.5', '1.0'],
            ['99', '2'],
          ],
          [['100.5', '3']],
        ),
        c: new OrderBook(1, 3, 0, [], [['100.5', '3']]),
        d: new OrderBook(1, 4, 0, [['99.5', '1']], [['100.5', '3']]),
      }
      // c has no bids, so no mid to measure from: null.
      expectObservable(cold('abcd|', books).pipe(depthWithin(100))).toBe('a-cd|', {
        a: { bids: '3', asks: '3' },
        c: null,
        d: { bids: '1', asks: '3' },
      })
    })
  })

  it('throws VenueInputError for a bad bps', () => {
    for (const bps of [-1, '-0.5', 'ten', Number.POSITIVE_INFINITY, undefined]) {
      expect(() => depthWithin(bps as number)).toThrow(VenueInputError)
    }
  })

  it('matches a naive exact reference', () => {
    fc.assert(
      fc.property(
        fc.array(bookArb(), { maxLength: 10 }),
        fc.integer({ min: 0, max: 20_000 }),
        (books, bps) => {
          const expected: ({ bids: string; asks: string } | null)[] = []
          for (const b of books) {
            const bid = b.bids[0]
            const ask = b.asks[0]
            if (!bid || !ask) {
              if (expected.length === 0 || expected.at(-1) !== null) expected.push(null)
              continue
            }
            const m = mul(add(ratio(bid[0]), ratio(ask[0])), { n: 1n, d: 2n })
            const low = mul(m, { n: 10000n - BigInt(bps), d: 10000n })
            const high = mul(m, { n: 10000n + BigInt(bps), d: 10000n })
            const bids = sum(
              b.bids.filter((l) => cmp(ratio(l[0]), low) >= 0).map((l) => ratio(l[1])),
            )
            const asks = sum(
              b.asks.filter((l) => cmp(ratio(l[0]), high) <= 0).map((l) => ratio(l[1])),
            )
            const key = { bids: key4(bids), asks: key4(asks) }
            const last = expected.at(-1)
            if (!last || last.bids !== key.bids || last.asks !== key.asks) expected.push(key)
          }
          const toKey = (d: DepthWithin | null) =>
            d === null ? null : { bids: key4(ratio(d.bids)), asks: key4(ratio(d.asks)) }
          expect(run(books, depthWithin(bps)).map(toKey)).toEqual(expected)
        },
      ),
    )
  })
})
