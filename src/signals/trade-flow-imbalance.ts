import { defer, filter, map, type OperatorFunction } from 'rxjs'
import { addDecimal, divideDecimal, isZeroDecimal, subtractDecimal } from '../decimal.js'
import { integerFrom, optionsObject, placesOption, type TradeInput, tradeOf } from './checks.js'
import { TradeWindow } from './trade-window.js'

/** Options of {@link tradeFlowImbalance}. */
export interface TradeFlowImbalanceOptions {
  /** Decimals of the division, rounded half to even; default 18. */
  readonly places?: number | undefined
}

/**
 * Taker flow imbalance of the trades of the last `windowMs` milliseconds of trade time,
 * `(buyQty - sellQty) / (buyQty + sellQty)` by the taker's `side`: from -1 (sellers only)
 * to 1 (buyers only), emitted after each trade. The window is `(t - windowMs, t]` where
 * `t` is the newest `traded_at` seen (the trades' clock, not the wall clock). Sums are
 * exact; the division goes to `places` decimals (default 18), rounded half to even.
 *
 * Takes `PublicTrade`s or the events of `watchTrades` (`PublicTradeEvent`): `gap` events
 * are skipped. A trade older than the window is ignored; when the window holds no
 * quantity, nothing is emitted. `windowMs` is an integer >= 1; a bad argument throws
 * `VenueInputError` at the call.
 *
 * @example
 * ```ts
 * import { tradeFlowImbalance } from 'venue-rx/signals'
 *
 * venue.watchTrades(1).pipe(tradeFlowImbalance(30_000, { places: 4 })) // '0.2' ...
 * ```
 */
export function tradeFlowImbalance(
  windowMs: number,
  options?: TradeFlowImbalanceOptions,
): OperatorFunction<TradeInput, string> {
  const method = 'tradeFlowImbalance'
  const span = integerFrom(method, 'windowMs', windowMs, 1)
  const places = placesOption(method, optionsObject(method, options, ['places']))
  return (source) =>
    defer(() => {
      const window = new TradeWindow(span, 2)
      return source.pipe(
        map((input) => {
          const trade = tradeOf(input)
          if (trade === undefined) return undefined
          const buy = trade.side === 'buy'
          const [bought = '0', sold = '0'] = window.add(trade.traded_at, [
            buy ? trade.quantity : '0',
            buy ? '0' : trade.quantity,
          ])
          const total = addDecimal(bought, sold)
          if (isZeroDecimal(total)) return undefined
          return divideDecimal(subtractDecimal(bought, sold), total, places)
        }),
        filter((value): value is string => value !== undefined),
      )
    })
}
