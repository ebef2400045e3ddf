/** What the chaos and soak reports share: the fields every long run reports, and their text. */
import type { FaultStats } from '../../../src/simulator/index.js'

/** Counts by name (route, status, stream, error code, handle type). */
export type Counts = Readonly<Record<string, number>>

/** What every long run reports. */
export interface RunReport {
  readonly seed: number
  /** The simulator's fault counters (chaos: when the faults were cleared). */
  readonly faults: FaultStats
  readonly unhandledRejections: number
  readonly uncaughtExceptions: number
}

/**
 * Counts as `name n, name n` (`separator` between name and count), in their own order or
 * sorted by name.
 */
export function countsText(
  counts: Counts,
  options: { readonly separator?: string; readonly sorted?: boolean } = {},
): string {
  const { separator = ' ', sorted = false } = options
  const entries = Object.entries(counts)
  if (sorted) entries.sort(([a], [b]) => a.localeCompare(b))
  return entries.map(([name, n]) => `${name}${separator}${n}`).join(', ')
}

/** The injected faults by kind; `afterError` follows the error count. */
export function faultsText(f: FaultStats, afterError = ''): string {
  return (
    `error ${f.error}${afterError}, reset ${f.reset}, truncate ${f.truncate}, ` +
    `malformed ${f.malformed}, rate limit ${f.rateLimit}, hang ${f.hang}, latency ${f.latency}`
  )
}

/** The line that counts unhandled rejections and uncaught exceptions. */
export function unhandledText(report: RunReport): string {
  return `unhandled rejections: ${report.unhandledRejections}, uncaught exceptions: ${report.uncaughtExceptions}`
}
