/**
 * Candlesticks (docs/venue-interface.md).
 *
 * @packageDocumentation
 */
import { z } from 'zod'
import { decimalString, nonNegativeSafeInteger, timestampSeconds } from './primitives.js'

/** The candlestick intervals the service documents, shortest first (`1M` is one month). */
export const KLINE_INTERVALS = ['1m', '5m', '15m', '30m', '1h', '4h', '1d', '1w', '1M'] as const

/** One of the documented candlestick intervals. */
export type KlineInterval = (typeof KLINE_INTERVALS)[number]

/**
 * One candlestick. The wire sends prices and volumes as JSON numbers; they are output as
 * exact decimal strings so that prices are strings everywhere in the library. `interval`
 * is kept as any string so that an undocumented interval does not break parsing.
 * `timestamp` (the candle's start) is Unix seconds on the wire, epoch milliseconds here.
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

/** A parsed candlestick. */
export type Kline = z.output<typeof klineSchema>
