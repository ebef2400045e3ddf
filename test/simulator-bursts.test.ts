import { afterEach, describe, expect, it } from 'vitest'
import { type Simulator, startSimulator } from '../src/simulator/index.js'
import type { BurstSpec } from '../src/simulator/market/burst-regime.js'
import { createMarket } from '../src/simulator/market/create-market.js'
import type { SimulatedMarket } from '../src/simulator/market/types.js'

const TICK_MS = 10
const sims: Simulator[] = []

afterEach(async () => {
  await Promise.all(sims.splice(0).map((sim) => sim.close()))
})
const PRECISION = ['0.0001', '0.01', '0.1']

/** What changed at each tick of a bursty market: per pool, whether its book or its trades moved. */
interface Timeline {
  readonly market: SimulatedMarket
  /** Per pool, the simulated ms of each tick its served book (v2, 100 levels) changed. */
  readonly books: number[][]
  /** Per pool, the public trades (v2) added at each tick, as `ms:count`. */
  readonly trades: string[][]
  /** Simulated ms of each tick the demo account's balances (balance, locked) changed. */
  readonly balances: number[]
  /** Simulated ms of each tick the demo account got trades. */
  readonly ownTrades: number[]
  /** Every engine trade (the truth) after `marks` ticks, as JSON, by that number of ticks. */
  readonly tradesAt: ReadonlyMap<number, string>
}

function timeline(
  seed: number,
  ticks: number,
  bursts: BurstSpec = {},
  marks: readonly number[] = [],
): Timeline {
  const market = createMarket({ seed, tickMs: TICK_MS, bursts })
  const key = market.apiKeys()[0] ?? ''
  const holdings = () =>
    JSON.stringify(
      market
        .account(key)
        ?.balances()
        .map((b) => [b.coin, b.balance, b.locked]),
    )
  const books: number[][] = [[], [], []]
  const trades: string[][] = [[], [], []]
  const balances: number[] = []
  const ownTrades: number[] = []
  const bookOf = (pool: number) => {
    const { bids, asks } = market.depth(pool, 'v2', 100, PRECISION[pool] ?? '') ?? {}
    return JSON.stringify([bids, asks])
  }
  const lastBook = PRECISION.map((_, pool) => bookOf(pool))
  const newest = PRECISION.map((_, pool) => market.latestTrades(pool, 'v2', 1)[0])
  let lastHoldings = holdings()
  let ownCount = market.account(key)?.trades().length ?? 0
  const tradesAt = new Map<number, string>()
  for (let i = 0; i < ticks; i += 1) {
    market.tick()
    if (marks.includes(i + 1)) tradesAt.set(i + 1, JSON.stringify(market.truth.trades()))
    const now = market.now()
    for (const pool of PRECISION.keys()) {
      const book = bookOf(pool)
      if (book !== lastBook[pool]) books[pool]?.push(now)
      lastBook[pool] = book
      const latest = market.latestTrades(pool, 'v2', 100)
      const added = latest.indexOf(newest[pool] as (typeof latest)[number])
      if (added !== 0) trades[pool]?.push(`${now}:${added < 0 ? latest.length : added}`)
      newest[pool] = latest[0]
    }
    const held = holdings()
    if (held !== lastHoldings) balances.push(now)
    lastHoldings = held
    const count = market.account(key)?.trades().length ?? 0
    if (count !== ownCount) ownTrades.push(now)
    ownCount = count
  }
  return { market, books, trades, balances, ownTrades, tradesAt }
}

const gaps = (times: readonly number[]) => times.slice(1).map((t, i) => t - (times[i] ?? 0))
const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[values.length >> 1] ?? Number.NaN

/** The part of `run` up to simulated time `until` (its first ticks). */
function upTo(run: Timeline, until: number) {
  const at = (entry: string) => Number(entry.split(':')[0])
  return {
    books: run.books.map((times) => times.filter((t) => t <= until)),
    trades: run.trades.map((entries) => entries.filter((entry) => at(entry) <= until)),
    ownTrades: run.ownTrades.filter((t) => t <= until),
  }
}

describe('simulator: the bursty regime (bursts)', () => {
  // 60 s of simulated time in 10 ms ticks; the truth's trades kept after 30 s.
  const run = timeline(3, 6_000, {}, [3_000])

  it('is the same timeline for the same seed, another for another seed', () => {
    // Half the run again (30 s: bursts, quiet spells, own trades) is the same, tick by tick.
    const again = timeline(3, 3_000)
    const { books, trades, ownTrades } = upTo(run, again.market.now())
    expect(again.books).toEqual(books)
    expect(again.trades).toEqual(trades)
    expect(again.ownTrades).toEqual(ownTrades)
    expect(again.ownTrades.length).toBeGreaterThanOrEqual(4)
    expect(JSON.stringify(again.market.truth.trades())).toBe(run.tradesAt.get(3_000))
    // Another seed moves its books at other times from the first seconds on.
    const other = timeline(4, 1_500)
    expect(other.books).not.toEqual(upTo(run, other.market.now()).books)
  })

  it('moves each book in bursts, a change every 20-50 ms, with quiet spells of seconds between', () => {
    for (const times of run.books) {
      const between = gaps(times)
      // In a burst the crowd acts every 20-50 ms (on the 10 ms tick grid).
      expect(median(between)).toBeGreaterThanOrEqual(20)
      expect(median(between)).toBeLessThanOrEqual(60)
      // Quiet spells (2-8 s, an own trade may fall in one): some long gaps, none over 8 s.
      expect(between.filter((gap) => gap >= 1_000).length).toBeGreaterThanOrEqual(2)
      expect(Math.max(...between)).toBeLessThanOrEqual(8_200)
      // About a third of the time in bursts of 1-4 s: 100s of changes a minute, not 6,000.
      expect(times.length).toBeGreaterThan(150)
      expect(times.length).toBeLessThan(1_500)
    }
  })

  it('gives the demo account a market order every 5-7 s, and nothing else changes its balances', () => {
    expect(run.ownTrades.length).toBeGreaterThanOrEqual(8)
    for (const gap of gaps(run.ownTrades)) {
      expect(gap).toBeGreaterThanOrEqual(5_000 - TICK_MS)
      expect(gap).toBeLessThanOrEqual(7_000 + TICK_MS)
    }
    expect(run.balances).toEqual(run.ownTrades)
    const [demo, other] = run.market.apiKeys()
    const orders = run.market.account(demo ?? '')?.historyOrders() ?? []
    // Market orders, filled (status 2).
    expect(orders.every((order) => order.type === 0 && order.status === 2)).toBe(true)
    expect(orders).toHaveLength(run.ownTrades.length)
    // The other keyed account's strategy is idle.
    expect(run.market.account(other ?? '')?.historyOrders()).toEqual([])
    expect(run.market.account(other ?? '')?.openOrders()).toEqual([])
  })

  it('follows its settings: longer gaps between changes, own trades as often as asked', () => {
    const slow = timeline(3, 3_000, { changeGapMs: [200, 200], ownTradeGapMs: [1_000, 1_000] })
    for (const times of slow.books) expect(median(gaps(times))).toBe(200)
    expect(gaps(slow.ownTrades).every((gap) => gap === 1_000)).toBe(true)
  })

  it('is off by default and through startSimulator, checked by name', async () => {
    const plain = createMarket({ seed: 3, tickMs: TICK_MS })
    plain.tick()
    // Without bursts the demo account's opening script runs: a deposit at the first tick.
    expect(plain.account(plain.apiKeys()[0] ?? '')?.transfers()).toHaveLength(1)
    expect(run.market.account(run.market.apiKeys()[0] ?? '')?.transfers()).toEqual([])
    const sim = await startSimulator({ seed: 3, clock: 'manual', tickMs: TICK_MS, bursts: {} })
    sims.push(sim)
    sim.advance(1_500)
    const until = sim.market.now()
    const expected = run.ownTrades.filter((at) => at <= until).length
    expect(expected).toBeGreaterThan(0)
    expect(sim.market.account(sim.apiKey)?.historyOrders()).toHaveLength(expected)
    await expect(
      startSimulator({ clock: 'manual', bursts: { changeGapMs: [50, 20] } }),
    ).rejects.toThrow(/bursts\.changeGapMs must be \[min, max\] ms/)
    await expect(startSimulator({ clock: 'manual', bursts: { quietMs: [0, 10] } })).rejects.toThrow(
      /bursts\.quietMs/,
    )
    await expect(
      startSimulator({ clock: 'manual', bursts: { gapMs: [1, 2] } as BurstSpec }),
    ).rejects.toThrow(/bursts\.gapMs is not a setting/)
  })
})
