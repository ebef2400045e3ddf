import fc from 'fast-check'
import { ATR, EMA, RSI, SMA } from 'trading-signals'
import { describe, expect, it } from 'vitest'
import { VenueInputError } from '../src/errors/venue-input-error.js'
import { indicator, ohlcv } from '../src/signals/index.js'
import { run, testScheduler, trade, tradesArb } from './helpers/signals.js'

describe('indicator', () => {
  it('feeds prices into a trading-signals indicator and emits once stable', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const prices = { a: '1', b: 2, c: '3', d: '4' }
      expectObservable(cold('abcd|', prices).pipe(indicator(() => new SMA(3)))).toBe('--cd|', {
        c: 2,
        d: 3,
      })
    })
  })

  it('replaces the open candle on each update of ohlcv, adds on a new bucket', () => {
    const trades = [
      trade('10', '1', 0),
      trade('20', '1', 10), // same bucket: replaces 10 by 20
      trade('30', '1', 100),
      trade('40', '1', 150), // replaces 30 by 40
      trade('50', '1', 200),
    ]
    // closes fed: 20 (bucket 0), 40 (bucket 100), 50 (open bucket 200)
    const sma = run(trades, (source) =>
      source.pipe(
        ohlcv(100),
        indicator(() => new SMA(2)),
      ),
    )
    // SMA(2) is stable from the second candle: (20 + 30) / 2, (20 + 40) / 2, (40 + 40) / 2
    // (the close event of bucket 100), (40 + 50) / 2
    expect(sma).toEqual([25, 30, 30, 45])
  })

  it('gives candle indicators the candle with input: candle', () => {
    const candle = (start: number, high: string, low: string, close: string) => ({
      open: close,
      high,
      low,
      close,
      volume: '1',
      start,
      end: start + 1,
    })
    const candles = [candle(0, '2', '1', '1.5'), candle(1, '3', '1', '2'), candle(2, '4', '2', '3')]
    const reference = new ATR(2)
    const expected = candles
      .map((c) =>
        reference.add({ high: Number(c.high), low: Number(c.low), close: Number(c.close) }),
      )
      .filter((_, i) => i >= reference.getRequiredInputs() - 1)
    expect(
      run(
        candles,
        indicator(() => new ATR(2), { input: 'candle' }),
      ),
    ).toEqual(expected.filter((x) => x !== null))
  })

  it('throws VenueInputError for a bad factory or option', () => {
    expect(() => indicator('RSI' as never)).toThrow(VenueInputError)
    expect(() => indicator(() => new RSI(14), { input: 'open' } as never)).toThrow(VenueInputError)
  })

  it('over ohlcv events, equals a fresh indicator fed the closes of the candles so far', () => {
    fc.assert(
      fc.property(
        tradesArb(),
        fc.integer({ min: 1, max: 2_000 }),
        fc.integer({ min: 1, max: 4 }),
        (trades, interval, period) => {
          const events = run(trades, ohlcv(interval))
          const actual = run(
            events,
            indicator(() => new EMA(period)),
          )
          const expected: number[] = []
          const closed: number[] = []
          for (const event of events) {
            const close = Number(event.candle.close)
            const fresh = new EMA(period)
            for (const c of closed) fresh.add(c)
            const result = fresh.add(close)
            if (fresh.isStable && result !== null) expected.push(result)
            if (event.type === 'closed') closed.push(close)
          }
          expect(actual).toHaveLength(expected.length)
          for (const [i, a] of actual.entries()) expect(a).toBeCloseTo(expected[i] as number, 9)
        },
      ),
      { numRuns: 60 },
    )
  })

  it('errors the stream when a candle indicator is given a price', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('a', { a: '1.5' as never })
      expectObservable(source.pipe(indicator(() => new ATR(2), { input: 'candle' }))).toBe(
        '#',
        undefined,
        new TypeError(
          `indicator: value must be a candle or a candle event with input: 'candle' (got "1.5")`,
        ),
      )
    })
  })
})
