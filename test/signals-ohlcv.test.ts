import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { VenueInputError } from '../src/errors/venue-input-error.js'
import type { PublicTrade } from '../src/schemas/public-trade.js'
import { type OhlcvEvent, ohlcv } from '../src/signals/index.js'
import { cmp, ratio, run, sum, testScheduler, trade, tradesArb } from './helpers/signals.js'

describe('ohlcv', () => {
  it('updates the open candle and closes it when a later bucket starts', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const trades = {
        a: trade('10', '1', 60_000),
        b: trade('12.0', '2', 60_500),
        c: trade('9', '0.5', 119_999),
        d: trade('11', '1', 180_000),
        e: trade('99', '1', 100_000), // a bucket already closed: ignored
      }
      const first = { start: 60_000, end: 120_000 }
      /** An event of a candle: open, high, low, close, volume, then its bucket. */
      const event = (
        type: OhlcvEvent['type'],
        [open, high, low, close, volume]: readonly [string, string, string, string, string],
        bucket = first,
      ): OhlcvEvent => ({ type, candle: { open, high, low, close, volume, ...bucket } })
      expectObservable(cold('abcd---e|', trades).pipe(ohlcv(60_000))).toBe('abc(xd)-|', {
        a: event('update', ['10', '10', '10', '10', '1']),
        b: event('update', ['10', '12', '10', '12', '3']),
        c: event('update', ['10', '12', '9', '9', '3.5']),
        x: event('closed', ['10', '12', '9', '9', '3.5']),
        d: event('update', ['11', '11', '11', '11', '1'], { start: 180_000, end: 240_000 }),
      })
    })
  })

  it('throws VenueInputError for a bad interval', () => {
    expect(() => ohlcv(0)).toThrow(VenueInputError)
    expect(() => ohlcv('1m' as never)).toThrow(/ohlcv: intervalMs/)
  })

  it('matches a naive grouping of the trades by bucket', () => {
    fc.assert(
      fc.property(tradesArb(), fc.integer({ min: 1, max: 3_000 }), (trades, interval) => {
        const events = run(trades, ohlcv(interval))
        const closed = events.filter((e) => e.type === 'closed').map((e) => e.candle)
        const last = events.at(-1)
        const candles = last ? [...closed, last.candle] : closed
        const buckets = new Map<number, PublicTrade[]>()
        for (const t of trades) {
          const start = Math.floor(t.traded_at / interval) * interval
          buckets.set(start, [...(buckets.get(start) ?? []), t])
        }
        expect(candles.map((c) => c.start)).toEqual([...buckets.keys()])
        for (const c of candles) {
          const group = buckets.get(c.start) ?? []
          const prices = group.map((t) => ratio(t.price))
          expect(c.end).toBe(c.start + interval)
          expect(cmp(ratio(c.open), prices[0] ?? ratio('0'))).toBe(0)
          expect(cmp(ratio(c.close), prices.at(-1) ?? ratio('0'))).toBe(0)
          expect(prices.every((p) => cmp(p, ratio(c.high)) <= 0 && cmp(p, ratio(c.low)) >= 0)).toBe(
            true,
          )
          expect(prices.some((p) => cmp(p, ratio(c.high)) === 0)).toBe(true)
          expect(prices.some((p) => cmp(p, ratio(c.low)) === 0)).toBe(true)
          expect(cmp(ratio(c.volume), sum(group.map((t) => ratio(t.quantity))))).toBe(0)
        }
        // one update per trade, one close per bucket but the last
        expect(events.filter((e: OhlcvEvent) => e.type === 'update')).toHaveLength(trades.length)
        expect(closed).toHaveLength(Math.max(0, buckets.size - 1))
      }),
    )
  })
})
