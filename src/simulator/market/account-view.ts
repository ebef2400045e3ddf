/**
 * What one API key sees: the {@link AccountView} of a keyed account, in wire form.
 *
 * A balance's `balance` is the whole holding (free plus locked); `locked` is the part
 * reserved by open orders, split per pool in `locks`. Free = balance − locked.
 *
 * An order placed with `hiddenForTicks` is left out of the order lists and answers as
 * unknown until its tick; its fills already count in the balances and `/trades`.
 *
 * With quirks in force (`VenueQuirks`), the endpoints they touch go through an
 * {@link OrderLens} or {@link visibleTrades}; without, each endpoint costs what it did.
 *
 * @packageDocumentation
 */
import { isShown, type KeyedAccount, PARENT_ACCOUNT } from './accounts.js'
import { type BalanceContext, balanceRecords } from './balance-records.js'
import { type Order, orderKey, PERMISSION, type Side, toOrderRecord } from './order.js'
import { type Lookup, OrderLens, type QuirkEnv, recordOf } from './order-lens.js'
import type { VenueQuirks } from './quirk-spec.js'
import { visibleTrades } from './trade-lag.js'
import type { AccountView, OrderRecord, TradeDetailRecord } from './types.js'

/** What an account view reads besides the account. */
export interface AccountViewContext extends BalanceContext {
  /** Ticks so far: orders placed hidden stay out of the order endpoints until their tick. */
  ticks(): number
  /** The quirks and what they read; none when left out. */
  readonly quirks?: QuirkEnv
}

/** Builds the view of one keyed account. */
export function createAccountView(account: KeyedAccount, context: AccountViewContext): AccountView {
  const shown = (order: Order | undefined): order is Order =>
    order !== undefined && isShown(account, order, context.ticks())
  const env = context.quirks
  /** A lens at `now - lagMs` when `applies`, otherwise none: the plain path. */
  const lensIf = (applies: boolean, lagMs = 0): OrderLens | undefined =>
    env !== undefined && applies ? new OrderLens(account, env, lagMs) : undefined
  const spec = (): VenueQuirks => env?.quirks.get() ?? {}
  const purgeStatus = (found: Lookup) =>
    found === 'purged' ? (spec().purgeStatus ?? 404) : undefined
  return {
    info: () => ({
      chain_account: account.name,
      parent_chain_account: PARENT_ACCOUNT,
      permission: PERMISSION,
    }),
    balances: () => balanceRecords(account.name, context),
    openOrders: () => {
      const { openListLagMs, ordersLagMs } = spec()
      const lag = openListLagMs ?? ordersLagMs ?? 0
      const lens = lensIf(lag > 0, lag)
      if (lens !== undefined) return lens.openOrders()
      return [...account.open]
        .filter(shown)
        .sort((a, b) => b.seq - a.seq)
        .map(toOrderRecord)
    },
    historyOrders: () => {
      const lens = lensOfOrders()
      if (lens !== undefined) return lens.historyOrders()
      const found: OrderRecord[] = []
      for (let i = account.orders.length - 1; i >= 0; i--) {
        const order = account.orders[i]
        if (order?.history === true && shown(order)) found.push(toOrderRecord(order))
      }
      return found
    },
    order: (poolId: number, orderId: number, side: Side) => {
      const key = orderKey(poolId, orderId, side)
      const { tradesLagMs, orderTradesLimit } = spec()
      const lens =
        tradesLagMs === undefined && orderTradesLimit === undefined
          ? lensOfOrders()
          : lensIf(true, spec().ordersLagMs)
      if (lens !== undefined) {
        const found = lens.byId(key)
        return typeof found === 'object'
          ? { ...recordOf(found), trades: lens.trades(found.order) }
          : undefined
      }
      const order = account.byId.get(key)
      return shown(order)
        ? { ...toOrderRecord(order), trades: [...(order.trades ?? [])] }
        : undefined
    },
    orderByClientId: (cid: string) => {
      const lens = lensOfOrders()
      if (lens !== undefined) {
        const found = lens.byClientId(cid)
        return typeof found === 'object' ? recordOf(found) : undefined
      }
      // The newest order with the client id that shows: while the newest is still hidden
      // (hiddenForTicks), an earlier one that had the client id answers.
      for (let order = account.byCid.get(cid); order !== undefined; ) {
        if (shown(order)) return toOrderRecord(order)
        order = account.earlierByCid.get(order)
      }
      return undefined
    },
    purgedOrder: (poolId: number, orderId: number, side: Side) =>
      purgeStatus(lensOfOrders()?.byId(orderKey(poolId, orderId, side))),
    purgedOrderByClientId: (cid: string) => purgeStatus(lensOfOrders()?.byClientId(cid)),
    trades: () => {
      const lag = spec().tradesLagMs
      if (env === undefined || lag === undefined) return [...account.trades]
      const timeOf = (trade: TradeDetailRecord) => env.tradeTimes.get(trade)
      return visibleTrades(account.trades, lag, { seed: env.seed, now: env.now(), timeOf })
    },
    transfers: () => [...account.transfers],
  }

  /** A lens when a quirk that changes which orders show, or how, is on: else the plain path. */
  function lensOfOrders(): OrderLens | undefined {
    const { ordersLagMs, purgeCanceledAfterMs } = spec()
    return lensIf(ordersLagMs !== undefined || purgeCanceledAfterMs !== undefined, ordersLagMs)
  }
}
