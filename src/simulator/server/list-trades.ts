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
  // The view lists trades by ascending global_seq, and simulated time never goes back,
  // so that order is also timestamp-then-sequence order: no sort, and the cursor is a
  // binary search instead of a scan.
  const first = afterSeq === undefined ? 0 : firstAfter(trades, afterSeq)
  const matching: TradeDetailRecord[] = []
  for (let i = first; i < trades.length; i++) {
    const trade = trades[i] as TradeDetailRecord
    if (
      (poolId === undefined || trade.pool_id === poolId) &&
      (after === undefined || trade.timestamp > after) &&
      (before === undefined || trade.timestamp < before)
    ) {
      matching.push(trade)
    }
  }
  const page = sort === 'asc' ? matching.slice(0, limit) : matching.slice(-limit).reverse()
  return ok(page, { total: matching.length })
}

/** Index of the first trade whose global_seq is greater than `seq`. */
function firstAfter(trades: readonly TradeDetailRecord[], seq: number): number {
  let low = 0
  let high = trades.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if ((trades[mid] as TradeDetailRecord).global_seq > seq) high = mid
    else low = mid + 1
  }
  return low
}
