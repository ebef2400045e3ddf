import { defer, filter, map, type OperatorFunction } from 'rxjs'
import { addDecimal, subtractDecimal } from '../decimal.js'
import type { PublicTrade } from '../schemas/public-trade.js'
import { integerFrom, noExtraArguments, optionsObject, placesOption } from './checks.js'
import { type TradeInput, tradeOf } from './inputs.js'

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

/**
 * The operator of a signal over the trades of the last `windowMs` milliseconds of trade
 * time: checks `windowMs` (an integer >= 1), `options` (`places`) and that no argument
 * follows them (`extra`) at the call, then per subscription sums `amounts(trade)` in a
 * {@link TradeWindow} and emits `value(sums, places)` after each trade, skipping `gap`
 * events and `undefined` values. Each trade is checked first (its `side` too when
 * `withSide`): a NaN time would stall the window for the rest of the subscription.
 */
export function windowedTradeSignal(
  method: string,
  [windowMs, options, extra]: readonly [unknown, unknown, readonly unknown[]],
  withSide: boolean,
  amounts: (trade: PublicTrade) => readonly string[],
  value: (sums: readonly string[], places: number) => string | undefined,
): OperatorFunction<TradeInput, string> {
  noExtraArguments(method, ['windowMs', 'options'], extra)
  const span = integerFrom(method, 'windowMs', windowMs, 1)
  const places = placesOption(method, optionsObject(method, options, ['places']))
  return (source) =>
    defer(() => {
      const window = new TradeWindow(span, 2)
      return source.pipe(
        map((input) => {
          const trade = tradeOf(method, input, withSide)
          return trade === undefined
            ? undefined
            : value(window.add(trade.traded_at, amounts(trade)), places)
        }),
        filter((out): out is string => out !== undefined),
      )
    })
}
