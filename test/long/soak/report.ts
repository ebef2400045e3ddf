/** What a soak run measured, and the report as readable lines. */
import type { Counts, RunReport } from '../support/run-report.js'
import { countsText, faultsText, unhandledText } from '../support/run-report.js'

/** One heap sample, taken after a forced GC. */
export interface HeapSample {
  /** Since the start of the churn, ms. */
  readonly atMs: number
  readonly heapUsed: number
}

/** What a soak run measured. */
export interface SoakReport extends RunReport {
  readonly seconds: number
  /** Subscriptions made, in all and per stream. */
  readonly subscriptions: number
  readonly perStream: Counts
  /** Values the subscriptions received. */
  readonly values: number
  /** Errors that ended a subscription, by code (`UNKNOWN` for a non-venue error). */
  readonly streamErrors: Counts
  readonly samples: readonly HeapSample[]
  /** Least-squares slope of the heap samples, KB per minute. */
  readonly heapSlopeKbPerMinute: number
  readonly firstHeap: number
  readonly lastHeap: number
  /** Active handles at the start, by type. */
  readonly handlesAtStart: Counts
  /** Active handles after both closes beyond those at the start, by type. */
  readonly handlesLeft: Counts
  /** Their number (0 is the only right answer). */
  readonly openHandles: number
  /** Examples of what ended streams or went unhandled. */
  readonly messages: readonly string[]
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`

/** Whether the run passed: no handle left open, nothing unhandled. */
export function soakPassed(report: SoakReport): boolean {
  return report.openHandles === 0 && report.unhandledRejections + report.uncaughtExceptions === 0
}

/** The report as readable lines. */
export function formatSoakReport(report: SoakReport): string {
  const f = report.faults
  const streams = countsText(report.perStream, { sorted: true })
  const errors = countsText(report.streamErrors)
  const left = countsText(report.handlesLeft)
  return [
    `soak: seed ${report.seed}, ${report.seconds} s`,
    `subscriptions: ${report.subscriptions} (${streams}), values received: ${report.values}`,
    `requests: ${f.requests}; faults: ${faultsText(f)}`,
    `streams ended by an error: ${errors === '' ? 'none' : errors}`,
    `heap after GC: first ${mb(report.firstHeap)}, last ${mb(report.lastHeap)}, ` +
      `${report.samples.length} samples, slope ${report.heapSlopeKbPerMinute.toFixed(1)} KB/min`,
    `  samples (s: MB): ${report.samples.map((s) => `${(s.atMs / 1000).toFixed(1)}: ${(s.heapUsed / 1e6).toFixed(2)}`).join(', ')}`,
    `open handles after venue.close() and sim.close(): ${report.openHandles}${left === '' ? '' : ` (${left})`} ` +
      `(at start: ${JSON.stringify(report.handlesAtStart)})`,
    unhandledText(report),
    ...report.messages.map((message) => `  ${message}`),
    soakPassed(report) ? 'result: OK' : 'result: FAILED',
  ].join('\n')
}
