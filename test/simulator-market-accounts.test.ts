import { beforeAll, describe, expect, it } from 'vitest'
import * as schemas from '../src/schemas/index.js'
import { createMarket } from '../src/simulator/market/create-market.js'
import type { AccountView, OrderRecord, SimulatedMarket } from '../src/simulator/market/types.js'
import { decimalsOf, format, units } from './helpers/exact-decimal.js'

/** Pool precisions of the default pools: [price, base, quote]. */
const PRECISIONS: Record<number, [number, number, number]> = {
  0: [4, 4, 6],
  1: [2, 6, 6],
  2: [1, 5, 4],
}

let market: SimulatedMarket
let demo: AccountView
let second: AccountView

beforeAll(() => {
  market = createMarket({ seed: 17, tickMs: 1000 })
  for (let i = 0; i < 300; i++) market.tick()
  const [demoKey = '', secondKey = ''] = market.apiKeys()
  demo = market.account(demoKey) as AccountView
  second = market.account(secondKey) as AccountView
})

describe('simulated market: accounts and API keys', () => {
  it('derives two API keys of the venue form from the seed, the first being the demo account', () => {
    const keys = market.apiKeys()
    expect(keys).toHaveLength(2)
    for (const key of keys) expect(key).toMatch(/^k-[A-Za-z0-9]{36}$/)
    expect(new Set(keys).size).toBe(2)
    expect(createMarket({ seed: 17, tickMs: 5 }).apiKeys()).toEqual(keys)
    expect(demo.info()).toEqual({
      chain_account: 'demo.trader',
      parent_chain_account: 'venue.users',
      permission: 'active',
    })
    expect(market.account('k-unknown')).toBeUndefined()
  })
})

describe('simulated market: the demo account after 300 ticks', () => {
  it('has working limit orders and final orders of every outcome', () => {
    const open = demo.openOrders()
    expect(open.length).toBeGreaterThan(0)
    for (const order of open) {
      expect(order.type).toBe(1)
      expect(order.history).toBe(false)
      expect([0, 1]).toContain(order.status)
    }
    const history = demo.historyOrders()
    for (const order of history) expect(order.history).toBe(true)
    const statuses = new Set(history.map((order) => order.status))
    expect(statuses).toContain(2)
    expect(statuses).toContain(3)
    expect(statuses).toContain(4)
    // Partially filled, then canceled: status 1 in the history set.
    const partial = history.find((o) => o.status === 1)
    expect(partial).toBeDefined()
    expect(units(partial?.executed_amount ?? '0')).toBeGreaterThan(0n)
    expect(units(partial?.executed_amount ?? '0')).toBeLessThan(units(partial?.order_amount ?? '0'))
    expect(history.some((o) => o.type === 0)).toBe(true)
    for (const order of history.filter((o) => o.status === 4))
      expect(order.executed_amount).toMatch(/^0\.?0*$/)
  })

  it('lists orders newest first with ids {pool}-{order}-{side} and client ids cid-<n>', () => {
    for (const list of [demo.openOrders(), demo.historyOrders()]) {
      for (let i = 1; i < list.length; i++) {
        const newer = list[i - 1] as OrderRecord
        const older = list[i] as OrderRecord
        expect(newer.order_time).toBeGreaterThanOrEqual(older.order_time)
      }
    }
    const all = [...demo.openOrders(), ...demo.historyOrders()]
    for (const order of all) {
      expect(order.id).toBe(`${order.pool_id}-${order.order_id}-${order.side}`)
      expect(order.order_cid).toMatch(/^cid-\d+$/)
      expect(demo.orderByClientId(order.order_cid)).toEqual(order)
    }
    expect(new Set(all.map((o) => o.order_cid)).size).toBe(all.length)
  })

  it('keeps every order record exact: executed, filled_total and avg_price from its trades, order_total = price x amount', () => {
    const all = [...demo.openOrders(), ...demo.historyOrders()]
    for (const record of all) {
      const [pp, bp, qp] = PRECISIONS[record.pool_id] ?? [0, 0, 0]
      const withTrades = demo.order(record.pool_id, record.order_id, record.side)
      expect(withTrades).toBeDefined()
      const trades = withTrades?.trades ?? []
      for (let i = 1; i < trades.length; i++) {
        expect(trades[i]?.global_seq).toBeGreaterThan(trades[i - 1]?.global_seq ?? 0)
      }
      const base = trades.reduce((sum, t) => sum + units(t.base_quantity), 0n)
      const quote = trades.reduce((sum, t) => sum + units(t.quote_quantity), 0n)
      expect(record.executed_amount).toBe(format(base, bp))
      expect(record.filled_total).toBe(format(quote, qp))
      const avg = base === 0n ? 0n : (quote * 10n ** BigInt(pp + bp - qp)) / base
      expect(record.avg_price).toBe(format(avg, pp))
      if (record.type === 1) {
        const total =
          (units(record.order_price) * units(record.order_amount)) / 10n ** BigInt(pp + bp - qp)
        expect(record.order_total).toBe(format(total, qp))
      } else {
        expect(record.order_price).toBe('0')
      }
      if (record.status === 2) expect(record.executed_amount).toBe(record.order_amount)
      for (const trade of trades) {
        const mine = [
          ...(trade.taker === 'demo.trader' ? [trade.taker_order_id] : []),
          ...(trade.maker === 'demo.trader' ? [trade.maker_order_id] : []),
        ]
        expect(mine).toContain(record.order_id)
      }
    }
  })

  it('has trades, ascending global_seq, each with the demo account as taker or maker', () => {
    const trades = demo.trades()
    expect(trades.length).toBeGreaterThan(0)
    for (let i = 1; i < trades.length; i++) {
      expect(trades[i]?.global_seq).toBeGreaterThan(trades[i - 1]?.global_seq ?? 0)
    }
    for (const trade of trades) expect([trade.taker, trade.maker]).toContain('demo.trader')
  })

  it('has deposits and withdrawals with sids strictly increasing', () => {
    const transfers = demo.transfers()
    expect(transfers.some((t) => t.side === 'deposit')).toBe(true)
    expect(transfers.some((t) => t.side === 'withdraw')).toBe(true)
    for (let i = 1; i < transfers.length; i++) {
      expect(Number(transfers[i]?.sid)).toBeGreaterThan(Number(transfers[i - 1]?.sid))
    }
    for (const transfer of transfers) {
      expect(transfer.sid).toMatch(/^\d+$/)
      expect(transfer.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
      expect(transfer.side === 'deposit' ? transfer.to : transfer.from).toBe('demo.trader')
      expect(units(transfer.amount)).toBeGreaterThan(0n)
    }
  })

  it('numbers all transfers of the market 1, 2, 3 ... across accounts', () => {
    const all = market.truth.transfers()
    expect(all.map((t) => t.sid)).toEqual(all.map((_, index) => String(index + 1)))
    expect(new Set(all.map((t) => (t.to === 'bridge.venue' ? t.from : t.to))).size).toBeGreaterThan(
      1,
    )
  })
})

describe('simulated market: balances', () => {
  it('locks exactly what open orders reserve: quote price x unfilled for buys, unfilled base for sells', () => {
    for (const view of [demo, second]) {
      const expected = new Map<string, Map<number, bigint>>()
      for (const order of view.openOrders()) {
        const [pp, bp, qp] = PRECISIONS[order.pool_id] ?? [0, 0, 0]
        const unfilled = units(order.order_amount) - units(order.executed_amount)
        const coin = order.side === 0 ? order.pool_quote_coin : order.pool_base_coin
        const amount =
          order.side === 0
            ? (units(order.order_price) * unfilled) / 10n ** BigInt(pp + bp - qp)
            : unfilled
        const perPool = expected.get(coin) ?? new Map<number, bigint>()
        perPool.set(order.pool_id, (perPool.get(order.pool_id) ?? 0n) + amount)
        expected.set(coin, perPool)
      }
      for (const balance of view.balances()) {
        const decimals = decimalsOf(balance.balance)
        const perPool = expected.get(balance.coin) ?? new Map<number, bigint>()
        // Pool amounts have at most the coin's decimals: scale them to the balance's.
        const scaled = (poolId: number, amount: bigint): bigint => {
          const [, bp, qp] = PRECISIONS[poolId] ?? [0, 0, 0]
          const pool = market.poolDetail(String(poolId))
          const own = pool?.base_coin === balance.coin ? bp : qp
          return amount * 10n ** BigInt(decimals - own)
        }
        let total = 0n
        for (const [poolId, amount] of perPool) total += scaled(poolId, amount)
        expect(balance.locked, balance.coin).toBe(format(total, decimals))
        const locks = balance.locks.reduce((sum, lock) => sum + units(lock.balance), 0n)
        expect(format(locks, decimals)).toBe(balance.locked)
        for (const lock of balance.locks) {
          expect(format(scaled(lock.pool_id, perPool.get(lock.pool_id) ?? 0n), decimals)).toBe(
            lock.balance,
          )
          expect(lock.pool_symbol).toBe(market.poolDetail(String(lock.pool_id))?.symbol)
        }
        expect(units(balance.balance)).toBeGreaterThanOrEqual(units(balance.locked))
      }
    }
  })

  it('prices coins in the stable coin from the last prices', () => {
    const prices = new Map(demo.balances().map((b) => [b.coin, b.stablecoin_price]))
    expect(prices.get('usdt.ext-USDT')).toBe('1')
    const [chn, btc] = market.poolSummaries()
    expect(prices.get('chain.token-CHN')).toBe(chn?.last_price)
    expect(prices.get('btc.ext-BTC')).toBe(btc?.last_price)
    expect(Number(prices.get('eth.ext-ETH'))).toBeGreaterThan(1000)
    expect(demo.balances().map((b) => b.coin)).toEqual([
      'chain.token-CHN',
      'usdt.ext-USDT',
      'btc.ext-BTC',
      'eth.ext-ETH',
    ])
  })
})

describe('simulated market: pools and tokens', () => {
  it('summarises each pool over the last 24 simulated hours from its V2 trades', () => {
    for (const summary of market.poolSummaries()) {
      const trades = market.truth.publicTrades(summary.pool_id)
      const [pp, bp, qp] = PRECISIONS[summary.pool_id] ?? [0, 0, 0]
      expect(summary.trades).toBe(trades.length)
      expect(summary.volume).toBe(
        format(
          trades.reduce((sum, t) => sum + units(t.quantity), 0n),
          bp,
        ),
      )
      expect(decimalsOf(summary.turnover)).toBe(qp)
      const prices = trades.map((t) => units(t.price))
      const last = prices.at(-1) ?? 0n
      const first = prices[0] ?? 0n
      expect(summary.last_price).toBe(trades.at(-1)?.price)
      expect(summary.high).toBe(
        format(
          prices.reduce((a, b) => (b > a ? b : a)),
          pp,
        ),
      )
      expect(summary.low).toBe(
        format(
          prices.reduce((a, b) => (b < a ? b : a)),
          pp,
        ),
      )
      expect(summary.change).toBe(format(last - first, pp))
      expect(summary.change_rate).toBe(Number(format(((last - first) * 10n ** 8n) / first, 8)))
      expect(summary.updated_at).toBe(trades.at(-1)?.traded_at)
    }
  })

  it('details a pool by id digits or by symbol, with status, fees and limits', () => {
    const byId = market.poolDetail('0')
    expect(byId?.symbol).toBe('chain.token-CHN-usdt.ext-USDT')
    expect(market.poolDetail(byId?.symbol ?? '')).toEqual(byId)
    expect(byId).toMatchObject({
      pool_id: 0,
      status: 1,
      base_contract: 'chain.token',
      base_symbol: 'CHN',
      quote_contract: 'usdt.ext',
      quote_symbol: 'USDT',
      taker_fee_rate: 0.003,
      maker_fee_rate: 0.001,
      min_amount: '0.0100',
      price_precision: 4,
    })
    expect(byId?.pool_stats).toEqual(market.poolSummaries()[0])
    expect(market.poolDetail('2')?.symbol).toBe('eth.ext-ETH-chain.token-CHN')
    expect(market.poolDetail('7')).toBeUndefined()
    expect(market.poolDetail('nope')).toBeUndefined()
  })

  it('has a token per coin with string info fields, links and supported chains', () => {
    const tokens = market.tokens()
    expect(tokens.map((t) => t.symbol)).toEqual(['CHN', 'USDT', 'BTC', 'ETH'])
    const infoFields = [
      'circulating_supply',
      'fully_diluted_market_cap',
      'historical_high',
      'historical_high_date',
      'historical_low',
      'historical_low_date',
      'intro',
      'issue_date',
      'market_capitalization',
      'market_dominance',
      'maximum_supply',
      'rank',
      'total_supply',
      'volume',
      'volume_div_market_cap',
    ]
    for (const token of tokens) {
      for (const field of infoFields)
        expect(typeof token.info[field], `${token.symbol} ${field}`).toBe('string')
      expect(Array.isArray(token.info['links'])).toBe(true)
      expect(token.support_chain.length).toBeGreaterThan(0)
      expect(token.support_chain[0]?.withdraw_fee).toMatch(/^\d+\.\d+$/)
    }
    expect(market.token('USDT')?.chain_contract).toBe('usdt.ext')
    expect(market.token('usdt.ext-USDT')).toEqual(market.token('USDT'))
    expect(market.token('USDT')?.decimals).toBe(6)
    expect(market.token('XYZ')).toBeUndefined()
  })
})

describe('simulated market: records in the wire form the client reads', () => {
  it('parses every kind of record with the client schemas', () => {
    const ok = (
      schema: { safeParse(value: unknown): { success: boolean } },
      value: unknown,
    ): void => {
      const result = schema.safeParse(value)
      expect(result.success, JSON.stringify(value).slice(0, 300)).toBe(true)
    }
    for (const pool of [0, 1, 2]) {
      ok(schemas.depthSchema, market.depth(pool, 'v2', 20, '0.01'))
      for (const kline of market.klines(pool, 'v2', '1m', 0, 2e9)) ok(schemas.klineSchema, kline)
      for (const trade of market.latestTrades(pool, 'v2', 50)) ok(schemas.publicTradeSchema, trade)
    }
    for (const summary of market.poolSummaries()) ok(schemas.poolSummarySchema, summary)
    ok(schemas.poolDetailSchema, market.poolDetail('1'))
    for (const token of market.tokens()) ok(schemas.tokenSchema, token)
    ok(schemas.accountInfoSchema, demo.info())
    for (const balance of demo.balances()) ok(schemas.balanceSchema, balance)
    for (const order of demo.openOrders()) ok(schemas.openOrderSchema, order)
    for (const order of demo.historyOrders()) {
      ok(schemas.orderSchema, order)
      ok(schemas.orderWithTradesSchema, demo.order(order.pool_id, order.order_id, order.side))
    }
    for (const trade of demo.trades()) ok(schemas.tradeDetailSchema, trade)
    for (const transfer of demo.transfers()) ok(schemas.transferSchema, transfer)
  })
})
