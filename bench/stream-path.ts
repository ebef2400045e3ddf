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
 * by one step, each with a later server timestamp than the last (an older one is dropped
 * by the book stream: an earlier version of this bench served the way back with the old
 * timestamps, and a third of the stream's polls were dropped as stale). After a warm-up of
 * at least 5 rounds and 1.5 s, rounds alternate the two loops; the median per poll of
 * each is kept.
 */

import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import {
  type Observable,
  type SchedulerAction,
  type SchedulerLike,
  Subscription as Sub,
  type Subscription,
} from 'rxjs'
import { Dispatcher, request } from 'undici'
import { balance, tradeDetail } from '../test/helpers/fixtures.js'
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
const ROUNDS = 9
/** Warm-up before the measured rounds: at least this many rounds and this long. */
const WARMUP_ROUNDS = 5
const WARMUP_MS = 1_500
/** Polls per round, fewer for larger books (each round takes about the same time). */
const pollsPerRound = (levels: number) => Math.max(50, Math.round(40_000 / (levels + 40)))
const TARGET_RATIO = 1.5
const TARGET_FIXED_US = 40
const ORIGIN = 'http://venue.bench'

/**
 * An undici dispatcher that answers from memory: `answerOf(path)` gives each body, as one
 * or more chunks (a body of some size comes in several over a socket too).
 */
class MemoryDispatcher extends Dispatcher {
  #answerOf: (path: string) => readonly Buffer[] = () => [Buffer.from('{}')]

  /** Answers every request with the next of `bodies`: up, then back down, and again. */
  serve(bodies: readonly Buffer[]): void {
    const next = upAndDown(bodies)
    this.#answerOf = () => [next()]
  }

  /**
   * Serves the depth answers `texts` as {@link serve} does, each with a server timestamp
   * later than the last one served, as a venue's answers are: a book stream drops an
   * answer older than the last (so answers served back down as they were would be, and
   * poll for nothing). The timestamp, the last member, is the middle one of three chunks.
   */
  serveDepth(texts: readonly string[]): void {
    const next = upAndDown(
      texts.map((text) => {
        const at = text.lastIndexOf('"timestamp":') + '"timestamp":'.length
        const end = text.indexOf('}', at)
        return [Buffer.from(text.slice(0, at)), Buffer.from(text.slice(end))] as const
      }),
    )
    let timestamp = 1_700_000_000_000
    this.#answerOf = () => {
      const [head, tail] = next()
      timestamp += 1000
      return [head, Buffer.from(String(timestamp)), tail]
    }
  }

  /** Answers each request with what `answerOf` makes of its path. */
  answerBy(answerOf: (path: string) => Buffer): void {
    this.#answerOf = (path) => [answerOf(path)]
  }

  override dispatch(
    options: Dispatcher.DispatchOptions,
    handler: Dispatcher.DispatchHandler,
  ): boolean {
    const chunks = this.#answerOf(options.path)
    queueMicrotask(() => answer(handler, chunks))
    return true
  }
}

/** The items of `items` one per call: 0 1 .. n-1 n-2 .. 1 and again, each one step from the last. */
function upAndDown<T>(items: readonly T[]): () => T {
  const cycle = [...items, ...items.slice(1, -1).reverse()]
  let next = 0
  return () => {
    const item = cycle[next] as T
    next = (next + 1) % cycle.length
    return item
  }
}

/** Delivers `chunks` as a 200 answer to a handler of either of undici's handler interfaces. */
function answer(handler: Dispatcher.DispatchHandler, chunks: readonly Buffer[]): void {
  const length = String(chunks.reduce((sum, chunk) => sum + chunk.length, 0))
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
    for (const chunk of chunks) h['onResponseData']?.call(handler, controller, chunk)
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
  for (const chunk of chunks) h['onData']?.call(handler, chunk)
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
 * µs per event of a stream of a fresh venue over `dispatcher`, one poll after another:
 * the time from its first event to its `events + 1`th.
 */
function venueRound(
  dispatcher: MemoryDispatcher,
  watch: (venue: ReturnType<typeof createVenue>) => Observable<unknown>,
  events: number,
): Promise<number> {
  const venue = createVenue({
    baseUrl: ORIGIN,
    apiKey: 'k-bench',
    dispatcher,
    scheduler: immediate,
    maxRequestsPerSecond: 1_000_000,
    pacing: 'interval',
    pollIntervalMs: 1,
    lingerMs: 1,
    settleMs: 0,
  })
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
async function compare(
  dispatcher: MemoryDispatcher,
  paths: readonly string[],
  watch: (venue: ReturnType<typeof createVenue>) => Observable<unknown>,
  events: number,
  /** Requests per stream event (pages of 100 trades: 1/100). */
  requestsPerEvent = 1,
): Promise<{ bare: number; stream: number }> {
  // Warm-up: rounds of both until the JIT has compiled the paths (the first rounds at 10
  // levels run several times slower than the later ones; a single warm-up round left the
  // medians of an earlier version of this bench measuring the warm-up).
  const warming = performance.now()
  for (
    let round = 0;
    round < WARMUP_ROUNDS || performance.now() - warming < WARMUP_MS;
    round += 1
  ) {
    await bareRound(dispatcher, paths)
    await venueRound(dispatcher, watch, events)
  }
  const bare: number[] = []
  const stream: number[] = []
  for (let round = 0; round < ROUNDS; round += 1) {
    bare.push(await bareRound(dispatcher, paths))
    stream.push((await venueRound(dispatcher, watch, events)) / requestsPerEvent)
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
  const dispatcher = new MemoryDispatcher()
  dispatcher.serveDepth(depthAnswers(levels, ANSWERS))
  const polls = pollsPerRound(levels)
  const paths = Array.from({ length: polls }, () => '/api/v1/depth/v2?pool_id=0')
  const { bare, stream } = await compare(dispatcher, paths, (v) => v.watchOrderBook(0), polls)
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
  const coins = Array.from({ length: 20 }, (_, i) => ({
    ...balance,
    coin: `coin${i}.ext-C${i}`,
    balance: `${1000 + i}.25`,
  }))
  const bodies = Array.from({ length: ANSWERS }, (_, n) => {
    const data = coins.map((coin, i) =>
      i === n % coins.length ? { ...coin, balance: `${2000 + n}.5` } : coin,
    )
    return Buffer.from(JSON.stringify({ code: 0, message: 'OK', data }))
  })
  const dispatcher = new MemoryDispatcher()
  dispatcher.serve(bodies)
  const polls = 800
  const paths = Array.from({ length: polls }, () => '/api/v1/balances')
  const { bare, stream } = await compare(dispatcher, paths, (v) => v.watchBalances(), polls)
  report('watchBalances, 20 coins', bare, stream, 'watchBalances poll, 20 coins')
}

// 3. Own trades: a backfill of full pages of 100 (per page, not per trade).
{
  const PAGES = 60
  const trades = Array.from({ length: PAGES * 100 }, (_, i) => ({
    ...tradeDetail,
    global_seq: i + 1,
    timestamp: tradeDetail.timestamp + i * 1000,
  }))
  const pageAfter = new Map<number, Buffer>()
  for (let after = 0; after <= trades.length; after += 100) {
    const data = trades.slice(after, after + 100)
    pageAfter.set(after, Buffer.from(JSON.stringify({ code: 0, message: 'OK', data })))
  }
  const newest = Buffer.from(JSON.stringify({ code: 0, message: 'OK', data: trades.slice(-1) }))
  const empty = Buffer.from(JSON.stringify({ code: 0, message: 'OK', data: [] }))
  const dispatcher = new MemoryDispatcher()
  dispatcher.answerBy((path) => {
    const query = new URLSearchParams(path.split('?')[1] ?? '')
    if (query.get('sort') === 'desc') return newest
    return pageAfter.get(Number(query.get('global_seq') ?? 0)) ?? empty
  })
  const paths = Array.from(
    { length: PAGES },
    (_, page) => `/api/v1/trades?global_seq=${page * 100}&sort=asc&limit=100`,
  )
  // Every trade after the first, through the feed, counted per page of 100.
  const { bare, stream } = await compare(
    dispatcher,
    paths,
    (v) => v.watchMyTrades({ cursor: '0' }),
    PAGES * 100 - 1,
    1 / 100,
  )
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
