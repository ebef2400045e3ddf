import { concatMap, defer, type OperatorFunction } from 'rxjs'
import { type DecimalLike, fail, noExtraArguments, optionsObject } from './checks.js'
import { type CandleNumbers, indicatorInput } from './indicator-input.js'

export type { CandleNumbers }

/**
 * What {@link indicator} needs of an indicator: the shape of every indicator of the
 * `trading-signals` package (v8), so its whole catalogue fits without an adapter.
 *
 * @example
 * ```ts
 * import { indicator, type IndicatorLike } from 'venue-rx/signals'
 *
 * // an indicator of your own: the highest of the last 3 prices
 * class HighestOf3 implements IndicatorLike<number, number> {
 *   readonly #last: number[] = []
 *   get isStable() {
 *     return this.#last.length === 3
 *   }
 *   update(price: number, replace: boolean): number | null {
 *     if (replace) this.#last.pop()
 *     else if (this.#last.length === 3) this.#last.shift()
 *     this.#last.push(price)
 *     return this.isStable ? Math.max(...this.#last) : null
 *   }
 * }
 * venue.watchKlines(0, '1m').pipe(indicator(() => new HighestOf3())) // 1.0474, 1.0474, 1.0481, ...
 * ```
 */
export interface IndicatorLike<Result, Input> {
  /** Whether the indicator has had enough input for its result to count. */
  readonly isStable: boolean
  /** Adds an input, or replaces the last one when `replace` is true; the new result. */
  update(input: Input, replace: boolean): Result | null
}

/**
 * A candle {@link indicator} reads: an `OhlcvCandle` (`start`) or a `Kline` (`timestamp`).
 *
 * @example
 * ```ts
 * import { of } from 'rxjs'
 * import { SMA } from 'trading-signals'
 * import { type CandleLike, indicator } from 'venue-rx/signals'
 *
 * const kline: CandleLike = {
 *   open: '1.0474', high: '1.0481', low: '1.0462', close: '1.0462', volume: '1322.14',
 *   timestamp: 1700000100000, // a Kline; an OhlcvCandle has `start` instead
 * }
 * of(kline).pipe(indicator(() => new SMA(1))) // 1.0462: the close
 * ```
 */
export type CandleLike = {
  readonly open: string
  readonly high: string
  readonly low: string
  readonly close: string
  readonly volume: string
} & ({ readonly start: number } | { readonly timestamp: number })

/**
 * An `OhlcvEvent` of `ohlcv` or a `KlineEvent` of `watchKlines`.
 *
 * @example
 * ```ts
 * import { filter, map, type Observable } from 'rxjs'
 * import { type CandleEvent, ohlcv } from 'venue-rx/signals'
 *
 * // KlineEvents of watchKlines and OhlcvEvents of ohlcv are both CandleEvents
 * const closes = (events: Observable<CandleEvent>) =>
 *   events.pipe(filter((event) => event.type === 'closed'), map((event) => event.candle.close))
 * closes(venue.watchKlines(0, '1m'))
 * closes(venue.watchTrades(0).pipe(ohlcv(60_000)))
 * ```
 */
export interface CandleEvent {
  readonly type: 'update' | 'closed'
  readonly candle: CandleLike
}

/**
 * What {@link indicator} reads with `input: 'candle'`.
 *
 * @example
 * ```ts
 * import { ATR } from 'trading-signals'
 * import { indicator, ohlcv } from 'venue-rx/signals'
 *
 * // candles or candle events, with `input: 'candle'`
 * venue.watchKlines(0, '5m').pipe(indicator(() => new ATR(14), { input: 'candle' }))
 * venue.watchTrades(0).pipe(ohlcv(300_000), indicator(() => new ATR(14), { input: 'candle' }))
 * ```
 */
export type CandleInput = CandleLike | CandleEvent

/**
 * What {@link indicator} reads with `input: 'close'` (the default). A `null` (a book
 * signal's "no value", e.g. `mid` of a one-sided book) is passed over.
 *
 * @example
 * ```ts
 * import { RSI } from 'trading-signals'
 * import { indicator, mid } from 'venue-rx/signals'
 *
 * venue.watchOrderBook(0).pipe(mid(), indicator(() => new RSI(14))) // prices: decimal strings
 * venue.watchKlines(0, '1m').pipe(indicator(() => new RSI(14)))     // KlineEvents: their closes
 * ```
 */
export type PriceInput = DecimalLike | CandleInput | null

/**
 * Options of {@link indicator}.
 *
 * @example
 * ```ts
 * import { ATR, RSI } from 'trading-signals'
 * import { indicator } from 'venue-rx/signals'
 *
 * venue.watchKlines(0, '1h').pipe(indicator(() => new RSI(14), { input: 'close' })) // the default
 * venue.watchKlines(0, '1h').pipe(indicator(() => new ATR(14), { input: 'candle' }))
 * ```
 */
export interface IndicatorOptions {
  /**
   * `'close'` (default): the indicator takes prices (RSI, MACD, Bollinger bands...); it is
   * given each price, or each candle's close. `'candle'`: the indicator takes candles (ATR,
   * Stochastic, ...); it is given each candle's open, high, low, close and volume.
   */
  readonly input?: 'close' | 'candle' | undefined
}

/**
 * Feeds a stream of prices or candles into an indicator of the `trading-signals` package
 * (or anything of the same shape, {@link IndicatorLike}) and emits its result after each
 * input once the indicator is stable (`isStable`), nothing before. `factory` makes a new
 * indicator for each subscription.
 *
 * Inputs: decimal strings or numbers (prices), candles (`OhlcvCandle`, `Kline`), or candle
 * events (`OhlcvEvent` of `ohlcv`, `KlineEvent` of `watchKlines`). A candle event whose
 * candle has the same start as the previous `update` event replaces that input
 * (`update(input, true)`) instead of adding one, so the open candle's updates move the
 * last result without counting as new candles; a plain candle or price is always added.
 *
 * Results are the indicator's own: `trading-signals` v8 computes in floating point, so they
 * are numbers (or objects of numbers), not exact decimals; decimal strings are converted
 * with `Number`. A `null` is passed over (the indicator is not fed). A price that is not a
 * decimal string or a finite number, a candle field that is not a non-negative decimal
 * string, a candle start that is not a finite number, an event type other than `update`
 * and `closed`, or a price with `input: 'candle'` errors the stream with a `TypeError`
 * naming the field. Throws `VenueInputError` at the call when `factory` is not a function,
 * an option is bad, unknown or `null`, or an extra argument is given.
 *
 * @example
 * ```ts
 * import { ATR, MACD, EMA, RSI } from 'trading-signals'
 * import { indicator, ohlcv } from 'venue-rx/signals'
 *
 * venue.watchKlines(1, '1m').pipe(indicator(() => new RSI(14))) // 48.2, 51.7, ...
 * venue.watchTrades(1).pipe(
 *   ohlcv(60_000),
 *   indicator(() => new MACD(new EMA(12), new EMA(26), new EMA(9))),
 * ) // { macd, signal, histogram }
 * venue.watchKlines(1, '1m').pipe(indicator(() => new ATR(14), { input: 'candle' }))
 * ```
 */
export function indicator<Result>(
  factory: () => IndicatorLike<Result, number>,
  options?: IndicatorOptions & { readonly input?: 'close' | undefined },
): OperatorFunction<PriceInput, Result>
export function indicator<Result>(
  factory: () => IndicatorLike<Result, CandleNumbers>,
  options: IndicatorOptions & { readonly input: 'candle' },
): OperatorFunction<CandleInput, Result>
export function indicator<Result>(
  factory: () => IndicatorLike<Result, number> | IndicatorLike<Result, CandleNumbers>,
  options?: IndicatorOptions,
  ...extra: unknown[]
): OperatorFunction<PriceInput, Result> {
  noExtraArguments('indicator', ['factory', 'options'], extra)
  if (typeof factory !== 'function') fail('indicator', 'factory', 'must be a function', factory)
  const given = optionsObject('indicator', options, ['input'])
  // `null` is no mode: only an absent option takes the default.
  const mode = given['input'] === undefined ? 'close' : given['input']
  if (mode !== 'close' && mode !== 'candle') {
    fail('indicator', 'input', "must be 'close' or 'candle'", mode)
  }
  return (source) =>
    defer(() => {
      // The typed overloads pair each mode with its input; inside, one shape serves both.
      const target = factory() as IndicatorLike<Result, number | CandleNumbers>
      // Start of the candle whose `update` was the last input: the next event of the same
      // candle replaces it.
      let open: number | undefined
      return source.pipe(
        concatMap((input): Result[] => {
          const fed = indicatorInput(mode, input)
          if (fed === null) return []
          const event = fed.event
          const result = target.update(fed.value, event !== undefined && open === event.start)
          open = event?.type === 'update' ? event.start : undefined
          return target.isStable && result !== null ? [result] : []
        }),
      )
    })
}
