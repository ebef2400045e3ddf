/**
 * Pool summaries and pool details (docs/venue-interface.md#pools).
 *
 * The 24-hour figures cover the V2 one-minute candles that start within the last 86 400
 * simulated seconds (minute granularity): `high`/`low` over them, `change` = last price −
 * the open of the first of them, `change_rate` = change / that open (truncated to 8
 * decimals), `trades`/`volume`/`turnover` summed. With no trade in the window, high and
 * low are the last price and the rest is zero.
 *
 * @packageDocumentation
 */
import { MAKER_FEE_PPM, rateNumber, TAKER_FEE_PPM } from './fees.js'
import { formatFixed, pow10 } from './fixed-point.js'
import type { PoolMarketData } from './market-data.js'
import type { PoolSpec } from './pool-spec.js'
import type { PoolDetailRecord, PoolSummaryRecord } from './types.js'

const DAY = 86_400

/** Maximum price fluctuation the pools declare (`max_flct`). */
const MAX_FLUCTUATION = 0.1

/** The summary of a pool at `nowSec`; `genesisSec` stands in for `updated_at` before any trade. */
export function poolSummary(
  data: PoolMarketData,
  nowSec: number,
  genesisSec: number,
): PoolSummaryRecord {
  const { pool } = data
  const pp = pool.pricePrecision
  const last = data.lastPrice
  const series = data.v2.klines.get('1m')
  const window = series?.range(nowSec - DAY, nowSec) ?? []
  let high = last
  let low = last
  let open = last
  let trades = 0
  let volume = 0n
  let turnover = 0n
  const first = window[0]
  if (first !== undefined) {
    open = first.open
    high = first.high
    low = first.low
    for (const candle of window) {
      if (candle.high > high) high = candle.high
      if (candle.low < low) low = candle.low
      trades += candle.count
      volume += candle.volume
      turnover += candle.turnover
    }
  }
  const change = last - open
  const rate = open === 0n ? 0n : (change * pow10(8)) / open
  return {
    pool_id: pool.id,
    symbol: pool.symbol,
    base_coin: pool.base.id,
    quote_coin: pool.quote.id,
    base_coin_precision: pool.basePrecision,
    quote_coin_precision: pool.quotePrecision,
    price_precision: pp,
    last_price: formatFixed(last, pp),
    high: formatFixed(high, pp),
    low: formatFixed(low, pp),
    change: formatFixed(change, pp),
    change_rate: Number(formatFixed(rate, 8)),
    trades,
    volume: formatFixed(volume, pool.basePrecision),
    turnover: formatFixed(turnover, pool.quotePrecision),
    updated_at: data.lastTradeSec ?? genesisSec,
  }
}

/** The detail of a pool. Orders are accepted a week and trading opened six days before genesis. */
export function poolDetail(
  data: PoolMarketData,
  nowSec: number,
  genesisSec: number,
): PoolDetailRecord {
  const pool: PoolSpec = data.pool
  return {
    pool_id: pool.id,
    symbol: pool.symbol,
    status: 1,
    base_coin: pool.base.id,
    quote_coin: pool.quote.id,
    base_contract: pool.base.contract,
    quote_contract: pool.quote.contract,
    base_symbol: pool.base.symbol,
    quote_symbol: pool.quote.symbol,
    base_coin_precision: pool.basePrecision,
    quote_coin_precision: pool.quotePrecision,
    price_precision: pool.pricePrecision,
    maker_fee_rate: rateNumber(MAKER_FEE_PPM),
    taker_fee_rate: rateNumber(TAKER_FEE_PPM),
    min_amount: formatFixed(pool.lot, pool.basePrecision),
    max_flct: MAX_FLUCTUATION,
    asking_time: genesisSec - 7 * DAY,
    trading_time: genesisSec - 6 * DAY,
    pool_stats: poolSummary(data, nowSec, genesisSec),
  }
}
