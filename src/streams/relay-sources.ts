/**
 * What the relay publisher takes from the streams beyond a venue's public `watch...`
 * methods, in one place: the streams whose first poll it sorts out against what the last
 * relay published, as batches per poll with the first one marked `initial` (rather than
 * relying on the first poll's events arriving in one synchronous run), and the few
 * helpers it shares with the streams.
 *
 * A venue made for a relay ({@link RelaySources} beside it, from `createRelayVenue` in
 * venue.ts) builds these on its own {@link StreamContext}: they share its pollers,
 * request budget and health board with its `watch...` methods.
 */
import type { Observable } from 'rxjs'
import type { MarketDataSource } from '../rest/index.js'
import type { StreamContext } from './stream-context.js'
import type { PollBatch } from './stream-pipeline.js'
import { type OpenOrderEvent, openOrderBatches } from './watch-open-orders.js'
import { type PublicTradeEvent, tradeBatches } from './watch-trades.js'

export { orderOutcome } from './order-outcome.js'
export type { PollBatch } from './stream-pipeline.js'
export { balanceChanges } from './watch-balances.js'
export type { OpenOrderEvent } from './watch-open-orders.js'
export { type PublicTradeEvent, tradesAfter } from './watch-trades.js'

/**
 * The streams a relay publisher reads one poll at a time.
 *
 * @example
 * ```ts
 * sources.trades(1).subscribe(({ initial, events }) => {
 *   // initial: the trades of the window when the subscription joined, in one batch
 * })
 * ```
 */
export interface RelaySources {
  /** `watchTrades(poolId)` of the venue's market data, one batch per poll. */
  trades(poolId: number): Observable<PollBatch<PublicTradeEvent>>
  /** `watchOpenOrders()`, one batch per poll. */
  openOrders(): Observable<PollBatch<OpenOrderEvent>>
}

/**
 * The relay sources on the streams of `context`; `marketData` is the venue's default
 * market-data set (the one its `watchTrades` polls).
 *
 * @example
 * ```ts
 * const sources = relaySources(context, 'v2')
 * sources.openOrders() // first batch: every open order `opened`, flagged initial
 * ```
 */
export function relaySources(context: StreamContext, marketData: MarketDataSource): RelaySources {
  return {
    trades: (poolId) => tradeBatches(context, marketData, poolId),
    openOrders: () => openOrderBatches(context),
  }
}
