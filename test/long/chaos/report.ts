/** What a chaos run counted, what is wrong in it, and the report as a readable table. */
import type { Counts, RunReport } from '../support/run-report.js'
import { countsText, faultsText, unhandledText } from '../support/run-report.js'
import type { OrderCounts } from './orders.js'

/** Counts of an exactly-once feed against the ground truth. */
export interface FeedCounts {
  /** Items of the account in the ground truth at the end. */
  readonly truth: number
  /** Items the feed delivered (repeats included). */
  readonly delivered: number
  /** Truth items never delivered. */
  readonly lost: number
  /** Deliveries of an item already delivered. */
  readonly repeated: number
  /** Deliveries whose key is not above the previous one. */
  readonly outOfOrder: number
  /** Deliveries of an item the truth does not have. */
  readonly unexpected: number
  /** Items delivered with other field values than the truth's. */
  readonly mismatched: number
  /** Up to 5 examples of each problem, for the report. */
  readonly examples: readonly string[]
}

/** Public trades of one pool against the kept tape of the simulator. */
export interface PublicTradeCounts {
  readonly poolId: number
  /** Trades the stream delivered. */
  readonly delivered: number
  /** Trades of the truth from the first one delivered to the end, less those inside reported gaps. */
  readonly verifiable: number
  /** Delivered trades found in place in the truth. */
  readonly matched: number
  /** `gap` events. */
  readonly gaps: number
  /** Truth trades skipped inside reported gaps (allowed). */
  readonly skippedInGaps: number
  /** Truth trades skipped inside each gap, in order. */
  readonly skippedPerGap: readonly number[]
  /** Truth trades missed with no gap reported. */
  readonly lost: number
  /** Deliveries of a trade already delivered. */
  readonly repeated: number
  /** Delivered trades not found in the truth. */
  readonly unexpected: number
  /** Delivered trades older than the simulator's kept tape (not checkable). */
  readonly unverifiable: number
}

/** One `watchDepth` subscription, every event checked against the served book. */
export interface BookCounts {
  readonly name: string
  readonly events: number
  readonly snapshots: number
  readonly resyncs: number
  readonly deltas: number
  /** Events after which the rebuilt book equals the book served at that poll. */
  readonly equal: number
  /** Events after which it differs. */
  readonly unequal: number
  /** Events whose timestamp names no served book. */
  readonly noServedBook: number
  /** Events `applyBookEvent` refused (a gap) or whose `seq` is not the next one. */
  readonly sequenceErrors: number
  /** The rebuilt book at the end equals the last book served. */
  readonly finalEqual: boolean
  readonly firstProblem?: string
}

/** Everything a chaos run counted. */
export interface ChaosReport extends RunReport {
  readonly faultRate: number
  readonly durationMs: number
  /** Ticks the market moved during the run (history excluded). */
  readonly ticks: number
  readonly polls: {
    readonly target: number
    /** Requests when the faults were cleared. */
    readonly atStop: number
    /** Requests in all, catch-up included. */
    readonly total: number
    /** Requests per route. */
    readonly perRoute: Counts
  }
  /** Injected 5xx by status. */
  readonly errorStatuses: Counts
  /** Whether every feed and book reached the ground truth in time. */
  readonly caughtUp: boolean
  readonly myTrades: FeedCounts
  readonly transfers: FeedCounts
  readonly publicTrades: PublicTradeCounts
  readonly books: readonly BookCounts[]
  /** Share of book events (all streams) whose rebuilt book equals the served one, 0..1. */
  readonly bookEqualShare: number
  /** Errors that ended a stream (none is expected: every injected fault is retryable). */
  readonly streamErrors: readonly string[]
  readonly fills: FeedCounts
  /** The `watchOrder` streams of the orders the run placed. */
  readonly orders: OrderCounts
  /** Why the run failed; empty when every count is right. */
  readonly failures: readonly string[]
}

/** What is wrong in a report's counts (empty when every count is right). */
export function chaosFailures(report: Omit<ChaosReport, 'failures'>): string[] {
  const failures: string[] = []
  const feed = (name: string, counts: FeedCounts) => {
    for (const kind of ['lost', 'repeated', 'outOfOrder', 'unexpected', 'mismatched'] as const) {
      if (counts[kind] !== 0) failures.push(`${name}: ${counts[kind]} ${kind}`)
    }
    if (counts.truth === 0) failures.push(`${name}: the truth is empty`)
  }
  feed('own trades', report.myTrades)
  feed('fills', report.fills)
  feed('transfers', report.transfers)
  const trades = report.publicTrades
  for (const kind of ['lost', 'repeated', 'unexpected'] as const) {
    if (trades[kind] !== 0) failures.push(`public trades: ${trades[kind]} ${kind}`)
  }
  if (trades.delivered === 0) failures.push('public trades: none delivered')
  if (report.bookEqualShare < 1) {
    failures.push(
      `books: ${(report.bookEqualShare * 100).toFixed(3)} % of events equal the served book`,
    )
  }
  for (const book of report.books) {
    if (book.events === 0) failures.push(`book ${book.name}: no event`)
    if (!book.finalEqual)
      failures.push(`book ${book.name}: the last book differs from the served one`)
  }
  const orders = report.orders
  if (orders.placed === 0) failures.push('orders: none placed')
  for (const kind of ['failed', 'notDone', 'wrongStatus', 'wrongFills', 'unreconciled'] as const) {
    if (orders[kind] !== 0) failures.push(`order streams: ${orders[kind]} ${kind}`)
  }
  if (report.unhandledRejections !== 0)
    failures.push(`${report.unhandledRejections} unhandled rejections`)
  if (report.uncaughtExceptions !== 0)
    failures.push(`${report.uncaughtExceptions} uncaught exceptions`)
  if (report.streamErrors.length > 0)
    failures.push(`stream errors: ${report.streamErrors.join('; ')}`)
  if (report.polls.atStop < report.polls.target) {
    failures.push(`polls: ${report.polls.atStop} of ${report.polls.target}`)
  }
  return failures
}

// --- printing --------------------------------------------------------------------------------

const pad = (value: unknown, width: number) => String(value).padStart(width)

/** The report as a readable table. */
export function formatChaosReport(report: ChaosReport): string {
  const lines: string[] = []
  const f = report.faults
  lines.push(
    `chaos: seed ${report.seed}, fault rate ${report.faultRate}, ${(report.durationMs / 1000).toFixed(1)} s, ` +
      `${report.ticks} ticks of market during the run`,
  )
  lines.push(
    `polls: ${report.polls.atStop} when the faults stopped (target ${report.polls.target}), ${report.polls.total} in all`,
  )
  lines.push(`  per route: ${countsText(report.polls.perRoute)}`)
  const statuses = countsText(report.errorStatuses, { separator: ': ' })
  lines.push(
    `faults injected: ${faultsText(f, ` (${statuses})`)}, ` +
      `extra fields ${f.extraFields} (of ${f.requests} requests)`,
  )
  lines.push(`caught up with the ground truth: ${report.caughtUp ? 'yes' : 'NO'}`)
  lines.push('')
  lines.push(
    `${'feed'.padEnd(14)}${pad('truth', 8)}${pad('delivered', 11)}${pad('lost', 6)}${pad('repeated', 10)}` +
      `${pad('out-of-order', 14)}${pad('unexpected', 12)}${pad('mismatched', 12)}`,
  )
  for (const [name, c] of [
    ['own trades', report.myTrades],
    ['fills', report.fills],
    ['transfers', report.transfers],
  ] as const) {
    lines.push(
      `${name.padEnd(14)}${pad(c.truth, 8)}${pad(c.delivered, 11)}${pad(c.lost, 6)}${pad(c.repeated, 10)}` +
        `${pad(c.outOfOrder, 14)}${pad(c.unexpected, 12)}${pad(c.mismatched, 12)}`,
    )
    for (const example of c.examples.slice(0, 5)) lines.push(`    ${example}`)
  }
  const p = report.publicTrades
  lines.push('')
  lines.push(
    `public trades, pool ${p.poolId}: ${p.delivered} delivered, ${p.matched} in place of ${p.verifiable} verifiable; ` +
      `lost ${p.lost}, repeated ${p.repeated}, unexpected ${p.unexpected}; ` +
      `gap events ${p.gaps} (${p.skippedInGaps} trades inside them${p.gaps > 0 ? `: ${p.skippedPerGap.join(', ')}` : ''}), ` +
      `unverifiable ${p.unverifiable}`,
  )
  lines.push('')
  lines.push(
    `${'book'.padEnd(26)}${pad('events', 8)}${pad('snapshots', 11)}${pad('resyncs', 9)}${pad('deltas', 8)}` +
      `${pad('equal', 8)}${pad('unequal', 9)}${pad('no served', 11)}${pad('seq errors', 12)}${pad('final', 7)}`,
  )
  for (const b of report.books) {
    lines.push(
      `${b.name.padEnd(26)}${pad(b.events, 8)}${pad(b.snapshots, 11)}${pad(b.resyncs, 9)}${pad(b.deltas, 8)}` +
        `${pad(b.equal, 8)}${pad(b.unequal, 9)}${pad(b.noServedBook, 11)}${pad(b.sequenceErrors, 12)}` +
        `${pad(b.finalEqual ? 'equal' : 'DIFF', 7)}`,
    )
    if (b.firstProblem !== undefined) lines.push(`    first problem: ${b.firstProblem}`)
  }
  lines.push(
    `books equal to the served book at every event: ${(report.bookEqualShare * 100).toFixed(2)} %`,
  )
  const o = report.orders
  lines.push(
    `order streams: ${o.placed} placed (${o.refused} refused), ${o.done} done, ${o.failed} failed, ` +
      `${o.notDone} not done, ${o.wrongStatus} wrong status, ${o.wrongFills} wrong fills, ` +
      `${o.unreconciled} unreconciled`,
  )
  for (const example of o.examples) lines.push(`  ${example}`)
  lines.push('')
  lines.push(unhandledText(report))
  for (const error of report.streamErrors) lines.push(`  ${error}`)
  lines.push('')
  lines.push(
    report.failures.length === 0
      ? 'result: OK'
      : `result: FAILED\n  ${report.failures.join('\n  ')}`,
  )
  return lines.join('\n')
}
