/**
 * The relay where a live fleet hurts it, each case against a real redis-server and the
 * simulator's ground truth: a reader that falls behind the trim point while it runs, Redis
 * losing its data under a live relay (FLUSHALL, a restart without persistence), two relays
 * with one relay id, a Redis that hangs (SIGSTOP), a full Redis, a wrong password. In
 * every case nothing is lost or repeated silently: a reader gets every item once or an
 * error that says why, and health says what is wrong.
 */
import { setImmediate as nextTurn } from 'node:timers/promises'
import { Redis } from 'ioredis'
import { type Observable, VirtualTimeScheduler } from 'rxjs'
import { describe, expect, it } from 'vitest'
import {
  applyBookEvent,
  type BookEvent,
  createVenue,
  type OrderBook,
  type TradeDetail,
  VenueRelayError,
} from '../src/index.js'
import { onCleanup } from './helpers/cleanups.js'
import { QUICK, relayFixture } from './helpers/relay-fixture.js'
import { count, recordRequests } from './helpers/simulator-venue.js'

const { redis: server, nextPrefix, simulator, relayOn, direct } = relayFixture('f')

/** Resolves when `condition` (async) holds, checked every 10 ms, within `ms`. */
async function until(condition: () => Promise<boolean>, what: string, ms = 10_000) {
  const deadline = Date.now() + ms
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** An admin connection to the file's Redis, closed after the test. */
function admin(): Redis {
  const client = new Redis(server().url)
  onCleanup(() => client.disconnect())
  return client
}

/** Collects the values and the error of `stream` for the rest of the test. */
function watch<T>(stream: Observable<T>) {
  const seen: { values: T[]; error: unknown } = { values: [], error: undefined }
  const subscription = stream.subscribe({
    next: (value) => seen.values.push(value),
    error: (error: unknown) => {
      seen.error = error
    },
  })
  onCleanup(() => subscription.unsubscribe())
  return seen
}

describe('relay faults', () => {
  it('a reader that falls behind the trim point while it runs: a feed fails with the documented error, a book resyncs to the served one', {
    timeout: 60_000,
  }, async () => {
    const sim = await simulator(50)
    const hits = recordRequests(sim)
    const prefix = nextPrefix()
    await relayOn(sim, prefix, ['my-trades', 'depth:0'], { maxLen: 100 })
    // The reader runs on a clock the test holds: while it is held, the reader is paused.
    const scheduler = new VirtualTimeScheduler(undefined, 0)
    const venue = createVenue({
      baseUrl: sim.url,
      apiKey: sim.apiKey,
      ...QUICK,
      scheduler,
      relay: { redis: server().url, prefix },
    })
    onCleanup(() => venue.close())
    const run = async (ms: number) => {
      const to = scheduler.now() + ms
      while (scheduler.now() < to) {
        for (let i = 0; i < 3; i += 1) await nextTurn()
        scheduler.maxFrames = scheduler.frame + 20
        scheduler.flush()
        scheduler.frame = scheduler.maxFrames
      }
    }
    const account = () => sim.market.account(sim.apiKey)?.trades() ?? []
    const trades = watch<TradeDetail>(venue.watchMyTrades({ cursor: account().at(-1)?.global_seq }))
    const events = watch<BookEvent>(venue.watchDepth(0))
    let book: OrderBook | undefined
    const books = watch(venue.watchOrderBook(0))
    // Both have joined the relay's tails: the book is there, the feed is at its end.
    const redis = admin()
    for (let i = 0; i < 200 && books.values.length === 0; i += 1) await run(100)
    expect(books.values.length).toBeGreaterThan(0)
    await run(500)
    const joined = events.values.length
    const [tradeStream] = await redis.keys(`${prefix}:*my-trades}:stream`)
    expect(tradeStream).toBeDefined()
    const before = account().length
    // Paused, while the market moves on: far more than the relay keeps is published. The
    // account trades (the relay backfills them at once), then the book, a tick at a time:
    // each tick waits for the relay's next depth poll, so that its book is published.
    const cursor = BigInt(String(account().at(-1)?.global_seq))
    sim.advance(800)
    expect(account().length).toBeGreaterThan(before + 120)
    const lastSeq = String(account().at(-1)?.global_seq)
    const floorOf = async (stream: string | undefined) =>
      redis.get(String(stream).replace(/:stream$/, ':floor'))
    await until(async () => {
      const newest = await redis.xrevrange(tradeStream as string, '+', '-', 'COUNT', 1)
      const floor = await floorOf(tradeStream)
      return (
        newest[0]?.[0] === `${lastSeq}-0` &&
        floor !== null &&
        BigInt(floor.split('-')[0] ?? 0) > cursor
      )
    }, 'the relay to publish and trim the trades past the paused reader')
    const [depthStream] = await redis.keys(`${prefix}:*depth:0}:stream`)
    for (let tick = 0; tick < 400 && (await floorOf(depthStream)) === null; tick += 1) {
      const polled = count(hits, '/api/v1/depth/v2')
      sim.advance(1)
      await until(async () => count(hits, '/api/v1/depth/v2') > polled, 'a poll of the relay')
    }
    expect(await floorOf(depthStream)).not.toBeNull()
    // Resumed: the feed says it lost its place, with the documented error, and delivered
    // nothing after the trim point.
    for (let i = 0; i < 100 && trades.error === undefined; i += 1) await run(100)
    expect(trades.error).toBeInstanceOf(VenueRelayError)
    expect(trades.error).toMatchObject({ retryable: false })
    expect(String((trades.error as Error).message)).toMatch(
      /no longer holds the items after the cursor/,
    )
    expect(trades.values).toEqual([])
    // The book resynced from the stored snapshot: a snapshot after the pause, and the book
    // is the one the venue serves now.
    const served = await direct(sim).rest.depth({ poolId: 0 })
    for (let i = 0; i < 100; i += 1) {
      book = books.values.at(-1)
      if (JSON.stringify(book?.bids) === JSON.stringify(served.bids)) break
      await run(100)
    }
    expect(books.error).toBeUndefined()
    expect(events.values.slice(joined).some((event) => event.type === 'snapshot')).toBe(true)
    expect(book?.bids).toEqual(served.bids)
    expect(book?.asks).toEqual(served.asks)
    // Every event after the resync applies to the book before it.
    let folded: OrderBook | undefined
    for (const event of events.values) folded = applyBookEvent(folded, event)
    expect(folded?.bids).toEqual(served.bids)
  })
})
