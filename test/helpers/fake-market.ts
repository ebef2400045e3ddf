/**
 * A small, fully predictable `Market` for tests of the simulator's HTTP layer. It holds
 * fixed data (sizes chosen by the test) and records the arguments of the market-data
 * calls, so tests can check what the server passed through.
 */
import type {
  AccountView,
  DepthRecord,
  KlineRecord,
  Market,
  MarketTruth,
  OrderRecord,
  PoolDetailRecord,
  PoolSummaryRecord,
  PublicTradeRecord,
  Source,
  TokenRecord,
  TradeDetailRecord,
  TransferRecord,
} from '../../src/simulator/market/types.js'

/** API key of the fake demo account. */
export const KEY_A = 'k-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'
/** API key of a second fake account. */
export const KEY_B = 'k-BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB'
/** Start of the fake market's time, Unix ms. */
export const START_MS = 1_700_000_000_000

/** Sizes of the fake data. */
export interface FakeMarketOptions {
  /** Account A's trades (default 537). */
  readonly trades?: number
  /** Account A's transfers (default 123). */
  readonly transfers?: number
  /** Account A's history orders (default 250). */
  readonly historyOrders?: number
  /** Account A's open orders (default 30). */
  readonly openOrders?: number
  readonly tickMs?: number
}

/** Arguments of the last market-data calls. */
export interface FakeCalls {
  depth?: { poolId: number; source: Source; limit: number; precision: string }
  klines?: { poolId: number; source: Source; interval: string; start: number; end: number }
  latestTrades?: { poolId: number | undefined; source: Source; limit: number }
}

/** A fake market with its recorded calls. */
export interface FakeMarket extends Market {
  readonly calls: FakeCalls
}

function summary(poolId: number, base: string, pricePrecision: number): PoolSummaryRecord {
  return {
    pool_id: poolId,
    symbol: `chain.token-${base}-usdt.ext-USDT`,
    base_coin: `chain.token-${base}`,
    quote_coin: 'usdt.ext-USDT',
    base_coin_precision: 4,
    quote_coin_precision: 6,
    price_precision: pricePrecision,
    last_price: '1.0455',
    high: '1.05',
    low: '1.03',
    change: '0.01',
    change_rate: 0.0096,
    trades: 42,
    volume: '1200.5',
    turnover: '1254.1',
    updated_at: START_MS / 1000,
  }
}

function detail(stats: PoolSummaryRecord): PoolDetailRecord {
  return {
    pool_id: stats.pool_id,
    symbol: stats.symbol,
    status: 1,
    base_coin: stats.base_coin,
    quote_coin: stats.quote_coin,
    base_contract: 'chain.token',
    quote_contract: 'usdt.ext',
    base_symbol: stats.base_coin.split('-')[1] ?? '',
    quote_symbol: 'USDT',
    base_coin_precision: 4,
    quote_coin_precision: 6,
    price_precision: stats.price_precision,
    maker_fee_rate: 0.001,
    taker_fee_rate: 0.003,
    min_amount: '1',
    max_flct: 10,
    asking_time: START_MS / 1000,
    trading_time: START_MS / 1000,
    pool_stats: stats,
  }
}

function order(index: number, trader: string, history: boolean): OrderRecord {
  const poolId = index % 2
  const side = (index % 3 === 0 ? 1 : 0) as 0 | 1
  return {
    id: `${poolId}-${index}-${side}`,
    order_id: index,
    order_cid: `cid-${trader}-${index}`,
    pool_id: poolId,
    pool_symbol: `pool-${poolId}`,
    pool_base_coin: 'chain.token-CHN',
    pool_quote_coin: 'usdt.ext-USDT',
    base_coin_precision: 4,
    quote_coin_precision: 6,
    side,
    type: history && index % 4 === 0 ? 0 : 1,
    order_price: '1.04',
    order_amount: '10',
    order_total: '10.4',
    avg_price: '1.04',
    executed_amount: history ? '10' : '0',
    order_time: START_MS / 1000 + index,
    trader,
    filled_total: history ? '10.4' : '0',
    history,
    permission: 'active',
    status: history ? ((2 + (index % 2)) as 2 | 3) : 0,
    unread: false,
  }
}

function trade(index: number): TradeDetailRecord {
  return {
    // Sequences with gaps (other accounts' trades), timestamps several per second.
    global_seq: 1000 + index * 3,
    tx_id: `tx-${index}`,
    pool_id: index % 2,
    base_coin: 'chain.token-CHN',
    quote_coin: 'usdt.ext-USDT',
    base_quantity: '1',
    quote_quantity: '1.04',
    price: '1.04',
    timestamp: START_MS / 1000 + Math.floor(index / 4),
    taker: 'alice',
    taker_fee: '0.003',
    taker_is_bid: index % 2 === 0,
    taker_order_id: index,
    taker_order_cid: '',
    taker_permission: 'active',
    maker: 'bob',
    maker_fee: '0.001',
    maker_order_id: index + 1,
    maker_order_cid: '',
    maker_permission: 'active',
  }
}

function transfer(index: number): TransferRecord {
  // Two transfers per millisecond value (ties broken by sid); sid grows from 9 to 10 digits.
  const ms = START_MS + Math.floor(index / 2) * 1000
  return {
    amount: '100',
    contract: 'usdt.ext',
    symbol: 'USDT',
    from: index % 2 === 0 ? 'ext' : 'alice',
    to: index % 2 === 0 ? 'alice' : 'ext',
    tx_id: `ttx-${index}`,
    side: index % 2 === 0 ? 'deposit' : 'withdraw',
    sid: String(999_999_950 + index),
    name: 'USDT',
    created_at: new Date(ms).toISOString(),
  }
}

function token(symbol: string): TokenRecord {
  return {
    symbol,
    name: symbol,
    decimals: 4,
    chain_contract: 'chain.token',
    ext_decimals: 18,
    ext_token_address: '0x0',
    icon_url: '',
    info: { intro: symbol, links: [{ name: 'site', url: 'https://example.com' }] },
    support_chain: [],
  }
}

function account(
  trader: string,
  history: OrderRecord[],
  open: OrderRecord[],
  trades: TradeDetailRecord[],
  transfers: TransferRecord[],
): AccountView {
  const all = [...open, ...history]
  return {
    info: () => ({ chain_account: trader, parent_chain_account: '', permission: 'active' }),
    balances: () => [
      { coin: 'usdt.ext-USDT', balance: '1000', locked: '0', locks: [], stablecoin_price: '1' },
    ],
    openOrders: () => open,
    historyOrders: () => history,
    order: (poolId, orderId, side) => {
      const found = all.find(
        (o) => o.pool_id === poolId && o.order_id === orderId && o.side === side,
      )
      return found === undefined ? undefined : { ...found, trades: [] }
    },
    orderByClientId: (cid) => all.find((o) => o.order_cid === cid),
    trades: () => trades,
    transfers: () => transfers,
  }
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i)

/** Creates a fake market (see {@link FakeMarketOptions}). */
export function createFakeMarket(options: FakeMarketOptions = {}): FakeMarket {
  const tickMs = options.tickMs ?? 250
  const historyCount = options.historyOrders ?? 250
  const openCount = options.openOrders ?? 30
  // Newest first: highest index first.
  const history = range(historyCount)
    .map((i) => order(i + 1, 'alice', true))
    .reverse()
  const open = range(openCount)
    .map((i) => order(historyCount + i + 1, 'alice', false))
    .reverse()
  const trades = range(options.trades ?? 537).map(trade)
  const transfers = range(options.transfers ?? 123).map(transfer)
  const pools = [summary(0, 'CHN', 4), summary(1, 'BTC', 2)]
  const accounts = new Map<string, AccountView>([
    [KEY_A, account('alice', history, open, trades, transfers)],
    [KEY_B, account('bob', [order(9001, 'bob', true)], [], [], [])],
  ])
  const calls: FakeCalls = {}
  let ticks = 0

  const truth: MarketTruth = {
    book: () => ({ bids: [], asks: [] }),
    engineBook: () => ({ bids: [], asks: [] }),
    ammBook: () => ({ bids: [], asks: [] }),
    trades: () => trades,
    publicTrades: () => [],
    transfers: () => transfers,
    orders: () => [...open, ...history],
    order: (id) => [...open, ...history].find((o) => o.id === id),
    coinTotals: () => ({}),
    netTransfers: () => ({}),
  }

  return {
    calls,
    truth,
    now: () => START_MS + ticks * tickMs,
    ticks: () => ticks,
    tick: () => {
      ticks += 1
    },
    depth: (poolId, source, limit, precision): DepthRecord | undefined => {
      calls.depth = { poolId, source, limit, precision }
      if (!pools.some((p) => p.pool_id === poolId)) return undefined
      return {
        pool_id: poolId,
        precision,
        timestamp: START_MS + ticks * tickMs,
        bids: [['1.04', '10']],
        asks: [['1.05', '7']],
      }
    },
    klines: (poolId, source, interval, start, end): KlineRecord[] => {
      calls.klines = { poolId, source, interval, start, end }
      return [
        {
          pool_id: poolId,
          interval,
          open: 1,
          high: 2,
          low: 0.5,
          close: 1.5,
          volume: 10,
          turnover: 15,
          count: 3,
          timestamp: start,
        },
      ]
    },
    latestTrades: (poolId, source, limit): PublicTradeRecord[] => {
      calls.latestTrades = { poolId, source, limit }
      return range(Math.min(limit, 3)).map((i) => ({
        pool_id: poolId ?? 0,
        buyer: 'alice',
        seller: 'bob',
        price: '1.04',
        quantity: '1',
        side: source === 'v1' ? 'buy' : 'sell',
        traded_at: START_MS / 1000 - i,
      }))
    },
    poolSummaries: () => pools,
    poolDetail: (idOrSymbol) => {
      const stats = pools.find((p) => String(p.pool_id) === idOrSymbol || p.symbol === idOrSymbol)
      return stats === undefined ? undefined : detail(stats)
    },
    tokens: () => [token('CHN'), token('USDT')],
    token: (symbol) => (['CHN', 'USDT'].includes(symbol) ? token(symbol) : undefined),
    account: (apiKey) => accounts.get(apiKey),
    apiKeys: () => [KEY_A, KEY_B],
  }
}
