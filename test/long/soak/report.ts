/** What a soak run measured, and the report as readable lines. */
import type { FaultStats } from '../../../src/simulator/index.js'

/** One heap sample, taken after a forced GC. */
export interface HeapSample {
  /** Since the start of the churn, ms. */
  readonly atMs: number
  readonly heapUsed: number
}

/** What a soak run measured. */
export interface SoakReport {
  readonly seconds: number
  readonly seed: number
  /** Subscriptions made, in all and per stream. */
  readonly subscriptions: number
  readonly perStream: Readonly<Record<string, number>>
  /** Values the subscriptions received. */
  readonly values: number
  /** Errors that ended a subscription, by code (`UNKNOWN` for a non-venue error). */
  readonly streamErrors: Readonly<Record<string, number>>
  /** Requests the simulator saw, and the faults it injected. */
  readonly faults: FaultStats
  readonly samples: readonly HeapSample[]
  /** Least-squares slope of the heap samples, KB per minute. */
  readonly heapSlopeKbPerMinute: number
  readonly firstHeap: number
  readonly lastHeap: number
  /** Active handles at the start, by type. */
  readonly handlesAtStart: Readonly<Record<string, number>>
  /** Active handles after both closes beyond those at the start, by type. */
  readonly handlesLeft: Readonly<Record<string, number>>
  /** Their number (0 is the only right answer). */
  readonly openHandles: number
  readonly unhandledRejections: number
  readonly uncaughtExceptions: number
  /** Examples of what ended streams or went unhandled. */
  readonly messages: readonly string[]
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`

/** The report as readable lines. */
export function formatSoakReport(report: SoakReport): string {
  const f = report.faults
  const streams = Object.entries(report.perStream)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, n]) => `${name} ${n}`)
    .join(', ')
  const errors = Object.entries(report.streamErrors)
    .map(([code, n]) => `${code} ${n}`)
    .join(', ')
  const left = Object.entries(report.handlesLeft)
    .map(([type, n]) => `${type} ${n}`)
    .join(', ')
  return [
    `soak: seed ${report.seed}, ${report.seconds} s`,
    `subscriptions: ${report.subscriptions} (${streams}), values received: ${report.values}`,
    `requests: ${f.requests}; faults: error ${f.error}, reset ${f.reset}, truncate ${f.truncate}, ` +
      `malformed ${f.malformed}, rate limit ${f.rateLimit}, hang ${f.hang}, latency ${f.latency}`,
    `streams ended by an error: ${errors === '' ? 'none' : errors}`,
    `heap after GC: first ${mb(report.firstHeap)}, last ${mb(report.lastHeap)}, ` +
      `${report.samples.length} samples, slope ${report.heapSlopeKbPerMinute.toFixed(1)} KB/min`,
    `  samples (s: MB): ${report.samples.map((s) => `${(s.atMs / 1000).toFixed(1)}: ${(s.heapUsed / 1e6).toFixed(2)}`).join(', ')}`,
    `open handles after venue.close() and sim.close(): ${report.openHandles}${left === '' ? '' : ` (${left})`} ` +
      `(at start: ${JSON.stringify(report.handlesAtStart)})`,
    `unhandled rejections: ${report.unhandledRejections}, uncaught exceptions: ${report.uncaughtExceptions}`,
    ...report.messages.map((message) => `  ${message}`),
    report.openHandles === 0 && report.unhandledRejections + report.uncaughtExceptions === 0
      ? 'result: OK'
      : 'result: FAILED',
  ].join('\n')
}
