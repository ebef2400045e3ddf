/**
 * Bad input never stalls a signal silently: every operator errors its stream with a
 * `TypeError` that names the operator and the field, at the value that is bad.
 */
import { map, type OperatorFunction } from 'rxjs'
import { ATR, SMA } from 'trading-signals'
import { describe, expect, it } from 'vitest'
import type { Level } from '../src/book/book-event.js'
import {
  crossover,
  depthWithin,
  ema,
  imbalance,
  indicator,
  microprice,
  mid,
  ohlcv,
  spread,
  threshold,
  tradeFlowImbalance,
  vwap,
} from '../src/signals/index.js'
import { bookOf, runToError, trade } from './helpers/signals.js'

// Inputs are deliberately outside the operators' types: a JavaScript caller, a cast, or
// a feed of another source can send anything.
type AnyOperator = OperatorFunction<never, unknown>

interface Row {
  /** The operator as the test names it. */
  readonly name: string
  readonly make: () => AnyOperator
  /** What is sent: good values first, then the bad one. */
  readonly input: readonly unknown[]
  /** The whole message of the TypeError. */
  readonly message: string
}

const good = bookOf([['99', '3']], [['101', '1']])
const withBid = (level: unknown): unknown => bookOf([level as Level], [['101', '1']])
const withAsk = (level: unknown): unknown => bookOf([['99', '3']], [level as Level])

const bookOperators: readonly [string, () => AnyOperator][] = [
  ['mid', () => mid() as AnyOperator],
  ['spread', () => spread() as AnyOperator],
  ['microprice', () => microprice() as AnyOperator],
  ['imbalance', () => imbalance(3) as AnyOperator],
  ['depthWithin', () => depthWithin(100) as AnyOperator],
]

const bookRows: Row[] = bookOperators.flatMap(([name, make]): Row[] => [
  { name, make, input: [good, null], message: `${name}: book must be an OrderBook (got null)` },
  {
    name,
    make,
    input: [good, { bids: [], asks: [] }],
    message: `${name}: book must be an OrderBook (got an object)`,
  },
  { name, make, input: ['1.5'], message: `${name}: book must be an OrderBook (got "1.5")` },
  {
    name,
    make,
    input: [good, withBid(['abc', '1'])],
    message: `${name}: book.bids[0] price must be a non-negative decimal string (got "abc")`,
  },
  {
    name,
    make,
    input: [withBid(['1e2', '1'])],
    message: `${name}: book.bids[0] price must be a non-negative decimal string (got "1e2")`,
  },
  {
    name,
    make,
    input: [withAsk([101, '1'])],
    message: `${name}: book.asks[0] price must be a non-negative decimal string (got 101)`,
  },
  {
    name,
    make,
    input: [withAsk(['101', '-1'])],
    message: `${name}: book.asks[0] quantity must be a non-negative decimal string (got "-1")`,
  },
  {
    name,
    make,
    input: [withBid(['99'])],
    message: `${name}: book.bids[0] must be a [price, quantity] pair (got an array)`,
  },
  {
    // A one-sided book is no excuse: the side that is there is still read and checked.
    name,
    make,
    input: [bookOf([['x', '1']], [])],
    message: `${name}: book.bids[0] price must be a non-negative decimal string (got "x")`,
  },
])

const deepBook = bookOf(
  [
    ['99.9', '1'],
    ['99.8', 'lots'],
  ],
  [['100.1', '1']],
)

const tradeOperators: readonly [string, () => AnyOperator][] = [
  ['vwap', () => vwap(60_000) as AnyOperator],
  ['tradeFlowImbalance', () => tradeFlowImbalance(60_000) as AnyOperator],
  ['ohlcv', () => ohlcv(60_000) as AnyOperator],
]

const ok = trade('10', '1', 1_000)
const bad = (fields: Record<string, unknown>): unknown => ({
  ...trade('10', '1', 2_000),
  ...fields,
})

const tradeRows: Row[] = tradeOperators.flatMap(([name, make]): Row[] => [
  ...[Number.NaN, undefined, Number.POSITIVE_INFINITY, '2000'].map(
    (time): Row => ({
      name,
      make,
      input: [ok, bad({ traded_at: time })],
      message: `${name}: trade.traded_at must be a finite number of epoch ms (got ${
        typeof time === 'string' ? JSON.stringify(time) : String(time)
      })`,
    }),
  ),
  ...(
    [
      ['price', 'abc', '"abc"'],
      ['price', '1e3', '"1e3"'],
      ['price', '-10', '"-10"'],
      ['price', 10, '10'],
      ['quantity', undefined, 'undefined'],
      ['quantity', '', '""'],
      ['quantity', '-1', '"-1"'],
    ] as const
  ).map(
    ([field, value, shown]): Row => ({
      name,
      make,
      input: [ok, bad({ [field]: value })],
      message: `${name}: trade.${field} must be a non-negative decimal string (got ${shown})`,
    }),
  ),
  {
    name,
    make,
    input: [ok, null],
    message: `${name}: trade must be a PublicTrade or a PublicTradeEvent (got null)`,
  },
  {
    name,
    make,
    input: [42],
    message: `${name}: trade must be a PublicTrade or a PublicTradeEvent (got 42)`,
  },
  {
    name,
    make,
    input: [{ type: 'trades', trade: ok }],
    message: `${name}: event.type must be 'trade' or 'gap' (got "trades")`,
  },
  {
    name,
    make,
    input: [{ type: 'trade' }],
    message: `${name}: event.trade must be a PublicTrade (got undefined)`,
  },
  {
    name,
    make,
    input: [{ type: 'trade', trade: bad({ traded_at: Number.NaN }) }],
    message: `${name}: trade.traded_at must be a finite number of epoch ms (got NaN)`,
  },
])

const seriesRows: Row[] = [
  ...['x', '1e3', '.5', Number.NaN, Number.NEGATIVE_INFINITY, undefined, true, {}].map(
    (value): Row => {
      const shown =
        typeof value === 'string'
          ? JSON.stringify(value)
          : typeof value === 'object'
            ? 'an object'
            : String(value)
      return {
        name: 'ema',
        make: () => ema(3) as AnyOperator,
        input: ['1', value],
        message: `ema: value must be a decimal string or a finite number (got ${shown})`,
      }
    },
  ),
  {
    name: 'threshold',
    make: () => threshold({ above: 1 }) as AnyOperator,
    input: ['0', 'high'],
    message: 'threshold: value must be a decimal string or a finite number (got "high")',
  },
  {
    name: 'threshold',
    make: () => threshold({ above: 1 }) as AnyOperator,
    input: [Number.NaN],
    message: 'threshold: value must be a decimal string or a finite number (got NaN)',
  },
  {
    name: 'crossover()',
    make: () => crossover() as AnyOperator,
    input: [
      ['1', '2'],
      ['x', '2'],
    ],
    message: 'crossover: fast must be a decimal string or a finite number (got "x")',
  },
  {
    name: 'crossover()',
    make: () => crossover() as AnyOperator,
    input: [['1', undefined]],
    message: 'crossover: slow must be a decimal string or a finite number (got undefined)',
  },
  {
    name: 'crossover()',
    make: () => crossover() as AnyOperator,
    input: ['12'],
    message: 'crossover: pair must be a [fast, slow] array (got "12")',
  },
  {
    name: 'crossover()',
    make: () => crossover() as AnyOperator,
    input: [['1', '2', '3']],
    message: 'crossover: pair must be a [fast, slow] array (got an array)',
  },
  {
    name: 'crossover(fast, slow)',
    make: () =>
      crossover(
        map(() => Number.NaN),
        map(() => '1'),
      ) as AnyOperator,
    input: ['1'],
    message: 'crossover: fast must be a decimal string or a finite number (got NaN)',
  },
]

const candle = (fields: Record<string, unknown> = {}) => ({
  open: '1',
  high: '2',
  low: '0.5',
  close: '1.5',
  volume: '10',
  start: 0,
  end: 60_000,
  ...fields,
})
const sma = () => indicator(() => new SMA(1)) as AnyOperator
const atr = () => indicator(() => new ATR(1), { input: 'candle' }) as AnyOperator

const indicatorRows: Row[] = [
  {
    name: 'indicator',
    make: sma,
    input: ['1', 'abc'],
    message: 'indicator: value must be a decimal string or a finite number (got "abc")',
  },
  {
    name: 'indicator',
    make: sma,
    input: [Number.NaN],
    message: 'indicator: value must be a decimal string or a finite number (got NaN)',
  },
  {
    name: 'indicator',
    make: sma,
    input: ['9'.repeat(400)],
    message: `indicator: value is too large for a number (got "${'9'.repeat(40)}…")`,
  },
  {
    name: 'indicator',
    make: sma,
    input: [undefined],
    message: 'indicator: value must be a price, a candle or a candle event (got undefined)',
  },
  {
    name: 'indicator',
    make: sma,
    input: [candle({ close: 'x' })],
    message: 'indicator: candle.close must be a non-negative decimal string (got "x")',
  },
  {
    name: 'indicator',
    make: sma,
    input: [{ type: 'update', candle: candle({ start: Number.NaN }) }],
    message: 'indicator: candle.start must be a finite number of epoch ms (got NaN)',
  },
  {
    name: 'indicator',
    make: sma,
    input: [{ type: 'update', candle: { ...candle(), start: undefined, timestamp: undefined } }],
    message: 'indicator: candle.start must be a finite number of epoch ms (got undefined)',
  },
  {
    name: 'indicator',
    make: sma,
    input: [{ type: 'opened', candle: candle() }],
    message: "indicator: event.type must be 'update' or 'closed' (got \"opened\")",
  },
  {
    name: 'indicator',
    make: sma,
    input: [{ type: 'update', candle: null }],
    message: 'indicator: event.candle must be a candle (got null)',
  },
  {
    name: "indicator({ input: 'candle' })",
    make: atr,
    input: [candle(), candle({ volume: 5 })],
    message: 'indicator: candle.volume must be a non-negative decimal string (got 5)',
  },
  {
    name: "indicator({ input: 'candle' })",
    make: atr,
    input: ['1.5'],
    message: `indicator: value must be a candle or a candle event with input: 'candle' (got "1.5")`,
  },
]

const rows: Row[] = [
  ...bookRows,
  {
    name: 'imbalance',
    make: () => imbalance(2) as AnyOperator,
    input: [deepBook],
    message: 'imbalance: book.bids[1] quantity must be a non-negative decimal string (got "lots")',
  },
  {
    name: 'depthWithin',
    make: () => depthWithin(100) as AnyOperator,
    input: [deepBook],
    message:
      'depthWithin: book.bids[1] quantity must be a non-negative decimal string (got "lots")',
  },
  ...tradeRows,
  {
    name: 'tradeFlowImbalance',
    make: () => tradeFlowImbalance(60_000) as AnyOperator,
    input: [ok, bad({ side: 'BUY' })],
    message: "tradeFlowImbalance: trade.side must be 'buy' or 'sell' (got \"BUY\")",
  },
  ...seriesRows,
  ...indicatorRows,
]

describe('bad input errors the stream with a TypeError naming the operator and the field', () => {
  it('covers every operator of venue-rx/signals', async () => {
    const exported = Object.keys(await import('../src/signals/index.js'))
    const covered = new Set(rows.map((row) => row.name.replace(/[({].*$/, '')))
    expect(exported.filter((name) => !covered.has(name))).toEqual([])
  })

  for (const row of rows) {
    it(`${row.name}: ${row.message.slice(row.message.indexOf(':') + 2)}`, () => {
      const { error, completed } = runToError(row.input, row.make())
      expect(completed).toBe(false)
      expect(error).toBeInstanceOf(TypeError)
      expect((error as Error).message).toBe(row.message)
    })
  }

  it('a NaN trade time no longer stalls vwap or tradeFlowImbalance: the stream errors there', () => {
    for (const make of [() => vwap(1_000), () => tradeFlowImbalance(1_000)]) {
      const trades = [ok, bad({ traded_at: Number.NaN }), trade('12', '1', 1_500)]
      const { values, error } = runToError(trades, make() as AnyOperator)
      expect(values).toHaveLength(1)
      expect(error).toBeInstanceOf(TypeError)
    }
  })
})
