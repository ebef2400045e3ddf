import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { OrderBook } from '../src/book/order-book.js'
import { VenueInputError } from '../src/errors/venue-input-error.js'
import { spread } from '../src/signals/index.js'
import {
  add,
  bookArb,
  div,
  mul,
  ratio,
  roundHalfEven,
  run,
  sub,
  testScheduler,
  unitsAt,
} from './helpers/signals.js'

const book = (bid?: string, ask?: string): OrderBook =>
  new OrderBook(1, 1, 0, bid ? [[bid, '1']] : [], ask ? [[ask, '1']] : [])

describe('spread', () => {
  it('emits the absolute spread when it changes and skips one-sided books', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const books = { a: book('1', '1.5'), b: book('2', '2.50'), c: book('2'), d: book('2', '2.6') }
      expectObservable(cold('abcd|', books).pipe(spread())).toBe('a--d|', { a: '0.5', d: '0.6' })
    })
  })

  it('emits basis points of the mid, to places decimals', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const books = { a: book('1.0452', '1.046'), b: book('99', '101') }
      expectObservable(cold('ab|', books).pipe(spread({ unit: 'bps', places: 2 }))).toBe('ab|', {
        a: '7.65',
        b: '200',
      })
    })
  })

  it('throws VenueInputError naming a bad option at the call', () => {
    const bad = [
      [{ unit: 'pct' }, 'unit'],
      [{ places: -1 }, 'places'],
      [{ places: 1.5 }, 'places'],
      [{ scale: 2 }, 'scale'],
    ] as const
    for (const [options, argument] of bad) {
      try {
        spread(options as never)
        expect.unreachable()
      } catch (error) {
        expect(error).toBeInstanceOf(VenueInputError)
        expect((error as VenueInputError).argument).toBe(argument)
      }
    }
  })

  it('matches an exact reference in both units', () => {
    fc.assert(
      fc.property(
        fc.array(bookArb(), { maxLength: 10 }),
        fc.integer({ min: 0, max: 20 }),
        (books, places) => {
          const absolute: bigint[] = []
          const bps: bigint[] = []
          for (const b of books) {
            const bid = b.bids[0]
            const ask = b.asks[0]
            if (!bid || !ask) continue
            const s = sub(ratio(ask[0]), ratio(bid[0]))
            const a = roundHalfEven(s, 4)
            if (absolute.at(-1) !== a) absolute.push(a)
            const m = div(add(ratio(bid[0]), ratio(ask[0])), { n: 2n, d: 1n })
            const v = roundHalfEven(div(mul(s, { n: 10000n, d: 1n }), m), places)
            if (bps.at(-1) !== v) bps.push(v)
          }
          expect(run(books, spread()).map((t) => unitsAt(t, 4))).toEqual(absolute)
          expect(
            run(books, spread({ unit: 'bps', places })).map((t) => unitsAt(t, places)),
          ).toEqual(bps)
        },
      ),
    )
  })
})
