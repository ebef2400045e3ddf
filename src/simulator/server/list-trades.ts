import type { TradeDetailRecord } from '../market/types.js'
import { PARAM_NAMES } from './param-names.js'
import { integerOr, optionalInteger, sortDirection } from './query.js'
import { ok, type Reply } from './reply.js'

const names = PARAM_NAMES.trades

/**
 * Filters, sorts and pages an account's trades for `/api/v1/trades`: `pool_id`,
 * `global_seq` (only greater sequences), `after` / `before` (Unix seconds, exclusive),
 * `sort` (`asc` | `desc`, default `desc`, by timestamp then global_seq) and `limit`
 * (1..100, default 50). `meta.total` counts the filtered trades before paging.
 *
 * Paging with the `global_seq` cursor ascending visits every trade exactly once.
 *
 * @example
 * ```ts
 * listTrades(trades, new URLSearchParams('global_seq=100&sort=asc&limit=100'))
 * // the 100 trades following sequence 100, oldest first
 * ```
 */
export function listTrades(trades: readonly TradeDetailRecord[], query: URLSearchParams): Reply {
  const poolId = optionalInteger(query, names.poolId, { min: 0 })
  const afterSeq = optionalInteger(query, names.afterSeq, { min: 0 })
  const after = optionalInteger(query, names.after)
  const before = optionalInteger(query, names.before)
  const sort = sortDirection(query, names.sort, 'desc')
  const limit = integerOr(query, names.limit, 50, { min: 1, max: 100 })
  const matching = trades.filter(
    (trade) =>
      (poolId === undefined || trade.pool_id === poolId) &&
      (afterSeq === undefined || trade.global_seq > afterSeq) &&
      (after === undefined || trade.timestamp > after) &&
      (before === undefined || trade.timestamp < before),
  )
  const direction = sort === 'asc' ? 1 : -1
  matching.sort((a, b) => direction * (a.timestamp - b.timestamp || a.global_seq - b.global_seq))
  return ok(matching.slice(0, limit), { total: matching.length })
}
