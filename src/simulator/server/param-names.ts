/**
 * Wire names of the query filters that the venue's reference describes without naming. They match
 * the client's default table (docs/venue-interface.md#paging); change them here only.
 *
 * The simulator never imports the client, so this table is its own copy.
 */
export const PARAM_NAMES = {
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
} as const
