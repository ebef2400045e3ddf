/**
 * Balance entry (docs/venue-interface.md).
 *
 * @packageDocumentation
 */
import { z } from 'zod'
import { decimalString, nonNegativeSafeInteger } from './primitives.js'

/** An amount of a coin locked in one pool (by open orders there). */
export const balanceLockSchema = z.object({
  balance: decimalString,
  pool_id: nonNegativeSafeInteger,
  pool_symbol: z.string(),
})

/** A parsed balance lock. */
export type BalanceLock = z.output<typeof balanceLockSchema>

/**
 * The balance of one coin: `balance`, the `locked` part, the per-pool `locks` (empty when
 * absent) and `stablecoin_price`, the coin's price in a stable reference coin.
 */
export const balanceSchema = z.object({
  coin: z.string(),
  balance: decimalString,
  locked: decimalString,
  locks: z.array(balanceLockSchema).default(() => []),
  stablecoin_price: decimalString,
})

/** A parsed balance entry. */
export type Balance = z.output<typeof balanceSchema>
