/**
 * Handlers of the market-data endpoints (docs/venue-interface.md#endpoints), V1 and V2.
 *
 * @packageDocumentation
 */
import type { Source } from '../market/types.js'
import { invalidParameter, serviceInternalError } from './error-replies.js'
import {
  integerOr,
  optionalInteger,
  optionalString,
  requiredInteger,
  requiredString,
} from './query.js'
import { ok, type Reply } from './reply.js'
import { ReplyError } from './reply-error.js'
import type { RouteContext } from './route.js'

/** The nine kline intervals the venue serves. */
export const KLINE_INTERVALS: ReadonlySet<string> = new Set([
  '1m',
  '5m',
  '15m',
  '30m',
  '1h',
  '4h',
  '1d',
  '1w',
  '1M',
])

const DECIMAL_PATTERN = /^\d+(\.\d+)?$/
const MIN_PRECISION = 0.00000001
const MAX_PRECISION = 10000

/** The price tick of a pool with `decimals` price decimals: 4 gives `'0.0001'`. */
export function priceTick(decimals: number): string {
  return decimals <= 0 ? '1' : `0.${'0'.repeat(decimals - 1)}1`
}

/**
 * `GET /api/v1/depth` (and `/v2`): `pool_id` required, `limit` 1..5000 (default 100),
 * `precision` 0.00000001..10000 (default the pool's price tick). An unknown pool is a 400.
 */
export function depthHandler(source: Source): (context: RouteContext) => Reply {
  return ({ market, query }) => {
    const poolId = requiredInteger(query, 'pool_id', { min: 0 })
    const limit = integerOr(query, 'limit', 100, { min: 1, max: 5000 })
    const pool = market.poolDetail(String(poolId))
    if (pool === undefined) throw new ReplyError(invalidParameter('pool_id'))
    const precision = optionalString(query, 'precision') ?? priceTick(pool.price_precision)
    const value = Number(precision)
    if (!DECIMAL_PATTERN.test(precision) || value < MIN_PRECISION || value > MAX_PRECISION) {
      throw new ReplyError(invalidParameter('precision'))
    }
    const depth = market.depth(poolId, source, limit, precision)
    if (depth === undefined) throw new ReplyError(invalidParameter('pool_id'))
    return ok(depth)
  }
}

/**
 * `GET /api/v1/klines` (and `/v2`): `pool_id`, `interval`, `start` and `end` (Unix
 * seconds) all required (400 without them); an interval outside the nine is a 500, as
 * the live service answers.
 */
export function klinesHandler(source: Source): (context: RouteContext) => Reply {
  return ({ market, query }) => {
    const poolId = requiredInteger(query, 'pool_id', { min: 0 })
    const interval = requiredString(query, 'interval')
    const start = requiredInteger(query, 'start')
    const end = requiredInteger(query, 'end')
    if (!KLINE_INTERVALS.has(interval)) throw new ReplyError(serviceInternalError())
    const klines = market.klines(poolId, source, interval, start, end)
    return ok(klines, { total: klines.length })
  }
}

/** `GET /api/v1/latest-trades` (and `/v2`): optional `pool_id`, `limit` 1..100 (default 10). */
export function latestTradesHandler(source: Source): (context: RouteContext) => Reply {
  return ({ market, query }) => {
    const poolId = optionalInteger(query, 'pool_id', { min: 0 })
    const limit = integerOr(query, 'limit', 10, { min: 1, max: 100 })
    const trades = market.latestTrades(poolId, source, limit)
    return ok(trades, { total: trades.length })
  }
}
