/**
 * The contract between the simulated market (state, matching, AMM, accounts) and the
 * HTTP layer that serves it. Records are already in the venue's wire form: snake_case,
 * decimals as strings, times as integers of Unix seconds unless noted, so the server
 * only filters, pages, sorts and wraps them in the envelope.
 *
 * The simulator never imports the client (`src/` outside `src/simulator/`).
 */
import type { BurstSpec } from './burst-spec.js'
import type { Quirks } from './quirks.js'

/**
 * `[price, quantity]`, both decimal strings.
 *
 * @example
 * ```ts
 * import type { WireLevel } from 'venue-rx/simulator'
 *
 * const { bids } = sim.truth.book(0, 'v2')
 * const best: WireLevel | undefined = bids[0] // ['1.0475', '22.8103']
 * ```
 */
export type WireLevel = [price: string, quantity: string]

/**
 * Market-data set: V1 is the order book alone, V2 adds the AMM.
 *
 * @example
 * ```ts
 * import type { Source } from 'venue-rx/simulator'
 *
 * const source: Source = 'v1' // the engine's book alone; 'v2' adds the AMM's levels
 * sim.market.depth(0, source, 5, '0.0001')
 * ```
 */
export type Source = 'v1' | 'v2'

/**
 * `data` of /depth. `timestamp` is Unix milliseconds.
 *
 * @example
 * ```ts
 * import type { DepthRecord } from 'venue-rx/simulator'
 *
 * const depth: DepthRecord | undefined = sim.market.depth(0, 'v2', 1, '0.0001')
 * // { pool_id: 0, precision: '0.0001', timestamp: 1700000100000,
 * //   bids: [['1.0475', '22.8103']], asks: [['1.0477', '355.1400']] }
 * ```
 */
export interface DepthRecord {
  pool_id: number
  precision: string
  timestamp: number
  bids: WireLevel[]
  asks: WireLevel[]
}

/**
 * One candle; OHLCV are JSON numbers on the wire, as the live service sends them.
 *
 * @example
 * ```ts
 * import type { KlineRecord } from 'venue-rx/simulator'
 *
 * const candles: KlineRecord[] = sim.market.klines(0, 'v2', '1m', 1700000040, 1700000100)
 * // [..., { pool_id: 0, interval: '1m', open: 1.0474, high: 1.0474, low: 1.0462, close: 1.0462,
 * //         volume: 1322.14, turnover: 1384.552712, count: 4, timestamp: 1700000100 }]
 * ```
 */
export interface KlineRecord {
  pool_id: number
  interval: string
  open: number
  high: number
  low: number
  close: number
  volume: number
  turnover: number
  count: number
  /** Start of the candle, Unix seconds. */
  timestamp: number
}

/**
 * A public trade (no id).
 *
 * @example
 * ```ts
 * import type { PublicTradeRecord } from 'venue-rx/simulator'
 *
 * const [newest]: PublicTradeRecord[] = sim.market.latestTrades(0, 'v2', 1)
 * // { pool_id: 0, buyer: 'mm.alpha', seller: 'flow.two', price: '1.0462', quantity: '113.0500',
 * //   side: 'sell', traded_at: 1700000100 }
 * ```
 */
export interface PublicTradeRecord {
  pool_id: number
  buyer: string
  seller: string
  price: string
  quantity: string
  side: 'buy' | 'sell'
  traded_at: number
}

/**
 * An account trade (trade detail).
 *
 * @example
 * ```ts
 * import type { TradeDetailRecord } from 'venue-rx/simulator'
 *
 * const trades: TradeDetailRecord[] = sim.truth.trades()
 * trades.at(-1)
 * // { global_seq: 1058, pool_id: 2, price: '2197.0', base_quantity: '0.03800',
 * //   taker: 'demo.trader', taker_order_id: 670, maker: 'mm.alpha', maker_order_id: 610,
 * //   timestamp: 1700000100, ... }
 * ```
 */
export interface TradeDetailRecord {
  global_seq: number
  tx_id: string
  pool_id: number
  base_coin: string
  quote_coin: string
  base_quantity: string
  quote_quantity: string
  price: string
  timestamp: number
  taker: string
  taker_fee: string
  taker_is_bid: boolean
  taker_order_id: number
  taker_order_cid: string
  taker_permission: string
  maker: string
  maker_fee: string
  maker_order_id: number
  maker_order_cid: string
  maker_permission: string
}

/**
 * An order with every field of the venue's order record, the history-only ones included.
 *
 * @example
 * ```ts
 * import type { OrderRecord } from 'venue-rx/simulator'
 *
 * const open: OrderRecord[] = sim.market.account(sim.apiKey)?.openOrders() ?? []
 * // [{ id: '1-659-0', order_id: 659, side: 0, type: 1, status: 0, history: false,
 * //    order_price: '42905.22', order_amount: '0.009300', order_time: 1700000098, ... }]
 * ```
 */
export interface OrderRecord {
  id: string
  order_id: number
  order_cid: string
  pool_id: number
  pool_symbol: string
  pool_base_coin: string
  pool_quote_coin: string
  base_coin_precision: number
  quote_coin_precision: number
  side: 0 | 1
  type: 0 | 1
  order_price: string
  order_amount: string
  order_total: string
  avg_price: string
  executed_amount: string
  order_time: number
  trader: string
  filled_total: string
  history: boolean
  permission: string
  status: 0 | 1 | 2 | 3 | 4
  unread: boolean
}

/**
 * A deposit or withdrawal. `sid` is a digit string; `created_at` ISO-8601 with ms and Z.
 *
 * @example
 * ```ts
 * import type { TransferRecord } from 'venue-rx/simulator'
 *
 * const transfers: TransferRecord[] = sim.truth.transfers()
 * transfers.at(-1)
 * // { sid: '93', side: 'deposit', symbol: 'CHN', amount: '4302.6060', from: 'bridge.venue',
 * //   to: 'demo.trader', created_at: '2023-11-14T22:14:59.500Z', ... }
 * ```
 */
export interface TransferRecord {
  amount: string
  contract: string
  symbol: string
  from: string
  to: string
  tx_id: string
  side: 'deposit' | 'withdraw'
  sid: string
  name: string
  created_at: string
}

/**
 * A balance entry.
 *
 * @example
 * ```ts
 * import type { BalanceRecord } from 'venue-rx/simulator'
 *
 * const balances: BalanceRecord[] = sim.market.account(sim.apiKey)?.balances() ?? []
 * // [{ coin: 'chain.token-CHN', balance: '90015.9615', locked: '0.0000', locks: [],
 * //    stablecoin_price: '1.0462' }, ...]
 * ```
 */
export interface BalanceRecord {
  coin: string
  balance: string
  locked: string
  locks: { balance: string; pool_id: number; pool_symbol: string }[]
  stablecoin_price: string
}

/**
 * Account info.
 *
 * @example
 * ```ts
 * import type { AccountInfoRecord } from 'venue-rx/simulator'
 *
 * const info: AccountInfoRecord | undefined = sim.market.account(sim.apiKey)?.info()
 * // { chain_account: 'demo.trader', parent_chain_account: 'venue.users', permission: 'active' }
 * ```
 */
export interface AccountInfoRecord {
  chain_account: string
  parent_chain_account: string
  permission: string
}

/**
 * Pool summary (also `pool_stats`).
 *
 * @example
 * ```ts
 * import type { PoolSummaryRecord } from 'venue-rx/simulator'
 *
 * const [first]: PoolSummaryRecord[] = sim.market.poolSummaries()
 * // { pool_id: 0, symbol: 'chain.token-CHN-usdt.ext-USDT', last_price: '1.0462',
 * //   change_rate: 0.00162757, trades: 495, updated_at: 1700000100, ... }
 * ```
 */
export interface PoolSummaryRecord {
  pool_id: number
  symbol: string
  base_coin: string
  quote_coin: string
  base_coin_precision: number
  quote_coin_precision: number
  price_precision: number
  last_price: string
  high: string
  low: string
  change: string
  change_rate: number
  trades: number
  volume: string
  turnover: string
  updated_at: number
}

/**
 * Pool detail.
 *
 * @example
 * ```ts
 * import type { PoolDetailRecord } from 'venue-rx/simulator'
 *
 * const pool: PoolDetailRecord | undefined = sim.market.poolDetail('0') // by id or symbol
 * // { pool_id: 0, status: 1, maker_fee_rate: 0.001, taker_fee_rate: 0.003, min_amount: '0.0100',
 * //   pool_stats: { last_price: '1.0462', ... }, ... }
 * ```
 */
export interface PoolDetailRecord {
  pool_id: number
  symbol: string
  status: 0 | 1
  base_coin: string
  quote_coin: string
  base_contract: string
  quote_contract: string
  base_symbol: string
  quote_symbol: string
  base_coin_precision: number
  quote_coin_precision: number
  price_precision: number
  maker_fee_rate: number
  taker_fee_rate: number
  min_amount: string
  max_flct: number
  asking_time: number
  trading_time: number
  pool_stats: PoolSummaryRecord
}

/**
 * A token with `info` and `support_chain`.
 *
 * @example
 * ```ts
 * import type { TokenRecord } from 'venue-rx/simulator'
 *
 * const chn: TokenRecord | undefined = sim.market.token('CHN')
 * // { symbol: 'CHN', name: 'Chain Token', decimals: 4, chain_contract: 'chain.token',
 * //   info: { rank: '1', ..., links: [{ name: 'website', url: '...' }] }, support_chain: [...] }
 * ```
 */
export interface TokenRecord {
  symbol: string
  name: string
  decimals: number
  chain_contract: string
  ext_decimals: number
  ext_token_address: string
  icon_url: string
  info: Record<string, string | { name: string; url: string }[]>
  support_chain: {
    chain_id: number
    chain_name: string
    permission_id: number
    withdraw_fee: string
    ext_withdraw_fee: string
    min_deposit_amount: string
    min_withdraw_amount: string
  }[]
}

/**
 * What one API key sees. Lists are in the order named; the server filters and pages.
 *
 * @example
 * ```ts
 * import type { AccountView } from 'venue-rx/simulator'
 *
 * const view: AccountView | undefined = sim.market.account(sim.apiKey)
 * view?.info().chain_account     // 'demo.trader'
 * view?.openOrders().length      // working orders, newest first
 * view?.order(2, 670, 1)?.trades // the order's fills, ascending global_seq
 * ```
 */
export interface AccountView {
  info(): AccountInfoRecord
  balances(): BalanceRecord[]
  /** Working orders, newest first. */
  openOrders(): OrderRecord[]
  /** Final orders, newest first. */
  historyOrders(): OrderRecord[]
  /** One order of this account with its trades (ascending global_seq), or undefined. */
  order(
    poolId: number,
    orderId: number,
    side: 0 | 1,
  ): (OrderRecord & { trades: TradeDetailRecord[] }) | undefined
  /**
   * One order of this account by client id, or undefined. When several orders used the
   * client id (allowed once the earlier ones were final), the newest the venue shows.
   */
  orderByClientId(cid: string): OrderRecord | undefined
  /**
   * Optional (the built-in market has it): the HTTP status to answer for an order `order`
   * does not show because the venue purged it (quirk `purgeCanceledAfterMs`): the quirk's
   * `purgeStatus`. Undefined when no purged order has this id: the answer for an unknown
   * order, 500 `service internal error`.
   */
  purgedOrder?(poolId: number, orderId: number, side: 0 | 1): 404 | 500 | undefined
  /** Optional: as {@link AccountView.purgedOrder}, for `orderByClientId`. */
  purgedOrderByClientId?(cid: string): 404 | 500 | undefined
  /** Every trade of this account, ascending global_seq. */
  trades(): TradeDetailRecord[]
  /** Every transfer of this account, ascending sid. */
  transfers(): TransferRecord[]
}

/**
 * Ground truth for tests.
 *
 * @example
 * ```ts
 * import { compareDecimal, subtractDecimal } from 'venue-rx'
 * import type { MarketTruth } from 'venue-rx/simulator'
 *
 * // a test: every coin is conserved, tick after tick
 * const truth: MarketTruth = sim.truth
 * sim.advance(100)
 * const genesis = truth.genesisSupply?.() ?? {}
 * const net = truth.netTransfers()
 * for (const [coin, total] of Object.entries(truth.coinTotals())) {
 *   expect(compareDecimal(subtractDecimal(total, net[coin] ?? '0'), genesis[coin] ?? '0')).toBe(0)
 * }
 * ```
 */
export interface MarketTruth {
  /** The book the pool serves now, full depth, no grouping (V2 = engine plus AMM levels). */
  book(poolId: number, source: Source): { bids: WireLevel[]; asks: WireLevel[] }
  /** The engine's own book only (resting orders), full depth. */
  engineBook(poolId: number): { bids: WireLevel[]; asks: WireLevel[] }
  /** The AMM's levels only, as mapped into the V2 book. */
  ammBook(poolId: number): { bids: WireLevel[]; asks: WireLevel[] }
  /** Every engine trade of every account, ascending global_seq. */
  trades(): TradeDetailRecord[]
  /** Every public trade ever (V2 set: engine and AMM), oldest first. */
  publicTrades(poolId?: number): PublicTradeRecord[]
  /** Every transfer ever, ascending sid. */
  transfers(): TransferRecord[]
  /** Every order ever, by id. */
  orders(): OrderRecord[]
  /**
   * One order as {@link orders} lists it, found by its id (`{pool_id}-{order_id}-{side}`),
   * or `undefined` when the market does not keep it (never placed, or a crowd order
   * dropped among the oldest final ones). A test following a few orders reads them here
   * instead of building every order's record.
   */
  order(id: string): OrderRecord | undefined
  /**
   * Total of each coin held anywhere (accounts' balances incl. locked, AMM reserves,
   * fee account). Coins are conserved when `coinTotals()[c] - netTransfers()[c]` equals
   * `genesisSupply()[c]` at every tick. Exact decimal strings keyed by coin.
   */
  coinTotals(): Record<string, string>
  /** Net deposits minus withdrawals per coin since genesis (exact decimal strings). */
  netTransfers(): Record<string, string>
  /**
   * The supply each coin started with (genesis endowments of the accounts plus the AMM
   * reserves), exact decimal strings keyed by coin. Not a transfer.
   */
  genesisSupply?(): Record<string, string>
}

/**
 * An order for {@link Market.placeOrder} (and `Simulator.placeOrder`). Amounts and prices
 * are exact decimal strings, as the venue serves them.
 *
 * @example
 * ```ts
 * const request: PlaceOrderRequest = {
 *   poolId: 0,
 *   side: 'buy',
 *   type: 'limit',
 *   price: '1.0400',
 *   amount: '25',
 *   clientId: 'bot-1',
 * }
 * ```
 */
export interface PlaceOrderRequest {
  /** API key of the simulated account that places it; default the demo account (the first key). */
  readonly account?: string
  /** Pool id (0, 1, 2 ... as in `/pools`). */
  readonly poolId: number
  readonly side: 'buy' | 'sell'
  /** `'limit'` rests what does not fill at once; `'market'` takes the book and drops the rest. */
  readonly type: 'limit' | 'market'
  /** Limit price, at most the pool's price decimals; required for a limit order, refused for a market order. */
  readonly price?: string
  /**
   * Base quantity, for every order (a market buy too): positive, a multiple of the pool's
   * `min_amount` (its lot, e.g. `0.01` CHN in CHN/USDT).
   */
  readonly amount: string
  /**
   * Client id (`order_cid`); default `sim-<n>`. Visible ASCII, 1 to 64 characters. Refused
   * while another order of the account with this client id is working; once every such
   * order is final it may be used again, as on the live venue, and
   * `/orders/client-id/{cid}` answers the newest order with it.
   */
  readonly clientId?: string
  /**
   * Ticks during which the order endpoints do not show the order yet, to test a bot with
   * an order the venue answers like an unknown one: `/orders/{id}` and
   * `/orders/client-id/{cid}` answer 500 `service internal error` and the order lists
   * leave it out. Matching happens at once (its fills are in `/trades` and `/balances`).
   * Default 0.
   */
  readonly hiddenForTicks?: number
}

/**
 * What {@link Market.placeOrder} answers: the composite order id `{pool_id}-{order_id}-{side}`
 * (side 0 buy, 1 sell) exactly as the HTTP API serves it, and the client id.
 *
 * @example
 * ```ts
 * const placed: PlacedOrder = { id: '0-57-0', clientId: 'bot-1' }
 * ```
 */
export interface PlacedOrder {
  readonly id: string
  readonly clientId: string
}

/**
 * A {@link Market} whose ground truth includes every optional member, and that takes orders.
 *
 * @example
 * ```ts
 * import { createMarket, type SimulatedMarket } from 'venue-rx/simulator'
 *
 * const market: SimulatedMarket = createMarket({ seed: 7, tickMs: 1000 })
 * market.tick()
 * const order = { poolId: 0, side: 'buy', type: 'limit', price: '1.0400', amount: '25' } as const
 * const { id } = market.placeOrder(order) // '0-25-0'
 * market.cancelOrder(id) // true
 * market.truth.genesisSupply() // never undefined here: { 'chain.token-CHN': '...', ... }
 * ```
 */
export interface SimulatedMarket extends Market {
  readonly truth: Required<MarketTruth>
  placeOrder(request: PlaceOrderRequest): PlacedOrder
  cancelOrder(id: string): true
}

/**
 * The market the server serves. Deterministic: same seed, same ticks, same answers.
 *
 * @example
 * ```ts
 * import { createMarket, createSimulatorServer, type Market } from 'venue-rx/simulator'
 *
 * const market: Market = createMarket({ seed: 1, tickMs: 250 })
 * for (let i = 0; i < 40; i += 1) market.tick()
 * market.ticks() // 40
 * market.now()   // 1700000010000: 40 ticks of 250 ms after the start
 * createSimulatorServer({ market }).listen(8787, '127.0.0.1')
 * ```
 */
export interface Market {
  /** Simulated time in Unix milliseconds (advances `tickMs` per tick). */
  now(): number
  /** Ticks so far. */
  ticks(): number
  /** Advances the market by one tick (traders act, orders match, AMM swaps, transfers happen). */
  tick(): void
  depth(poolId: number, source: Source, limit: number, precision: string): DepthRecord | undefined
  /** Candles with a start in [startSec, endSec], ascending. V1: engine trades only. */
  klines(
    poolId: number,
    source: Source,
    interval: string,
    startSec: number,
    endSec: number,
  ): KlineRecord[]
  /** Newest first; undefined poolId = all pools. */
  latestTrades(poolId: number | undefined, source: Source, limit: number): PublicTradeRecord[]
  poolSummaries(): PoolSummaryRecord[]
  poolDetail(idOrSymbol: string): PoolDetailRecord | undefined
  tokens(): TokenRecord[]
  token(symbol: string): TokenRecord | undefined
  /** The account behind an API key, or undefined for an unknown key. */
  account(apiKey: string): AccountView | undefined
  /** API keys of the simulated accounts (the first is the demo account). */
  apiKeys(): string[]
  readonly truth: MarketTruth
  /**
   * Places an order for an account with an API key, at the current simulated time, through
   * the pool's matching engine (price-time priority, fees, balance locking): it shows in the
   * account's endpoints like any other order. An order the balance cannot cover ends
   * `rejected` (status 4), as the engine does it. Throws a `RangeError` or `TypeError`
   * naming the field for bad input, and nothing changes then. Optional: a market of your
   * own may leave it out.
   *
   * @example
   * ```ts
   * const market = createMarket({ seed: 1, tickMs: 250 })
   * const { id } = market.placeOrder({ poolId: 0, side: 'sell', type: 'limit', price: '1.0600', amount: '10' })
   * // e.g. '0-25-1' (pool 0, order 25, sell)
   * ```
   */
  placeOrder?(request: PlaceOrderRequest): PlacedOrder
  /**
   * Cancels a working order of any account by its composite id `{pool_id}-{order_id}-{side}`;
   * returns `true`. Throws a `RangeError` for an unknown id or an order that is already
   * final. Canceled after a partial fill, the order keeps status 1 in the history set, as
   * the live service shows it. Optional, like `placeOrder`.
   *
   * @example
   * ```ts
   * market.cancelOrder(id) // true
   * ```
   */
  cancelOrder?(id: string): true
}

/**
 * Pool configuration.
 *
 * @example
 * ```ts
 * import { type PoolConfig, startSimulator } from 'venue-rx/simulator'
 *
 * const sol: PoolConfig = {
 *   base: 'SOL', // coin 'sol.token-SOL' (contract from the symbol)
 *   quote: 'USDT',
 *   price: '98.50',
 *   pricePrecision: 2,
 *   basePrecision: 3,
 *   quotePrecision: 6,
 * }
 * const sim = await startSimulator({ pools: [sol] }) // pool 0: sol.token-SOL-usdt.ext-USDT
 * ```
 */
export interface PoolConfig {
  /** e.g. 'CHN' */
  base: string
  /** e.g. 'USDT' */
  quote: string
  /** Starting mid price, decimal string. */
  price: string
  /** Decimals of prices. */
  pricePrecision: number
  /** Decimals of base quantities. */
  basePrecision: number
  /** Decimals of quote amounts. */
  quotePrecision: number
  /** Token contract of the base coin; default from the symbol (`CHN` -> `chain.token`). */
  baseContract?: string
  /** Token contract of the quote coin; default from the symbol (`USDT` -> `usdt.ext`). */
  quoteContract?: string
}

/**
 * Settings of {@link createMarket}.
 *
 * @example
 * ```ts
 * import { createMarket, type MarketOptions, Quirks } from 'venue-rx/simulator'
 *
 * const options: MarketOptions = { seed: 42, tickMs: 500, startTime: Date.UTC(2024, 0, 1) }
 * const market = createMarket(options) // same options, same ticks: the same market every time
 * const late = createMarket({ ...options, quirks: new Quirks({ ordersLagMs: 1000 }) })
 * ```
 */
export interface MarketOptions {
  seed: number
  tickMs: number
  /** Start of simulated time, Unix ms. Default 1_700_000_000_000. */
  startTime?: number
  pools?: PoolConfig[]
  /**
   * The quirk controller whose spec the account endpoints honour, read on every request
   * (`startSimulator` passes `sim.quirks`); default none. A market of your own may ignore it.
   */
  quirks?: Quirks
  /**
   * The bursty regime (see {@link BurstSpec}): each pool alternates bursts of crowd
   * activity and quiet spells, the demo account trades at market every few seconds, and
   * the keyed accounts' own strategies stay idle. Default off (the crowd acts in every
   * pool every tick). A market of your own may ignore it.
   */
  bursts?: BurstSpec
}
