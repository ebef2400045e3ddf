/**
 * The simulated accounts. Accounts with an API key (the demo account first) keep their
 * complete order, trade and transfer history for the account endpoints; the crowd of
 * simulated traders keeps only balances and their working orders.
 *
 * @packageDocumentation
 */
import { type Order, orderKey } from './order.js'
import { apiKeyFor } from './random.js'
import type { TradeDetailRecord, TransferRecord } from './types.js'

/** Parent account of every simulated account (`parent_chain_account`). */
export const PARENT_ACCOUNT = 'venue.users'

/** Names of the accounts with API keys, in key order (the first is the demo account). */
export const KEYED_ACCOUNTS = ['demo.trader', 'alice.trader'] as const

/** History of an account with an API key. */
export interface KeyedAccount {
  readonly name: string
  readonly apiKey: string
  /** Every order, creation order. */
  readonly orders: Order[]
  /** Working orders. */
  readonly open: Set<Order>
  readonly byId: Map<string, Order>
  /** The newest order with each client id. */
  readonly byCid: Map<string, Order>
  /**
   * For an order whose client id an earlier order used (allowed once that order is final,
   * as on the live venue), that earlier order: with {@link KeyedAccount.byCid} a chain
   * from the newest back.
   */
  readonly earlierByCid: Map<Order, Order>
  /**
   * Orders placed with `hiddenForTicks`, and the tick from which the order endpoints show
   * them (see {@link isShown}).
   */
  readonly hiddenUntil: Map<Order, number>
  /** Trades where the account is taker or maker, ascending global_seq. */
  readonly trades: TradeDetailRecord[]
  /** Transfers, ascending sid. */
  readonly transfers: TransferRecord[]
}

/** Registry of keyed accounts. */
export class Accounts {
  readonly keyed: KeyedAccount[]
  readonly #byName = new Map<string, KeyedAccount>()
  readonly #byKey = new Map<string, KeyedAccount>()

  constructor(seed: number) {
    this.keyed = KEYED_ACCOUNTS.map((name, index) => ({
      name,
      apiKey: apiKeyFor(seed, index),
      orders: [],
      open: new Set(),
      byId: new Map(),
      byCid: new Map(),
      earlierByCid: new Map(),
      hiddenUntil: new Map(),
      trades: [],
      transfers: [],
    }))
    for (const account of this.keyed) {
      this.#byName.set(account.name, account)
      this.#byKey.set(account.apiKey, account)
    }
  }

  /** The keyed account named `name`, or undefined for a crowd account. */
  named(name: string): KeyedAccount | undefined {
    return this.#byName.get(name)
  }

  /** The account behind an API key. */
  byApiKey(apiKey: string): KeyedAccount | undefined {
    return this.#byKey.get(apiKey)
  }

  /** Records a new order of a keyed account. */
  addOrder(order: Order): void {
    const account = this.#byName.get(order.account)
    if (account === undefined) return
    account.orders.push(order)
    account.byId.set(orderKey(order.pool.id, order.orderId, order.side), order)
    if (order.cid !== '') {
      const earlier = account.byCid.get(order.cid)
      if (earlier !== undefined) account.earlierByCid.set(order, earlier)
      account.byCid.set(order.cid, order)
    }
    if (!order.history) account.open.add(order)
  }

  /** Notes that an order became final. */
  closeOrder(order: Order): void {
    this.#byName.get(order.account)?.open.delete(order)
  }

  /** Adds a trade to its taker's and maker's histories (once when they are the same). */
  addTrade(record: TradeDetailRecord): void {
    const taker = this.#byName.get(record.taker)
    taker?.trades.push(record)
    if (record.maker !== record.taker) this.#byName.get(record.maker)?.trades.push(record)
  }

  /** Adds a transfer to the account's history. */
  addTransfer(account: string, record: TransferRecord): void {
    this.#byName.get(account)?.transfers.push(record)
  }
}

/**
 * Whether the order endpoints of `account` show `order` at tick `ticks`: always, unless it
 * was placed hidden and its tick has not come yet.
 *
 * @example
 * ```ts
 * account.hiddenUntil.set(order, 12) // placed at tick 10 with hiddenForTicks: 2
 * isShown(account, order, 11) // false
 * isShown(account, order, 12) // true
 * ```
 */
export function isShown(account: KeyedAccount, order: Order, ticks: number): boolean {
  const until = account.hiddenUntil.get(order)
  return until === undefined || ticks >= until
}
