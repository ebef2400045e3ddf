import { amountText, epochMs, refuse, seriesDecimal } from './inputs.js'

/**
 * The inputs of `indicator`, read and checked: what the indicator is given for each one.
 * `trading-signals` computes in floating point and would turn a bad field into NaN for the
 * rest of its life, so a field it cannot take errors the stream with a `TypeError` here.
 */

/**
 * A candle as `indicator` gives it to a candle indicator: numbers.
 *
 * @example
 * ```ts
 * import { ATR } from 'trading-signals'
 * import type { CandleNumbers } from 'venue-rx/signals'
 *
 * // what a candle indicator is given with `input: 'candle'`
 * const candle: CandleNumbers = {
 *   open: 1.0474,
 *   high: 1.0481,
 *   low: 1.0462,
 *   close: 1.0462,
 *   volume: 1322.14,
 * }
 * new ATR(14).update(candle, false)
 * ```
 */
export interface CandleNumbers {
  readonly open: number
  readonly high: number
  readonly low: number
  readonly close: number
  readonly volume: number
}

/** What one input gives the indicator. */
export interface Fed {
  readonly value: number | CandleNumbers
  /** For a candle event: its type and its candle's start, which the replace rule reads. */
  readonly event?: { readonly type: 'update' | 'closed'; readonly start: number } | undefined
}

/** A decimal as a number, refused when a double cannot hold it (it would be Infinity). */
function finite(field: string, text: string): number {
  const value = Number(text)
  if (!Number.isFinite(value)) refuse('indicator', field, 'is too large for a number', text)
  return value
}

function candleField(candle: Record<string, unknown>, name: string): number {
  const field = `candle.${name}`
  return finite(field, amountText('indicator', field, candle[name]))
}

function candleValue(
  mode: 'close' | 'candle',
  candle: Record<string, unknown>,
): number | CandleNumbers {
  if (mode === 'close') return candleField(candle, 'close')
  return {
    open: candleField(candle, 'open'),
    high: candleField(candle, 'high'),
    low: candleField(candle, 'low'),
    close: candleField(candle, 'close'),
    volume: candleField(candle, 'volume'),
  }
}

/** What `input` gives the indicator, or `null` for a `null` (no value: passed over). */
export function indicatorInput(mode: 'close' | 'candle', input: unknown): Fed | null {
  if (input === null) return null
  if (typeof input === 'string' || typeof input === 'number') {
    if (mode === 'candle') {
      refuse('indicator', 'value', "must be a candle or a candle event with input: 'candle'", input)
    }
    return { value: finite('value', seriesDecimal('indicator', 'value', input)) }
  }
  if (typeof input !== 'object' || Array.isArray(input)) {
    refuse('indicator', 'value', 'must be a price, a candle or a candle event', input)
  }
  if (!('candle' in input)) return { value: candleValue(mode, input as Record<string, unknown>) }
  const { type, candle } = input as { type?: unknown; candle: unknown }
  if (type !== 'update' && type !== 'closed') {
    refuse('indicator', 'event.type', "must be 'update' or 'closed'", type)
  }
  if (typeof candle !== 'object' || candle === null) {
    refuse('indicator', 'event.candle', 'must be a candle', candle)
  }
  const fields = candle as Record<string, unknown>
  // An OhlcvCandle has `start`, a Kline `timestamp`: a NaN would never match the open
  // candle's, and every update would count as a new candle.
  const start =
    'start' in fields
      ? epochMs('indicator', 'candle.start', fields['start'])
      : epochMs('indicator', 'candle.timestamp', fields['timestamp'])
  return { value: candleValue(mode, fields), event: { type, start } }
}
