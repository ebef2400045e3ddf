/**
 * Pool summary (docs/venue-interface.md): an item of the pool list and `pool_stats` of a pool.
 *
 * @packageDocumentation
 */
import { z } from 'zod'
import {
  decimalString,
  finiteNumber,
  nonNegativeSafeInteger,
  timestampSeconds,
} from './primitives.js'

/**
 * A trading pool with its recent statistics. Prices and volumes are exact decimal strings;
 * `change_rate` is a number (numeric text is accepted); `updated_at` is Unix seconds on the
 * wire and epoch milliseconds in the output.
 *
 * @example
 * ```ts
 * import { z } from 'zod'
 * import { poolSummarySchema } from 'venue-rx/schemas'
 *
 * // `data` of a raw /api/v1/pools answer
 * const pools = z.array(poolSummarySchema).parse(body.data)
 * pools[0]?.updated_at // 1700000100000 (sent as 1700000100)
 * ```
 */
export const poolSummarySchema = z.object({
  pool_id: nonNegativeSafeInteger,
  symbol: z.string(),
  base_coin: z.string(),
  quote_coin: z.string(),
  base_coin_precision: nonNegativeSafeInteger,
  quote_coin_precision: nonNegativeSafeInteger,
  price_precision: nonNegativeSafeInteger,
  last_price: decimalString,
  high: decimalString,
  low: decimalString,
  change: decimalString,
  change_rate: finiteNumber,
  trades: nonNegativeSafeInteger,
  volume: decimalString,
  turnover: decimalString,
  updated_at: timestampSeconds,
})

/**
 * A parsed pool summary.
 *
 * @example
 * ```ts
 * import type { PoolSummary } from 'venue-rx'
 *
 * const pools: PoolSummary[] = await venue.rest.pools()
 * for (const pool of pools) console.log(pool.symbol, pool.last_price, pool.change_rate)
 * // chain.token-CHN-usdt.ext-USDT 1.0462 0.00162757
 * ```
 */
export type PoolSummary = z.output<typeof poolSummarySchema>
