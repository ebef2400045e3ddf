import { defer, filter, map, type OperatorFunction } from 'rxjs'
import { readChecked, type TradeInput, tradeOf } from './inputs.js'
import { multiplyUnits, quotientText, read } from './scaled.js'
import { PairWindow, windowArguments } from './trade-window.js'

/**
 * Options of {@link vwap}.
 *
 * @example
 * ```ts
 * import { vwap } from 'venue-rx/signals'
 *
 * venue.watchTrades(1).pipe(vwap(300_000, { places: 2 })) // '42941.17', ...
 * ```
 */
export interface VwapOptions {
  /** Decimals of the division, rounded half to even; default 18. */
  readonly places?: number | undefined
}

/**
 * Volume-weighted average price of the trades of the last `windowMs` milliseconds of
 * trade time, `Σ(price × quantity) / Σ quantity`, emitted after each trade. The window is
 * `(t - windowMs, t]` where `t` is the newest `traded_at` seen: it moves with the trades'
 * own timestamps, never the wall clock, so a replay gives the same values. Sums are exact;
 * the division goes to `places` decimals (default 18), rounded half to even.
 *
 * Takes `PublicTrade`s or the events of `watchTrades` (`PublicTradeEvent`): `gap` events
 * are skipped. A trade older than the window is ignored; when the window holds no
 * quantity (only trades of quantity 0), nothing is emitted.
 *
 * A trade whose `price` or `quantity` is not a non-negative decimal string, or whose
 * `traded_at` is not a finite number, errors the stream with a `TypeError` naming the
 * field (`vwap: trade.traded_at must be a finite number of epoch ms (got NaN)`). `windowMs`
 * is an integer >= 1; a bad argument or option, an unknown or `null` option, or an extra
 * argument throws `VenueInputError` at the call.
 *
 * @example
 * ```ts
 * import { vwap } from 'venue-rx/signals'
 *
 * venue.watchTrades(1).pipe(vwap(60_000)).subscribe((price) => console.log(price))
 * ```
 */
export function vwap(windowMs: number, options?: VwapOptions): OperatorFunction<TradeInput, string>
export function vwap(
  windowMs: number,
  options?: VwapOptions,
  ...extra: unknown[]
): OperatorFunction<TradeInput, string> {
  const { span, places } = windowArguments('vwap', [windowMs, options, extra])
  return (source) =>
    defer(() => {
      // Sums of price × quantity (first) and of quantity (second).
      const window = new PairWindow(span)
      return source.pipe(
        map((input) => {
          const trade = tradeOf('vwap', input)
          if (trade === undefined) return undefined
          readChecked('vwap', trade.price)
          const price = read.units
          const priceScale = read.scale
          readChecked('vwap', trade.quantity)
          window.add(
            trade.traded_at,
            multiplyUnits(price, read.units),
            priceScale + read.scale,
            read.units,
            read.scale,
          )
          // The turnover over the volume, the scales told apart by the shift.
          return window.second === 0
            ? undefined
            : quotientText(
                window.first,
                window.second,
                window.secondScale - window.firstScale,
                places,
              )
        }),
        filter((out): out is string => out !== undefined),
      )
    })
}
