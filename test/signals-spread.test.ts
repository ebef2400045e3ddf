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
  it('emits the absolute spread when it changes, and null once when a side vanishes', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const books = {
        a: book('1', '1.5'),
        b: book('2', '2.50'),
        c: book('2'),
        d: book(undefined, '2.5'),
        e: book('2', '2.5'),
      }
      expectObservable(cold('abcde|', books).pipe(spread())).toBe('a-c-e|', {
        a: '0.5',
        c: null,
        e: '0.5',
      })
    })
  })

  it('lets a wide-spread alert see a side vanish (null), in bps too', () => {
    const books = [book('99', '101'), book('99'), book('99', '101')]
    expect(run(books, spread({ unit: 'bps', places: 2 }))).toEqual(['200', null, '200'])
  })

  it('gives null in bps for a zero mid (no basis to measure from)', () => {
    expect(run([book('0', '0'), book('1', '3')], spread({ unit: 'bps' }))).toEqual([null, '10000'])
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
      [{ unit: null }, 'unit'],
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
          // Units of 10^-4 (absolute) and 10^-places (bps); null for a one-sided book.
          const absolute: (bigint | null)[] = []
          const bps: (bigint | null)[] = []
          for (const b of books) {
            const bid = b.bids[0]
            const ask = b.asks[0]
            let a: bigint | null = null
            let v: bigint | null = null
            if (bid && ask) {
              const s = sub(ratio(ask[0]), ratio(bid[0]))
              a = roundHalfEven(s, 4)
              const m = div(add(ratio(bid[0]), ratio(ask[0])), { n: 2n, d: 1n })
              v = roundHalfEven(div(mul(s, { n: 10000n, d: 1n }), m), places)
            }
            if (absolute.length === 0 || absolute.at(-1) !== a) absolute.push(a)
            if (bps.length === 0 || bps.at(-1) !== v) bps.push(v)
          }
          const units = (at: number) => (t: string | null) => (t === null ? null : unitsAt(t, at))
          expect(run(books, spread()).map(units(4))).toEqual(absolute)
          expect(run(books, spread({ unit: 'bps', places })).map(units(places))).toEqual(bps)
        },
      ),
    )
  })
})
