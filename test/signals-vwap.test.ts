import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { VenueInputError } from '../src/errors/venue-input-error.js'
import type { PublicTrade } from '../src/schemas/public-trade.js'
import { vwap } from '../src/signals/index.js'
import type { PublicTradeEvent } from '../src/streams/watch-trades.js'
import {
  expectWindowReference,
  mul,
  quotientAt,
  ratio,
  run,
  sum,
  testScheduler,
  trade,
  tradesArb,
  unitsAt,
  windowReference,
} from './helpers/signals.js'

/** The volume-weighted average price of `inside`, or `undefined` for no volume. */
const vwapOf = (inside: readonly PublicTrade[], places: number): bigint | undefined =>
  quotientAt(
    sum(inside.map((u) => mul(ratio(u.price), ratio(u.quantity)))),
    sum(inside.map((u) => ratio(u.quantity))),
    places,
  )

describe('vwap', () => {
  it('averages by volume over a window of trade time', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const trades = {
        a: trade('10', '1', 1_000),
        b: trade('12', '3', 1_500),
        c: trade('20', '1', 2_000), // the trade at 1000 leaves: (12×3 + 20) / 4
        d: trade('30', '0', 5_000), // only a zero quantity: nothing
        e: trade('11', '2', 5_999),
      }
      expectObservable(cold('abcde|', trades).pipe(vwap(1_000))).toBe('abc-e|', {
        a: '10',
        b: '11.5',
        c: '14',
        e: '11',
      })
    })
  })

  it('reads watchTrades events and skips gaps', () => {
    const events: PublicTradeEvent[] = [
      { type: 'trade', trade: trade('1', '1', 0) },
      { type: 'gap', poolId: 1, since: 0, until: 10 },
      { type: 'trade', trade: trade('2', '1', 10) },
    ]
    expect(run(events, vwap(60_000, { places: 2 }))).toEqual(['1', '1.5'])
  })

  it('throws VenueInputError for bad arguments', () => {
    expect(() => vwap(0)).toThrow(VenueInputError)
    expect(() => vwap(1.5)).toThrow(VenueInputError)
    expect(() => vwap(1000, { places: 2000 })).toThrow(/vwap: places must be an integer/)
  })

  it('matches a naive recompute over the window', () => {
    expectWindowReference(vwap, vwapOf)
  })

  it('matches the reference for trades out of time order too', () => {
    fc.assert(
      fc.property(
        fc.array(tradesArb().map((t) => t.reverse())).map((runs) => runs.flat()),
        fc.integer({ min: 1, max: 5_000 }),
        (trades, windowMs) => {
          expect(run(trades, vwap(windowMs)).map((t) => unitsAt(t, 18))).toEqual(
            windowReference(trades, windowMs, 18, vwapOf),
          )
        },
      ),
      { numRuns: 50 },
    )
  })
})
