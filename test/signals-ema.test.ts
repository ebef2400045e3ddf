import fc from 'fast-check'
import { EMA } from 'trading-signals'
import { describe, expect, it } from 'vitest'
import { VenueInputError } from '../src/errors/venue-input-error.js'
import { EmaAverage, innerPlaces } from '../src/signals/ema.js'
import { ema } from '../src/signals/index.js'
import { mulberry32 } from './helpers/random.js'
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
  unitsAt,
} from './helpers/signals.js'

/** `n` prices of a seeded random walk: `start` units of 10^-scale, steps up to `step` units. */
function walk(seed: number, start: bigint, scale: number, step: number, n: number): string[] {
  const random = mulberry32(seed)
  let units = start
  const out: string[] = []
  for (let i = 0; i < n; i += 1) {
    units += BigInt(Math.round((random() - 0.5) * 2 * step))
    if (units < 1n) units = 1n
    const digits = units.toString().padStart(scale + 1, '0')
    out.push(scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`)
  }
  return out
}

/** 10,000 prices each: FX-like (5 decimals), BTC-like (2), a tiny-priced coin (8). */
const LONG_SERIES = {
  fx: walk(1, 104_560n, 5, 30, 10_000),
  btc: walk(2, 4_200_000n, 2, 2_000, 10_000),
  tiny: walk(3, 1_234n, 8, 20, 10_000),
}

/**
 * The long-series tests take about 2 s each alone; a loaded 2-core machine has made them
 * several times slower, so they get more than the default 20 s.
 */
const LONG_TEST_MS = 60_000

/** The agreement asked of trading-signals' float EMA: 1e-12, relative above 1. */
const tolerance = (reference: number) => 1e-12 * Math.max(1, Math.abs(reference))

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

  it('rounds the emitted value to places, half to even', () => {
    // 10 + (11 - 10) × 2 / 3 = 10.666… → 10.67 at 2 places
    expect(run(['10', '11'], ema(2, { places: 2 }))).toEqual(['10', '10.67'])
    // 0.125 and 0.375 are ties: to the even neighbour
    expect(run(['0', '0.375'], ema(1, { places: 2 }))).toEqual(['0', '0.38'])
    expect(run(['0.125'], ema(5, { places: 2 }))).toEqual(['0.12'])
  })

  it('has no dead band: ema(20, { places: 2 }) after a step from 1.0456 to 1.06 reaches 1.06', () => {
    // Rounding each step to 2 decimals kept the average at 1.0456 for good: each step,
    // 0.0144 × 2 / 21 ≈ 0.0014, rounds to 0.00.
    const out = run(['1.0456', ...Array<string>(200).fill('1.06')], ema(20, { places: 2 }))
    expect(out[0]).toBe('1.05')
    expect(out.at(-1)).toBe('1.06')
    expect(new Set(out.slice(1))).toEqual(new Set(['1.05', '1.06']))
  })

  it('reaches any steady input exactly in its output, whatever the period and places', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 8 }),
        fc.bigInt(0n, 10n ** 9n),
        fc.bigInt(0n, 10n ** 9n),
        (period, places, from, to) => {
          const text = (units: bigint) => {
            const digits = units.toString().padStart(places + 1, '0')
            return places === 0 ? digits : `${digits.slice(0, -places)}.${digits.slice(-places)}`
          }
          // The gap shrinks by 1 - 2 / (period + 1) a step: this many steps take it from
          // 10^9 units to under half a unit of the last place.
          const steps = Math.ceil(((period + 1) / 2) * Math.log(4e9)) + 2
          const out = run(
            [text(from), ...Array<string>(steps).fill(text(to))],
            ema(period, { places }),
          )
          expect(cmp(ratio(out.at(-1) ?? ''), ratio(text(to)))).toBe(0)
        },
      ),
      { numRuns: 60 },
    )
  })

  it('matches an independent exact recompute: average to the inner places, output rounded', () => {
    fc.assert(
      fc.property(
        fc.array(decimalArb(), { maxLength: 25 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 0, max: 20 }),
        (values, period, places) => {
          // Written apart from src: max(places, 18) + digits(period + 1) + 1 decimals inside.
          const inner = Math.max(places, 18) + String(period + 1).length + 1
          const expected: bigint[] = []
          let average: Ratio | undefined
          for (const v of values) {
            if (average === undefined) average = ratio(v)
            else {
              const step = div(mul(sub(ratio(v), average), { n: 2n, d: 1n }), {
                n: BigInt(period + 1),
                d: 1n,
              })
              average = add(average, { n: roundHalfEven(step, inner), d: 10n ** BigInt(inner) })
            }
            expected.push(roundHalfEven(average, places))
          }
          expect(run(values, ema(period, { places })).map((t) => unitsAt(t, places))).toEqual(
            expected,
          )
        },
      ),
    )
  })

  it('keeps max(places, 18) + digits(period + 1) + 1 decimals inside', () => {
    expect(innerPlaces(20, 2)).toBe(21)
    expect(innerPlaces(9, 0)).toBe(21)
    expect(innerPlaces(200, 40)).toBe(44)
  })

  // What is compared: EmaAverage's unrounded average (the value ema rounds to emit), as a
  // Number, against trading-signals' EMA fed Number(price), after each of 10,000 prices:
  // |ours - theirs| <= 1e-12 × max(1, |theirs|). The places option only sets how many
  // decimals are kept inside (innerPlaces), so both sides of 18 are tried.
  it(
    "the unrounded average stays within 1e-12 of trading-signals' EMA over 10,000 values",
    () => {
      for (const [at, [name, values]] of Object.entries(LONG_SERIES).entries()) {
        // The shortest period, a common one and the longest: where rounding inside would
        // add up fastest (1) and slowest to forget (200). Each with places below 18 and
        // above, over the three series.
        for (const [p, period] of [1, 20, 200].entries()) {
          const places = (at + p) % 2 === 0 ? 0 : 40
          const reference = new EMA(period)
          const average = new EmaAverage(period, places)
          let worst = 0
          for (const value of values) {
            const theirs = reference.add(Number(value)) as number
            const ours = Number(average.add(value))
            worst = Math.max(worst, Math.abs(ours - theirs) / tolerance(theirs))
          }
          expect(worst, `${name}, period ${period}, places ${places}`).toBeLessThanOrEqual(1)
        }
      }
    },
    LONG_TEST_MS,
  )

  // What is compared: each value ema(period, { places }) emits against the same unrounded
  // average rounded half to even to places (exactly), and against trading-signals' EMA:
  // within half a unit of the last place plus the 1e-12 above.
  it(
    "emits that average rounded to places: within half a unit of trading-signals' EMA",
    () => {
      // Each series once, with a short, the longest and a common period, places 2, 0 and 40
      // (the emitting path is the same for all), over its first 5,000 values.
      const runs = [
        [LONG_SERIES.fx, 9, 2],
        [LONG_SERIES.btc, 200, 0],
        [LONG_SERIES.tiny, 20, 40],
      ] as const
      for (const [series, period, places] of runs) {
        const values = series.slice(0, 5_000)
        const emitted = run(values, ema(period, { places }))
        const reference = new EMA(period)
        const average = new EmaAverage(period, places)
        expect(emitted).toHaveLength(values.length)
        // Counted, then asserted once: an expect per value costs more than the EMA.
        let notRounded = 0
        let worst = 0
        values.forEach((value, i) => {
          const theirs = reference.add(Number(value)) as number
          const out = emitted[i] as string
          const rounded = roundHalfEven(ratio(average.add(value)), places)
          if (cmp(ratio(out), { n: rounded, d: 10n ** BigInt(places) }) !== 0) notRounded += 1
          const bound = 0.5 * 10 ** -places + tolerance(theirs)
          worst = Math.max(worst, Math.abs(Number(out) - theirs) / bound)
        })
        expect(notRounded, `period ${period}, places ${places}`).toBe(0)
        expect(worst, `period ${period}, places ${places}`).toBeLessThanOrEqual(1)
      }
    },
    LONG_TEST_MS,
  )

  it('errors the stream on a value that is no decimal, and checks its arguments at the call', () => {
    let error: unknown
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('ab', { a: '1', b: 'x' }).pipe(ema(2))).toBe(
        'a#',
        { a: '1' },
        new TypeError('ema: value must be a decimal string or a finite number (got "x")'),
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
})
