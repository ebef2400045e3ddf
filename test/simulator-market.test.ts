import { beforeAll, describe, expect, it } from 'vitest'
import { createMarket } from '../src/simulator/market/create-market.js'
import type { SimulatedMarket, Source, WireLevel } from '../src/simulator/market/types.js'
import { ceilDiv, decimalsOf, format, units } from './helpers/exact-decimal.js'

const POOLS = [0, 1, 2]
const TICK_PRECISION = ['0.0001', '0.01', '0.1']
const FULL = 100_000

function run(seed: number, ticks: number): SimulatedMarket {
  const market = createMarket({ seed, tickMs: 1000 })
  for (let i = 0; i < ticks; i++) market.tick()
  return market
}

/** Everything a client can read, for determinism comparisons. */
function snapshot(market: SimulatedMarket): string {
  const sources: Source[] = ['v1', 'v2']
  const intervals = ['1m', '5m', '15m', '30m', '1h', '4h', '1d', '1w', '1M']
  const keys = market.apiKeys()
  return JSON.stringify({
    now: market.now(),
    depth: POOLS.flatMap((p) =>
      sources.map((s) => market.depth(p, s, FULL, TICK_PRECISION[p] ?? '')),
    ),
    latest: sources.map((s) => market.latestTrades(undefined, s, 500)),
    klines: POOLS.flatMap((p) =>
      sources.flatMap((s) => intervals.map((i) => market.klines(p, s, i, 0, 2e9))),
    ),
    trades: market.truth.trades(),
    orders: market.truth.orders(),
    transfers: market.truth.transfers(),
    pools: market.poolSummaries(),
    accounts: keys.map((key) => {
      const view = market.account(key)
      return [
        view?.balances(),
        view?.openOrders(),
        view?.historyOrders(),
        view?.trades(),
        view?.transfers(),
      ]
    }),
  })
}

/** Merges two sides (wire form) adding quantities at equal prices; bids descending. */
function mergeWire(a: WireLevel[], b: WireLevel[], bids: boolean): WireLevel[] {
  const sums = new Map<string, { price: string; quantity: bigint; decimals: number }>()
  for (const [price, quantity] of [...a, ...b]) {
    const entry = sums.get(price) ?? { price, quantity: 0n, decimals: decimalsOf(quantity) }
    entry.quantity += units(quantity, entry.decimals)
    sums.set(price, entry)
  }
  return [...sums.values()]
    .sort((x, y) => {
      const d = units(x.price) - units(y.price)
      return (bids ? d < 0n : d > 0n) ? 1 : d === 0n ? 0 : -1
    })
    .map((entry) => [entry.price, format(entry.quantity, entry.decimals)])
}

/** Groups levels at a power-of-ten precision: bids down, asks up. */
function groupWire(levels: WireLevel[], precision: string, bids: boolean): WireLevel[] {
  const outDecimals = decimalsOf(precision)
  const sums = new Map<bigint, bigint>()
  let qDecimals = 0
  const order: bigint[] = []
  for (const [price, quantity] of levels) {
    const scale = Math.max(outDecimals, decimalsOf(price))
    const step = units(precision, scale)
    const p = units(price, scale)
    const grouped = bids ? (p / step) * step : ceilDiv(p, step) * step
    const key = scale > outDecimals ? grouped / 10n ** BigInt(scale - outDecimals) : grouped
    qDecimals = decimalsOf(quantity)
    if (!sums.has(key)) order.push(key)
    sums.set(key, (sums.get(key) ?? 0n) + units(quantity))
  }
  return order.map((key) => [format(key, outDecimals), format(sums.get(key) ?? 0n, qDecimals)])
}

function assertUncrossed(book: { bids: WireLevel[]; asks: WireLevel[] }): void {
  const bid = book.bids[0]
  const ask = book.asks[0]
  expect(bid).toBeDefined()
  expect(ask).toBeDefined()
  if (bid === undefined || ask === undefined) return
  const scale = Math.max(decimalsOf(bid[0]), decimalsOf(ask[0]))
  expect(units(bid[0], scale)).toBeLessThan(units(ask[0], scale))
}

describe('simulated market: determinism', () => {
  it('gives JSON-identical depth, trades, orders, transfers and klines for the same seed after 300 ticks', () => {
    expect(snapshot(run(42, 300))).toBe(snapshot(run(42, 300)))
  })

  it('gives a different market for a different seed', () => {
    const a = run(42, 300)
    const b = run(43, 300)
    expect(JSON.stringify(a.truth.trades())).not.toBe(JSON.stringify(b.truth.trades()))
    expect(a.apiKeys()).not.toEqual(b.apiKeys())
  })

  it('derives simulated time from ticks only', () => {
    const market = createMarket({ seed: 1, tickMs: 250, startTime: 1_600_000_000_000 })
    expect(market.now()).toBe(1_600_000_000_000)
    for (let i = 0; i < 10; i++) market.tick()
    expect(market.ticks()).toBe(10)
    expect(market.now()).toBe(1_600_000_002_500)
    expect(market.depth(0, 'v2', 5, '0.0001')?.timestamp).toBe(1_600_000_002_500)
  })
})

describe('simulated market: books and conservation over 500 ticks', () => {
  it('never leaves an engine book or a V2 book crossed after a tick, in any pool', () => {
    const market = createMarket({ seed: 7, tickMs: 1000 })
    for (let tick = 0; tick < 500; tick++) {
      market.tick()
      for (const pool of POOLS) {
        assertUncrossed(market.truth.engineBook(pool))
        assertUncrossed(market.truth.book(pool, 'v2'))
      }
    }
  })

  it('conserves every coin at every tick: totals minus net transfers equal the genesis supply', () => {
    const market = createMarket({ seed: 11, tickMs: 1000 })
    const genesis = market.truth.genesisSupply()
    expect(Object.keys(genesis).sort()).toEqual(
      ['btc.ext-BTC', 'chain.token-CHN', 'eth.ext-ETH', 'usdt.ext-USDT'].sort(),
    )
    for (let tick = 0; tick < 500; tick++) {
      market.tick()
      const totals = market.truth.coinTotals()
      const net = market.truth.netTransfers()
      for (const [coin, supply] of Object.entries(genesis)) {
        const decimals = decimalsOf(supply)
        const left =
          units(totals[coin] ?? 'missing', decimals) - units(net[coin] ?? 'missing', decimals)
        expect(format(left, decimals), `${coin} at tick ${tick + 1}`).toBe(supply)
      }
    }
    expect(market.truth.transfers().some((t) => t.side === 'withdraw')).toBe(true)
  })
})

describe('simulated market: depth', () => {
  let market: SimulatedMarket
  beforeAll(() => {
    market = run(5, 300)
  })

  it('serves the engine book as V1 depth and engine merged with AMM levels as V2 depth', () => {
    for (const pool of POOLS) {
      const precision = TICK_PRECISION[pool] ?? ''
      const engine = market.truth.engineBook(pool)
      const amm = market.truth.ammBook(pool)
      expect(amm.bids.length).toBeGreaterThan(0)
      expect(amm.asks.length).toBeGreaterThan(0)
      const v1 = market.depth(pool, 'v1', FULL, precision)
      expect({ bids: v1?.bids, asks: v1?.asks }).toEqual(engine)
      const v2 = market.depth(pool, 'v2', FULL, precision)
      const merged = {
        bids: mergeWire(engine.bids, amm.bids, true),
        asks: mergeWire(engine.asks, amm.asks, false),
      }
      expect({ bids: v2?.bids, asks: v2?.asks }).toEqual(merged)
      expect(market.truth.book(pool, 'v2')).toEqual(merged)
      expect(market.truth.book(pool, 'v1')).toEqual(engine)
      expect(v2?.pool_id).toBe(pool)
      expect(v2?.precision).toBe(precision)
    }
  })

  it('orders bids high to low and asks low to high with at most 8 quantity decimals', () => {
    for (const pool of POOLS) {
      const { bids, asks } = market.truth.book(pool, 'v2')
      for (let i = 1; i < bids.length; i++)
        expect(units(bids[i - 1]?.[0] ?? '') > units(bids[i]?.[0] ?? '')).toBe(true)
      for (let i = 1; i < asks.length; i++)
        expect(units(asks[i - 1]?.[0] ?? '') < units(asks[i]?.[0] ?? '')).toBe(true)
      for (const [, quantity] of [...bids, ...asks]) {
        expect(decimalsOf(quantity)).toBeLessThanOrEqual(8)
        expect(units(quantity)).toBeGreaterThan(0n)
      }
    }
  })

  it('groups by precision: bids rounded down, asks rounded up, quantities summed, price decimals of the precision', () => {
    const cases: [number, string][] = [
      [0, '0.001'],
      [0, '0.01'],
      [0, '1'],
      [0, '0.00000001'],
      [1, '1'],
      [1, '10'],
      [1, '0.1'],
      [2, '1'],
      [2, '10'],
      [2, '0.001'],
    ]
    for (const [pool, precision] of cases) {
      const full = market.truth.book(pool, 'v2')
      const depth = market.depth(pool, 'v2', FULL, precision)
      expect(depth?.bids, `${pool} ${precision}`).toEqual(groupWire(full.bids, precision, true))
      expect(depth?.asks, `${pool} ${precision}`).toEqual(groupWire(full.asks, precision, false))
      for (const [price] of [...(depth?.bids ?? []), ...(depth?.asks ?? [])]) {
        expect(decimalsOf(price)).toBe(decimalsOf(precision))
      }
    }
    expect(market.depth(1, 'v2', 5, '10')?.bids[0]?.[0]).toMatch(/^\d+0$/)
  })

  it('honours limit as levels per side after grouping', () => {
    const full = market.depth(0, 'v2', FULL, '0.001')
    const limited = market.depth(0, 'v2', 3, '0.001')
    expect(limited?.bids).toEqual(full?.bids.slice(0, 3))
    expect(limited?.asks).toEqual(full?.asks.slice(0, 3))
    expect(market.depth(0, 'v1', 1, '0.0001')?.bids).toHaveLength(1)
  })

  it('answers an empty book for a precision that is not a power of ten from 0.000000001 to 10', () => {
    for (const precision of ['0.05', '0.0002', '3', '100', '0.0000000001', 'abc', '']) {
      const depth = market.depth(0, 'v2', 10, precision)
      expect(depth?.bids, precision).toEqual([])
      expect(depth?.asks, precision).toEqual([])
      expect(depth?.precision).toBe(precision)
    }
    expect(market.depth(0, 'v2', 10, '0.000000001')?.bids[0]?.[0]).toMatch(/^\d+\.\d{9}$/)
  })

  it('answers undefined for an unknown pool', () => {
    expect(market.depth(99, 'v2', 10, '0.01')).toBeUndefined()
  })
})

describe('simulated market: trades', () => {
  let market: SimulatedMarket
  beforeAll(() => {
    market = run(9, 300)
  })

  it('numbers engine trades with a global_seq increasing by 1 across all pools, from 1', () => {
    const trades = market.truth.trades()
    expect(trades.length).toBeGreaterThan(100)
    expect(new Set(trades.map((t) => t.pool_id)).size).toBe(3)
    trades.forEach((trade, index) => {
      expect(trade.global_seq).toBe(index + 1)
    })
  })

  it('charges exact fees: ceil(rate x received amount) in the received coin, taker 0.003, maker 0.001', () => {
    for (const trade of market.truth.trades()) {
      const base = trade.base_quantity
      const quote = trade.quote_quantity
      const takerGets = trade.taker_is_bid ? base : quote
      const makerGets = trade.taker_is_bid ? quote : base
      const fee = (received: string, ppm: bigint): string =>
        format(ceilDiv(units(received) * ppm, 1_000_000n), decimalsOf(received))
      expect(trade.taker_fee).toBe(fee(takerGets, 3000n))
      expect(trade.maker_fee).toBe(fee(makerGets, 1000n))
      // Engine trades are exact: quote = price x base.
      const product = units(trade.price) * units(base)
      const shift = decimalsOf(trade.price) + decimalsOf(base) - decimalsOf(quote)
      expect(product % 10n ** BigInt(shift)).toBe(0n)
      expect(format(product / 10n ** BigInt(shift), decimalsOf(quote))).toBe(quote)
      expect(trade.tx_id).toMatch(/^[0-9a-f]{64}$/)
    }
  })

  it('shows engine trades in V1 and engine plus AMM trades in V2, newest first, side = taker side', () => {
    for (const pool of POOLS) {
      const all = market.truth.publicTrades(pool)
      const latest = market.latestTrades(pool, 'v2', 20)
      expect(latest).toEqual(all.slice(-20).reverse())
      const amm = `amm.pool-${pool}`
      expect(all.some((t) => t.buyer === amm || t.seller === amm)).toBe(true)
      const v1 = market.latestTrades(pool, 'v1', 10_000)
      expect(v1.some((t) => t.buyer === amm || t.seller === amm)).toBe(false)
      const engine = market.truth.trades().filter((t) => t.pool_id === pool)
      expect(v1).toHaveLength(engine.length)
      const newest = engine.at(-1)
      expect(v1[0]).toEqual({
        pool_id: pool,
        buyer: newest?.taker_is_bid ? newest.taker : newest?.maker,
        seller: newest?.taker_is_bid ? newest?.maker : newest?.taker,
        price: newest?.price,
        quantity: newest?.base_quantity,
        side: newest?.taker_is_bid ? 'buy' : 'sell',
        traded_at: newest?.timestamp,
      })
    }
    const mixed = market.latestTrades(undefined, 'v2', 30)
    expect(mixed).toHaveLength(30)
    expect(new Set(mixed.map((t) => t.pool_id)).size).toBeGreaterThan(1)
    expect(market.latestTrades(99, 'v2', 10)).toEqual([])
  })

  it('stamps trades, public trades and orders in Unix seconds and transfers in ISO-8601 of the tick', () => {
    const fresh = createMarket({ seed: 9, tickMs: 1500 })
    let trades = 0
    let transfers = 0
    let publics = 0
    for (let tick = 0; tick < 100; tick++) {
      fresh.tick()
      const sec = Math.floor(fresh.now() / 1000)
      const allTrades = fresh.truth.trades()
      for (const trade of allTrades.slice(trades)) expect(trade.timestamp).toBe(sec)
      trades = allTrades.length
      const allPublic = fresh.truth.publicTrades()
      for (const trade of allPublic.slice(publics)) expect(trade.traded_at).toBe(sec)
      publics = allPublic.length
      const allTransfers = fresh.truth.transfers()
      for (const transfer of allTransfers.slice(transfers)) {
        expect(transfer.created_at).toBe(new Date(fresh.now()).toISOString())
      }
      transfers = allTransfers.length
    }
    expect(trades).toBeGreaterThan(0)
    expect(transfers).toBeGreaterThan(0)
    expect(publics).toBeGreaterThan(trades)
  })
})

describe('simulated market: klines', () => {
  let market: SimulatedMarket
  beforeAll(() => {
    market = run(13, 600)
  })

  it('makes each 1m candle volume, turnover and count equal the exact sums of the trades in its minute', () => {
    for (const pool of POOLS) {
      const sets: [Source, { price: string; quantity: string; time: number }[]][] = [
        [
          'v1',
          market.truth
            .trades()
            .filter((t) => t.pool_id === pool)
            .map((t) => ({ price: t.price, quantity: t.base_quantity, time: t.timestamp })),
        ],
        [
          'v2',
          market.truth
            .publicTrades(pool)
            .map((t) => ({ price: t.price, quantity: t.quantity, time: t.traded_at })),
        ],
      ]
      for (const [source, trades] of sets) {
        const byMinute = new Map<number, typeof trades>()
        for (const trade of trades) {
          const minute = trade.time - (trade.time % 60)
          byMinute.set(minute, [...(byMinute.get(minute) ?? []), trade])
        }
        const candles = market.klines(pool, source, '1m', 0, 2e9)
        expect(candles.map((c) => c.timestamp)).toEqual([...byMinute.keys()])
        for (const candle of candles) {
          const inMinute = byMinute.get(candle.timestamp) ?? []
          const decimals = decimalsOf(inMinute[0]?.quantity ?? '0')
          const volume = inMinute.reduce((sum, t) => sum + units(t.quantity), 0n)
          expect(candle.volume).toBe(Number(format(volume, decimals)))
          expect(candle.count).toBe(inMinute.length)
          expect(candle.open).toBe(Number(inMinute[0]?.price))
          expect(candle.close).toBe(Number(inMinute.at(-1)?.price))
          expect(candle.interval).toBe('1m')
          expect(candle.pool_id).toBe(pool)
        }
      }
    }
  })

  it('keeps OHLC consistent and V1 volume at most V2 volume in every interval', () => {
    for (const pool of POOLS) {
      for (const interval of ['1m', '5m', '15m', '30m', '1h', '4h', '1d', '1w', '1M']) {
        const v1 = market.klines(pool, 'v1', interval, 0, 2e9)
        const v2 = new Map(market.klines(pool, 'v2', interval, 0, 2e9).map((c) => [c.timestamp, c]))
        for (const candle of [...v1, ...v2.values()]) {
          expect(candle.low).toBeLessThanOrEqual(Math.min(candle.open, candle.close))
          expect(candle.high).toBeGreaterThanOrEqual(Math.max(candle.open, candle.close))
        }
        for (const candle of v1) {
          const wide = v2.get(candle.timestamp)
          expect(wide).toBeDefined()
          expect(candle.volume).toBeLessThanOrEqual(wide?.volume ?? -1)
          expect(candle.count).toBeLessThanOrEqual(wide?.count ?? -1)
        }
      }
    }
  })

  it('adds up 1m candles into 5m and 1h candles, and answers starts in [start, end] ascending', () => {
    const minutes = market.klines(0, 'v2', '1m', 0, 2e9)
    for (const interval of [['5m', 300] as const, ['1h', 3600] as const]) {
      const [name, length] = interval
      for (const candle of market.klines(0, 'v2', name, 0, 2e9)) {
        const inside = minutes.filter(
          (m) => m.timestamp >= candle.timestamp && m.timestamp < candle.timestamp + length,
        )
        expect(candle.count).toBe(inside.reduce((sum, m) => sum + m.count, 0))
        expect(candle.timestamp % length).toBe(0)
      }
    }
    const second = minutes[1]?.timestamp ?? 0
    const fourth = minutes[3]?.timestamp ?? 0
    expect(market.klines(0, 'v2', '1m', second, fourth).map((c) => c.timestamp)).toEqual(
      minutes.slice(1, 4).map((c) => c.timestamp),
    )
    expect(market.klines(0, 'v2', '2m', 0, 2e9)).toEqual([])
  })

  it('starts 1w candles on Monday 00:00 UTC and 1M candles on the first of the calendar month', () => {
    // 2024-01-31T23:50:00Z is a Wednesday; 3 ticks of 5 minutes cross into February.
    const edge = createMarket({
      seed: 3,
      tickMs: 300_000,
      startTime: Date.UTC(2024, 0, 31, 23, 50),
    })
    for (let i = 0; i < 4; i++) edge.tick()
    const months = edge
      .klines(0, 'v2', '1M', 0, 2e9)
      .map((c) => new Date(c.timestamp * 1000).toISOString())
    expect(months).toEqual(['2024-01-01T00:00:00.000Z', '2024-02-01T00:00:00.000Z'])
    const weeks = edge
      .klines(0, 'v2', '1w', 0, 2e9)
      .map((c) => new Date(c.timestamp * 1000).toISOString())
    expect(weeks).toEqual(['2024-01-29T00:00:00.000Z'])
    const days = edge
      .klines(0, 'v2', '1d', 0, 2e9)
      .map((c) => new Date(c.timestamp * 1000).toISOString())
    expect(days).toEqual(['2024-01-31T00:00:00.000Z', '2024-02-01T00:00:00.000Z'])
  })
})
