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
 * tsx (whose helper around every function created adds about 14 µs a poll here). The answers are those of a moving book (1%
 * of the quantities change and 0.5% of the levels move per poll), served in order and
 * then back, so that consecutive polls always differ by one step. Rounds alternate the
 * two loops; the median per poll of each is kept.
 */

import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import {
  type SchedulerAction,
  type SchedulerLike,
  Subscription as Sub,
  type Subscription,
} from 'rxjs'
import { Dispatcher, request } from 'undici'
import { depthAnswers } from './support/depth-answers.js'
import { printTable, SUMMARY_ONLY, type Summary, summaryLine } from './support/measure.js'

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
/** Distinct answers per size, served 0..N-1 then back down. */
const ANSWERS = 32
const ROUNDS = 7
/** Polls per round, fewer for larger books (each round takes about the same time). */
const pollsPerRound = (levels: number) => Math.max(50, Math.round(40_000 / (levels + 40)))
const TARGET_RATIO = 1.5
const TARGET_FIXED_US = 40
const ORIGIN = 'http://venue.bench'

/** An undici dispatcher that answers every request with the next body, from memory. */
class MemoryDispatcher extends Dispatcher {
  #bodies: readonly Buffer[] = []
  #next = 0
  requests = 0

  serve(bodies: readonly Buffer[]): void {
    // Up, then back down: 0 1 .. n-1 n-2 .. 1, so that each answer is one step from the last.
    this.#bodies = [...bodies, ...bodies.slice(1, -1).reverse()]
    this.#next = 0
  }

  override dispatch(
    _options: Dispatcher.DispatchOptions,
    handler: Dispatcher.DispatchHandler,
  ): boolean {
    const body = this.#bodies[this.#next] as Buffer
    this.#next = (this.#next + 1) % this.#bodies.length
    this.requests += 1
    queueMicrotask(() => answer(handler, body))
    return true
  }
}

/** Delivers `body` as a 200 answer to a handler of either of undici's handler interfaces. */
function answer(handler: Dispatcher.DispatchHandler, body: Buffer): void {
  const length = String(body.length)
  const h = handler as Record<string, ((...args: unknown[]) => unknown) | undefined>
  if (typeof h['onRequestStart'] === 'function') {
    const controller = {
      aborted: false,
      paused: false,
      reason: null,
      abort() {},
      pause() {},
      resume() {},
    }
    h['onRequestStart']?.call(handler, controller, {})
    h['onResponseStart']?.call(
      handler,
      controller,
      200,
      { 'content-type': 'application/json', 'content-length': length },
      'OK',
    )
    h['onResponseData']?.call(handler, controller, body)
    h['onResponseEnd']?.call(handler, controller, {})
    return
  }
  h['onConnect']?.call(handler, () => {})
  h['onHeaders']?.call(
    handler,
    200,
    [
      Buffer.from('content-type'),
      Buffer.from('application/json'),
      Buffer.from('content-length'),
      Buffer.from(length),
    ],
    () => {},
    'OK',
  )
  h['onData']?.call(handler, body)
  h['onComplete']?.call(handler, [])
}

/**
 * An rxjs scheduler that runs every action on the next turn of the event loop, whatever
 * its delay: polls (and the budget's waits) come back to back.
 */
const immediate: SchedulerLike = {
  now: () => performance.now(),
  schedule<T>(
    work: (this: SchedulerAction<T>, state?: T) => void,
    _delay?: number,
    state?: T,
  ): Subscription {
    const subscription = new Sub()
    const action = Object.assign(subscription, {
      schedule(next?: T): Subscription {
        return immediate.schedule(work, 0, next)
      },
    }) as unknown as SchedulerAction<T>
    const handle = setImmediate(() => {
      if (!subscription.closed) work.call(action, state)
    })
    subscription.add(() => clearImmediate(handle))
    return subscription
  },
}

/** µs per poll of the bare loop: `request`, `body.text()`, `JSON.parse`. */
async function bareRound(dispatcher: MemoryDispatcher, polls: number): Promise<number> {
  const started = performance.now()
  let sink = 0
  for (let n = 0; n < polls; n += 1) {
    const { body } = await request(`${ORIGIN}/api/v1/depth/v2?pool_id=0`, { dispatcher })
    sink += (JSON.parse(await body.text()) as { data: { bids: unknown[] } }).data.bids.length
  }
  if (sink < 0) console.log(sink)
  return ((performance.now() - started) * 1000) / polls
}

/** µs per poll of `watchOrderBook` on a venue over `dispatcher`, polls back to back. */
function venueRound(dispatcher: MemoryDispatcher, polls: number): Promise<number> {
  const venue = createVenue({
    baseUrl: ORIGIN,
    dispatcher,
    scheduler: immediate,
    maxRequestsPerSecond: 1_000_000,
    pacing: 'interval',
    pollIntervalMs: 1,
    lingerMs: 1,
  })
  return new Promise((resolve, reject) => {
    let books = 0
    let started = 0
    const subscription = venue.watchOrderBook(0).subscribe({
      next: () => {
        books += 1
        // The first book (a snapshot of a fresh subscriber) is left out.
        if (books === 1) started = performance.now()
        if (books === polls + 1) {
          const perPoll = ((performance.now() - started) * 1000) / polls
          subscription.unsubscribe()
          void venue.close().then(() => resolve(perPoll), reject)
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

const rows: string[][] = [['levels a side', 'bare loop µs', 'watchOrderBook µs', 'ratio']]
const summaries: Summary[] = []
let fixedCost = Number.NaN
for (const levels of SIZES) {
  const dispatcher = new MemoryDispatcher()
  dispatcher.serve(depthAnswers(levels, ANSWERS).map((text) => Buffer.from(text)))
  const polls = pollsPerRound(levels)
  // Warm-up of both, then rounds in turn.
  await bareRound(dispatcher, polls)
  await venueRound(dispatcher, polls)
  const bare: number[] = []
  const venue: number[] = []
  for (let round = 0; round < ROUNDS; round += 1) {
    bare.push(await bareRound(dispatcher, polls))
    venue.push(await venueRound(dispatcher, polls))
  }
  const b = median(bare)
  const v = median(venue)
  if (levels === 10) fixedCost = v - b
  rows.push([String(levels), b.toFixed(1), v.toFixed(1), `${(v / b).toFixed(2)}x`])
  summaries.push({
    figure: `stream path: watchOrderBook poll, ${levels} levels a side`,
    value: v / b,
    unit: 'x the bare undici loop',
    target: `<= ${TARGET_RATIO}x`,
    met: v / b <= TARGET_RATIO,
  })
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
    `watchOrderBook, one poll after another, against request + body.text() + JSON.parse; median of ${ROUNDS} rounds\n`,
  )
  printTable(rows)
  console.log(`\nfixed cost per poll (10 levels, beyond the bare loop): ${fixedCost.toFixed(1)} µs`)
}
