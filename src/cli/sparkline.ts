const BARS = '▁▂▃▄▅▆▇█'

/**
 * A one-line chart of `values` (oldest first), one bar per value scaled between their
 * lowest and highest; a flat series is a row of the middle bar.
 *
 * @example
 * ```ts
 * sparkline([1, 2, 3, 2]) // '▁▅█▅'
 * ```
 */
export function sparkline(values: readonly number[]): string {
  if (values.length === 0) return ''
  const low = Math.min(...values)
  const high = Math.max(...values)
  if (high === low) return BARS[3]?.repeat(values.length) ?? ''
  const top = BARS.length - 1
  return values.map((v) => BARS[Math.round(((v - low) / (high - low)) * top)]).join('')
}
