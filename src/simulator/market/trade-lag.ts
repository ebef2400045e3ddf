/**
 * The quirk `tradesLagMs`: a trade shows in the account endpoints only some simulated ms
 * after it happened. With a range each trade draws its own lag from a hash of the market
 * seed and its global_seq (not from the market's random stream, which it must not move),
 * so the same trade always gets the same lag, and a later trade can show before an earlier
 * one.
 *
 * @packageDocumentation
 */

import type { VenueQuirks } from './quirk-spec.js'
import { hashSeed, Random } from './random.js'
import type { TradeDetailRecord } from './types.js'

/** A trade lag as the spec gives it. */
export type TradesLag = NonNullable<VenueQuirks['tradesLagMs']>

/** What deciding a trade's visibility reads. */
export interface TradeClock {
  /** Seed of the market. */
  readonly seed: number
  /** Current simulated time, ms. */
  readonly now: number
  /** When a keyed account's trade happened, simulated ms. */
  readonly timeOf: (trade: TradeDetailRecord) => number | undefined
}

/**
 * The lag of the trade with sequence `seq`, ms: the fixed lag, or a whole number in
 * [min, max] from the seed and `seq`.
 *
 * @example
 * ```ts
 * tradeLagOf(1, 57, 500) // 500
 * tradeLagOf(1, 57, [0, 1000]) // the same number from 0 to 1000 on every call
 * ```
 */
export function tradeLagOf(seed: number, seq: number, lag: TradesLag): number {
  if (typeof lag === 'number') return lag
  const [min, max] = lag
  return min === max ? min : new Random(hashSeed(seed, 'trade-lag', seq)).int(min, max)
}

/**
 * The trades of `trades` (ascending global_seq) that show now: those whose time plus lag
 * is reached. Only the newest can be hidden, so it scans back from the end only while a
 * trade is younger than the longest lag, and copies the rest as it is.
 *
 * @example
 * ```ts
 * visibleTrades(account.trades, [0, 1000], { seed: 1, now: market.now(), timeOf })
 * ```
 */
export function visibleTrades(
  trades: readonly TradeDetailRecord[],
  lag: TradesLag,
  clock: TradeClock,
): TradeDetailRecord[] {
  const { seed, now, timeOf } = clock
  const longest = typeof lag === 'number' ? lag : lag[1]
  let cut = trades.length
  while (cut > 0) {
    const at = timeOf(trades[cut - 1] as TradeDetailRecord)
    if (at === undefined || at + longest <= now) break
    cut -= 1
  }
  const shown = trades.slice(0, cut)
  for (let i = cut; i < trades.length; i++) {
    const trade = trades[i] as TradeDetailRecord
    const at = timeOf(trade) ?? now
    if (at + tradeLagOf(seed, trade.global_seq, lag) <= now) shown.push(trade)
  }
  return shown
}
