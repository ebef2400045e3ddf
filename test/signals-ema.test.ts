import fc from 'fast-check'
import { EMA } from 'trading-signals'
import { describe, expect, it } from 'vitest'
import { VenueInputError } from '../src/errors/venue-input-error.js'
import { ema } from '../src/signals/index.js'
import {
  add,
  cmp,
  decimalArb,
  div,
  mul,
  type Ratio,
  ratio,
  roundHalfEven,
  run,
  sub,
  testScheduler,
} from './helpers/signals.js'

describe('ema', () => {
  it('seeds with the first value and steps by 2 / (period + 1)', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('abc|', { a: '10', b: 11, c: '12.00' }).pipe(ema(3))).toBe('abc|', {
        a: '10',
        b: '10.5',
        c: '11.25',
      })
    })
  })

  it('rounds each step to places, half to even', () => {
    // 10 + (11 - 10) × 2 / 3 = 10.666… → 10.67 at 2 places
    expect(run(['10', '11'], ema(2, { places: 2 }))).toEqual(['10', '10.67'])
  })

  it('errors the stream on a value that is no decimal, and checks its arguments at the call', () => {
    let error: unknown
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('ab', { a: '1', b: 'x' }).pipe(ema(2))).toBe(
        'a#',
        { a: '1' },
        new TypeError('ema: not a decimal string or finite number: x'),
      )
    })
    try {
      ema(0)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(VenueInputError)
    expect((error as VenueInputError).argument).toBe('period')
  })

  it('matches an independent exact recompute', () => {
    fc.assert(
      fc.property(
        fc.array(decimalArb(), { maxLength: 25 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 0, max: 20 }),
        (values, period, places) => {
          const expected: Ratio[] = []
          let average: Ratio | undefined
          for (const v of values) {
            if (average === undefined) average = ratio(v)
            else {
              const step = div(mul(sub(ratio(v), average), { n: 2n, d: 1n }), {
                n: BigInt(period + 1),
                d: 1n,
              })
              average = add(average, { n: roundHalfEven(step, places), d: 10n ** BigInt(places) })
            }
            expected.push(average)
          }
          const actual = run(values, ema(period, { places }))
          expect(actual).toHaveLength(expected.length)
          for (const [i, a] of actual.entries()) expect(cmp(ratio(a), expected[i] as Ratio)).toBe(0)
        },
      ),
    )
  })

  it("agrees with trading-signals' EMA within floating-point tolerance", () => {
    fc.assert(
      fc.property(
        fc.array(decimalArb(1_000_000n, 1n), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 20 }),
        (values, period) => {
          const reference = new EMA(period)
          const floats = values.map((v) => reference.add(Number(v)) as number)
          const exact = run(values, ema(period))
          exact.forEach((e, i) => {
            const f = floats[i] as number
            expect(Math.abs(Number(e) - f)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(f)))
          })
        },
      ),
    )
  })
})
