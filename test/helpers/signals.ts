/**
 * Helpers of the signal tests: exact rational references in BigInt (written apart from
 * src/decimal.ts), arbitraries of books and trades, and a synchronous runner.
 */
import fc from 'fast-check'
import { from, type OperatorFunction, toArray } from 'rxjs'
import { TestScheduler } from 'rxjs/testing'
import { expect } from 'vitest'
import type { Level } from '../../src/book/book-event.js'
import { OrderBook } from '../../src/book/order-book.js'
import type { PublicTrade } from '../../src/schemas/public-trade.js'

export function testScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected))
}

/** Everything `operator` emits for `values`, synchronously. */
export function run<T, R>(values: readonly T[], operator: OperatorFunction<T, R>): R[] {
  let out: R[] = []
  from(values)
    .pipe(operator, toArray())
    .subscribe((all) => {
      out = all
    })
  return out
}

/** What `operator` emits for `values` before it errors, and the error (synchronously). */
export function runToError<T, R>(
  values: readonly unknown[],
  operator: OperatorFunction<T, R>,
): { values: R[]; error: unknown; completed: boolean } {
  const out: R[] = []
  let error: unknown
  let completed = false
  from(values as readonly T[])
    .pipe(operator)
    .subscribe({
      next: (value) => out.push(value),
      error: (caught: unknown) => {
        error = caught
      },
      complete: () => {
        completed = true
      },
    })
  return { values: out, error, completed }
}

/** A book with the given levels on each side (pool 1, seq 1). */
export function bookOf(bids: readonly Level[], asks: readonly Level[]): OrderBook {
  return new OrderBook(1, 1, 0, bids, asks)
}

/** A fraction n / d, d > 0. */
export interface Ratio {
  readonly n: bigint
  readonly d: bigint
}

/** Decimal text as a fraction over a power of ten. */
export function ratio(text: string): Ratio {
  const negative = text.startsWith('-')
  const [int = '0', frac = ''] = text.replace('-', '').split('.')
  const n = BigInt(int + frac)
  return { n: negative ? -n : n, d: 10n ** BigInt(frac.length) }
}

export const add = (a: Ratio, b: Ratio): Ratio => ({ n: a.n * b.d + b.n * a.d, d: a.d * b.d })
export const sub = (a: Ratio, b: Ratio): Ratio => ({ n: a.n * b.d - b.n * a.d, d: a.d * b.d })
export const mul = (a: Ratio, b: Ratio): Ratio => ({ n: a.n * b.n, d: a.d * b.d })
export const div = (a: Ratio, b: Ratio): Ratio => {
  const n = a.n * b.d
  const d = a.d * b.n
  return d < 0n ? { n: -n, d: -d } : { n, d }
}
export const sum = (values: readonly Ratio[]): Ratio => values.reduce(add, { n: 0n, d: 1n })
export const isZero = (a: Ratio): boolean => a.n === 0n
export const cmp = (a: Ratio, b: Ratio): number => {
  const x = a.n * b.d
  const y = b.n * a.d
  return x < y ? -1 : x > y ? 1 : 0
}

/** `r` in units of 10^-places, rounded half to even. */
export function roundHalfEven(r: Ratio, places: number): bigint {
  const scaled = r.n * 10n ** BigInt(places)
  const negative = scaled < 0n
  const m = negative ? -scaled : scaled
  let q = m / r.d
  const rest = m - q * r.d
  if (rest * 2n > r.d || (rest * 2n === r.d && q % 2n === 1n)) q += 1n
  return negative ? -q : q
}

/** `n / d` in units of 10^-places, rounded half to even, or `undefined` when `d` is zero. */
export function quotientAt(n: Ratio, d: Ratio, places: number): bigint | undefined {
  return isZero(d) ? undefined : roundHalfEven(div(n, d), places)
}

/** `(a - b) / (a + b)` in units of 10^-places, or `undefined` when `a + b` is zero. */
export function imbalanceAt(a: Ratio, b: Ratio, places: number): bigint | undefined {
  return quotientAt(sub(a, b), add(a, b), places)
}

/** Decimal text (at most `places` decimals) in units of 10^-places. */
export function unitsAt(text: string, places: number): bigint {
  const { n, d } = ratio(text)
  const scale = 10n ** BigInt(places)
  expect((n * scale) % d).toBe(0n)
  return (n * scale) / d
}

/** Whether decimal text equals a fraction exactly. */
export function equalsRatio(text: string, r: Ratio): boolean {
  return cmp(ratio(text), r) === 0
}

/** A decimal string from 0 to `max` units of 10^-scale, scale 0 to 4, in varied forms. */
export function decimalArb(maxUnits = 100_000n, minUnits = 0n): fc.Arbitrary<string> {
  return fc
    .tuple(fc.bigInt(minUnits, maxUnits), fc.integer({ min: 0, max: 4 }), fc.boolean())
    .map(([value, scale, padded]) => {
      const digits = value.toString().padStart(scale + 1, '0')
      const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`
      return padded && scale > 0 ? `${text}0` : text
    })
}

/** Levels with distinct positive prices, sorted for `side`. */
function levelsArb(side: 'bids' | 'asks', offset: bigint): fc.Arbitrary<Level[]> {
  return fc
    .uniqueArray(fc.bigInt(1n, 500n), { maxLength: 6 })
    .chain((prices) =>
      fc
        .tuple(...prices.map(() => decimalArb(5_000n, 1n)))
        .map((quantities) =>
          prices
            .map((p, i): Level => [(Number(p + offset) / 100).toFixed(2), quantities[i] ?? '1'])
            .sort((a, b) =>
              side === 'bids' ? Number(b[0]) - Number(a[0]) : Number(a[0]) - Number(b[0]),
            ),
        ),
    )
}

/** An uncrossed book (bids under 5.01, asks from 5.01), either side possibly empty. */
export function bookArb(): fc.Arbitrary<OrderBook> {
  return fc
    .tuple(levelsArb('bids', 0n), levelsArb('asks', 500n))
    .map(([bids, asks]) => new OrderBook(1, 1, 0, bids, asks))
}

/** A trade at `traded_at` from 0 to `maxTime`. */
export function tradeArb(maxTime = 10_000): fc.Arbitrary<PublicTrade> {
  return fc
    .record({
      price: decimalArb(100_000n, 1n),
      quantity: decimalArb(10_000n),
      side: fc.constantFrom('buy' as const, 'sell' as const),
      traded_at: fc.integer({ min: 0, max: maxTime }),
    })
    .map((t) => ({ ...t, buyer: 'b', seller: 's', pool_id: 1 }))
}

/** Trades in time order (as `watchTrades` delivers them). */
export function tradesArb(maxTime = 10_000): fc.Arbitrary<PublicTrade[]> {
  return fc
    .array(tradeArb(maxTime), { maxLength: 30 })
    .map((trades) => [...trades].sort((a, b) => a.traded_at - b.traded_at))
}

/** A public trade for marble tests. */
export function trade(
  price: string,
  quantity: string,
  traded_at: number,
  side: 'buy' | 'sell' = 'buy',
): PublicTrade {
  return { price, quantity, side, traded_at, buyer: 'b', seller: 's', pool_id: 1 }
}

/**
 * Naive recompute of a windowed trade signal over the whole history, for each trade:
 * `value` of the trades so far inside `(latest - windowMs, latest]` (`latest` the newest
 * `traded_at` seen), skipping `undefined`.
 */
export function windowReference(
  trades: readonly PublicTrade[],
  windowMs: number,
  places: number,
  value: (inside: readonly PublicTrade[], places: number) => bigint | undefined,
): bigint[] {
  const out: bigint[] = []
  let latest = Number.NEGATIVE_INFINITY
  trades.forEach((t, i) => {
    latest = Math.max(latest, t.traded_at)
    const v = value(
      trades.slice(0, i + 1).filter((u) => u.traded_at > latest - windowMs),
      places,
    )
    if (v !== undefined) out.push(v)
  })
  return out
}

/** A windowed trade signal matches {@link windowReference} on random trades, windows and places. */
export function expectWindowReference(
  signal: (windowMs: number, options: { places: number }) => OperatorFunction<PublicTrade, string>,
  value: (inside: readonly PublicTrade[], places: number) => bigint | undefined,
): void {
  fc.assert(
    fc.property(
      tradesArb(),
      fc.integer({ min: 1, max: 5_000 }),
      fc.integer({ min: 0, max: 20 }),
      (trades, windowMs, places) => {
        expect(run(trades, signal(windowMs, { places })).map((t) => unitsAt(t, places))).toEqual(
          windowReference(trades, windowMs, places, value),
        )
      },
    ),
  )
}
