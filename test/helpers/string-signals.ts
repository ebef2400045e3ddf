/**
 * The string-arithmetic signals as they were before their scaled-integer paths (the code
 * of src/signals at that time, kept unchanged but for names): `ema`, `microprice`,
 * `imbalance` and `vwap` computing each step with the decimal-string functions of
 * src/decimal.ts. The reference of test/signals-scaled.test.ts (the scaled paths must
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
import { bookSignal } from '../../src/signals/book-signal.js'
import { DEFAULT_PLACES, type DecimalLike } from '../../src/signals/checks.js'
import {
  bestLevel,
  seriesDecimal,
  type TradeInput,
  topLevels,
  tradeOf,
} from '../../src/signals/inputs.js'
// The string-arithmetic window, which tradeFlowImbalance still uses: vwap's baseline.
import { TradeWindow } from '../../src/signals/trade-window.js'

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

/** `vwap(windowMs, { places })` of before. */
export function baselineVwap(
  windowMs: number,
  places = DEFAULT_PLACES,
): OperatorFunction<TradeInput, string> {
  return (source) =>
    defer(() => {
      const window = new TradeWindow(windowMs, 2)
      return source.pipe(
        map((input) => {
          const trade = tradeOf('vwap', input, false)
          if (trade === undefined) return undefined
          const [turnover = '0', volume = '0'] = window.add(trade.traded_at, [
            multiplyDecimal(trade.price, trade.quantity),
            trade.quantity,
          ])
          return isZeroDecimal(volume) ? undefined : divideDecimal(turnover, volume, places)
        }),
        filter((out): out is string => out !== undefined),
      )
    })
}
