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

/** Pool status codes as sent in `status`. */
export const PoolStatus = { Closed: 0, Open: 1 } as const

/** A documented pool status code: 0 closed, 1 open. */
export type PoolStatus = CodeOf<typeof PoolStatus>

/**
 * A trading pool's configuration and statistics. Fee rates are fractions (e.g. 0.003) and,
 * like `max_flct` (the maximum price fluctuation), are numbers (numeric text is accepted).
 * `asking_time` (when orders are accepted) and `trading_time` (when trading opens) are Unix
 * seconds on the wire and epoch milliseconds in the output. `status` is kept as any integer
 * (see {@link PoolStatus}).
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

/** A parsed pool detail. */
export type PoolDetail = z.output<typeof poolDetailSchema>
