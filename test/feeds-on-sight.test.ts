/**
 * The cursor feeds deliver each item the first time a poll shows it, and one the venue
 * shows after a later one when it shows, once, marked late; the checkpoint's position
 * carries a restart across such an item; `order: 'ascending'` still gives strict order.
 * Against the simulator on a manual clock whose trades show after lags of their own
 * (`tradesLagMs`): each tick is followed by two polls of the feed (order of events, no
 * real-time guesses).
 */
import { afterEach, describe, expect, it } from 'vitest'
import {
  type CursorPosition,
  createVenue,
  type FeedItem,
  memoryCheckpoint,
  type TradeDetail,
  type Venue,
} from '../src/index.js'
import { type Simulator, startSimulator } from '../src/simulator/index.js'
import { onCleanup, runCleanups } from './helpers/cleanups.js'
import { waitFor } from './helpers/wait-for.js'

afterEach(runCleanups)

async function simulator(lag: readonly [number, number]): Promise<Simulator> {
  const sim = await startSimulator({
    seed: 1,
    clock: 'manual',
    quirks: { tradesLagMs: [...lag] as [number, number] },
  })
  onCleanup(() => sim.close())
  return sim
}

function venueOf(sim: Simulator, settleMs: number): Venue {
  const venue = createVenue({
    baseUrl: sim.url,
    apiKey: sim.apiKey,
    pollIntervalMs: 10,
    settleMs,
    maxRequestsPerSecond: 100_000,
    requestTimeoutMs: 5_000,
  })
  onCleanup(() => venue.close())
  return venue
}

/** A feed run: what it delivered, and a count of its polls. */
function run(
  venue: Venue,
  options: Parameters<Venue['watchMyTrades']>[0] = {},
): { items: FeedItem<TradeDetail>[]; polls: () => number; stop: () => void } {
  const items: FeedItem<TradeDetail>[] = []
  let polls = 0
  let failure: unknown
  const subscription = venue
    .watchMyTrades({
      ...options,
      onProgress: () => {
        polls += 1
      },
    })
    .subscribe({
      next: (trade) => items.push(trade),
      error: (error: unknown) => {
        failure = error
      },
    })
  onCleanup(() => subscription.unsubscribe())
  return {
    items,
    polls: () => {
      if (failure !== undefined) throw failure
      return polls
    },
    stop: () => subscription.unsubscribe(),
  }
}

/** Six market orders at one instant: trades of one time, each shown after its own lag. */
async function tradeAtOnce(sim: Simulator): Promise<void> {
  for (let i = 0; i < 6; i++) {
    await sim.placeOrder({
      poolId: 0,
      side: i % 2 === 0 ? 'sell' : 'buy',
      type: 'market',
      amount: '3',
    })
  }
}

/** One tick of the market, then two whole polls of the feed (one started after the tick). */
async function tick(sim: Simulator, feed: { polls: () => number }): Promise<void> {
  sim.advance()
  const before = feed.polls()
  await waitFor(() => feed.polls() >= before + 2, 'two polls after a tick')
}

/** The account's trades the venue shows now, by global_seq. */
async function shown(venue: Venue): Promise<string[]> {
  return (await venue.rest.trades({ sort: 'asc', limit: 100 })).map((t) => t.global_seq)
}

/** The account's trades in the ground truth, ascending. */
async function truthSeqs(sim: Simulator, venue: Venue): Promise<string[]> {
  const account = (await venue.rest.accountInfo()).chain_account
  return sim.truth
    .trades()
    .filter((t) => t.taker === account || t.maker === account)
    .map((t) => String(t.global_seq))
}

const bySeq = (a: string, b: string) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0)

/** Whether each item is marked late exactly when an item with a greater seq came before it. */
function lateMarksHold(items: readonly FeedItem<TradeDetail>[], before?: string): boolean {
  let newest = before
  return items.every((item) => {
    const late = newest !== undefined && bySeq(item.global_seq, newest) < 0
    if (!late) newest = item.global_seq
    return (item.late === true) === late
  })
}

describe('cursor feeds on sight, with late items kept', () => {
  it('delivers each trade at the first poll that shows it, a late one when it shows, marked; a restart from the checkpoint repeats nothing and loses nothing across a late trade', async () => {
    const sim = await simulator([0, 2000])
    // A settle window far longer than the test: nothing here waits for it.
    const first = venueOf(sim, 60_000)
    const checkpoint = memoryCheckpoint<string>()
    const a = run(first, { checkpoint })
    await waitFor(() => a.polls() > 0, 'the first poll')
    await tradeAtOnce(sim)
    // Their trades show from the fourth tick on (seed 1), out of global_seq order.
    for (let i = 0; i < 5; i++) {
      await tick(sim, a)
      // On sight: whatever the venue shows was delivered by the polls after the tick.
      const delivered = new Set(a.items.map((t) => t.global_seq))
      expect((await shown(first)).filter((seq) => !delivered.has(seq))).toEqual([])
    }
    a.stop()
    const fromA = [...a.items]
    const position = checkpoint.current as CursorPosition<string>
    expect(position.above.length).toBeGreaterThan(0)

    // A second process, the same checkpoint, the venue going on.
    const second = venueOf(sim, 60_000)
    const b = run(second, { checkpoint })
    await waitFor(() => b.polls() > 0, 'the first poll after the restart')
    for (let i = 0; i < 10; i++) await tick(sim, b)
    // Everything shows now: the feed then holds the whole truth.
    sim.quirks.clear()
    await tick(sim, b)

    const truth = await truthSeqs(sim, second)
    const joined = [...fromA, ...b.items].map((t) => t.global_seq)
    // Each trade once: no loss, no repeat.
    expect([...joined].sort(bySeq)).toEqual(truth)
    expect(new Set(joined).size).toBe(joined.length)
    // Some trade showed after a later one, and was delivered after it, marked.
    expect(joined).not.toEqual([...joined].sort(bySeq))
    expect(lateMarksHold(fromA)).toBe(true)
    const newestOfA = fromA
      .map((t) => t.global_seq)
      .sort(bySeq)
      .at(-1)
    expect(lateMarksHold(b.items, newestOfA)).toBe(true)
    // Across the restart: the second run delivered a trade below the first run's newest.
    expect(b.items.some((t) => newestOfA !== undefined && bySeq(t.global_seq, newestOfA) < 0)).toBe(
      true,
    )
  })

  it("order: 'ascending' holds each trade for the settle window and delivers strictly in global_seq order, each once", async () => {
    // Lags of at most two ticks; the window covers the polls of many more.
    const sim = await simulator([0, 500])
    const venue = venueOf(sim, 1_500)
    const feed = run(venue, { order: 'ascending' })
    await waitFor(() => feed.polls() > 0, 'the first poll')
    await tradeAtOnce(sim)
    for (let i = 0; i < 4; i++) await tick(sim, feed)
    // Everything shows now: the feed then holds the whole truth, once the window passed.
    sim.quirks.clear()
    const truth = await truthSeqs(sim, venue)
    await waitFor(() => feed.items.length >= truth.length, 'every trade, settled', 10_000)
    const seqs = feed.items.map((t) => t.global_seq)
    expect(seqs).toEqual(truth)
    expect(feed.items.some((t) => t.late === true)).toBe(false)
  })
})
