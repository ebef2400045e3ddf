import { defer, filter, map, type OperatorFunction } from 'rxjs'
import { readChecked, type TradeInput, tradeOf } from './inputs.js'
import { imbalanceText, read } from './scaled.js'
import { PairWindow, windowArguments } from './trade-window.js'

/**
 * Options of {@link tradeFlowImbalance}.
 *
 * @example
 * ```ts
 * import { tradeFlowImbalance } from 'venue-rx/signals'
 *
 * venue.watchTrades(0).pipe(tradeFlowImbalance(60_000, { places: 4 })) // '-0.3125', ...
 * ```
 */
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
 * quantity (only trades of quantity 0), nothing is emitted.
 *
 * A trade whose `price` or `quantity` is not a non-negative decimal string, whose
 * `traded_at` is not a finite number or whose `side` is not `'buy'` or `'sell'` errors the
 * stream with a `TypeError` naming the field. `windowMs` is an integer >= 1; a bad argument
 * or option, an unknown or `null` option, or an extra argument throws `VenueInputError` at
 * the call.
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
): OperatorFunction<TradeInput, string>
export function tradeFlowImbalance(
  windowMs: number,
  options?: TradeFlowImbalanceOptions,
  ...extra: unknown[]
): OperatorFunction<TradeInput, string> {
  const { span, places } = windowArguments('tradeFlowImbalance', [windowMs, options, extra])
  return (source) =>
    defer(() => {
      // Sums of the quantities bought (first) and sold (second) by the taker.
      const window = new PairWindow(span)
      return source.pipe(
        map((input) => {
          const trade = tradeOf('tradeFlowImbalance', input, true)
          if (trade === undefined) return undefined
          readChecked('tradeFlowImbalance', trade.quantity)
          if (trade.side === 'buy') window.add(trade.traded_at, read.units, read.scale, 0, 0)
          else window.add(trade.traded_at, 0, 0, read.units, read.scale)
          // Bought against sold.
          return imbalanceText(
            window.first,
            window.firstScale,
            window.second,
            window.secondScale,
            places,
          )
        }),
        filter((out): out is string => out !== undefined),
      )
    })
}
