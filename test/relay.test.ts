/**
 * The relay against a real redis-server and the simulator, in this process: one relay
 * polls and publishes, consumer venues read through `createVenue({ relay })` with no
 * request of their own to the venue; feeds deliver each item once and resume from a
 * checkpoint; a late book reader starts from a snapshot and its book equals the served
 * one; a second relay stands by and takes over when the first stops; Redis restarting
 * shows as `retrying` and heals; the shared budget holds two venues to one limit.
 */
import { filter, firstValueFrom, type Observable, take, takeWhile, toArray } from 'rxjs'
import { describe, expect, it, vi } from 'vitest'
import {
  applyBookEvent,
  type BookEvent,
  createVenue,
  memoryCheckpoint,
  type OrderBook,
  VenueInputError,
  VenueRelayError,
} from '../src/index.js'
import { RedisConnection } from '../src/redis/redis-connection.js'
import { startRelay } from '../src/relay.js'
import { runCleanUpRecipe } from './helpers/clean-up-recipe.js'
import { onCleanup } from './helpers/cleanups.js'
import { newestCursor } from './helpers/positions.js'
import { startRedisServer } from './helpers/redis-server.js'
import { healthOf, QUICK, relayFixture } from './helpers/relay-fixture.js'
import { recordRequests } from './helpers/simulator-venue.js'
import { WAIT_MS, waitFor, waitForAsync } from './helpers/wait-for.js'

const { redis: server, nextPrefix, simulator, relayOn, consumer, direct } = relayFixture('t')

/** The first `n` values of `stream`. */
const first = <T>(stream: Observable<T>, n: number) =>
  firstValueFrom(stream.pipe(take(n), toArray()))

describe('relay: one poller, consumers read from Redis', () => {
  it('feeds every own trade once, in order, and resumes a consumer from its checkpoint', async () => {
    const sim = await simulator(400)
    const prefix = nextPrefix()
    const truth = () => sim.market.account(sim.apiKey)?.trades() ?? []
    const before = truth().length
    expect(before).toBeGreaterThan(20)
    await relayOn(sim, prefix, ['my-trades'])
    const venue = consumer(sim, prefix)
    const checkpoint = memoryCheckpoint<string>()
    const half = Math.floor(before / 2)
    const firstHalf = await first(venue.watchMyTrades({ checkpoint }), half)
    expect(firstHalf.map((t) => t.global_seq)).toEqual(
      truth()
        .slice(0, half)
        .map((t) => String(t.global_seq)),
    )
    expect(newestCursor(await checkpoint.load())).toBe(firstHalf.at(-1)?.global_seq)
    // The market moves on; the consumer comes back with its checkpoint.
    sim.advance(200)
    const all = truth()
    const rest = await first(venue.watchMyTrades({ checkpoint }), all.length - half)
    expect([...firstHalf, ...rest].map((t) => t.global_seq)).toEqual(
      all.map((t) => String(t.global_seq)),
    )
  })

  it("docs/relay.md's clean-up recipe removes one fleet's keys from a single Redis, and only those", async () => {
    const sim = await simulator(50)
    const [gone, kept] = [nextPrefix(), nextPrefix()]
    const relays = await Promise.all(
      [gone, kept].map((prefix) => relayOn(sim, prefix, ['my-trades', 'depth:0'])),
    )
    const { Redis } = await import('ioredis')
    const admin = new Redis(server().url)
    onCleanup(() => admin.disconnect())
    const keysOf = (prefix: string) => admin.keys(`${prefix}:*`)
    const published = async (prefix: string) =>
      (await keysOf(prefix)).filter((key) => key.endsWith(':stream')).length === 2
    await waitForAsync(
      async () => (await published(gone)) && (await published(kept)),
      "both fleets' streams published",
    )
    await Promise.all(relays.map((relay) => relay.close()))
    const others = await keysOf(kept)
    expect(others.length).toBeGreaterThan(0)
    await runCleanUpRecipe([`127.0.0.1:${server().port}`], gone)
    expect(await keysOf(gone)).toEqual([])
    expect((await keysOf(kept)).sort()).toEqual(others.sort())
  })

  it('gives a late book reader a snapshot first; its book is the served one at every event', async () => {
    const sim = await simulator(50)
    const prefix = nextPrefix()
    await relayOn(sim, prefix, ['depth:0'])
    const early = consumer(sim, prefix)
    const seen: BookEvent[] = []
    const subscription = early.watchDepth(0).subscribe((event) => seen.push(event))
    onCleanup(() => subscription.unsubscribe())
    await waitFor(() => seen.length >= 1, 'the first book event')
    for (let i = 0; i < 5; i += 1) {
      sim.advance(10)
      const count = seen.length
      await waitFor(() => seen.length > count, 'a book event after the market moved')
    }
    // A reader joining now starts from a snapshot, and reaches the same book.
    const lastSeq = seen.at(-1)?.seq ?? 0
    const late = await firstValueFrom(
      consumer(sim, prefix)
        .watchDepth(0)
        .pipe(
          takeWhile((event) => event.seq < lastSeq, true),
          toArray(),
        ),
    )
    expect(late[0]?.type).toBe('snapshot')
    const lateBook = late.reduce<OrderBook | undefined>(applyBookEvent, undefined)
    // The early reader's events link, and fold into the book the venue serves.
    let book: OrderBook | undefined
    for (const event of seen) {
      if (event.type === 'delta') expect(event.prevSeq).toBe(book?.seq)
      book = applyBookEvent(book, event)
    }
    const served = await direct(sim).rest.depth({ poolId: 0 })
    expect(book?.bids).toEqual(served.bids)
    expect(book?.asks).toEqual(served.asks)
    expect(lateBook?.seq).toBe(book?.seq)
    expect(lateBook?.bids).toEqual(book?.bids)
    expect(lateBook?.asks).toEqual(book?.asks)
  })

  it('reports retrying while Redis is unreachable, and delivers once it is up', async () => {
    const sim = await simulator(20)
    const prefix = nextPrefix()
    const later = await startRedisServer()
    onCleanup(() => later.close())
    await later.stop()
    const venue = createVenue({
      baseUrl: sim.url,
      ...QUICK,
      relay: { redis: later.url, prefix },
    })
    onCleanup(() => venue.close())
    const values: unknown[] = []
    const subscription = venue.watchPools().subscribe((pools) => values.push(pools))
    onCleanup(() => subscription.unsubscribe())
    const retrying = await firstValueFrom(
      venue.health.pipe(filter((report) => report['relay pools']?.state === 'retrying')),
    )
    expect(retrying['relay pools']).toMatchObject({ lastErrorCode: 'VENUE_RELAY' })
    // The credentials-free address only.
    expect(JSON.stringify(retrying)).not.toContain('redis://')
    await later.start()
    const relay = await startRelay({
      baseUrl: sim.url,
      ...QUICK,
      redis: later.url,
      prefix,
      streams: ['pools'],
      leaseMs: 500,
    })
    onCleanup(() => relay.close())
    await waitFor(() => values.length > 0, 'the pools through the relay')
    expect(venue.health.pipe(take(1))).toBeDefined()
    expect(values[0]).toEqual(await direct(sim).rest.pools())
    await waitFor(() => healthOf(venue, 'relay pools') === 'ok', 'the stream to report ok again')
  })

  it('refuses, for good, a feed whose items after its cursor were trimmed away', async () => {
    const sim = await simulator(1_500)
    const prefix = nextPrefix()
    const trades = sim.market.account(sim.apiKey)?.trades() ?? []
    expect(trades.length).toBeGreaterThan(300)
    await relayOn(sim, prefix, ['my-trades'], { maxLen: 100 })
    const venue = consumer(sim, prefix)
    // The relay has published everything once a reader from the last trade is caught up.
    const lastSeq = String(trades.at(-2)?.global_seq)
    const [last] = await first(venue.watchMyTrades({ cursor: lastSeq }), 1)
    expect(last?.global_seq).toBe(String(trades.at(-1)?.global_seq))
    // Memory stays bounded: at most a tenth more than maxLen entries.
    const { Redis } = await import('ioredis')
    const admin = new Redis(server().url)
    onCleanup(() => admin.disconnect())
    const [stream] = await admin.keys(`${prefix}:*}:my-trades:stream`)
    expect(await admin.xlen(stream as string)).toBeLessThanOrEqual(110)
    // From the start: the first items are gone from Redis, and the feed says so.
    const error = await firstValueFrom(venue.watchMyTrades({ cursor: '0' })).catch(
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(VenueRelayError)
    expect(error).toMatchObject({ retryable: false })
    expect(String((error as Error).message)).toMatch(/no longer holds the items after the cursor/)
    // Reported as a polled stream's failure is: `failed`, with the reason, in health.
    const report = await firstValueFrom(venue.health)
    const failed = Object.entries(report).filter(([name]) => name.startsWith('relay my-trades#'))
    expect(failed.map(([, health]) => health)).toContainEqual(
      expect.objectContaining({ state: 'failed', errorCode: 'VENUE_RELAY' }),
    )
  })

  it('ends a feed with the error of a save that fails, and with a malformed entry, never retrying either', async () => {
    const sim = await simulator(200)
    const prefix = nextPrefix()
    await relayOn(sim, prefix, ['my-trades'])
    const venue = consumer(sim, prefix)
    const failing = {
      load: () => undefined,
      save: () => Promise.reject(new Error('disk full')),
    }
    const delivered: string[] = []
    const saveError = await new Promise<unknown>((resolve) => {
      venue.watchMyTrades({ checkpoint: failing }).subscribe({
        next: (trade) => delivered.push(trade.global_seq),
        error: resolve,
      })
    })
    expect(saveError).toMatchObject({ message: 'disk full' })
    // The item whose save failed was delivered once, and nothing after it.
    expect(delivered).toHaveLength(1)
    // Someone else's bytes in the stream: the feed says so and stops.
    const { Redis } = await import('ioredis')
    const admin = new Redis(server().url)
    onCleanup(() => admin.disconnect())
    const [stream] = await admin.keys(`${prefix}:*}:my-trades:stream`)
    const trades = sim.market.account(sim.apiKey)?.trades() ?? []
    await admin.xadd(
      stream as string,
      `${Number(trades.at(-1)?.global_seq) + 1000}-0`,
      'e',
      '{oops',
    )
    const lastSeq = String(trades.at(-1)?.global_seq)
    const malformed = await firstValueFrom(venue.watchMyTrades({ cursor: lastSeq })).catch(
      (caught: unknown) => caught,
    )
    expect(malformed).toBeInstanceOf(VenueRelayError)
    expect(malformed).toMatchObject({ retryable: false })
  })

  it('names its Redis connections, so that CLIENT LIST tells readers and relays apart', async () => {
    const sim = await simulator()
    const prefix = nextPrefix()
    await relayOn(sim, prefix, ['pools'])
    const values: unknown[] = []
    const subscription = consumer(sim, prefix)
      .watchPools()
      .subscribe((pools) => values.push(pools))
    onCleanup(() => subscription.unsubscribe())
    await waitFor(() => values.length > 0, 'the pools through the relay')
    const { Redis } = await import('ioredis')
    const admin = new Redis(server().url)
    onCleanup(() => admin.disconnect())
    const clients = String(await admin.call('CLIENT', 'LIST'))
    expect(clients).toMatch(/name=venue-rx-reader /)
    expect(clients).toMatch(/name=venue-rx-relay /)
  })

  it('holds one Redis connection for reads and one for the blocking read that wakes them, for all the relayed subscriptions of the venues of a process; none once they stopped', async () => {
    const sim = await simulator(200)
    const prefix = nextPrefix()
    await relayOn(sim, prefix, ['depth:0', 'pools', 'my-trades', 'balances'])
    const venue = consumer(sim, prefix)
    // Another venue of the process, reading from the same Redis URL.
    const other = consumer(sim, prefix)
    const { Redis } = await import('ioredis')
    const admin = new Redis(server().url)
    onCleanup(() => admin.disconnect())
    const readers = async () =>
      String(await admin.call('CLIENT', 'LIST'))
        .split('\n')
        .filter((line) => / name=venue-rx-reader(-wait)? /.test(line)).length
    const trades = sim.market.account(sim.apiKey)?.trades().length ?? 0
    expect(trades).toBeGreaterThan(10)
    const seen = { books: 0, pools: 0, trades: 0, balances: 0 }
    const subscriptions = [
      venue.watchOrderBook(0).subscribe(() => (seen.books += 1)),
      venue.watchDepth(0).subscribe(() => undefined),
      venue.watchPools().subscribe(() => (seen.pools += 1)),
      venue.watchMyTrades({ cursor: '0' }).subscribe(() => (seen.trades += 1)),
      venue.watchMyTrades().subscribe(() => undefined),
      venue.watchBalances().subscribe(() => (seen.balances += 1)),
      other.watchDepth(0).subscribe(() => undefined),
    ]
    onCleanup(() => {
      for (const subscription of subscriptions) subscription.unsubscribe()
    })
    await waitFor(
      () => seen.books > 0 && seen.pools > 0 && seen.trades === trades && seen.balances > 0,
      'every stream through the relay',
    )
    expect(await readers()).toBe(2)
    for (const subscription of subscriptions) subscription.unsubscribe()
    // After the linger, nothing is read and the connection is closed.
    const deadline = Date.now() + WAIT_MS
    while ((await readers()) > 0) {
      if (Date.now() > deadline)
        throw new Error('timed out waiting for the reader connections to close')
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  })

  it('reports a relayed stream under one health key per stream, kept lingerMs after its last subscriber left, as a polled one', async () => {
    const sim = await simulator(20)
    const prefix = nextPrefix()
    await relayOn(sim, prefix, ['depth:0', 'pools'])
    const venue = consumer(sim, prefix)
    const got: string[] = []
    const books = [0, 1].map(() => venue.watchDepth(0).subscribe(() => got.push('book')))
    const pools = venue.watchPools().subscribe(() => got.push('pools'))
    onCleanup(() => pools.unsubscribe())
    await waitFor(
      () => healthOf(venue, 'relay depth:0') === 'ok' && healthOf(venue, 'relay pools') === 'ok',
      'both streams ok',
    )
    books[0]?.unsubscribe()
    expect(healthOf(venue, 'relay depth:0')).toBe('ok')
    books[1]?.unsubscribe()
    // The shared reader lingers (a resubscribe costs nothing), then stops.
    expect(healthOf(venue, 'relay depth:0')).toBe('ok')
    await waitFor(() => healthOf(venue, 'relay depth:0') === undefined, 'the reader to stop')
    expect(healthOf(venue, 'relay pools')).toBe('ok')
  })

  it('forgets a relayed stream whose last subscriber left while its read was out, for good', async () => {
    const sim = await simulator(20)
    const prefix = nextPrefix()
    await relayOn(sim, prefix, ['depth:0'])
    const venue = consumer(sim, prefix)
    const book = venue.watchDepth(0).subscribe()
    await waitFor(() => healthOf(venue, 'relay depth:0') === 'ok', 'the stream ok')
    // From here, every Redis call of this process answers only when let go: the tail's next
    // read is out when its subscriber leaves.
    const held: { readonly answer: Promise<unknown>; readonly release: () => void }[] = []
    const run = RedisConnection.prototype.run
    const spy = vi.spyOn(RedisConnection.prototype, 'run').mockImplementation(function (
      this: RedisConnection,
      ...args: Parameters<RedisConnection['run']>
    ) {
      const answer = run.apply(this, args)
      // The caller meets a failure through \`later\`; held back here, it would go unhandled
      // until the release (a connection closed while the read is held, say).
      answer.catch(() => {})
      let release = () => {}
      const later = new Promise((resolve) => {
        release = () => resolve(undefined)
      }).then(() => answer)
      held.push({ answer: later, release })
      return later as ReturnType<RedisConnection['run']>
    })
    onCleanup(() => spy.mockRestore())
    await waitFor(() => held.length > 0, 'a read out')
    book.unsubscribe()
    await waitFor(() => healthOf(venue, 'relay depth:0') === undefined, 'the reader to stop')
    spy.mockRestore()
    for (const { release } of held) release()
    await Promise.allSettled(held.map(({ answer }) => answer))
    await new Promise((resolve) => setImmediate(resolve))
    // The read that came back late reports nothing: the stream stays forgotten.
    expect(healthOf(venue, 'relay depth:0')).toBeUndefined()
  })

  it('holds two venues to one request budget when it lives in Redis', async () => {
    const sim = await simulator()
    const run = async (sharedBudget: boolean) => {
      const prefix = nextPrefix()
      const from = hits.length
      const venues = [0, 1].map(() => {
        const venue = createVenue({
          baseUrl: sim.url,
          maxRequestsPerSecond: 40,
          ...(sharedBudget ? { sharedBudget: { redis: server().url, prefix } } : {}),
        })
        onCleanup(() => venue.close())
        return venue
      })
      await Promise.all(
        // Forty different requests each (identical ones would share one flight).
        venues.flatMap((venue) =>
          Array.from({ length: 40 }, (_, i) => venue.rest.depth({ poolId: 0, limit: i + 1 })),
        ),
      )
      return hits.slice(from)
    }
    const hits = recordRequests(sim)
    // Each on its own budget: all 80 answered.
    expect(await run(false)).toHaveLength(80)
    // One budget of 40 a second (a burst of 40) for both: however the requests spread out,
    // the n-th reached the venue no sooner than the budget allows: n <= 40 + 40/s x the
    // time since the first, give or take how much later than its token the first request
    // arrived (its connection opening: up to half a second allowed). A busy machine only
    // spreads them more; two budgets would have let all 80 through at once.
    const shared = await run(true)
    expect(shared).toHaveLength(80)
    const first = shared[0]?.at ?? 0
    for (const [i, hit] of shared.entries()) {
      const allowed = 40 + Math.floor(((hit.at - first + 500) / 1000) * 40) + 1
      expect(i + 1, `request ${i + 1} at ${Math.round(hit.at - first)} ms`).toBeLessThanOrEqual(
        allowed,
      )
    }
  })

  it('refuses options a relayed stream cannot honour, and account streams without a key', async () => {
    const sim = await simulator()
    const venue = consumer(sim, nextPrefix())
    expect(() => venue.watchDepth(1, { limit: 5 })).toThrow(VenueInputError)
    expect(() => venue.watchDepth(1, { limit: 5 })).toThrow(/a relayed stream takes no limit/)
    // The market data the relay publishes may be named; another is refused.
    expect(() => venue.watchDepth(1, { source: venue.settings.marketData })).not.toThrow()
    expect(() => venue.watchTrades(1, { source: 'v1' })).toThrow(/publishes the v2 market data/)
    expect(() => venue.watchBalances({ includeValuation: true })).toThrow(VenueInputError)
    expect(() => venue.watchKlines(0, '7m' as never)).toThrow(VenueInputError)
    await expect(
      startRelay({ baseUrl: sim.url, redis: server().url, streams: ['my-trades'] }),
    ).rejects.toThrow(/apiKey/)
    await expect(
      startRelay({ baseUrl: sim.url, redis: server().url, streams: ['depth:x'] }),
    ).rejects.toThrow(VenueInputError)
  })

  it('refuses a relay option at the call: a relay does not read from a relay', async () => {
    const sim = await simulator()
    const prefix = nextPrefix()
    const refused = startRelay({
      baseUrl: sim.url,
      redis: server().url,
      prefix,
      streams: ['pools'],
      relay: { redis: server().url, prefix },
    })
    await expect(refused).rejects.toThrow(VenueInputError)
    await expect(refused).rejects.toMatchObject({ argument: 'relay' })
    await expect(refused).rejects.toThrow(/startRelay: the relay option/)
    // Nothing started: no lease was taken, so another relay gets the stream at once.
    const relay = await relayOn(sim, prefix, ['pools'])
    await waitFor(() => relay.status()['pools']?.state === 'active', 'the lease of pools')
  })
})
