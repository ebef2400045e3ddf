/**
 * The balances of an account in wire form. A balance's `balance` is the whole holding (free
 * plus locked); `locked` is the part reserved by open orders, split per pool in `locks`.
 *
 * @packageDocumentation
 */
import { formatFixed } from './fixed-point.js'
import type { Ledger } from './ledger.js'
import type { PoolSpec } from './pool-spec.js'
import type { BalanceRecord } from './types.js'

/** What the balance records read. */
export interface BalanceContext {
  readonly ledger: Ledger
  readonly pools: readonly PoolSpec[]
  /** Stable-coin price text per coin id. */
  stablecoinPrices(): ReadonlyMap<string, string>
}

/**
 * Every coin of the ledger as `account` holds it, in the ledger's coin order.
 *
 * @example
 * ```ts
 * balanceRecords('demo.trader', { ledger, pools, stablecoinPrices })
 * // [{ coin: 'chain.token-CHN', balance: '1000.0000', locked: '15.0000', locks: [...], ... }]
 * ```
 */
export function balanceRecords(account: string, context: BalanceContext): BalanceRecord[] {
  const { ledger, pools } = context
  const prices = context.stablecoinPrices()
  return ledger.coins().map(({ ref, decimals }) => {
    const holding = ledger.holding(account, ref.id)
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
}
