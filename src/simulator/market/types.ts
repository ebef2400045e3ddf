/**
 * The contract between the simulated market (state, matching, AMM, accounts) and the
 * HTTP layer that serves it. Records are already in the venue's wire form: snake_case,
 * decimals as strings, times as integers of Unix seconds unless noted, so the server
 * only filters, pages, sorts and wraps them in the envelope.
 *
 * The simulator never imports the client (`src/` outside `src/simulator/`).
 */

/** `[price, quantity]`, both decimal strings. */
export type WireLevel = [price: string, quantity: string]

/** Market-data set: V1 is the order book alone, V2 adds the AMM. */
export type Source = 'v1' | 'v2'

/** `data` of /depth. `timestamp` is Unix milliseconds. */
export interface DepthRecord {
  pool_id: number
  precision: string
  timestamp: number
  bids: WireLevel[]
  asks: WireLevel[]
}

/** One candle; OHLCV are JSON numbers on the wire, as the live service sends them. */
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

/** A public trade (no id). */
export interface PublicTradeRecord {
  pool_id: number
  buyer: string
  seller: string
  price: string
  quantity: string
  side: 'buy' | 'sell'
  traded_at: number
}

/** An account trade (trade detail). */
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

/** An order with every field of the venue's order record, the history-only ones included. */
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

/** A deposit or withdrawal. `sid` is a digit string; `created_at` ISO-8601 with ms and Z. */
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

/** A balance entry. */
export interface BalanceRecord {
  coin: string
  balance: string
  locked: string
  locks: { balance: string; pool_id: number; pool_symbol: string }[]
  stablecoin_price: string
}

/** Account info. */
export interface AccountInfoRecord {
  chain_account: string
  parent_chain_account: string
  permission: string
}

/** Pool summary (also `pool_stats`). */
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

/** Pool detail. */
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

/** A token with `info` and `support_chain`. */
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

/** What one API key sees. Lists are in the order named; the server filters and pages. */
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
  /** One order of this account by client id, or undefined. */
  orderByClientId(cid: string): OrderRecord | undefined
  /** Every trade of this account, ascending global_seq. */
  trades(): TradeDetailRecord[]
  /** Every transfer of this account, ascending sid. */
  transfers(): TransferRecord[]
}

/** Ground truth for tests. */
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
  /** Client id (`order_cid`), unique within the account; default `sim-<n>`. Visible ASCII, 1 to 64 characters. */
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

/** A {@link Market} whose ground truth includes every optional member, and that takes orders. */
export interface SimulatedMarket extends Market {
  readonly truth: Required<MarketTruth>
  placeOrder(request: PlaceOrderRequest): PlacedOrder
  cancelOrder(id: string): true
}

/** The market the server serves. Deterministic: same seed, same ticks, same answers. */
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

/** Pool configuration. */
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

/** Settings of {@link createMarket}. */
export interface MarketOptions {
  seed: number
  tickMs: number
  /** Start of simulated time, Unix ms. Default 1_700_000_000_000. */
  startTime?: number
  pools?: PoolConfig[]
}
