import type { OperatorFunction } from 'rxjs'
import { addDecimal, divideDecimal, isZeroDecimal, subtractDecimal } from '../decimal.js'
import type { TradeInput } from './inputs.js'
import { windowedTradeSignal } from './trade-window.js'

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
  return windowedTradeSignal(
    'tradeFlowImbalance',
    [windowMs, options, extra],
    true,
    (trade) => (trade.side === 'buy' ? [trade.quantity, '0'] : ['0', trade.quantity]),
    ([bought = '0', sold = '0'], places) => {
      const total = addDecimal(bought, sold)
      return isZeroDecimal(total)
        ? undefined
        : divideDecimal(subtractDecimal(bought, sold), total, places)
    },
  )
}
