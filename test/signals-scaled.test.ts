/**
 * The scaled-integer paths of the signals (src/signals/scaled.ts and the operators on it)
 * against the decimal-string functions of src/decimal.ts they replaced: the same text,
 * digit for digit, for decimals of every size (past 2^53 once scaled, many decimals),
 * negatives where an operator takes them, zeros and forms with leading or trailing zeros;
 * and the same errors, raised at the same input, for values the operators refuse.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { applyBookEvent } from '../src/book/apply-book-event.js'
import type { Level } from '../src/book/book-event.js'
import { OrderBook, sideChunks } from '../src/book/order-book.js'
import { divideDecimal, isDecimal, normalizeDecimal } from '../src/decimal.js'
import type { PublicTrade } from '../src/schemas/public-trade.js'
import { EmaAverage } from '../src/signals/ema.js'
import { ema, imbalance, microprice, tradeFlowImbalance, vwap } from '../src/signals/index.js'
import {
  addUnits,
  formatUnits,
  multiplyUnits,
  quotientText,
  read,
  readDecimal,
  shiftUnits,
  subtractUnits,
  type Units,
} from '../src/signals/scaled.js'
import { PairWindow } from '../src/signals/trade-window.js'
import { delta, snapshot } from './helpers/book-fixtures.js'
import { bookOf, runToError } from './helpers/signals.js'
import {
  baselineEma,
  baselineImbalance,
  baselineMicroprice,
  baselineTradeFlowImbalance,
  baselineVwap,
  StringEmaAverage,
  TradeWindow,
} from './helpers/string-signals.js'

const RUNS = { numRuns: 200 }
const TWO_53 = 2n ** 53n

/** Magnitudes of units: small, about a safe integer's limit, and far past it. */
const magnitude = fc.oneof(
  fc.bigInt(0n, 1_000n),
  fc.bigInt(0n, 10n ** 9n),
  fc.bigInt(TWO_53 - 2_000n, TWO_53 + 2_000n),
  fc.bigInt(0n, 10n ** 32n),
)

/** `units` at `scale` as decimal text, with `lead` zeros before it and `trail` after. */
function textOf(units: bigint, scale: number, lead = 0, trail = 0): string {
  const negative = units < 0n
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0')
  let body = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`
  body = '0'.repeat(lead) + body
  if (trail > 0) body += scale === 0 ? `.${'0'.repeat(trail)}` : '0'.repeat(trail)
  return negative ? `-${body}` : body
}

/** A plain decimal string: up to 30 decimals, maybe padded with zeros, signed or not. */
function decimalText(signed: boolean): fc.Arbitrary<string> {
  return fc
    .tuple(
      magnitude,
      fc.integer({ min: 0, max: 30 }),
      fc.integer({ min: 0, max: 2 }),
      fc.integer({ min: 0, max: 2 }),
      signed ? fc.boolean() : fc.constant(false),
    )
    .map(([units, scale, lead, trail, negative]) =>
      textOf(negative ? -units : units, scale, lead, trail),
    )
}

/** Units of a text read by readDecimal (it must read it). */
function unitsOf(text: string): { units: Units; scale: number } {
  expect(readDecimal(text)).toBe(true)
  return { units: read.units, scale: read.scale }
}

/** Whether units are in their one form: a safe integer (not -0) as a number, else a bigint. */
function wellFormed(units: Units): boolean {
  if (typeof units === 'number') return Number.isSafeInteger(units) && !Object.is(units, -0)
  return units > BigInt(Number.MAX_SAFE_INTEGER) || units < -BigInt(Number.MAX_SAFE_INTEGER)
}

describe('scaled decimals', () => {
  it('readDecimal takes exactly what isDecimal takes, and reads its exact units and scale', () => {
    const junk = fc.string({
      unit: fc.constantFrom('0', '1', '9', '.', '-', 'e', ' ', '+'),
      maxLength: 8,
    })
    fc.assert(
      fc.property(fc.oneof(junk, decimalText(true)), (text) => {
        const taken = readDecimal(text)
        expect(taken).toBe(isDecimal(text))
        if (!taken) return
        const [int = '', frac = ''] = text.replace('-', '').split('.')
        const units = BigInt(int + frac) * (text.startsWith('-') ? -1n : 1n)
        expect(read.scale).toBe(frac.length)
        expect(wellFormed(read.units)).toBe(true)
        expect(BigInt(read.units)).toBe(units)
      }),
      RUNS,
    )
  })

  it('formatUnits writes normalizeDecimal’s text', () => {
    fc.assert(
      fc.property(decimalText(true), (text) => {
        const { units, scale } = unitsOf(text)
        expect(formatUnits(units, scale)).toBe(normalizeDecimal(text))
      }),
      RUNS,
    )
  })

  it('adds, subtracts, multiplies and shifts exactly, each result in its one form', () => {
    const units = fc.tuple(magnitude, fc.boolean()).map(([m, negative]) => {
      const value = negative ? -m : m
      return value <= TWO_53 - 1n && value >= 1n - TWO_53 ? Number(value) : value
    })
    fc.assert(
      fc.property(units, units, fc.integer({ min: 0, max: 25 }), (a, b, k) => {
        const x = BigInt(a)
        const y = BigInt(b)
        const results: [Units, bigint][] = [
          [addUnits(a, b), x + y],
          [subtractUnits(a, b), x - y],
          [multiplyUnits(a, b), x * y],
          [shiftUnits(a, k), x * 10n ** BigInt(k)],
        ]
        for (const [result, expected] of results) {
          expect(wellFormed(result)).toBe(true)
          expect(BigInt(result)).toBe(expected)
        }
      }),
      RUNS,
    )
  })

  it('quotientText writes divideDecimal’s text: rounded half to even, in normal form', () => {
    // Divisors of 2s and 5s and few places make ties (a remainder of exactly half) common.
    const tying = fc
      .tuple(fc.bigInt(-2_000n, 2_000n), fc.integer({ min: 0, max: 3 }))
      .map(([units, scale]) => textOf(units, scale))
    const divisor = fc.oneof(
      decimalText(false).filter((text) => /[1-9]/.test(text)),
      fc.constantFrom('2', '4', '8', '16', '0.2', '0.04', '5', '40', '0.008', '1250'),
    )
    fc.assert(
      fc.property(
        fc.oneof(decimalText(true), tying),
        divisor,
        fc.oneof(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 3 })),
        (a, b, places) => {
          const n = unitsOf(a)
          const d = unitsOf(b)
          expect(quotientText(n.units, d.units, d.scale - n.scale, places)).toBe(
            divideDecimal(a, b, places),
          )
        },
      ),
      RUNS,
    )
  })

  it('PairWindow holds the sums of TradeWindow, entries in and out of time order', () => {
    const entry = fc.tuple(fc.integer({ min: 0, max: 30 }), decimalText(true), decimalText(true))
    fc.assert(
      fc.property(
        fc.array(entry, { maxLength: 20 }),
        fc.integer({ min: 1, max: 12 }),
        (entries, windowMs) => {
          const ours = new PairWindow(windowMs)
          const theirs = new TradeWindow(windowMs, 2)
          for (const [at, first, second] of entries) {
            const sums = theirs.add(at, [first, second])
            const a = unitsOf(first)
            const b = unitsOf(second)
            ours.add(at, a.units, a.scale, b.units, b.scale)
            expect([
              formatUnits(ours.first, ours.firstScale),
              formatUnits(ours.second, ours.secondScale),
            ]).toEqual(sums)
          }
        },
      ),
      RUNS,
    )
    // A late entry (6) among those of the window, then a cutoff (5) just under it: 6, 9, 10.
    const window = new PairWindow(5)
    for (const at of [5, 9, 6, 10]) window.add(at, 1, 0, 1, 0)
    expect(window.first).toBe(3)
    // A long run in time order: the entries done with are dropped now and then.
    const long = new PairWindow(10)
    for (let at = 0; at < 3_000; at += 1) long.add(at, at, 0, 1, 0)
    expect([long.first, long.second]).toEqual([29_945, 10])
  })

  it('quotientText rounds ties to even and carries through nines, in numbers and bigints', () => {
    // 0.5, 1.5, 2.5 and -2.5 to 0 places; 0.9999...5 carried into the integer part.
    expect(quotientText(1, 2, 0, 0)).toBe('0')
    expect(quotientText(3, 2, 0, 0)).toBe('2')
    expect(quotientText(5, 2, 0, 0)).toBe('2')
    expect(quotientText(-5, 2, 0, 0)).toBe('-2')
    // Ties at a decimal: 0.125, 0.375, -0.375 (shift 0 and -1), 1.25 and 3.75 (shift 1).
    expect(quotientText(1, 8, 0, 2)).toBe('0.12')
    expect(quotientText(3, 8, 0, 2)).toBe('0.38')
    expect(quotientText(-375, 100, -1, 2)).toBe('-0.38')
    expect(quotientText(1, 8, 1, 1)).toBe('1.2')
    expect(quotientText(3, 8, 1, 1)).toBe('3.8')
    expect(quotientText(3n * 10n ** 20n, 8n * 10n ** 20n, 0, 2)).toBe('0.38')
    expect(quotientText(-1, 3, 0, 2)).toBe('-0.33')
    expect(quotientText(-1, 300, 0, 2)).toBe('0')
    expect(quotientText(19_999_999, 2, -7, 6)).toBe('1')
    expect(quotientText(10n ** 30n - 1n, 10n ** 30n, 0, 12)).toBe('1')
    expect(quotientText(10n ** 30n - 1n, 10n ** 30n, 0, 40)).toBe(`0.${'9'.repeat(30)}`)
  })
})

describe('the signals on scaled integers emit the strings of the string arithmetic', () => {
  /** A series value: mostly decimal text, some numbers and nulls, now and then junk. */
  const seriesValue = fc.oneof(
    { weight: 12, arbitrary: decimalText(true) },
    { weight: 2, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom('x', '1.', '', Number.NaN, '1e5', {}) },
  )

  it('EmaAverage: the same average, step by step, and the same rounding of it', () => {
    fc.assert(
      fc.property(
        fc.array(decimalText(true), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 250 }),
        fc.integer({ min: 0, max: 30 }),
        (values, period, places) => {
          const ours = new EmaAverage(period, places)
          const theirs = new StringEmaAverage(period, places)
          for (const value of values) {
            const average = theirs.add(value)
            expect(ours.add(value)).toBe(average)
            expect(ours.rounded(places)).toBe(divideDecimal(average, '1', places))
          }
        },
      ),
      RUNS,
    )
  })

  it('EmaAverage: the same with values of hundreds of decimals (past the kept powers of ten)', () => {
    const values = [`1.${'3'.repeat(200)}`, `-2.${'7'.repeat(300)}1`, '5', `0.${'0'.repeat(80)}9`]
    for (const places of [0, 18, 90]) {
      const ours = new EmaAverage(7, places)
      const theirs = new StringEmaAverage(7, places)
      for (const value of values) {
        const average = theirs.add(value)
        expect(ours.add(value)).toBe(average)
        expect(ours.rounded(places)).toBe(divideDecimal(average, '1', places))
      }
    }
  })

  it('ema: the same values, and the same error at the same value', () => {
    fc.assert(
      fc.property(
        fc.array(seriesValue, { maxLength: 8 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 40 }),
        (values, period, places) => {
          expect(runToError(values, ema(period, { places }))).toEqual(
            runToError(values, baselineEma(period, places)),
          )
        },
      ),
      RUNS,
    )
  })

  /** An amount of a level or trade: often one of a few, so that two levels share one. */
  const amount = fc.oneof(decimalText(false), fc.constantFrom('1', '1.5', '2', '0'))

  /**
   * Books whose levels come from a small pool, so that a level recurs (the same array, or
   * the same text in another) at the same place or one place off, as in the books of one
   * stream; now and then a level that is no pair of non-negative decimals.
   */
  const bookList = fc
    .tuple(
      fc.array(
        fc.oneof(
          { weight: 10, arbitrary: fc.tuple(amount, amount) },
          { weight: 1, arbitrary: fc.constantFrom(['1', '-1'], ['x', '1'], ['1'], 5, null) },
        ),
        { minLength: 1, maxLength: 8 },
      ),
      fc.array(
        fc.tuple(
          fc.array(fc.nat({ max: 7 }), { maxLength: 6 }),
          fc.array(fc.nat({ max: 7 }), { maxLength: 6 }),
          fc.boolean(),
        ),
        { maxLength: 8 },
      ),
    )
    .map(([pool, books]) =>
      books.map(([bids, asks, copied]) => {
        const side = (indices: number[]) =>
          indices.map((i) => {
            const level = pool[i % pool.length]
            return (copied && Array.isArray(level) ? [...level] : level) as unknown as Level
          })
        return new OrderBook(1, 1, 0, side(bids), side(asks))
      }),
    )

  it('microprice: the same values, and the same error at the same book', () => {
    fc.assert(
      fc.property(bookList, fc.integer({ min: 0, max: 40 }), (books, places) => {
        expect(runToError(books, microprice({ places }))).toEqual(
          runToError(books, baselineMicroprice(places)),
        )
      }),
      RUNS,
    )
  })

  it('imbalance: the same values, and the same error at the same book', () => {
    // Sums that pass 2^53 at one scale (2^53 - 1 + 2 has no double), and across scales.
    const big = [
      bookOf(
        [
          ['1', '9007199254740991'],
          ['0.9', '2'],
        ],
        [['2', '1']],
      ),
      bookOf(
        [
          ['1', '9007199254740991'],
          ['0.9', '2.5'],
        ],
        [['2', '0.000000000000000001']],
      ),
      bookOf(
        [
          ['1', '4503599627370497'],
          ['0.9', '4503599627370497'],
        ],
        [['2', '3']],
      ),
    ]
    expect(runToError(big, imbalance(5, { places: 40 }))).toEqual(
      runToError(big, baselineImbalance(5, 40)),
    )
    fc.assert(
      fc.property(
        bookList,
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 0, max: 40 }),
        (books, levels, places) => {
          expect(runToError(books, imbalance(levels, { places }))).toEqual(
            runToError(books, baselineImbalance(levels, places)),
          )
        },
      ),
      RUNS,
    )
  })

  /** Bids and asks of a snapshot or a delta. */
  type Sides = readonly [bids: readonly Level[], asks: readonly Level[]]

  /** The books of one stream: `first` as its snapshot, then each of `deltas` in turn. */
  const booksOf = (first: Sides, deltas: readonly Sides[]): OrderBook[] => {
    let book = applyBookEvent(undefined, snapshot(...first))
    const books = [book]
    for (const [n, [bids, asks]] of deltas.entries()) {
      book = applyBookEvent(
        book,
        delta(bids, asks, { seq: n + 2, prevSeq: n + 1, timestamp: 2_000 + n }),
      )
      books.push(book)
    }
    return books
  }

  it('imbalance over the books of one stream: the same values where a side keeps its chunks', () => {
    // Books as a stream makes them, each from the one before by a delta: a side the delta
    // leaves alone keeps its chunks (of 32 levels), and so does a chunk the delta does
    // not touch; sides of up to 90 levels (three chunks) against counts around and past
    // a chunk's length and past a whole side.
    const change = fc.tuple(fc.nat({ max: 120 }), fc.nat({ max: 3 }))
    const sideOf = (name: 'bids' | 'asks', ticks: ReadonlyMap<number, number>): Level[] =>
      // Tick 0 is the best level of either side.
      [...ticks]
        .sort((a, b) => a[0] - b[0])
        .map(([tick, size]) => [String(name === 'bids' ? 1000 - tick : 1001 + tick), `${size}`])
    fc.assert(
      fc.property(
        fc.nat({ max: 90 }),
        fc.nat({ max: 90 }),
        fc.array(
          fc.record({
            bids: fc.array(change, { maxLength: 3 }),
            asks: fc.array(change, { maxLength: 3 }),
          }),
          { maxLength: 12 },
        ),
        fc.constantFrom(1, 5, 31, 32, 33, 40, 64, 65, 100),
        (bidCount, askCount, steps, levels) => {
          const ticks = (count: number) =>
            new Map(Array.from({ length: count }, (_, i) => [i, 1 + (i % 7)] as [number, number]))
          const sides = { bids: ticks(bidCount), asks: ticks(askCount) }
          const first: Sides = [sideOf('bids', sides.bids), sideOf('asks', sides.asks)]
          const deltas = steps.map((step): Sides => {
            const touched = { bids: new Map<number, number>(), asks: new Map<number, number>() }
            for (const name of ['bids', 'asks'] as const) {
              // A size of 0 removes the level.
              for (const [tick, size] of step[name]) {
                touched[name].set(tick, size)
                if (size === 0) sides[name].delete(tick)
                else sides[name].set(tick, size)
              }
            }
            return [sideOf('bids', touched.bids), sideOf('asks', touched.asks)]
          })
          const books = booksOf(first, deltas)
          expect(runToError(books, imbalance(levels, { places: 6 }))).toEqual(
            runToError(books, baselineImbalance(levels, 6)),
          )
        },
      ),
      RUNS,
    )
    // A side that loses its last chunk, or gains one, while the chunks before stay: 34 bids
    // (chunks of 32 and 2) then the last two removed; 33 bids, 63 added at the end (the
    // last chunk is full at 64), then one more (a chunk of its own). 200 levels counted.
    const bidsFrom = (from: number, to: number, quantity = '1') =>
      Array.from({ length: to - from }, (_, i): Level => [String(1000 - from - i), quantity])
    const stream = ([first = [], ...rest]: readonly (readonly Level[])[]) =>
      booksOf(
        [first, [['1001', '1']]],
        rest.map((bids): Sides => [bids, []]),
      )
    const losing = stream([bidsFrom(0, 34), bidsFrom(32, 34, '0')])
    const gaining = stream([bidsFrom(0, 33), bidsFrom(33, 96), bidsFrom(96, 97)])
    const chunks = (book: OrderBook | undefined) => sideChunks(book as OrderBook, 'bids')
    expect(chunks(losing[1])).toEqual([chunks(losing[0])[0]])
    expect(chunks(gaining[2])).toHaveLength(3)
    expect(chunks(gaining[2]).slice(0, 2)).toEqual(chunks(gaining[1]))
    for (const books of [losing, gaining]) {
      // (b - 1) / (b + 1) for b bids and one ask.
      expect(runToError(books, imbalance(200, { places: 4 })).values).toEqual(
        books.map((book) => {
          const b = book.bids.length
          return divideDecimal(String(b - 1), String(b + 1), 4)
        }),
      )
    }
  })

  /** Trades (sides as `side` gives them) and now and then an input no signal takes. */
  const tradesOrJunk = (side: fc.Arbitrary<string>) =>
    fc.oneof(
      {
        weight: 12,
        arbitrary: fc
          .record({
            price: amount,
            quantity: amount,
            traded_at: fc.integer({ min: 0, max: 20 }),
            side,
          })
          .map((trade) => ({ ...trade, buyer: 'b', seller: 's', pool_id: 1 }) as PublicTrade),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          { price: '1', quantity: '-1', traded_at: 1, side: 'buy' },
          { price: '1', quantity: '1', traded_at: Number.NaN, side: 'sell' },
          { price: 'x', quantity: '1', traded_at: 1, side: 'sell' },
          { type: 'gap', poolId: 1, since: 0, until: 1 },
          'x',
        ) as fc.Arbitrary<unknown> as fc.Arbitrary<PublicTrade>,
      },
    )

  it('tradeFlowImbalance: the same values, in and out of time order, and the same error at the same trade', () => {
    fc.assert(
      fc.property(
        fc.array(tradesOrJunk(fc.constantFrom('buy', 'sell', 'buy', 'sell', 'hold')), {
          maxLength: 12,
        }),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 0, max: 40 }),
        (trades, windowMs, places) => {
          expect(runToError(trades, tradeFlowImbalance(windowMs, { places }))).toEqual(
            runToError(trades, baselineTradeFlowImbalance(windowMs, places)),
          )
        },
      ),
      RUNS,
    )
  })

  it('vwap: the same values, in and out of time order, and the same error at the same trade', () => {
    const tradeOrJunk = fc.oneof(
      {
        weight: 12,
        arbitrary: fc.record({
          price: amount,
          quantity: amount,
          traded_at: fc.integer({ min: 0, max: 20 }),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          { price: '1', quantity: '-1', traded_at: 1 },
          { price: '1', quantity: '1', traded_at: Number.NaN },
          { type: 'gap', poolId: 1, since: 0, until: 1 },
          'x',
        ),
      },
    )
    fc.assert(
      fc.property(
        fc.array(tradeOrJunk, { maxLength: 12 }),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 0, max: 40 }),
        (items, windowMs, places) => {
          const trades = items.map((item) =>
            typeof item === 'object' && 'price' in item
              ? ({ ...item, side: 'buy', buyer: 'b', seller: 's', pool_id: 1 } as PublicTrade)
              : (item as unknown as PublicTrade),
          )
          expect(runToError(trades, vwap(windowMs, { places }))).toEqual(
            runToError(trades, baselineVwap(windowMs, places)),
          )
        },
      ),
      RUNS,
    )
  })
})
