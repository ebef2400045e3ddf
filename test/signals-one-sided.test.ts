/**
 * The one rule of the book signals for a book with an empty side: a value that needs both
 * sides is `null` (emitted once, like any change), never skipped; `imbalance` needs no mid
 * and is ±1 with one side, `null` only with neither. The series operators pass a `null`
 * over, so `mid(), ema(20)` works across a vanished side.
 */
import { map, type OperatorFunction } from 'rxjs'
import { SMA } from 'trading-signals'
import { describe, expect, it } from 'vitest'
import type { OrderBook } from '../src/book/order-book.js'
import {
  crossover,
  depthWithin,
  ema,
  imbalance,
  indicator,
  microprice,
  mid,
  spread,
  threshold,
} from '../src/signals/index.js'
import { bookOf, run } from './helpers/signals.js'

const both = bookOf([['99', '3']], [['101', '1']])
const bidsOnly = bookOf([['99', '3']], [])
const asksOnly = bookOf([], [['101', '1']])
const empty = bookOf([], [])

/** Each book operator: what it gives for [both, bids only, both, asks only, both, empty]. */
const cases: readonly [string, OperatorFunction<OrderBook, unknown>, readonly unknown[]][] = [
  ['mid', mid(), ['100', null, '100', null, '100', null]],
  ['spread', spread(), ['2', null, '2', null, '2', null]],
  ['spread bps', spread({ unit: 'bps' }), ['200', null, '200', null, '200', null]],
  ['microprice', microprice(), ['100.5', null, '100.5', null, '100.5', null]],
  [
    'depthWithin',
    depthWithin(100),
    [
      { bids: '3', asks: '1' },
      null,
      { bids: '3', asks: '1' },
      null,
      { bids: '3', asks: '1' },
      null,
    ],
  ],
  ['imbalance', imbalance(1), ['0.5', '1', '0.5', '-1', '0.5', null]],
]

describe('book signals on a book with an empty side', () => {
  for (const [name, operator, expected] of cases) {
    it(`${name}: gives null (imbalance: ±1, null only when empty) once, never skips the book`, () => {
      expect(run([both, bidsOnly, both, asksOnly, both, empty], operator)).toEqual(expected)
    })
  }

  it('emits a null once however long the side stays empty', () => {
    for (const [, operator] of cases) {
      expect(run([empty, empty, empty], operator)).toEqual([null])
    }
  })
})

describe('series operators pass over null', () => {
  it('ema: no output for a null, the average unchanged', () => {
    expect(run(['10', null, '11', null], ema(3))).toEqual(['10', '10.5'])
  })

  it('mid(), ema() runs across a book whose asks vanish', () => {
    const out = run([both, bidsOnly, both], (books) => books.pipe(mid(), ema(3)))
    expect(out).toEqual(['100', '100'])
  })

  it('threshold: a null neither alerts nor re-arms', () => {
    const alerts = run(['5', null, '30', null, '26', '30'], threshold({ above: 25 }))
    expect(alerts.map((a) => a.value)).toEqual(['30'])
  })

  it('crossover(): a pair with a null is skipped and the side kept', () => {
    const pairs = [
      ['1', '2'],
      [null, '2'],
      ['3', null],
      ['3', '2'],
    ] as const
    expect(run(pairs, crossover()).map((e) => e.type)).toEqual(['cross-up'])
  })

  it('crossover(fast, slow) over mid(): a one-sided book makes no cross', () => {
    const books = [bookOf([['1', '1']], [['3', '1']]), bidsOnly, bookOf([['5', '1']], [['7', '1']])]
    const events = run(books, (source) =>
      source.pipe(
        mid(),
        crossover(
          map((v: string | null) => v),
          map((v: string | null) => (v === null ? null : '4')),
        ),
      ),
    )
    expect(events).toEqual([{ type: 'cross-up', fast: '6', slow: '4' }])
  })

  it('indicator: a null does not feed the indicator', () => {
    expect(
      run(
        ['1', null, '3', null],
        indicator(() => new SMA(2)),
      ),
    ).toEqual([2])
  })
})
