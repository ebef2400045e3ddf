import { concatMap, defer, type OperatorFunction } from 'rxjs'
import { addDecimal, compareDecimal, normalizeDecimal } from '../decimal.js'
import { integerFrom, noExtraArguments } from './checks.js'
import { type TradeInput, tradeOf } from './inputs.js'

/**
 * A candle built from trades by {@link ohlcv}. Prices and volume are exact decimal strings.
 *
 * @example
 * ```ts
 * import { ohlcv } from 'venue-rx/signals'
 *
 * venue.watchTrades(0).pipe(ohlcv(60_000)).subscribe(({ type, candle }) => {
 *   // { open: '1.0474', high: '1.0474', low: '1.0462', close: '1.0462', volume: '1322.14',
 *   //   start: 1700000100000, end: 1700000160000 }
 *   if (type === 'closed') store.save(candle)
 * })
 * ```
 */
export interface OhlcvCandle {
  /** Price of the bucket's first trade (in arrival order). */
  readonly open: string
  readonly high: string
  readonly low: string
  /** Price of the bucket's last trade (in arrival order). */
  readonly close: string
  /** Base quantity traded in the bucket. */
  readonly volume: string
  /** Start of the bucket, epoch ms, a multiple of `intervalMs` (included). */
  readonly start: number
  /** End of the bucket, epoch ms, `start + intervalMs` (excluded). */
  readonly end: number
}

/**
 * What {@link ohlcv} emits; the same shape as the `KlineEvent`s of `watchKlines`.
 *
 * @example
 * ```ts
 * import { type OhlcvEvent, ohlcv } from 'venue-rx/signals'
 *
 * venue.watchTrades(0).pipe(ohlcv(300_000)).subscribe((event: OhlcvEvent) => {
 *   if (event.type === 'closed') strategy.onCandle(event.candle) // final, once per 5-minute bucket
 *   else chart.drawLive(event.candle)
 * })
 * ```
 */
export type OhlcvEvent =
  | { readonly type: 'update'; readonly candle: OhlcvCandle }
  | { readonly type: 'closed'; readonly candle: OhlcvCandle }

/**
 * Candles of `intervalMs` milliseconds built from trades: after each trade, an `update`
 * with the open candle of its bucket; when a trade of a later bucket arrives, the previous
 * bucket's candle once as `closed` first. Buckets follow the trades' own `traded_at`
 * (`[start, start + intervalMs)`, `start` a multiple of `intervalMs` since the epoch), never
 * the wall clock: a quiet bucket stays open until the next trade, and buckets without
 * trades make no candle. A trade of a bucket already closed is ignored. When the source
 * completes, the open candle is not closed (its bucket may not be over). Exact: no
 * division, no `places` option.
 *
 * Takes `PublicTrade`s or the events of `watchTrades` (`PublicTradeEvent`): `gap` events
 * are skipped. A trade whose `price` or `quantity` is not a non-negative decimal string, or
 * whose `traded_at` is not a finite number, errors the stream with a `TypeError` naming the
 * field. `intervalMs` is an integer >= 1; a bad one, or any other argument (`ohlcv` takes
 * no options), throws `VenueInputError` at the call.
 *
 * @example
 * ```ts
 * import { ohlcv } from 'venue-rx/signals'
 *
 * venue.watchTrades(1).pipe(ohlcv(60_000)).subscribe((event) => {
 *   if (event.type === 'closed') console.log(event.candle) // { open: '1.04', high: ..., start, end }
 * })
 * ```
 */
export function ohlcv(intervalMs: number): OperatorFunction<TradeInput, OhlcvEvent>
export function ohlcv(
  intervalMs: number,
  ...extra: unknown[]
): OperatorFunction<TradeInput, OhlcvEvent> {
  noExtraArguments('ohlcv', ['intervalMs'], extra)
  const interval = integerFrom('ohlcv', 'intervalMs', intervalMs, 1)
  return (source) =>
    defer(() => {
      let open: OhlcvCandle | undefined
      return source.pipe(
        concatMap((input): OhlcvEvent[] => {
          const trade = tradeOf('ohlcv', input)
          if (trade === undefined) return []
          const at = trade.traded_at
          const start = at - (((at % interval) + interval) % interval)
          const price = normalizeDecimal(trade.price)
          if (open !== undefined && start < open.start) return []
          const events: OhlcvEvent[] = []
          if (open !== undefined && start === open.start) {
            open = {
              ...open,
              high: compareDecimal(price, open.high) > 0 ? price : open.high,
              low: compareDecimal(price, open.low) < 0 ? price : open.low,
              close: price,
              volume: addDecimal(open.volume, trade.quantity),
            }
          } else {
            if (open !== undefined) events.push({ type: 'closed', candle: open })
            open = {
              open: price,
              high: price,
              low: price,
              close: price,
              volume: normalizeDecimal(trade.quantity),
              start,
              end: start + interval,
            }
          }
          events.push({ type: 'update', candle: open })
          return events
        }),
      )
    })
}
