import fc from 'fast-check'
import { combineLatest, from, map, skip, zip } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { VenueInputError } from '../src/index.js'
import { crossover, ema } from '../src/signals/index.js'
import { cmp, decimalArb, ratio, run, testScheduler } from './helpers/signals.js'

describe('crossover', () => {
  it('emits cross-up and cross-down from [fast, slow] pairs; a touch is not a cross', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const pairs = {
        a: ['1', '2'] as const,
        b: ['2', '2'] as const,
        c: [3, '2'] as const,
        d: ['2.0', '2'] as const,
        e: ['2.5', '2'] as const,
        f: ['1', '2'] as const,
      }
      expectObservable(cold('abcdef|', pairs).pipe(crossover())).toBe('--c--f|', {
        c: { type: 'cross-up', fast: '3', slow: '2' },
        f: { type: 'cross-down', fast: '1', slow: '2' },
      })
    })
  })

  it('pairs two series with combineLatest', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const fast = cold('a-b-c|', { a: '1', b: '3', c: '0' })
      const slow = cold('a---b|', { a: '2', b: '1' })
      expectObservable(combineLatest([fast, slow]).pipe(crossover())).toBe('--b-c|', {
        b: { type: 'cross-up', fast: '3', slow: '2' },
        c: { type: 'cross-down', fast: '0', slow: '2' },
      })
    })
  })

  it('matches a reference over the sign sequence', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(decimalArb(20n), decimalArb(20n)), { maxLength: 30 }),
        (pairs) => {
          const expected: string[] = []
          const signs = pairs.map(([f, s]) => cmp(ratio(f), ratio(s))).filter((x) => x !== 0)
          for (let i = 1; i < signs.length; i += 1) {
            if (signs[i] !== signs[i - 1]) expected.push(signs[i] === 1 ? 'cross-up' : 'cross-down')
          }
          expect(run(pairs, crossover()).map((e) => e.type)).toEqual(expected)
        },
      ),
    )
  })

  describe('crossover(fast, slow)', () => {
    it('runs each source value through both operators and compares the two outputs', () => {
      testScheduler().run(({ cold, expectObservable }) => {
        // fast: the value itself; slow: a constant 5. The value goes 4 → 6 → 5 → 3.
        const values = cold('abcd|', { a: '4', b: '6', c: '5', d: '3' })
        const slow = map(() => '5')
        expectObservable(
          values.pipe(
            crossover(
              map((v: string) => v),
              slow,
            ),
          ),
        ).toBe('-b-d|', {
          b: { type: 'cross-up', fast: '6', slow: '5' },
          d: { type: 'cross-down', fast: '3', slow: '5' },
        })
      })
    })

    it('waits until both series have a value: a warming-up series pairs from its first output', () => {
      // slow answers from the third value on (a constant 5), so the pairs begin there:
      // [1,5] sets the side; the 9s before it are not compared with anything.
      const out = run(
        ['9', '9', '1', '9', '1'],
        crossover(
          map((v: string) => v),
          (values) =>
            values.pipe(
              skip(2),
              map(() => '5'),
            ),
        ),
      )
      expect(out.map((e) => [e.type, e.fast, e.slow])).toEqual([
        ['cross-up', '9', '5'],
        ['cross-down', '1', '5'],
      ])
    })

    it('is the same as zipping the two series by hand (ema over ema, any series)', () => {
      fc.assert(
        fc.property(
          fc.array(decimalArb(50n), { maxLength: 40 }),
          fc.integer({ min: 1, max: 6 }),
          fc.integer({ min: 1, max: 12 }),
          (values, fastPeriod, slowPeriod) => {
            const byHand: unknown[] = []
            const source = from(values)
            zip(source.pipe(ema(fastPeriod)), source.pipe(ema(slowPeriod)))
              .pipe(crossover())
              .subscribe((event) => byHand.push(event))
            expect(run(values, crossover(ema(fastPeriod), ema(slowPeriod)))).toEqual(byHand)
          },
        ),
      )
    })

    it('errors the stream with a TypeError naming the series whose value is no decimal', () => {
      let failure: unknown
      from(['1', 'x'])
        .pipe(
          crossover(
            map((v: string) => v),
            map(() => '2'),
          ),
        )
        .subscribe({ error: (error: unknown) => (failure = error) })
      expect(failure).toBeInstanceOf(TypeError)
      expect(String(failure)).toMatch(/crossover: fast must be a decimal string .* \(got "x"\)/)
    })

    it('throws VenueInputError at the call for arguments that are not two operators', () => {
      expect(() => (crossover as (...a: unknown[]) => unknown)(ema(2))).toThrow(VenueInputError)
      expect(() => crossover('fast' as never, 'slow' as never)).toThrow(
        /crossover: \(fast, slow\) must be two operators/,
      )
    })
  })
})
