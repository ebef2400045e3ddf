/**
 * Wire names of the filters that the venue's reference describes without naming. These are
 * venue-rx's best reading (see docs/venue-interface.md#paging); override any of them with the
 * `paramNames` option of `createVenue` if the venue turns out to use another.
 */
export const DEFAULT_PARAM_NAMES = deepFreeze({
  trades: {
    poolId: 'pool_id',
    limit: 'limit',
    after: 'after',
    before: 'before',
    afterSeq: 'global_seq',
    sort: 'sort',
  },
  transfers: {
    limit: 'limit',
    start: 'start',
    end: 'end',
    afterId: 'id',
    sort: 'sort',
  },
  orders: {
    poolId: 'pool_id',
    side: 'side',
    type: 'type',
    status: 'status',
    limit: 'limit',
    offset: 'offset',
  },
} as const)

function deepFreeze<T extends Record<string, object>>(table: T): T {
  for (const group of Object.values(table)) Object.freeze(group)
  return Object.freeze(table)
}

type Widen<T> = { readonly [K in keyof T]: string }

/** The full table of filter wire names, per group. */
export interface ParamNames {
  /** `rest.trades` filters. */
  readonly trades: Widen<(typeof DEFAULT_PARAM_NAMES)['trades']>
  /** `rest.transfers` filters. */
  readonly transfers: Widen<(typeof DEFAULT_PARAM_NAMES)['transfers']>
  /** `rest.historyOrders` and `rest.openOrders` filters. */
  readonly orders: Widen<(typeof DEFAULT_PARAM_NAMES)['orders']>
}

/** Overrides for {@link ParamNames}: any group, any subset of its arguments. */
export type ParamNamesOverride = {
  readonly [G in keyof ParamNames]?: Partial<ParamNames[G]>
}
