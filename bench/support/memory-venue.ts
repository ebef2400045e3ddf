/**
 * The workloads of bench/stream-path.ts and bench/stream-path-ab.ts: an undici dispatcher
 * that answers from memory (no socket), a scheduler that starts each poll at once, and the
 * answers of a moving book, of balances and of own-trade pages.
 */
import { performance } from 'node:perf_hooks'
import {
  type Observable,
  type SchedulerAction,
  type SchedulerLike,
  Subscription as Sub,
  type Subscription,
} from 'rxjs'
import { Dispatcher } from 'undici'
import type { createVenue } from '../../src/index.js'
import { balance, tradeDetail } from '../../test/helpers/fixtures.js'
import { depthAnswers } from './depth-answers.js'

export const ORIGIN = 'http://venue.bench'
/** Distinct answers per workload, served 0..N-1 then back down. */
const ANSWERS = 32

type Venue = ReturnType<typeof createVenue>

/**
 * An undici dispatcher that answers from memory: `answerOf(path)` gives each body, as one
 * or more chunks (a body of some size comes in several over a socket too).
 */
export class MemoryDispatcher extends Dispatcher {
  #answerOf: (path: string) => readonly Buffer[] = () => [Buffer.from('{}')]

  /** Answers every request with the next of `bodies`: up, then back down, and again. */
  serve(bodies: readonly Buffer[]): void {
    const next = upAndDown(bodies)
    this.#answerOf = () => [next()]
  }

  /**
   * Serves the depth answers `texts` as {@link serve} does, each with a server timestamp
   * later than the last one served, as a venue's answers are: a book stream drops an
   * answer older than the last. The timestamp, the last member, is the middle one of three
   * chunks.
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
export const immediate: SchedulerLike = {
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

/** The options of a bench venue over `dispatcher`: polls back to back, no budget to wait for. */
export function benchVenueOptions(dispatcher: MemoryDispatcher) {
  return {
    baseUrl: ORIGIN,
    apiKey: 'k-bench',
    dispatcher,
    scheduler: immediate,
    maxRequestsPerSecond: 1_000_000,
    pacing: 'interval',
    pollIntervalMs: 1,
    lingerMs: 1,
    settleMs: 0,
  } as const
}

/** One stream over its answers, and the bare loop's requests for the same answers. */
export interface Workload {
  readonly dispatcher: MemoryDispatcher
  /** The bare loop's requests of a round. */
  readonly paths: readonly string[]
  readonly watch: (venue: Venue) => Observable<unknown>
  /** Events of a round. */
  readonly events: number
  /** Requests per event (pages of 100 trades: 1/100). */
  readonly requestsPerEvent: number
}

/** `watchOrderBook` of a moving book of `levels` levels a side, `polls` polls a round. */
export function depthWorkload(levels: number, polls: number): Workload {
  const dispatcher = new MemoryDispatcher()
  dispatcher.serveDepth(depthAnswers(levels, ANSWERS))
  return {
    dispatcher,
    paths: Array.from({ length: polls }, () => '/api/v1/depth/v2?pool_id=0'),
    watch: (venue) => venue.watchOrderBook(0),
    events: polls,
    requestsPerEvent: 1,
  }
}

/** `watchBalances` of 20 coins, one of them changed at each poll; 800 polls a round. */
export function balancesWorkload(): Workload {
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
  return {
    dispatcher,
    paths: Array.from({ length: polls }, () => '/api/v1/balances'),
    watch: (venue) => venue.watchBalances(),
    events: polls,
    requestsPerEvent: 1,
  }
}

/**
 * A `watchMyTrades` backfill of 60 full pages of 100 trades: every trade after the first,
 * counted per page.
 */
export function tradesWorkload(): Workload {
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
  return {
    dispatcher,
    paths: Array.from(
      { length: PAGES },
      (_, page) => `/api/v1/trades?global_seq=${page * 100}&sort=asc&limit=100`,
    ),
    watch: (venue) => venue.watchMyTrades({ cursor: '0' }),
    events: PAGES * 100 - 1,
    requestsPerEvent: 1 / 100,
  }
}
