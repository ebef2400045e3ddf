import type { KlineInterval } from '../schemas/kline.js'

/**
 * Which market-data set to read: `'v2'` (order book plus AMM, the default) or `'v1'` (order book only).
 *
 * @example
 * ```ts
 * import { createVenue, type MarketDataSource } from 'venue-rx'
 *
 * // V1 by default for every call and stream
 * const venue = createVenue({ baseUrl: 'http://127.0.0.1:8787', marketData: 'v1' })
 * const source: MarketDataSource = 'v2' // order book plus AMM, for this call only
 * await venue.rest.depth({ poolId: 0, source })
 * ```
 */
export type MarketDataSource = 'v2' | 'v1'

/**
 * Sort direction of the paged account feeds.
 *
 * @example
 * ```ts
 * import type { SortDirection } from 'venue-rx'
 *
 * const sort: SortDirection = 'asc'
 * await venue.rest.trades({ poolId: 0, sort, limit: 100 }) // oldest first
 * ```
 */
export type SortDirection = 'asc' | 'desc'

/**
 * Last argument of every REST method.
 *
 * @example
 * ```ts
 * import type { CallOptions } from 'venue-rx'
 *
 * const controller = new AbortController()
 * const options: CallOptions = {
 *   signal: controller.signal, // controller.abort() rejects the call with VenueAbortError
 *   onMeta: (meta) => console.log('open orders in all:', meta['total']),
 * }
 * const firstPage = await venue.rest.openOrders({ limit: 20 }, options)
 * ```
 */
export interface CallOptions {
  /** Aborts the request; the promise then rejects with `VenueAbortError`. */
  readonly signal?: AbortSignal | undefined
  /**
   * Called with the answer's envelope `meta` before the promise resolves; list endpoints
   * (pools, open orders, history orders) put their total count in `meta.total`.
   */
  readonly onMeta?: ((meta: Readonly<Record<string, unknown>>) => void) | undefined
}

/**
 * Picks V1 or V2 market data for one call; defaults to the venue's `marketData`.
 *
 * @example
 * ```ts
 * // V1 candles (order book trades only) for this call, whatever the venue's marketData says
 * await venue.rest.klines({ poolId: 0, interval: '1h', source: 'v1' })
 * await venue.rest.latestTrades({ poolId: 0, source: 'v2' })
 * ```
 */
export interface SourceArg {
  readonly source?: MarketDataSource | undefined
}

/**
 * Arguments of `rest.depth`.
 *
 * @example
 * ```ts
 * import type { DepthArgs } from 'venue-rx'
 *
 * const args: DepthArgs = { poolId: 0, limit: 20, precision: '0.001' }
 * const depth = await venue.rest.depth(args)
 * depth.bids[0] // ['1.047', '251.0035']: price grouped to 0.001
 * ```
 */
export interface DepthArgs extends SourceArg {
  readonly poolId: number
  /** Levels per side (the venue's default is 100). */
  readonly limit?: number | undefined
  /** Price grouping, 0.00000001 to 10000; powers of ten have data. */
  readonly precision?: string | number | undefined
}

/**
 * Arguments of `rest.klines`.
 *
 * @example
 * ```ts
 * import type { KlinesArgs } from 'venue-rx'
 *
 * const end = Math.floor(Date.now() / 1000)
 * const args: KlinesArgs = { poolId: 0, interval: '15m', start: end - 86_400, end }
 * const candles = await venue.rest.klines(args) // the last day's 15-minute candles
 * ```
 */
export interface KlinesArgs extends SourceArg {
  readonly poolId: number
  readonly interval: KlineInterval
  /** Unix seconds. Default: `end` minus 100 intervals. */
  readonly start?: number | undefined
  /** Unix seconds. Default: now. */
  readonly end?: number | undefined
}

/**
 * Arguments of `rest.latestTrades`.
 *
 * @example
 * ```ts
 * const trades = await venue.rest.latestTrades({ poolId: 0, limit: 50 })
 * // newest first:
 * // [{ price: '1.0462', quantity: '113.0500', side: 'sell', traded_at: 1700000100000, ... }, ...]
 * ```
 */
export interface LatestTradesArgs extends SourceArg {
  readonly poolId?: number | undefined
  /** 1 to 100 (the venue's default is 10). */
  readonly limit?: number | undefined
}

/**
 * Filters of `rest.historyOrders` and `rest.openOrders`; paging is newest first.
 *
 * @example
 * ```ts
 * import { OrderSide, OrderStatus } from 'venue-rx'
 *
 * const canceledBuys = await venue.rest.historyOrders({
 *   poolId: 0,
 *   side: OrderSide.Buy,
 *   status: OrderStatus.Canceled,
 *   limit: 50,
 *   offset: 50, // the second page
 * })
 * ```
 */
export interface OrdersArgs {
  readonly poolId?: number | undefined
  /** 0 buy, 1 sell. */
  readonly side?: 0 | 1 | undefined
  /** 0 market, 1 limit. */
  readonly type?: 0 | 1 | undefined
  /** 0 unfilled, 1 partially filled, 2 filled, 3 canceled, 4 rejected. */
  readonly status?: 0 | 1 | 2 | 3 | 4 | undefined
  /** 1 to 100 (the venue's default is 20). */
  readonly limit?: number | undefined
  /** Records to skip. */
  readonly offset?: number | undefined
}

/**
 * Filters of `rest.trades` (the account's own trades).
 *
 * @example
 * ```ts
 * // the account's trades in pool 0 after global_seq 1058, oldest first
 * const trades = await venue.rest.trades({ poolId: 0, afterSeq: '1058', sort: 'asc', limit: 100 })
 * ```
 */
export interface TradesArgs {
  readonly poolId?: number | undefined
  /** 1 to 100 (the venue's default is 50). */
  readonly limit?: number | undefined
  /** Only trades after this time, Unix seconds. */
  readonly after?: number | undefined
  /** Only trades before this time, Unix seconds. */
  readonly before?: number | undefined
  /** Only trades with a greater `global_seq`: digits (exact beyond 2^53) or a safe integer. */
  readonly afterSeq?: string | number | undefined
  /** Default `desc` at the venue. */
  readonly sort?: SortDirection | undefined
}

/**
 * Filters of `rest.transfers`.
 *
 * @example
 * ```ts
 * // the deposits and withdrawals of 2024, oldest first
 * const transfers = await venue.rest.transfers({
 *   start: Date.UTC(2024, 0, 1) / 1000,
 *   end: Date.UTC(2025, 0, 1) / 1000,
 *   sort: 'asc',
 *   limit: 1000,
 * })
 * ```
 */
export interface TransfersArgs {
  /** Records per page, 1 to 1000. */
  readonly limit?: number | undefined
  /** Unix seconds. */
  readonly start?: number | undefined
  /** Unix seconds. */
  readonly end?: number | undefined
  /** Only transfers with a greater id (`sid`): digits or a safe integer. */
  readonly afterId?: string | number | undefined
  /** Default `desc` at the venue. */
  readonly sort?: SortDirection | undefined
}

/**
 * Filters of `rest.pools`.
 *
 * @example
 * ```ts
 * const usdtPools = await venue.rest.pools({ quoteCoin: 'USDT', limit: 50 })
 * // [{ pool_id: 0, symbol: 'chain.token-CHN-usdt.ext-USDT', ... }, { pool_id: 1, ... }]
 * ```
 */
export interface PoolsArgs {
  readonly baseCoin?: string | undefined
  readonly quoteCoin?: string | undefined
  readonly limit?: number | undefined
  readonly offset?: number | undefined
}

/**
 * An order's composite id: `"{poolId}-{orderId}-{side}"` or its parts.
 *
 * @example
 * ```ts
 * await venue.rest.order('2-670-1')                              // pool 2, order 670, sell
 * await venue.rest.order({ poolId: 2, orderId: '670', side: 1 }) // the same order
 * ```
 */
export type OrderRef =
  | string
  | {
      readonly poolId: number
      /** Digits (exact beyond 2^53, as the venue's `order_id`) or a safe integer. */
      readonly orderId: string | number
      readonly side: 0 | 1
    }
