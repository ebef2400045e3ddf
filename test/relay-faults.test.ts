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
import { type Observable, take, VirtualTimeScheduler } from 'rxjs'
import { describe, expect, it } from 'vitest'
import {
  applyBookEvent,
  type BookEvent,
  createVenue,
  type HealthReport,
  type OrderBook,
  type TradeDetail,
  type Venue,
  VenueRelayError,
} from '../src/index.js'
import { type RelayOptions, startRelay } from '../src/relay.js'
import type { Simulator } from '../src/simulator/index.js'
import { onCleanup } from './helpers/cleanups.js'
import { type RedisServer, startRedisServer } from './helpers/redis-server.js'
import { QUICK, relayFixture } from './helpers/relay-fixture.js'
import { count, recordRequests } from './helpers/simulator-venue.js'
import { WAIT_MS, waitFor } from './helpers/wait-for.js'

const { redis: server, nextPrefix, simulator, relayOn, direct } = relayFixture('f')

/** Resolves when `condition` (async) holds, checked every 10 ms, within `ms`. */
async function until(condition: () => Promise<boolean>, what: string, ms = WAIT_MS) {
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
    /**
     * Moves the reader's clock on 100 ms at a time until `condition` holds: how many steps
     * that takes depends on how fast the relay and Redis answer in real time, so only real
     * time bounds it (generously: a busy machine is slow, not wrong).
     */
    const runUntil = async (condition: () => boolean, what: string, ms = 15_000) => {
      const deadline = performance.now() + ms
      while (!condition()) {
        if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`)
        await run(100)
      }
    }
    const account = () => sim.market.account(sim.apiKey)?.trades() ?? []
    const trades = watch<TradeDetail>(venue.watchMyTrades({ cursor: account().at(-1)?.global_seq }))
    const events = watch<BookEvent>(venue.watchDepth(0))
    let book: OrderBook | undefined
    const books = watch(venue.watchOrderBook(0))
    // Both have joined the relay's tails: the book is there, the feed is at its end.
    const redis = admin()
    await runUntil(() => books.values.length > 0, 'the book through the relay')
    let tradeStream: string | undefined
    await until(async () => {
      ;[tradeStream] = await redis.keys(`${prefix}:*}:my-trades:stream`)
      return tradeStream !== undefined
    }, 'the relay to publish the account trades')
    await run(500)
    const joined = events.values.length
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
    const [depthStream] = await redis.keys(`${prefix}:*}:depth:0:stream`)
    for (let tick = 0; tick < 400 && (await floorOf(depthStream)) === null; tick += 1) {
      const polled = count(hits, '/api/v1/depth/v2')
      sim.advance(1)
      await until(async () => count(hits, '/api/v1/depth/v2') > polled, 'a poll of the relay')
    }
    expect(await floorOf(depthStream)).not.toBeNull()
    // Resumed: the feed says it lost its place, with the documented error, and delivered
    // nothing after the trim point.
    await runUntil(() => trades.error !== undefined, 'the feed to fail')
    expect(trades.error).toBeInstanceOf(VenueRelayError)
    expect(trades.error).toMatchObject({ retryable: false })
    expect(String((trades.error as Error).message)).toMatch(
      /no longer holds the items after the cursor/,
    )
    expect(trades.values).toEqual([])
    // The book resynced from the stored snapshot: a snapshot after the pause, and the book
    // is the one the venue serves now.
    const served = await direct(sim).rest.depth({ poolId: 0 })
    await runUntil(() => {
      book = books.values.at(-1)
      return JSON.stringify(book?.bids) === JSON.stringify(served.bids)
    }, 'the book served now')
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

/** A relay of the account's trades on `redis`, with short leases and polls. */
async function relayTo(
  sim: Simulator,
  redis: string,
  prefix: string,
  extra: Partial<RelayOptions> = {},
) {
  const relay = await startRelay({
    baseUrl: sim.url,
    apiKey: sim.apiKey,
    ...QUICK,
    redis,
    prefix,
    streams: ['my-trades'],
    leaseMs: 500,
    ...extra,
  })
  onCleanup(() => relay.close())
  return relay
}

/** A venue reading from the relay on `redis`. */
function readerOf(sim: Simulator, redis: string, prefix: string): Venue {
  const venue = createVenue({
    baseUrl: sim.url,
    apiKey: sim.apiKey,
    ...QUICK,
    relay: { redis, prefix },
  })
  onCleanup(() => venue.close())
  return venue
}

/** The current report of `health`. */
function now(health: Observable<HealthReport>): HealthReport {
  let report: HealthReport = {}
  health.pipe(take(1)).subscribe((value) => {
    report = value
  })
  return report
}

/** The account's trades as the simulator has them. */
const truth = (sim: Simulator) =>
  (sim.market.account(sim.apiKey)?.trades() ?? []).map((trade) => String(trade.global_seq))

/** A live reader from the start, then Redis loses everything, the market moves on, then a late reader from the start. */
async function loseUnderLiveRelay(lose: (server: RedisServer) => Promise<void>) {
  const server = await startRedisServer({ persist: false })
  onCleanup(() => server.close())
  const sim = await simulator(100)
  const prefix = nextPrefix()
  await relayTo(sim, server.url, prefix)
  const live = watch(readerOf(sim, server.url, prefix).watchMyTrades({ cursor: '0' }))
  await waitFor(() => live.values.length === truth(sim).length, 'the live reader to catch up')
  await lose(server)
  // A lease again (a new session's, or a renewal's that made it again): then the market.
  const client = new Redis(server.url)
  onCleanup(() => client.disconnect())
  await until(async () => (await client.keys(`${prefix}:*:lease`)).length > 0, 'a lease again')
  sim.advance(100)
  expect(truth(sim).length).toBeGreaterThan(live.values.length)
  await waitFor(
    () => live.values.length >= truth(sim).length,
    'the live reader after the loss',
    15_000,
  )
  const late = watch(readerOf(sim, server.url, prefix).watchMyTrades({ cursor: '0' }))
  await waitFor(() => late.values.length >= truth(sim).length, 'the late reader', 15_000)
  // Every trade once, in order, for both: what Redis lost was published again.
  expect(live.values.map((trade) => trade.global_seq)).toEqual(truth(sim))
  expect(late.values.map((trade) => trade.global_seq)).toEqual(truth(sim))
  expect(live.error).toBeUndefined()
  expect(late.error).toBeUndefined()
}

describe('relay faults: Redis', () => {
  it('FLUSHALL under a live relay: the session ends, the next one publishes again what Redis lost; live and late readers get every trade once', {
    timeout: 30_000,
  }, async () => {
    await loseUnderLiveRelay(async (server) => {
      const client = new Redis(server.url)
      await client.flushall()
      client.disconnect()
    })
  })

  it('a restart without persistence under a live relay: likewise', {
    timeout: 30_000,
  }, async () => {
    await loseUnderLiveRelay((server) => server.restart())
  })

  it('two relays with one relay id: the second stands by while the first holds the leases', async () => {
    const sim = await simulator(20)
    const prefix = nextPrefix()
    const streams = ['depth:0', 'trades:0']
    const first = await relayOn(sim, prefix, streams, { relayId: 'same' })
    await waitFor(
      () => Object.values(first.status()).every((s) => s.state === 'active'),
      'the first relay active',
    )
    const second = await relayOn(sim, prefix, streams, { relayId: 'same' })
    // The second has asked for each lease (its Redis answered) and was refused.
    await waitFor(
      () => streams.every((name) => now(second.health)[`publish ${name}`]?.state === 'ok'),
      'the second relay to ask for the leases',
    )
    sim.advance(10)
    await waitFor(
      () => Object.values(first.status()).every((s) => s.state === 'active'),
      'the first still active',
    )
    expect(second.status()).toEqual({
      'depth:0': { state: 'standby' },
      'trades:0': { state: 'standby' },
    })
    const leases = await admin().keys(`${prefix}:*:lease`)
    for (const lease of leases) expect(await admin().get(lease)).toMatch(/^same\/[0-9a-f]{12}$/)
    // The second takes over once the first is gone.
    await first.close()
    await waitFor(
      () => Object.values(second.status()).every((s) => s.state === 'active'),
      'the second active',
    )
  })

  it('Redis hung (SIGSTOP): readers and the relay report retrying (a command timed out); once it wakes, every trade once', {
    timeout: 30_000,
  }, async () => {
    const server = await startRedisServer()
    onCleanup(() => server.close())
    const sim = await simulator(50)
    const prefix = nextPrefix()
    const relay = await relayTo(sim, server.url, prefix)
    const venue = readerOf(sim, server.url, prefix)
    const trades = watch(venue.watchMyTrades({ cursor: '0' }))
    await waitFor(() => trades.values.length === truth(sim).length, 'the reader to catch up')
    server.signal('SIGSTOP')
    onCleanup(() => server.signal('SIGCONT'))
    await waitFor(
      () => now(venue.health)['relay my-trades']?.state === 'retrying',
      'the reader to report retrying',
      10_000,
    )
    expect(now(venue.health)['relay my-trades']).toMatchObject({
      lastErrorCode: 'VENUE_RELAY',
      lastErrorMessage: expect.stringMatching(/timed out/i),
    })
    await waitFor(
      () => now(relay.health)['publish my-trades']?.state === 'retrying',
      'the relay to report retrying',
      10_000,
    )
    // A subscription started meanwhile catches up on its own: its run shows under a key of
    // its own while it works, retrying now.
    const ownRuns = () => Object.keys(now(venue.health)).filter((key) => key.includes('#'))
    const later = watch(venue.watchMyTrades({ cursor: '0' }))
    await waitFor(
      () => ownRuns().some((key) => now(venue.health)[key]?.state === 'retrying'),
      'the new subscription to report its catch-up retrying',
      10_000,
    )
    server.signal('SIGCONT')
    sim.advance(50)
    await waitFor(
      () => trades.values.length >= truth(sim).length && later.values.length >= truth(sim).length,
      'the trades after the wake',
      15_000,
    )
    expect(trades.values.map((trade) => trade.global_seq)).toEqual(truth(sim))
    expect(later.values.map((trade) => trade.global_seq)).toEqual(truth(sim))
    await waitFor(() => now(venue.health)['relay my-trades']?.state === 'ok', 'the reader ok again')
    // Health holds running work only: the catch-up's key left once it joined the tail.
    await waitFor(() => ownRuns().length === 0, 'the catch-up key to leave once joined')
    expect(Object.keys(now(venue.health))).toEqual(['relay my-trades'])
  })

  it('Redis full (maxmemory, noeviction): the relay reports the refused write and goes on when there is room; the reader misses nothing', {
    timeout: 30_000,
  }, async () => {
    const server = await startRedisServer()
    onCleanup(() => server.close())
    const client = new Redis(server.url)
    onCleanup(() => client.disconnect())
    const sim = await simulator(50)
    const prefix = nextPrefix()
    const relay = await relayTo(sim, server.url, prefix)
    const trades = watch(readerOf(sim, server.url, prefix).watchMyTrades({ cursor: '0' }))
    await waitFor(() => trades.values.length === truth(sim).length, 'the reader to catch up')
    await client.config('SET', 'maxmemory-policy', 'noeviction')
    await client.config('SET', 'maxmemory', '1')
    sim.advance(50)
    await waitFor(
      () =>
        /OOM/.test(
          String(
            (now(relay.health)['publish my-trades'] as { lastErrorMessage?: string })
              ?.lastErrorMessage,
          ),
        ),
      'the relay to report the refused write',
      10_000,
    )
    // status() says why too, credentials-free.
    await waitFor(
      () => relay.status()['my-trades']?.state === 'retrying',
      'the stream to be retrying in status()',
    )
    expect(relay.status()['my-trades']?.reason).toMatch(/OOM command not allowed/)
    // Reads need no memory: a reader started now reads what Redis holds, and its health
    // shows nothing failing (a transaction would be refused while Redis is full).
    const late = readerOf(sim, server.url, prefix)
    const kept = watch(late.watchMyTrades({ cursor: '0' }))
    await waitFor(
      () => kept.values.length === trades.values.length,
      'a reader started while Redis is full to read what it holds',
    )
    expect(kept.values.map((trade) => trade.global_seq)).toEqual(
      trades.values.map((trade) => trade.global_seq),
    )
    await waitFor(
      () => Object.keys(now(late.health)).length === 1,
      'the late reader to hold only its joined stream',
    )
    expect(now(late.health)).toEqual({
      'relay my-trades': expect.objectContaining({ state: 'ok' }),
    })
    await client.config('SET', 'maxmemory', '0')
    await waitFor(
      () => trades.values.length >= truth(sim).length,
      'the trades once there is room',
      15_000,
    )
    expect(trades.values.map((trade) => trade.global_seq)).toEqual(truth(sim))
    await waitFor(
      () => relay.status()['my-trades']?.state === 'active',
      'the stream active again, its reason gone',
    )
    expect(relay.status()['my-trades']).toEqual({ state: 'active' })
  })

  it('a wrong password: the relay and the reader report WRONGPASS in health, never the password', {
    timeout: 30_000,
  }, async () => {
    const server = await startRedisServer({ password: 'pw-right-0' })
    onCleanup(() => server.close())
    const wrong = `redis://:pw-wrong-1@127.0.0.1:${server.port}`
    const sim = await simulator(10)
    const prefix = nextPrefix()
    const relay = await relayTo(sim, wrong, prefix, { streams: ['pools'] })
    const venue = readerOf(sim, wrong, prefix)
    const pools = watch(venue.watchPools())
    await waitFor(
      () =>
        now(relay.health)['publish pools']?.state === 'retrying' &&
        now(venue.health)['relay pools']?.state === 'retrying',
      'both to report retrying',
      10_000,
    )
    for (const report of [now(relay.health), now(venue.health)]) {
      expect(JSON.stringify(report)).toMatch(/WRONGPASS/)
      expect(JSON.stringify(report)).not.toContain('pw-wrong-1')
    }
    expect(pools.values).toEqual([])
    expect(pools.error).toBeUndefined()
    await waitFor(() => relay.status()['pools']?.state === 'retrying', 'status() to say retrying')
    expect(relay.status()['pools']?.reason).toMatch(/WRONGPASS/)
    expect(JSON.stringify(relay.status())).not.toContain('pw-wrong-1')
  })
})
