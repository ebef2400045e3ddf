/**
 * The whole public path of a poll, as a user runs it: `createVenue` → `watchOrderBook`,
 * fed by an undici dispatcher that answers from memory (no socket), with a scheduler that
 * starts each poll at once; against a bare loop over the same dispatcher and bodies
 * (`undici.request` + `body.text()` + `JSON.parse`), in the same run, at 10, 100, 1,000
 * and 5,000 levels a side.
 *
 *   npx tsx bench/stream-path.ts [--json]
 *
 * What the path costs beyond the bare loop: the request budget, identical-request
 * sharing, the REST client (envelope and schema validation, exact numbers), the poll
 * operator, retry wiring, health, the pacer, the shared stream, the diff against the
 * previous poll and the new `OrderBook`. Its part that does not grow with the book is
 * the difference at 10 levels (`fixed cost`). The venue is the package as a user imports
 * it: `dist/`, compiled by `tsc` first (as `npm install` does), not the sources through
 * tsx (whose helper around every function created adds about 14 µs a poll here). The
 * answers are those of a moving book (1% of the quantities change and 0.5% of the levels
 * move per poll), served in order and then back, so that consecutive polls always differ
 * by one step, each with a later server timestamp than the last (the book stream drops an
 * older one as stale). After a warm-up of at least 5 rounds and 1.5 s, rounds alternate
 * the two loops; the median per poll of each is kept. The workloads are in
 * bench/support/memory-venue.ts; bench/stream-path-ab.ts runs them on two builds.
 */

import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { request } from 'undici'
import { printTable, SUMMARY_ONLY, type Summary, summaryLine } from './support/measure.js'
import {
  balancesWorkload,
  benchVenueOptions,
  depthWorkload,
  type MemoryDispatcher,
  ORIGIN,
  tradesWorkload,
  type Workload,
} from './support/memory-venue.js'

// The package as built: compiled afresh, so that it is the sources of this checkout.
const root = fileURLToPath(new URL('..', import.meta.url))
execFileSync(
  process.execPath,
  [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
  { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
)
const { createVenue } = (await import(
  new URL('../dist/index.js', import.meta.url).href
)) as typeof import('../src/index.js')

const SIZES = [10, 100, 1_000, 5_000] as const
const ROUNDS = 9
/** Warm-up before the measured rounds: at least this many rounds and this long. */
const WARMUP_ROUNDS = 5
const WARMUP_MS = 1_500
/** Polls per round, fewer for larger books (each round takes about the same time). */
const pollsPerRound = (levels: number) => Math.max(50, Math.round(40_000 / (levels + 40)))
const TARGET_RATIO = 1.5
const TARGET_FIXED_US = 40

/** µs per request of the bare loop over `paths`: `request`, `body.text()`, `JSON.parse`. */
async function bareRound(dispatcher: MemoryDispatcher, paths: readonly string[]): Promise<number> {
  const started = performance.now()
  let sink = 0
  for (const path of paths) {
    const { body } = await request(`${ORIGIN}${path}`, { dispatcher })
    sink += (JSON.parse(await body.text()) as { code: number }).code
  }
  if (sink !== 0) console.log(sink)
  return ((performance.now() - started) * 1000) / paths.length
}

/**
 * µs per event of `workload`'s stream on a fresh venue, one poll after another: the time
 * from its first event to its `events + 1`th.
 */
function venueRound({ dispatcher, watch, events }: Workload): Promise<number> {
  const venue = createVenue(benchVenueOptions(dispatcher))
  return new Promise((resolve, reject) => {
    let seen = 0
    let started = 0
    const subscription = watch(venue).subscribe({
      next: () => {
        seen += 1
        // The first event (a fresh subscriber's snapshot or first item) starts the clock.
        if (seen === 1) started = performance.now()
        if (seen === events + 1) {
          const perEvent = ((performance.now() - started) * 1000) / events
          subscription.unsubscribe()
          void venue.close().then(() => resolve(perEvent), reject)
        }
      },
      error: reject,
    })
  })
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}

/** Medians of the bare loop and the stream, µs, after a warm-up of each, rounds alternating. */
async function compare(workload: Workload): Promise<{ bare: number; stream: number }> {
  const { dispatcher, paths, requestsPerEvent } = workload
  // Warm-up: rounds of both until the JIT has compiled the paths (the first rounds at 10
  // levels run several times slower than the later ones).
  const warming = performance.now()
  for (
    let round = 0;
    round < WARMUP_ROUNDS || performance.now() - warming < WARMUP_MS;
    round += 1
  ) {
    await bareRound(dispatcher, paths)
    await venueRound(workload)
  }
  const bare: number[] = []
  const stream: number[] = []
  for (let round = 0; round < ROUNDS; round += 1) {
    bare.push(await bareRound(dispatcher, paths))
    stream.push((await venueRound(workload)) / requestsPerEvent)
  }
  return { bare: median(bare), stream: median(stream) }
}

const rows: string[][] = [['stream', 'bare loop µs', 'stream µs', 'ratio']]
const summaries: Summary[] = []
const report = (name: string, bare: number, stream: number, what: string) => {
  rows.push([name, bare.toFixed(1), stream.toFixed(1), `${(stream / bare).toFixed(2)}x`])
  summaries.push({
    figure: `stream path: ${what}`,
    value: stream / bare,
    unit: 'x the bare undici loop',
    target: `<= ${TARGET_RATIO}x`,
    met: stream / bare <= TARGET_RATIO,
  })
}

// 1. Depth: watchOrderBook, one poll a book.
let fixedCost = Number.NaN
for (const levels of SIZES) {
  const { bare, stream } = await compare(depthWorkload(levels, pollsPerRound(levels)))
  if (levels === 10) fixedCost = stream - bare
  report(
    `watchOrderBook, ${levels} levels`,
    bare,
    stream,
    `watchOrderBook poll, ${levels} levels a side`,
  )
}

// 2. Balances: 20 coins, one of them changed at each poll.
{
  const { bare, stream } = await compare(balancesWorkload())
  report('watchBalances, 20 coins', bare, stream, 'watchBalances poll, 20 coins')
}

// 3. Own trades: a backfill of full pages of 100 (per page, not per trade).
{
  const { bare, stream } = await compare(tradesWorkload())
  report(
    'watchMyTrades, pages of 100',
    bare,
    stream,
    'watchMyTrades backfill, per page of 100 trades',
  )
}

summaries.push({
  figure:
    'stream path: fixed cost of the stream machinery per poll (10 levels, beyond the bare loop)',
  value: fixedCost,
  unit: 'µs',
  target: `< ${TARGET_FIXED_US} µs`,
  met: fixedCost < TARGET_FIXED_US,
})
if (SUMMARY_ONLY) {
  for (const summary of summaries) console.log(summaryLine(summary))
} else {
  console.log(
    `one poll (a page for own trades) after another, against request + body.text() + JSON.parse of the same answers; median of ${ROUNDS} rounds\n`,
  )
  printTable(rows)
  console.log(`\nfixed cost per poll (10 levels, beyond the bare loop): ${fixedCost.toFixed(1)} µs`)
}
