import type { Subscription } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import type { BookEvent, BookLevel, OrderBook } from '../src/index.js'
import { applyBookEvent, createVenue } from '../src/index.js'
import type { Simulator, Source } from '../src/simulator/index.js'
import { startSimulator } from '../src/simulator/index.js'

/**
 * The BookEvent law under faults, end to end: the simulator's market moves only when this
 * test advances it (manual clock, on a timer), and every served book is recorded right after
 * each advance, keyed by its timestamp (start + ticks × tickMs identifies the tick). Each
 * event's timestamp then names the book the simulator served at that poll.
 */

const POOL = 0
const TICK_MS = 100
const ADVANCE_EVERY_MS = 12
/** Polls per stream, counted at the simulator. */
const MIN_POLLS = 350
/** How long the polls may take, real time; the test's own limit is above it. */
const POLLS_WITHIN_MS = 45_000

interface Stream {
  readonly name: string
  /** The route the stream polls. */
  readonly path: string
  readonly source: Source
  readonly limit: number
  readonly precision: string
}

const STREAMS: readonly Stream[] = [
  {
    name: 'v2, 20 levels, the pool tick',
    path: '/api/v1/depth/v2',
    source: 'v2',
    limit: 20,
    precision: '0.0001',
  },
  {
    name: 'v1, 6 levels, grouped by 0.001',
    path: '/api/v1/depth',
    source: 'v1',
    limit: 6,
    precision: '0.001',
  },
]

const cleanups: (() => Promise<void> | void)[] = []

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

interface Served {
  readonly bids: readonly BookLevel[]
  readonly asks: readonly BookLevel[]
}

function record(sim: Simulator, stream: Stream, books: Map<number, Served>): void {
  const depth = sim.market.depth(POOL, stream.source, stream.limit, stream.precision)
  if (depth === undefined) throw new Error(`no pool ${POOL}`)
  books.set(depth.timestamp, { bids: depth.bids, asks: depth.asks })
}

const text = ({ bids, asks }: Served) => JSON.stringify({ bids, asks })

describe('watchDepth under faults, against the simulator', () => {
  it(`rebuilds at every event the book served at that poll, over ${MIN_POLLS}+ polls a stream`, {
    timeout: POLLS_WITHIN_MS + 15_000,
  }, async () => {
    const sim = await startSimulator({
      seed: 5,
      faultSeed: 99,
      clock: 'manual',
      tickMs: TICK_MS,
      faults: { errorRate: 0.2, resetRate: 0.05, truncateRate: 0.05 },
    })
    cleanups.push(() => sim.close())
    // The fault controller decides once per request: wrapping it counts requests per route.
    const polls = new Map<string, number>()
    const decide = sim.faults.decide.bind(sim.faults)
    sim.faults.decide = (pathname: string) => {
      polls.set(pathname, (polls.get(pathname) ?? 0) + 1)
      return decide(pathname)
    }
    const fewestPolls = () => Math.min(...STREAMS.map((stream) => polls.get(stream.path) ?? 0))
    const venue = createVenue({
      baseUrl: sim.url,
      pollIntervalMs: 5,
      lingerMs: 10,
      requestTimeoutMs: 2_000,
      maxRequestsPerSecond: 100_000,
      backoff: { initialMs: 1, maxMs: 10 },
    })
    cleanups.push(() => venue.close())

    const served = STREAMS.map(() => new Map<number, Served>())
    const capture = () => {
      STREAMS.forEach((stream, k) => {
        record(sim, stream, served[k] as Map<number, Served>)
      })
    }
    capture()
    const events = STREAMS.map((): BookEvent[] => [])
    const errors: unknown[] = []
    const subscriptions: Subscription[] = STREAMS.map((stream, k) =>
      venue
        .watchDepth(POOL, {
          limit: stream.limit,
          precision: stream.precision,
          source: stream.source,
        })
        .subscribe({
          next: (event) => events[k]?.push(event),
          error: (error: unknown) => errors.push(error),
        }),
    )
    cleanups.push(() => {
      for (const subscription of subscriptions) subscription.unsubscribe()
    })

    // Advance the market on a timer, recording what each stream's query serves after each tick.
    await new Promise<void>((resolve, reject) => {
      const started = performance.now()
      const interval = setInterval(() => {
        if (errors.length > 0) {
          clearInterval(interval)
          reject(errors[0])
          return
        }
        if (fewestPolls() >= MIN_POLLS) {
          clearInterval(interval)
          resolve()
          return
        }
        // Generous: the polls take as long as a busy machine makes them.
        if (performance.now() - started > POLLS_WITHIN_MS) {
          clearInterval(interval)
          reject(new Error(`only ${fewestPolls()} polls of a stream in ${POLLS_WITHIN_MS} ms`))
          return
        }
        sim.advance(1)
        capture()
      }, ADVANCE_EVERY_MS)
    })
    for (const subscription of subscriptions) subscription.unsubscribe()

    const stats = sim.faults.stats()
    expect(stats.requests).toBeGreaterThanOrEqual(MIN_POLLS * STREAMS.length)
    expect(stats.error + stats.reset + stats.truncate).toBeGreaterThan(MIN_POLLS / 5)

    STREAMS.forEach((stream, k) => {
      const list = events[k] as BookEvent[]
      const books = served[k] as Map<number, Served>
      let book: OrderBook | undefined
      let previous: Served | undefined
      const kinds = { delta: 0, resync: 0 }
      list.forEach((event, n) => {
        const where = `${stream.name}, event ${n} (seq ${event.seq}, ${event.type})`
        const truth = books.get(event.timestamp)
        if (truth === undefined) expect.fail(`${where}: no book was served at ${event.timestamp}`)
        expect(event.seq, where).toBe(n + 1)
        if (n === 0) expect(event, where).toMatchObject({ type: 'snapshot', reason: 'initial' })
        if (event.type === 'delta') {
          kinds.delta += 1
          expect(event.prevSeq, where).toBe(event.seq - 1)
          // A delta only when the book changed.
          expect(text(truth), `${where}: a delta of an unchanged book`).not.toBe(
            text(previous as Served),
          )
        } else if (event.reason === 'resync') {
          kinds.resync += 1
        }
        book = applyBookEvent(book, event)
        // The venue's text is passed on as is, so the rebuilt book equals it exactly.
        expect(book.bids, `${where}: bids`).toEqual(truth.bids)
        expect(book.asks, `${where}: asks`).toEqual(truth.asks)
        previous = truth
      })
      expect(kinds.delta, `${stream.name}: deltas`).toBeGreaterThan(20)
      expect(kinds.resync, `${stream.name}: resyncs after faults`).toBeGreaterThan(0)
    })
  })
})
