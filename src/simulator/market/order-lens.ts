/**
 * The order endpoints of one keyed account seen through the quirks: orders as they were at
 * an earlier simulated time (`ordersLagMs`, `openListLagMs`), purged cancels
 * (`purgeCanceledAfterMs`), late trades (`tradesLagMs`) and capped trade lists
 * (`orderTradesLimit`). Built per request, only when a quirk applies to the endpoint: the
 * plain path of the account view stays as it was.
 *
 * @packageDocumentation
 */
import { isShown, type KeyedAccount } from './accounts.js'
import { type Order, toOrderRecord } from './order.js'
import type { OrderState, OrderVersions } from './order-versions.js'
import type { Quirks } from './quirks.js'
import { visibleTrades } from './trade-lag.js'
import type { OrderRecord, TradeDetailRecord } from './types.js'

/** What the quirked order endpoints read from the market. */
export interface QuirkEnv {
  readonly quirks: Quirks
  /** Seed of the market (trade lags derive from it). */
  readonly seed: number
  readonly versions: OrderVersions
  /** When each trade of a keyed account happened, simulated ms. */
  readonly tradeTimes: WeakMap<TradeDetailRecord, number>
  /** Current simulated time, ms. */
  now(): number
  /** Ticks so far (orders placed with `hiddenForTicks` wait for theirs). */
  ticks(): number
}

/** An order the endpoints show, with its state at the lens's time. */
export interface ShownOrder {
  readonly order: Order
  readonly state: OrderState
}

/** What a lookup finds: a shown order, a purged one, or nothing. */
export type Lookup = ShownOrder | 'purged' | undefined

/**
 * One request's view of an account's orders at `now - lagMs`.
 *
 * @example
 * ```ts
 * const lens = new OrderLens(account, env, 1000) // as the orders were 1 s ago
 * lens.openOrders() // the orders open then, each as it was then
 * ```
 */
export class OrderLens {
  readonly #account: KeyedAccount
  readonly #env: QuirkEnv
  readonly #purgeMs: number | undefined
  readonly #now: number
  readonly #ticks: number
  /** The simulated time the orders are shown at. */
  readonly #t: number

  constructor(account: KeyedAccount, env: QuirkEnv, lagMs: number) {
    this.#account = account
    this.#env = env
    this.#purgeMs = env.quirks.get().purgeCanceledAfterMs
    this.#now = env.now()
    this.#ticks = env.ticks()
    this.#t = this.#now - lagMs
  }

  /** Working orders at the lens's time, newest first, each as it was then. */
  openOrders(): OrderRecord[] {
    const candidates = new Set(this.#account.open)
    for (const order of this.#env.versions.endedAfter(this.#t)) {
      if (order.account === this.#account.name) candidates.add(order)
    }
    const found: ShownOrder[] = []
    for (const order of candidates) {
      const state = this.#state(order)
      if (state !== undefined && !state.history) found.push({ order, state })
    }
    return found.sort((a, b) => b.order.seq - a.order.seq).map(recordOf)
  }

  /** Final orders at the lens's time, newest first, purged ones left out. */
  historyOrders(): OrderRecord[] {
    const found: OrderRecord[] = []
    const { orders } = this.#account
    for (let i = orders.length - 1; i >= 0; i--) {
      const shown = this.#look(orders[i] as Order)
      if (typeof shown === 'object' && shown.state.history) found.push(recordOf(shown))
    }
    return found
  }

  /** The order with composite id `key`. */
  byId(key: string): Lookup {
    const order = this.#account.byId.get(key)
    return order === undefined ? undefined : this.#look(order)
  }

  /**
   * The newest order with client id `cid` the endpoints show; `'purged'` when none is shown
   * and one of them was purged.
   */
  byClientId(cid: string): Lookup {
    let purged = false
    const { byCid, earlierByCid } = this.#account
    for (let order = byCid.get(cid); order !== undefined; order = earlierByCid.get(order)) {
      const found = this.#look(order)
      if (found === 'purged') purged = true
      else if (found !== undefined) return found
    }
    return purged ? 'purged' : undefined
  }

  /** The trades of an order /orders/{id} lists: those shown now, the newest N at most. */
  trades(order: Order): TradeDetailRecord[] {
    const spec = this.#env.quirks.get()
    const all = order.trades ?? []
    const { tradesLagMs, orderTradesLimit } = spec
    const shown =
      tradesLagMs === undefined
        ? [...all]
        : visibleTrades(all, tradesLagMs, {
            seed: this.#env.seed,
            now: this.#now,
            timeOf: (trade) => this.#env.tradeTimes.get(trade),
          })
    return orderTradesLimit === undefined || shown.length <= orderTradesLimit
      ? shown
      : shown.slice(-orderTradesLimit)
  }

  /** The state shown, or undefined for an order not placed yet then or still hidden. */
  #state(order: Order): OrderState | undefined {
    if (!isShown(this.#account, order, this.#ticks)) return undefined
    return this.#env.versions.stateAt(order, this.#t, this.#now)
  }

  #look(order: Order): Lookup {
    const state = this.#state(order)
    if (state === undefined) return undefined
    return this.#isPurged(order, state) ? 'purged' : { order, state }
  }

  /** Canceled without a fill, and canceled long enough ago. */
  #isPurged(order: Order, state: OrderState): boolean {
    if (this.#purgeMs === undefined || state.status !== 3 || state.filled !== 0n) return false
    const finalAt = this.#env.versions.finalAt(order)
    return finalAt !== undefined && finalAt + this.#purgeMs <= this.#t
  }
}

/** The wire record of an order in a given state. */
export function recordOf({ order, state }: ShownOrder): OrderRecord {
  if (state === order) return toOrderRecord(order)
  const { filled, filledQuote, status, history } = state
  return toOrderRecord({ ...order, filled, filledQuote, status, history })
}
