/**
 * Candle boundaries for the nine kline intervals, in Unix seconds, UTC. Fixed intervals
 * align to multiples of their length since the epoch (so `1d` starts at 00:00 UTC and
 * `4h` at 00:00, 04:00 ...); `1w` starts on Monday 00:00 UTC; `1M` is the calendar month.
 *
 * @packageDocumentation
 */

/** The kline intervals the venue serves. */
export const KLINE_INTERVALS = ['1m', '5m', '15m', '30m', '1h', '4h', '1d', '1w', '1M'] as const

/** A kline interval. */
export type KlineInterval = (typeof KLINE_INTERVALS)[number]

/** Length of each fixed interval in seconds (weeks and months are aligned separately). */
export const FIXED_SECONDS: Readonly<Record<string, number>> = {
  '1m': 60,
  '5m': 300,
  '15m': 900,
  '30m': 1800,
  '1h': 3600,
  '4h': 14_400,
  '1d': 86_400,
}

const WEEK = 604_800
/** The epoch (1970-01-01) was a Thursday; the first Monday 00:00 UTC is 4 days later. */
const FIRST_MONDAY = 4 * 86_400

/** True when `text` is one of {@link KLINE_INTERVALS}. */
export function isKlineInterval(text: string): text is KlineInterval {
  return (KLINE_INTERVALS as readonly string[]).includes(text)
}

/**
 * The candle containing `sec`: `[start, end)` in Unix seconds.
 *
 * @example
 * ```ts
 * candleBounds('1w', 1_700_000_000) // [1699833600, 1700438400]: Mon 13 Nov 2023 .. Mon 20 Nov
 * ```
 */
export function candleBounds(interval: KlineInterval, sec: number): [start: number, end: number] {
  const length = FIXED_SECONDS[interval]
  if (length !== undefined) {
    const start = sec - mod(sec, length)
    return [start, start + length]
  }
  if (interval === '1w') {
    const start = sec - mod(sec - FIRST_MONDAY, WEEK)
    return [start, start + WEEK]
  }
  const date = new Date(sec * 1000)
  const year = date.getUTCFullYear()
  const month = date.getUTCMonth()
  return [Date.UTC(year, month, 1) / 1000, Date.UTC(year, month + 1, 1) / 1000]
}

function mod(a: number, n: number): number {
  return ((a % n) + n) % n
}
