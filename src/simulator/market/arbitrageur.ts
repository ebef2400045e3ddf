/**
 * The arbitrageur: at the end of every tick, an AMM whose price left its engine's spread
 * is swapped back to the engine's mid price. The AMM therefore starts every tick inside
 * [best bid, best ask] of the engine (when both sides exist), which keeps the V2 book
 * close to the V1 book. Its swaps are ordinary V2 trades.
 *
 * @packageDocumentation
 */
import { ARBITRAGEUR } from './genesis.js'
import type { MarketCore } from './market-core.js'

/** Swaps every AMM whose price is outside its engine's spread back to the mid price. */
export function realignAmms(core: MarketCore): void {
  for (const amm of core.amms) {
    const book = core.engines[amm.pool.id]?.book
    const bid = book?.bids.best()?.price
    const ask = book?.asks.best()?.price
    if (bid === undefined || ask === undefined) continue
    const { num, den } = amm.price()
    if (num >= bid * den && num <= ask * den) continue
    const target = amm.baseReserveAt({ num: bid + ask, den: 2n }, false)
    if (target < amm.base) core.swap(amm.pool.id, ARBITRAGEUR, true, amm.base - target)
    else if (target > amm.base) core.swap(amm.pool.id, ARBITRAGEUR, false, target - amm.base)
  }
}
