import { describe, expect, it } from 'vitest'
import { newInWindow } from '../src/operators.js'

const same = (a: string, b: string) => a === b

describe('newInWindow', () => {
  it('returns what follows the overlap, as in its doc example', () => {
    expect(newInWindow(['a', 'b', 'b'], ['b', 'b', 'c', 'c'], same)).toEqual({
      added: ['c', 'c'],
      gap: false,
    })
  })

  it('counts two identical records in a row as two (multiset, not set)', () => {
    expect(newInWindow(['x', 'a'], ['a', 'a'], same)).toEqual({ added: ['a'], gap: false })
    expect(newInWindow(['x'], ['x', 'a', 'a'], same)).toEqual({ added: ['a', 'a'], gap: false })
  })

  it('adds nothing for identical windows', () => {
    expect(newInWindow(['a', 'b', 'a'], ['a', 'b', 'a'], same)).toEqual({ added: [], gap: false })
  })

  it('reports a gap and adds the whole current window when it does not overlap a non-empty previous one', () => {
    expect(newInWindow(['a', 'b'], ['c', 'd'], same)).toEqual({ added: ['c', 'd'], gap: true })
  })

  it('reports no gap after an empty previous window, and adds the whole current one', () => {
    expect(newInWindow([], ['a', 'b'], same)).toEqual({ added: ['a', 'b'], gap: false })
  })

  it('reports no gap and adds nothing when the current window is empty', () => {
    expect(newInWindow(['a'], [], same)).toEqual({ added: [], gap: false })
  })

  it('takes the longest overlap, so repeats across the boundary are counted as few times as possible', () => {
    expect(newInWindow(['a', 'a', 'a'], ['a', 'a', 'a', 'b'], same)).toEqual({
      added: ['b'],
      gap: false,
    })
    expect(newInWindow(['b', 'a', 'b'], ['a', 'b', 'a', 'b'], same)).toEqual({
      added: ['a', 'b'],
      gap: false,
    })
  })

  it('compares records with the given function, not by identity', () => {
    const previous = [{ t: 1 }, { t: 2 }]
    const current = [{ t: 2 }, { t: 3 }]
    expect(newInWindow(previous, current, (x, y) => x.t === y.t)).toEqual({
      added: [{ t: 3 }],
      gap: false,
    })
  })
})
