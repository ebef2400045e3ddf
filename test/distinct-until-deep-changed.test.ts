import { TestScheduler } from 'rxjs/testing'
import { describe, expect, it } from 'vitest'
import { distinctUntilDeepChanged } from '../src/core/distinct-until-deep-changed.js'

function testScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected))
}

describe('distinctUntilDeepChanged', () => {
  it('suppresses deep-equal values and lets changes through', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const values = {
        a: { pools: [{ id: 1, price: '1.0' }] },
        b: { pools: [{ id: 1, price: '1.0' }] },
        c: { pools: [{ id: 1, price: '1.1' }] },
        d: { pools: [{ id: 1, price: '1.1' }] },
        e: { pools: [{ id: 1, price: '1.0' }] },
      }
      const source = cold('abcde|', values)
      expectObservable(source.pipe(distinctUntilDeepChanged())).toBe('a-c-e|', values)
    })
  })

  it('passes the first value of each run on, by identity', () => {
    const first = { a: [1, { b: 2 }] }
    const same = { a: [1, { b: 2 }] }
    const seen: unknown[] = []
    testScheduler().run(({ cold }) => {
      cold('ab|', { a: first, b: same })
        .pipe(distinctUntilDeepChanged())
        .subscribe((value) => seen.push(value))
    })
    expect(seen).toHaveLength(1)
    expect(seen[0]).toBe(first)
  })

  it('sees changes deep inside arrays and objects, including a key added or removed', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const values = {
        a: { x: { y: [1, 2, 3] } },
        b: { x: { y: [1, 2, 4] } },
        c: { x: { y: [1, 2, 4] }, z: 1 },
        d: { x: { y: [1, 2, 4] } },
        e: { x: { y: [1, 2, 4] } },
      }
      expectObservable(cold('abcde', values).pipe(distinctUntilDeepChanged())).toBe('abcd-', values)
    })
  })

  it('compares primitives by value', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const values = { a: 1, b: 1, c: 2, d: 1 }
      expectObservable(cold('abcd', values).pipe(distinctUntilDeepChanged())).toBe('a-cd', values)
    })
  })
})
