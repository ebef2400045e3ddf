/**
 * The string-arithmetic signals as they were before their scaled-integer paths (the code
 * of src/signals at that time, kept unchanged but for names): `ema`, `microprice`,
 * `imbalance`, `vwap` and `tradeFlowImbalance` computing each step with the
 * decimal-string functions of src/decimal.ts, the last two over the window of strings
 * they shared (`TradeWindow`). The reference of test/signals-scaled.test.ts (the scaled paths must
 * emit the same strings) and the baseline of bench/signals.ts (measured in the same run).
 */
import { concatMap, defer, filter, map, type OperatorFunction } from 'rxjs'
import type { Level } from '../../src/book/book-event.js'
import type { OrderBook } from '../../src/book/order-book.js'
import {
  addDecimal,
  divideDecimal,
  isZeroDecimal,
  multiplyDecimal,
  normalizeDecimal,
  subtractDecimal,
} from '../../src/decimal.js'
import type { PublicTrade } from '../../src/schemas/public-trade.js'
import { bookSignal } from '../../src/signals/book-signal.js'
import { DEFAULT_PLACES, type DecimalLike } from '../../src/signals/checks.js'
import {
  bestLevel,
  seriesDecimal,
  type TradeInput,
  topLevels,
  tradeOf,
} from '../../src/signals/inputs.js'

interface Entry {
  readonly at: number
  readonly amounts: readonly string[]
}

/**
 * Running exact sums of amounts over a window of trade time: an entry at `at` counts while
 * `at > latest - windowMs`, `latest` being the newest time added (so the window is
 * `(latest - windowMs, latest]`, on the trades' own clock, never the wall clock). Entries
 * may come out of time order: a late one counts while it is inside the window.
 */
export class TradeWindow {
  readonly #windowMs: number
  #entries: Entry[] = []
  #sums: string[]
  #latest = Number.NEGATIVE_INFINITY
  #oldest = Number.POSITIVE_INFINITY

  constructor(windowMs: number, width: number) {
    this.#windowMs = windowMs
    this.#sums = Array.from({ length: width }, () => '0')
  }

  /** Adds an entry, drops what fell out of the window, and returns the sums. */
  add(at: number, amounts: readonly string[]): readonly string[] {
    this.#latest = Math.max(this.#latest, at)
    const cutoff = this.#latest - this.#windowMs
    if (at > cutoff) {
      this.#entries.push({ at, amounts })
      this.#sums = this.#sums.map((sum, i) => addDecimal(sum, amounts[i] ?? '0'))
      this.#oldest = Math.min(this.#oldest, at)
    }
    if (this.#oldest <= cutoff) {
      const kept: Entry[] = []
      let oldest = Number.POSITIVE_INFINITY
      for (const entry of this.#entries) {
        if (entry.at > cutoff) {
          kept.push(entry)
          oldest = Math.min(oldest, entry.at)
        } else {
          this.#sums = this.#sums.map((sum, i) => subtractDecimal(sum, entry.amounts[i] ?? '0'))
        }
      }
      this.#entries = kept
      this.#oldest = oldest
    }
    return this.#sums
  }
}

/** `innerPlaces` of before. */
function innerPlaces(period: number, places: number): number {
  return Math.max(places, DEFAULT_PLACES) + String(period + 1).length + 1
}

/** `EmaAverage` of before: the average as decimal text, each step in string arithmetic. */
export class StringEmaAverage {
  readonly #divisor: string
  readonly #places: number
  #average: string | undefined

  constructor(period: number, places: number) {
    this.#divisor = String(period + 1)
    this.#places = innerPlaces(period, places)
  }

  add(value: string): string {
    const average = this.#average
    this.#average =
      average === undefined
        ? normalizeDecimal(value)
        : addDecimal(
            average,
            divideDecimal(
              multiplyDecimal(subtractDecimal(value, average), '2'),
              this.#divisor,
              this.#places,
            ),
          )
    return this.#average
  }
}

/** `ema(period, { places })` of before. */
export function baselineEma(
  period: number,
  places = DEFAULT_PLACES,
): OperatorFunction<DecimalLike | null, string> {
  return (source) =>
    defer(() => {
      const average = new StringEmaAverage(period, places)
      return source.pipe(
        concatMap((input): string[] =>
          input === null
            ? []
            : [divideDecimal(average.add(seriesDecimal('ema', 'value', input)), '1', places)],
        ),
      )
    })
}

/** `microprice({ places })` of before. */
export function baselineMicroprice(
  places = DEFAULT_PLACES,
): OperatorFunction<OrderBook, string | null> {
  return bookSignal('microprice', (book) => {
    const bid = bestLevel('microprice', book, 'bids')
    const ask = bestLevel('microprice', book, 'asks')
    if (bid === undefined || ask === undefined) return null
    const total = addDecimal(bid[1], ask[1])
    if (isZeroDecimal(total)) return null
    const weighted = addDecimal(multiplyDecimal(bid[0], ask[1]), multiplyDecimal(ask[0], bid[1]))
    return divideDecimal(weighted, total, places)
  })
}

function quantity(levels: readonly Level[]): string {
  let total = '0'
  for (const [, size] of levels) total = addDecimal(total, size)
  return total
}

/** `imbalance(levels, { places })` of before. */
export function baselineImbalance(
  count: number,
  places = DEFAULT_PLACES,
): OperatorFunction<OrderBook, string | null> {
  return bookSignal('imbalance', (book) => {
    const bids = quantity(topLevels('imbalance', book, 'bids', count))
    const asks = quantity(topLevels('imbalance', book, 'asks', count))
    const total = addDecimal(bids, asks)
    if (isZeroDecimal(total)) return null
    return divideDecimal(subtractDecimal(bids, asks), total, places)
  })
}

/**
 * A signal of before over a window of trade time: per subscription, `amounts(trade)`
 * summed in a {@link TradeWindow}, and `value(sums)` emitted after each trade (`gap`
 * events and `undefined` values skipped).
 */
function windowedBaseline(
  method: string,
  windowMs: number,
  withSide: boolean,
  amounts: (trade: PublicTrade) => readonly string[],
  value: (sums: readonly string[]) => string | undefined,
): OperatorFunction<TradeInput, string> {
  return (source) =>
    defer(() => {
      const window = new TradeWindow(windowMs, 2)
      return source.pipe(
        map((input) => {
          const trade = tradeOf(method, input, withSide)
          return trade === undefined
            ? undefined
            : value(window.add(trade.traded_at, amounts(trade)))
        }),
        filter((out): out is string => out !== undefined),
      )
    })
}

/** `vwap(windowMs, { places })` of before. */
export function baselineVwap(
  windowMs: number,
  places = DEFAULT_PLACES,
): OperatorFunction<TradeInput, string> {
  return windowedBaseline(
    'vwap',
    windowMs,
    false,
    (trade) => [multiplyDecimal(trade.price, trade.quantity), trade.quantity],
    ([turnover = '0', volume = '0']) =>
      isZeroDecimal(volume) ? undefined : divideDecimal(turnover, volume, places),
  )
}

/** `tradeFlowImbalance(windowMs, { places })` of before. */
export function baselineTradeFlowImbalance(
  windowMs: number,
  places = DEFAULT_PLACES,
): OperatorFunction<TradeInput, string> {
  return windowedBaseline(
    'tradeFlowImbalance',
    windowMs,
    true,
    (trade) => (trade.side === 'buy' ? [trade.quantity, '0'] : ['0', trade.quantity]),
    ([bought = '0', sold = '0']) => {
      const total = addDecimal(bought, sold)
      return isZeroDecimal(total)
        ? undefined
        : divideDecimal(subtractDecimal(bought, sold), total, places)
    },
  )
}
