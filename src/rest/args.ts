import type { KlineInterval } from '../schemas/kline.js'

/** Which market-data set to read: `'v2'` (order book plus AMM, the default) or `'v1'` (order book only). */
export type MarketDataSource = 'v2' | 'v1'

/** Sort direction of the paged account feeds. */
export type SortDirection = 'asc' | 'desc'

/** Last argument of every REST method. */
export interface CallOptions {
  /** Aborts the request; the promise then rejects with `VenueAbortError`. */
  readonly signal?: AbortSignal | undefined
  /**
   * Called with the answer's envelope `meta` before the promise resolves; list endpoints
   * (pools, open orders, history orders) put their total count in `meta.total`.
   */
  readonly onMeta?: ((meta: Readonly<Record<string, unknown>>) => void) | undefined
}

/** Picks V1 or V2 market data for one call; defaults to the venue's `marketData`. */
export interface SourceArg {
  readonly source?: MarketDataSource | undefined
}

/** Arguments of `rest.depth`. */
export interface DepthArgs extends SourceArg {
  readonly poolId: number
  /** Levels per side (the venue's default is 100). */
  readonly limit?: number | undefined
  /** Price grouping, 0.00000001 to 10000; powers of ten have data. */
  readonly precision?: string | number | undefined
}

/** Arguments of `rest.klines`. */
export interface KlinesArgs extends SourceArg {
  readonly poolId: number
  readonly interval: KlineInterval
  /** Unix seconds. Default: `end` minus 100 intervals. */
  readonly start?: number | undefined
  /** Unix seconds. Default: now. */
  readonly end?: number | undefined
}

/** Arguments of `rest.latestTrades`. */
export interface LatestTradesArgs extends SourceArg {
  readonly poolId?: number | undefined
  /** 1 to 100 (the venue's default is 10). */
  readonly limit?: number | undefined
}

/** Filters of `rest.historyOrders` and `rest.openOrders`; paging is newest first. */
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

/** Filters of `rest.trades` (the account's own trades). */
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

/** Filters of `rest.transfers`. */
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

/** Filters of `rest.pools`. */
export interface PoolsArgs {
  readonly baseCoin?: string | undefined
  readonly quoteCoin?: string | undefined
  readonly limit?: number | undefined
  readonly offset?: number | undefined
}

/** An order's composite id: `"{poolId}-{orderId}-{side}"` or its parts. */
export type OrderRef =
  | string
  | {
      readonly poolId: number
      /** Digits (exact beyond 2^53, as the venue's `order_id`) or a safe integer. */
      readonly orderId: string | number
      readonly side: 0 | 1
    }
