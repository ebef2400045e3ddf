import type { Observable } from 'rxjs'
import type { BookEvent } from '../book/book-event.js'
import type { MarketDataSource } from '../rest/index.js'
import type { KlineInterval } from '../schemas/kline.js'
import type { PoolSummary } from '../schemas/pool-summary.js'
import type { TradeDetail } from '../schemas/trade-detail.js'
import type { Transfer } from '../schemas/transfer.js'
import type { FeedItem } from './cursor-feed.js'
import type { Fill } from './fills.js'
import type { StreamContext } from './stream-context.js'
import { type BalancesOptions, type BalancesUpdate, watchBalances } from './watch-balances.js'
import { type DepthStreamOptions, watchDepth } from './watch-depth.js'
import { type FillsOptions, watchFills } from './watch-fills.js'
import { type KlineEvent, type KlinesStreamOptions, watchKlines } from './watch-klines.js'
import { type MyTradesOptions, watchMyTrades } from './watch-my-trades.js'
import { type OpenOrderEvent, watchOpenOrders } from './watch-open-orders.js'
import { watchPools } from './watch-resources.js'
import { type PublicTradeEvent, type PublicTradesOptions, watchTrades } from './watch-trades.js'
import { type TransfersFeedOptions, watchTransfers } from './watch-transfers.js'

/**
 * The streams a venue can take from either of its sources: polling the venue itself, or
 * following a relay (`relayStreams`). A venue picks one set when it is created; both run
 * through the same registry, health board, backoff and scheduler of its
 * {@link StreamContext}, so a stream behaves the same whichever feeds it.
 *
 * @example
 * ```ts
 * const streams = relay === undefined ? polledStreams(context, 'v2') : relayStreams(reader, scope)
 * streams.watchDepth(0).subscribe((event) => console.log(event.type, event.seq))
 * ```
 */
export interface StreamSet {
  watchPools(): Observable<PoolSummary[]>
  watchBalances(options?: BalancesOptions): Observable<BalancesUpdate>
  watchOpenOrders(): Observable<OpenOrderEvent>
  /** `method` names the caller in errors (`watchOrderBook` folds this stream). */
  watchDepth(poolId: number, options?: DepthStreamOptions, method?: string): Observable<BookEvent>
  watchTrades(poolId: number, options?: PublicTradesOptions): Observable<PublicTradeEvent>
  watchMyTrades(options?: MyTradesOptions): Observable<FeedItem<TradeDetail>>
  watchTransfers(options?: TransfersFeedOptions): Observable<FeedItem<Transfer>>
  watchFills(options?: FillsOptions): Observable<Fill>
  watchKlines(
    poolId: number,
    interval: KlineInterval,
    options?: KlinesStreamOptions,
  ): Observable<KlineEvent>
}

/**
 * The {@link StreamSet} that polls the venue.
 *
 * @example
 * ```ts
 * polledStreams(context, 'v2').watchPools().subscribe((pools) => console.log(pools.length))
 * ```
 */
export function polledStreams(context: StreamContext, marketData: MarketDataSource): StreamSet {
  return {
    watchPools: () => watchPools(context),
    watchBalances: (options) => watchBalances(context, options),
    watchOpenOrders: () => watchOpenOrders(context),
    watchDepth: (poolId, options, method) =>
      watchDepth(context, marketData, poolId, options, method),
    watchTrades: (poolId, options) => watchTrades(context, marketData, poolId, options),
    watchMyTrades: (options) => watchMyTrades(context, options),
    watchTransfers: (options) => watchTransfers(context, options),
    watchFills: (options) => watchFills(context, options),
    watchKlines: (poolId, interval, options) =>
      watchKlines(context, marketData, poolId, interval, options),
  }
}
