import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { BookSide, Level } from '../src/book/book-event.js'
import {
  diffPolls,
  isOrdered,
  isZeroQuantity,
  sideOrder,
  sortSide,
  withoutEmptyLevels,
} from '../src/book/book-side.js'
import { applyChanges, flatten, toChunks } from '../src/book/chunked-side.js'
import { normalizeDecimal } from '../src/decimal.js'
import { params } from './fuzz/config.js'

describe('book-side', () => {
  it('sideOrder: bids run high to low, asks low to high, by value', () => {
    expect(sideOrder('bids', '2', '1')).toBeLessThan(0)
    expect(sideOrder('asks', '1', '2')).toBeLessThan(0)
    expect(sideOrder('bids', '0.9', '10')).toBeGreaterThan(0)
    expect(sideOrder('asks', '1.10', '1.1')).toBe(0)
  })

  it('isZeroQuantity', () => {
    for (const zero of ['0', '0.000', '00']) expect(isZeroQuantity(zero), zero).toBe(true)
    for (const other of ['1', '0.001', '10', '0.10'])
      expect(isZeroQuantity(other), other).toBe(false)
  })

  it('diffSide lists new and changed levels as in next, and vanished ones with quantity 0', () => {
    const previous: Level[] = [
      ['1.05', '1'],
      ['1.04', '2'],
      ['1.03', '3'],
    ]
    const next: Level[] = [
      ['1.06', '9'],
      ['1.05', '1'],
      ['1.03', '4'],
      ['1.01', '1'],
    ]
    expect(diffPolls('bids', previous, next)).toEqual([
      ['1.06', '9'],
      ['1.04', '0'],
      ['1.03', '4'],
      ['1.01', '1'],
    ])
  })

  it('diffSide walks asks low to high', () => {
    expect(
      diffPolls(
        'asks',
        [
          ['1', '1'],
          ['3', '1'],
        ],
        [
          ['2', '1'],
          ['3', '2'],
        ],
      ),
    ).toEqual([
      ['1', '0'],
      ['2', '1'],
      ['3', '2'],
    ])
  })

  it('diffSide finds no change when only the text of a price or quantity changed', () => {
    expect(
      diffPolls(
        'asks',
        [
          ['1.1', '5'],
          ['1.2', '2.50'],
        ],
        [
          ['1.10', '5.0'],
          ['1.2', '2.5'],
        ],
      ),
    ).toEqual([])
  })

  it('diffSide from and to an empty side', () => {
    expect(diffPolls('bids', [], [['1', '1']])).toEqual([['1', '1']])
    expect(diffPolls('bids', [['1', '1']], [])).toEqual([['1', '0']])
    expect(diffPolls('bids', [], [])).toEqual([])
  })

  it('diffSide is undefined when next is not strictly in side order', () => {
    expect(
      diffPolls(
        'bids',
        [],
        [
          ['1', '1'],
          ['2', '1'],
        ],
      ),
    ).toBeUndefined()
    expect(
      diffPolls(
        'asks',
        [],
        [
          ['1.1', '1'],
          ['1.10', '1'],
        ],
      ),
    ).toBeUndefined()
    expect(
      diffPolls(
        'asks',
        [['5', '1']],
        [
          ['1', '1'],
          ['3', '1'],
          ['2', '1'],
        ],
      ),
    ).toBeUndefined()
  })

  it('applying diffPolls to the previous side gives the next one', () => {
    const previous: Level[] = [
      ['1', '1'],
      ['2', '2'],
      ['4', '4'],
    ]
    const next: Level[] = [
      ['0.5', '1'],
      ['2', '3'],
      ['3', '3'],
    ]
    const changes = diffPolls('asks', previous, next) ?? []
    expect(flatten(applyChanges('asks', toChunks(previous), changes))).toEqual(next)
  })

  it('isOrdered needs strictly decreasing bids and strictly increasing asks, by value', () => {
    expect(isOrdered('bids', [])).toBe(true)
    expect(isOrdered('bids', [['1', '1']])).toBe(true)
    expect(
      isOrdered('bids', [
        ['10', '1'],
        ['9.5', '1'],
      ]),
    ).toBe(true)
    expect(
      isOrdered('asks', [
        ['9.5', '1'],
        ['10', '1'],
      ]),
    ).toBe(true)
    expect(
      isOrdered('bids', [
        ['9.5', '1'],
        ['10', '1'],
      ]),
    ).toBe(false)
    expect(
      isOrdered('asks', [
        ['1.1', '1'],
        ['1.10', '2'],
      ]),
    ).toBe(false)
  })

  it('sortSide sorts into side order and keeps the last level of a repeated price', () => {
    const sorted = sortSide('bids', [
      ['1', '1'],
      ['3', '1'],
      ['1.0', '2'],
      ['2', '1'],
    ])
    expect(sorted).toEqual([
      ['3', '1'],
      ['2', '1'],
      ['1.0', '2'],
    ])
    expect(Object.isFrozen(sorted)).toBe(true)
    expect(
      sortSide('asks', [
        ['3', '1'],
        ['1', '1'],
      ]),
    ).toEqual([
      ['1', '1'],
      ['3', '1'],
    ])
  })

  it('withoutEmptyLevels drops zero quantities and returns the same array when there are none', () => {
    const levels: Level[] = [
      ['3', '1'],
      ['2', '0.00'],
      ['1', '0'],
      ['0.5', '2'],
    ]
    const kept = withoutEmptyLevels(levels)
    expect(kept).toEqual([
      ['3', '1'],
      ['0.5', '2'],
    ])
    expect(Object.isFrozen(kept)).toBe(true)
    const full: Level[] = [['1', '1']]
    expect(withoutEmptyLevels(full)).toBe(full)
  })

  it('diffPolls lists exactly the changed levels of an ordered next, and is undefined for any other', () => {
    // Prices from a small set written two ways, so repeats, reorders and text variants occur.
    const text = fc.constantFrom('1.1', '1.10', '1.2', '1.3', '1.35', '2', '2.0', '0.9')
    const levels = fc.array(fc.tuple(text, fc.constantFrom('1', '1.0', '2', '3')), { maxLength: 8 })
    fc.assert(
      fc.property(fc.constantFrom<BookSide>('bids', 'asks'), levels, levels, (side, a, b) => {
        const previous = sortSide(side, a)
        const changes = diffPolls(side, previous, b)
        if (!isOrdered(side, b)) {
          expect(changes).toBeUndefined()
          return
        }
        // The reference: every price of either side, by value, that differs.
        const before = new Map(previous.map(([p, q]) => [normalizeDecimal(p), q]))
        const after = new Map(b.map(([p, q]) => [normalizeDecimal(p), q]))
        const expected = sortSide(side, [
          ...b.filter(([p, q]) => {
            const old = before.get(normalizeDecimal(p))
            return old === undefined || normalizeDecimal(old) !== normalizeDecimal(q)
          }),
          ...previous
            .filter(([p]) => !after.has(normalizeDecimal(p)))
            .map(([p]): Level => [p, '0']),
        ])
        expect(changes).toEqual(expected)
      }),
      params(3_000),
    )
  })
})
