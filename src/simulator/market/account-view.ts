/**
 * What one API key sees: the {@link AccountView} of a keyed account, in wire form.
 *
 * A balance's `balance` is the whole holding (free plus locked); `locked` is the part
 * reserved by open orders, split per pool in `locks`. Free = balance − locked.
 *
 * An order placed with `hiddenForTicks` is left out of the order lists and answers as
 * unknown until its tick; its fills already count in the balances and `/trades`.
 *
 * @packageDocumentation
 */
import { isShown, type KeyedAccount, PARENT_ACCOUNT } from './accounts.js'
import { formatFixed } from './fixed-point.js'
import type { Ledger } from './ledger.js'
import { type Order, orderKey, PERMISSION, type Side, toOrderRecord } from './order.js'
import type { PoolSpec } from './pool-spec.js'
import type { AccountView, BalanceRecord, OrderRecord } from './types.js'

/** What an account view reads besides the account. */
export interface AccountViewContext {
  readonly ledger: Ledger
  readonly pools: readonly PoolSpec[]
  /** Stable-coin price text per coin id. */
  stablecoinPrices(): ReadonlyMap<string, string>
  /** Ticks so far: orders placed hidden stay out of the order endpoints until their tick. */
  ticks(): number
}

/** Builds the view of one keyed account. */
export function createAccountView(account: KeyedAccount, context: AccountViewContext): AccountView {
  const { ledger, pools } = context
  const shown = (order: Order | undefined): order is Order =>
    order !== undefined && isShown(account, order, context.ticks())
  return {
    info: () => ({
      chain_account: account.name,
      parent_chain_account: PARENT_ACCOUNT,
      permission: PERMISSION,
    }),
    balances: (): BalanceRecord[] => {
      const prices = context.stablecoinPrices()
      return ledger.coins().map(({ ref, decimals }) => {
        const holding = ledger.holding(account.name, ref.id)
        const locks = [...holding.locks.entries()]
          .sort(([a], [b]) => a - b)
          .map(([poolId, units]) => ({
            balance: formatFixed(units, decimals),
            pool_id: poolId,
            pool_symbol: pools[poolId]?.symbol ?? '',
          }))
        return {
          coin: ref.id,
          balance: formatFixed(holding.free + holding.locked, decimals),
          locked: formatFixed(holding.locked, decimals),
          locks,
          stablecoin_price: prices.get(ref.id) ?? '0',
        }
      })
    },
    openOrders: () =>
      [...account.open]
        .filter(shown)
        .sort((a, b) => b.seq - a.seq)
        .map(toOrderRecord),
    historyOrders: () => {
      const found: OrderRecord[] = []
      for (let i = account.orders.length - 1; i >= 0; i--) {
        const order = account.orders[i]
        if (order?.history === true && shown(order)) found.push(toOrderRecord(order))
      }
      return found
    },
    order: (poolId: number, orderId: number, side: Side) => {
      const order = account.byId.get(orderKey(poolId, orderId, side))
      return shown(order)
        ? { ...toOrderRecord(order), trades: [...(order.trades ?? [])] }
        : undefined
    },
    orderByClientId: (cid: string) => {
      const order = account.byCid.get(cid)
      return shown(order) ? toOrderRecord(order) : undefined
    },
    trades: () => [...account.trades],
    transfers: () => [...account.transfers],
  }
}
