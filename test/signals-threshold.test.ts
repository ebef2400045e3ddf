import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { VenueInputError } from '../src/errors/venue-input-error.js'
import { threshold } from '../src/signals/index.js'
import { cmp, decimalArb, ratio, run, testScheduler } from './helpers/signals.js'

describe('threshold', () => {
  it('alerts on crossing above and below, once until re-armed', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const values = { a: '5', b: '11', c: '12', d: '10', e: '10.5', f: '0.5', g: 2 }
      expectObservable(cold('abcdefg|', values).pipe(threshold({ above: 10, below: '1' }))).toBe(
        '-b--ef-|',
        {
          b: { type: 'above', value: '11', level: '10' },
          e: { type: 'above', value: '10.5', level: '10' },
          f: { type: 'below', value: '0.5', level: '1' },
        },
      )
    })
  })

  it('waits for the hysteresis before alerting again', () => {
    expect(
      run(['11', '9.5', '11', '8', '11'], threshold({ above: '10', hysteresis: '2' })).map(
        (e) => e.value,
      ),
    ).toEqual(['11', '11'])
  })

  it('throws VenueInputError for bad options', () => {
    const bad: [unknown, string][] = [
      [{}, 'options'],
      [{ above: 'high' }, 'above'],
      [{ below: Number.NaN }, 'below'],
      [{ above: 1, hysteresis: -1 }, 'hysteresis'],
      [{ above: 1, hysterisis: 1 }, 'hysterisis'],
      [undefined, 'options'],
    ]
    for (const [options, argument] of bad) {
      expect(() => threshold(options as never)).toThrow(VenueInputError)
      try {
        threshold(options as never)
      } catch (error) {
        expect((error as VenueInputError).argument).toBe(argument)
      }
    }
  })

  it('matches a reference state machine', () => {
    fc.assert(
      fc.property(
        fc.array(decimalArb(2_000n), { maxLength: 30 }),
        decimalArb(2_000n),
        decimalArb(500n),
        (values, above, hysteresis) => {
          const expected: string[] = []
          const top = ratio(above)
          const rearm = {
            n: top.n * ratio(hysteresis).d - ratio(hysteresis).n * top.d,
            d: top.d * ratio(hysteresis).d,
          }
          let armed = true
          for (const v of values) {
            if (armed && cmp(ratio(v), top) > 0) {
              armed = false
              expected.push(v)
            } else if (!armed && cmp(ratio(v), rearm) <= 0) armed = true
          }
          const actual = run(values, threshold({ above, hysteresis })).map((e) => e.value)
          expect(actual.map(ratio).map((r, i) => cmp(r, ratio(expected[i] ?? '0')))).toEqual(
            expected.map(() => 0),
          )
        },
      ),
    )
  })
})
