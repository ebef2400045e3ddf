/**
 * Maps an AMM's curve into order-book levels for the V2 depth.
 *
 * Levels sit on a grid of `pool.ammStep` price units. An ask level at price p holds the
 * base the AMM would sell, beyond the previous level, to move its marginal price up to p:
 * `cumulative(p) = base − baseReserveAt(p)`; bids are symmetric (the base the AMM would
 * buy to move its price down to p). Quantities round down (the pool never promises more
 * than it would trade); a level that rounds to nothing is left out and its liquidity
 * carries into the next one.
 *
 * Uncrossed by construction: AMM asks start at the first grid price strictly above both
 * the AMM price and the engine's best bid; AMM bids start at the last grid price strictly
 * below both the AMM price and the engine's best ask. Merged with the (uncrossed) engine
 * book, every ask is therefore above every bid. The liquidity between the AMM price and
 * an engine best price is folded into the first AMM level beyond it.
 *
 * @packageDocumentation
 */
import type { AmmPool, PriceRatio } from './amm-pool.js'

/** Levels per side the AMM contributes to the V2 book. */
export const AMM_LEVELS_PER_SIDE = 20

/** A level as integers: price units and base units. */
export type RawLevel = readonly [price: bigint, quantity: bigint]

/** AMM levels of one pool. Bids high to low, asks low to high. */
export interface AmmLevels {
  readonly bids: RawLevel[]
  readonly asks: RawLevel[]
}

/**
 * The AMM's book levels given the engine's best prices (undefined when a side is empty).
 */
export function ammLevels(
  amm: AmmPool,
  engineBestBid: bigint | undefined,
  engineBestAsk: bigint | undefined,
  count: number = AMM_LEVELS_PER_SIDE,
): AmmLevels {
  const step = amm.pool.ammStep
  const price = amm.price()
  const floorPrice = price.num / price.den
  const ceilPrice = (price.num + price.den - 1n) / price.den
  // Integers strictly above max(price, bestBid): above floor(max).
  const askBound =
    engineBestBid !== undefined && engineBestBid > floorPrice ? engineBestBid : floorPrice
  // Integers strictly below min(price, bestAsk): below ceil(min).
  const bidBound =
    engineBestAsk !== undefined && engineBestAsk < ceilPrice ? engineBestAsk : ceilPrice
  const asks: RawLevel[] = []
  let sold = 0n
  for (let level = (askBound / step + 1n) * step, i = 0; i < count; i++, level += step) {
    const cumulative = amm.base - amm.baseReserveAt(ratio(level), true)
    if (cumulative > sold) {
      asks.push([level, cumulative - sold])
      sold = cumulative
    }
  }
  const bids: RawLevel[] = []
  let bought = 0n
  for (
    let level = ((bidBound - 1n) / step) * step, i = 0;
    i < count && level > 0n;
    i++, level -= step
  ) {
    const cumulative = amm.baseReserveAt(ratio(level), false) - amm.base
    if (cumulative > bought) {
      bids.push([level, cumulative - bought])
      bought = cumulative
    }
  }
  return { bids, asks }
}

function ratio(price: bigint): PriceRatio {
  return { num: price, den: 1n }
}
