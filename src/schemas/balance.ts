/**
 * Balance entry (docs/venue-interface.md).
 *
 * @packageDocumentation
 */
import { z } from 'zod'
import { decimalString, nonNegativeSafeInteger } from './primitives.js'

/**
 * An amount of a coin locked in one pool (by open orders there).
 *
 * @example
 * ```ts
 * import { balanceLockSchema } from 'venue-rx/schemas'
 *
 * balanceLockSchema.parse({
 *   balance: 357.127848,
 *   pool_id: '0',
 *   pool_symbol: 'chain.token-CHN-usdt.ext-USDT',
 * })
 * // { balance: '357.127848', pool_id: 0, pool_symbol: 'chain.token-CHN-usdt.ext-USDT' }
 * ```
 */
export const balanceLockSchema = z.object({
  balance: decimalString,
  pool_id: nonNegativeSafeInteger,
  pool_symbol: z.string(),
})

/**
 * A parsed balance lock.
 *
 * @example
 * ```ts
 * import type { BalanceLock } from 'venue-rx'
 *
 * const usdt = (await venue.rest.balances()).find((balance) => balance.coin === 'usdt.ext-USDT')
 * const locks: readonly BalanceLock[] = usdt?.locks ?? []
 * // [{ balance: '357.127848', pool_id: 0, pool_symbol: 'chain.token-CHN-usdt.ext-USDT' }, ...]
 * ```
 */
export type BalanceLock = z.output<typeof balanceLockSchema>

/**
 * The balance of one coin: `balance`, the `locked` part, the per-pool `locks` (empty when
 * absent) and `stablecoin_price`, the coin's price in a stable reference coin.
 *
 * @example
 * ```ts
 * import { balanceSchema } from 'venue-rx/schemas'
 *
 * balanceSchema.parse({
 *   coin: 'chain.token-CHN',
 *   balance: '90015.9615',
 *   locked: '0.0000',
 *   stablecoin_price: 1.0462,
 * })
 * // { coin: 'chain.token-CHN', balance: '90015.9615', locked: '0.0000', locks: [],
 * //   stablecoin_price: '1.0462' }
 * ```
 */
export const balanceSchema = z.object({
  coin: z.string(),
  balance: decimalString,
  locked: decimalString,
  locks: z.array(balanceLockSchema).default(() => []),
  stablecoin_price: decimalString,
})

/**
 * A parsed balance entry.
 *
 * @example
 * ```ts
 * import { type Balance, subtractDecimal } from 'venue-rx'
 *
 * const balances: Balance[] = await venue.rest.balances()
 * const free = balances.map((b) => [b.coin, subtractDecimal(b.balance, b.locked)])
 * // [['chain.token-CHN', '90015.9615'], ['usdt.ext-USDT', '101691.784506'], ...]
 * ```
 */
export type Balance = z.output<typeof balanceSchema>
