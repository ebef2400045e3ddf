/**
 * Random order sizes and prices for simulated traders, in exact units.
 *
 * @packageDocumentation
 */
import type { PoolSpec } from './pool-spec.js'
import type { Random } from './random.js'

/** A random quantity of `minTenths/10` to `maxTenths/10` typical sizes, in whole lots (>= 1 lot). */
export function randomSize(
  random: Random,
  pool: PoolSpec,
  minTenths: number,
  maxTenths: number,
): bigint {
  const lots = pool.typicalSize / pool.lot
  const low = (lots * BigInt(minTenths)) / 10n
  const high = (lots * BigInt(maxTenths)) / 10n
  const chosen = random.bigint(low, high > low ? high : low)
  return (chosen > 0n ? chosen : 1n) * pool.lot
}

/** Price distance traders think in: half the AMM level step (about 2.5 basis points), >= 1 tick. */
export function priceUnit(pool: PoolSpec): bigint {
  const unit = pool.ammStep / 2n
  return unit > 0n ? unit : 1n
}

/** Rounds a quantity down to whole lots. */
export function toLots(pool: PoolSpec, quantity: bigint): bigint {
  return quantity - (quantity % pool.lot)
}
