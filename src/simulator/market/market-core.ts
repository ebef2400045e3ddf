/**
 * The market's state and the three ways it changes: orders (through the matching
 * engines), AMM swaps and transfers. Traders act through this object; the public
 * {@link Market} reads from it.
 *
 * Retention: engine trades are kept for the ground truth up to {@link MAX_TRADE_LOG}
 * (accounts with an API key keep all of theirs); final orders of the simulated crowd are
 * kept up to {@link MAX_CROWD_FINAL_ORDERS}, working orders and keyed accounts' orders always.
 *
 * @packageDocumentation
 */
import { Accounts } from './accounts.js'
import { AmmPool } from './amm-pool.js'
import { Ledger, type LedgerCoin } from './ledger.js'
import { PoolMarketData } from './market-data.js'
import { type Fill, MatchingEngine, type OrderRequest } from './matching-engine.js'
import { type Order, orderKey } from './order.js'
import { OrderVersions } from './order-versions.js'
import { type PoolSpec, priceOf, quoteAmount } from './pool-spec.js'
import { Random } from './random.js'
import { publicTrade, tradeDetail } from './trade-records.js'
import { TransferDesk } from './transfer-desk.js'
import type { TradeDetailRecord } from './types.js'

/** Engine trades kept for the ground truth. */
export const MAX_TRADE_LOG = 50_000

/** Final orders of crowd accounts kept for the ground truth. */
export const MAX_CROWD_FINAL_ORDERS = 20_000

/** AMM reserves at genesis, in typical order sizes of base (and their quote value). */
const AMM_DEPTH = 1000n

/** Settings of the core. */
export interface CoreOptions {
  readonly seed: number
  readonly tickMs: number
  readonly startTime: number
  readonly pools: readonly PoolSpec[]
}

/** Market state and actions. */
export class MarketCore {
  readonly seed: number
  readonly random: Random
  readonly pools: readonly PoolSpec[]
  readonly ledger: Ledger
  readonly engines: readonly MatchingEngine[]
  readonly amms: readonly AmmPool[]
  readonly data: readonly PoolMarketData[]
  readonly accounts: Accounts
  readonly transfers: TransferDesk
  /** Engine trades, ascending global_seq (capped). */
  readonly tradeLog: TradeDetailRecord[] = []
  /** Orders by composite id, creation order. */
  readonly orders = new Map<string, Order>()
  /** Genesis supply per coin, ledger units. */
  readonly genesis = new Map<string, bigint>()
  /** Past states of the keyed accounts' orders, for the quirks that lag the order endpoints. */
  readonly versions = new OrderVersions()
  /** When each trade of a keyed account happened, simulated ms (records carry whole seconds). */
  readonly tradeTimes = new WeakMap<TradeDetailRecord, number>()
  /** Ticks so far; move it on with {@link MarketCore.nextTick}. */
  ticks = 0
  /**
   * Grows with every order placed or canceled and every swap, whenever it happens (in a
   * tick or between ticks, through `placeOrder`): caches of the books key on it.
   */
  revision = 0
  readonly #startTime: number
  readonly #tickMs: number
  #globalSeq = 0
  #publicSeq = 0
  #orderSeq = 0
  readonly #finalCrowdOrders: string[] = []

  constructor(options: CoreOptions) {
    const { seed, pools } = options
    this.seed = seed
    this.random = new Random(seed)
    this.pools = pools
    this.#startTime = options.startTime
    this.#tickMs = options.tickMs
    this.ledger = new Ledger(ledgerCoins(pools))
    this.accounts = new Accounts(seed)
    this.transfers = new TransferDesk(this.ledger, {
      seed,
      nowMs: () => this.nowMs(),
      onTransfer: (account, record) => this.accounts.addTransfer(account, record),
    })
    const hooks = {
      nowSec: () => this.nowSec(),
      nextOrderSeq: () => ++this.#orderSeq,
      keepsTrades: (account: string) => this.accounts.named(account) !== undefined,
      onCreate: (order: Order) => this.#onCreate(order),
      onFill: (fill: Fill) => this.#onFill(fill),
      onFinal: (order: Order) => this.#onFinal(order),
    }
    this.engines = pools.map((pool) => new MatchingEngine(pool, this.ledger, hooks))
    this.data = pools.map((pool) => new PoolMarketData(pool))
    this.amms = pools.map((pool) => {
      const base = pool.typicalSize * AMM_DEPTH
      const quote = quoteAmount(pool, pool.startPrice, base)
      this.#addGenesis(pool.base.id, base * this.ledger.scale(pool.base.id, pool.basePrecision))
      this.#addGenesis(pool.quote.id, quote * this.ledger.scale(pool.quote.id, pool.quotePrecision))
      return new AmmPool(pool, base, quote)
    })
  }

  /** Simulated time, Unix milliseconds: start + ticks × tickMs (floored for a fractional tickMs). */
  nowMs(): number {
    return this.#startTime + Math.floor(this.ticks * this.#tickMs)
  }

  /** Simulated time, Unix seconds. */
  nowSec(): number {
    return Math.floor(this.nowMs() / 1000)
  }

  /**
   * Moves time on by one tick. The instant that ends is closed first: the keyed orders
   * changed in it get a version stamped with it (see {@link OrderVersions}).
   */
  nextTick(): void {
    this.versions.flush(this.nowMs())
    this.ticks += 1
  }

  /** Gives `account` ledger units of `coin` at genesis (part of the genesis supply). */
  endow(account: string, coin: string, units: bigint): void {
    this.ledger.credit(account, coin, units)
    this.#addGenesis(coin, units)
  }

  /** Places an order in pool `poolId`. */
  submit(poolId: number, request: OrderRequest): Order {
    const engine = this.#engine(poolId)
    this.revision += 1
    return engine.submit(request)
  }

  /** Cancels a working order; false when it is not working. */
  cancel(order: Order): boolean {
    const engine = this.#engine(order.pool.id)
    this.revision += 1
    return engine.cancel(order)
  }

  /**
   * Swaps `quantity` base units with the AMM of `poolId`: `buy` takes base out for quote,
   * otherwise base goes in for quote. No fee; rounding favours the pool. False (nothing
   * happens) when the account cannot pay or the swap is impossible.
   */
  swap(poolId: number, account: string, buy: boolean, quantity: bigint): boolean {
    const amm = this.amms[poolId]
    const pool = this.pools[poolId]
    if (amm === undefined || pool === undefined || quantity <= 0n) return false
    const baseScale = this.ledger.scale(pool.base.id, pool.basePrecision)
    const quoteScale = this.ledger.scale(pool.quote.id, pool.quotePrecision)
    const quote = buy ? amm.costToBuy(quantity) : amm.proceedsOfSell(quantity)
    if (quote === undefined || quote <= 0n) return false
    this.revision += 1
    if (buy) {
      if (this.ledger.free(account, pool.quote.id) < quote * quoteScale) return false
      this.ledger.debit(account, pool.quote.id, quote * quoteScale)
      this.ledger.credit(account, pool.base.id, quantity * baseScale)
      amm.apply(-quantity, quote)
    } else {
      if (this.ledger.free(account, pool.base.id) < quantity * baseScale) return false
      this.ledger.debit(account, pool.base.id, quantity * baseScale)
      this.ledger.credit(account, pool.quote.id, quote * quoteScale)
      amm.apply(quantity, -quote)
    }
    const price = priceOf(pool, quote, quantity)
    const sec = this.nowSec()
    const record = publicTrade(pool, account, pool.ammAccount, buy, price, quantity, sec)
    this.data[poolId]?.record(
      { seq: ++this.#publicSeq, sec, price, quantity, quote, record },
      false,
    )
    return true
  }

  /** Everything of `coin` held anywhere: all accounts (incl. fees) and AMM reserves. */
  coinTotal(coin: string): bigint {
    let total = this.ledger.total(coin)
    for (const amm of this.amms) {
      const { pool } = amm
      if (pool.base.id === coin) total += amm.base * this.ledger.scale(coin, pool.basePrecision)
      if (pool.quote.id === coin) total += amm.quote * this.ledger.scale(coin, pool.quotePrecision)
    }
    return total
  }

  #engine(poolId: number): MatchingEngine {
    const engine = this.engines[poolId]
    if (engine === undefined) throw new RangeError(`no pool ${poolId}`)
    return engine
  }

  #addGenesis(coin: string, units: bigint): void {
    this.genesis.set(coin, (this.genesis.get(coin) ?? 0n) + units)
  }

  // Orders of keyed accounts are the ones with a trade list (the engine's keepsTrades).
  #onCreate(order: Order): void {
    this.orders.set(orderKey(order.pool.id, order.orderId, order.side), order)
    this.accounts.addOrder(order)
    if (order.trades !== undefined) this.versions.track(order)
  }

  #onFill(fill: Fill): void {
    const sec = this.nowSec()
    const detail = tradeDetail(this.seed, ++this.#globalSeq, fill, sec)
    this.tradeLog.push(detail)
    if (this.tradeLog.length > MAX_TRADE_LOG + MAX_TRADE_LOG / 4) {
      this.tradeLog.splice(0, this.tradeLog.length - MAX_TRADE_LOG)
    }
    fill.taker.trades?.push(detail)
    if (fill.maker !== fill.taker) fill.maker.trades?.push(detail)
    // A keyed account's trade: its time in ms for tradesLagMs, its orders changed now.
    if (fill.taker.trades !== undefined || fill.maker.trades !== undefined) {
      this.tradeTimes.set(detail, this.nowMs())
      if (fill.taker.trades !== undefined) this.versions.touch(fill.taker)
      if (fill.maker.trades !== undefined) this.versions.touch(fill.maker)
    }
    this.accounts.addTrade(detail)
    const { taker, maker, price, quantity, quote } = fill
    const pool = taker.pool
    const record = publicTrade(
      pool,
      taker.account,
      maker.account,
      taker.side === 0,
      price,
      quantity,
      sec,
    )
    this.data[pool.id]?.record(
      { seq: ++this.#publicSeq, sec, price, quantity, quote, record },
      true,
    )
  }

  #onFinal(order: Order): void {
    this.accounts.closeOrder(order)
    if (order.trades !== undefined) this.versions.end(order, this.nowMs())
    if (this.accounts.named(order.account) !== undefined) return
    this.#finalCrowdOrders.push(orderKey(order.pool.id, order.orderId, order.side))
    const excess = this.#finalCrowdOrders.length - MAX_CROWD_FINAL_ORDERS
    if (excess > MAX_CROWD_FINAL_ORDERS / 4) {
      for (const key of this.#finalCrowdOrders.splice(0, excess)) this.orders.delete(key)
    }
  }
}

/** Every coin of the pools with its ledger decimals: its largest precision in any pool. */
function ledgerCoins(pools: readonly PoolSpec[]): LedgerCoin[] {
  const coins = new Map<string, LedgerCoin>()
  for (const pool of pools) {
    for (const [ref, precision] of [
      [pool.base, pool.basePrecision],
      [pool.quote, pool.quotePrecision],
    ] as const) {
      const known = coins.get(ref.id)
      if (known === undefined || known.decimals < precision)
        coins.set(ref.id, { ref, decimals: precision })
    }
  }
  return [...coins.values()]
}
