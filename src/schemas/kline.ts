/**
 * Candlesticks (docs/venue-interface.md).
 *
 * @packageDocumentation
 */
import { z } from 'zod'
import { decimalString, nonNegativeSafeInteger, timestampSeconds } from './primitives.js'

/**
 * The candlestick intervals the service documents, shortest first (`1M` is one month).
 *
 * @example
 * ```ts
 * import { KLINE_INTERVALS, type KlineInterval } from 'venue-rx'
 *
 * KLINE_INTERVALS // ['1m', '5m', '15m', '30m', '1h', '4h', '1d', '1w', '1M']
 * const isInterval = (text: string): text is KlineInterval =>
 *   (KLINE_INTERVALS as readonly string[]).includes(text)
 * isInterval('4h') // true
 * ```
 */
export const KLINE_INTERVALS = ['1m', '5m', '15m', '30m', '1h', '4h', '1d', '1w', '1M'] as const

/**
 * One of the documented candlestick intervals.
 *
 * @example
 * ```ts
 * import type { KlineInterval } from 'venue-rx'
 *
 * const interval: KlineInterval = '15m'
 * venue.watchKlines(0, interval)
 * ```
 */
export type KlineInterval = (typeof KLINE_INTERVALS)[number]

/**
 * One candlestick. The wire sends prices and volumes as JSON numbers; they are output as
 * exact decimal strings so that prices are strings everywhere in the library. `interval`
 * is kept as any string so that an undocumented interval does not break parsing.
 * `timestamp` (the candle's start) is Unix seconds on the wire, epoch milliseconds here.
 *
 * @example
 * ```ts
 * import { klineSchema } from 'venue-rx/schemas'
 *
 * klineSchema.parse({
 *   open: 1.0474, high: 1.0474, low: 1.0462, close: 1.0462, volume: 1322.14, turnover: 1384.552712,
 *   count: 4, interval: '1m', pool_id: 0, timestamp: 1700000100,
 * })
 * // { open: '1.0474', ..., volume: '1322.14', count: 4, pool_id: 0, timestamp: 1700000100000 }
 * ```
 */
export const klineSchema = z.object({
  open: decimalString,
  high: decimalString,
  low: decimalString,
  close: decimalString,
  volume: decimalString,
  turnover: decimalString,
  count: nonNegativeSafeInteger,
  interval: z.string(),
  pool_id: nonNegativeSafeInteger,
  timestamp: timestampSeconds,
})

/**
 * A parsed candlestick.
 *
 * @example
 * ```ts
 * import type { Kline } from 'venue-rx'
 *
 * const candles: Kline[] = await venue.rest.klines({ poolId: 0, interval: '1m' })
 * // [..., { open: '1.0474', high: '1.0474', low: '1.0462', close: '1.0462', volume: '1322.14',
 * //   turnover: '1384.552712', count: 4, interval: '1m', pool_id: 0, timestamp: 1700000100000 }]
 * ```
 */
export type Kline = z.output<typeof klineSchema>
