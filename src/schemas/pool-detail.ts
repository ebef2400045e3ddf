/**
 * Pool detail (docs/venue-interface.md).
 *
 * @packageDocumentation
 */
import { z } from 'zod'
import { poolSummarySchema } from './pool-summary.js'
import {
  type CodeOf,
  decimalString,
  finiteNumber,
  nonNegativeSafeInteger,
  safeInteger,
  timestampSeconds,
} from './primitives.js'

/**
 * Pool status codes as sent in `status`.
 *
 * @example
 * ```ts
 * import { PoolStatus } from 'venue-rx'
 *
 * const pool = await venue.rest.pool(0)
 * if (pool.status !== PoolStatus.Open) console.log(`${pool.symbol} is not trading`)
 * ```
 */
export const PoolStatus = { Closed: 0, Open: 1 } as const

/**
 * A documented pool status code: 0 closed, 1 open.
 *
 * @example
 * ```ts
 * import type { PoolStatus } from 'venue-rx'
 *
 * const label: Record<PoolStatus, string> = { 0: 'closed', 1: 'open' }
 * label[pool.status as PoolStatus] ?? `status ${pool.status}` // 'open'
 * ```
 */
export type PoolStatus = CodeOf<typeof PoolStatus>

/**
 * A trading pool's configuration and statistics. Fee rates are fractions (e.g. 0.003) and,
 * like `max_flct` (the maximum price fluctuation), are numbers (numeric text is accepted).
 * `asking_time` (when orders are accepted) and `trading_time` (when trading opens) are Unix
 * seconds on the wire and epoch milliseconds in the output. `status` is kept as any integer
 * (see {@link PoolStatus}).
 *
 * @example
 * ```ts
 * import { poolDetailSchema } from 'venue-rx/schemas'
 *
 * // `data` of a raw /api/v1/pools/0 answer
 * const pool = poolDetailSchema.parse(body.data)
 * pool.taker_fee_rate // 0.003
 * pool.trading_time   // 1699481600000 (sent as 1699481600)
 * ```
 */
export const poolDetailSchema = z.object({
  pool_id: nonNegativeSafeInteger,
  symbol: z.string(),
  status: safeInteger,
  base_coin: z.string(),
  quote_coin: z.string(),
  base_contract: z.string(),
  quote_contract: z.string(),
  base_symbol: z.string(),
  quote_symbol: z.string(),
  base_coin_precision: nonNegativeSafeInteger,
  quote_coin_precision: nonNegativeSafeInteger,
  price_precision: nonNegativeSafeInteger,
  maker_fee_rate: finiteNumber,
  taker_fee_rate: finiteNumber,
  min_amount: decimalString,
  max_flct: finiteNumber,
  asking_time: timestampSeconds,
  trading_time: timestampSeconds,
  pool_stats: poolSummarySchema,
})

/**
 * A parsed pool detail.
 *
 * @example
 * ```ts
 * import type { PoolDetail } from 'venue-rx'
 *
 * const pool: PoolDetail = await venue.rest.pool(0)
 * // { pool_id: 0, symbol: 'chain.token-CHN-usdt.ext-USDT', status: 1, price_precision: 4,
 * //   maker_fee_rate: 0.001, taker_fee_rate: 0.003, min_amount: '0.0100',
 * //   pool_stats: { last_price: '1.0462', ... }, ... }
 * ```
 */
export type PoolDetail = z.output<typeof poolDetailSchema>
