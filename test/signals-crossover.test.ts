import fc from 'fast-check'
import { combineLatest } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { crossover } from '../src/signals/index.js'
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
})
