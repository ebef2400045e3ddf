import type { PoolDetailRecord, PoolSummaryRecord } from '../market/types.js'

/** A pool summary with every string `''` and every number `0`. */
function zeroPoolSummary(): PoolSummaryRecord {
  return {
    pool_id: 0,
    symbol: '',
    base_coin: '',
    quote_coin: '',
    base_coin_precision: 0,
    quote_coin_precision: 0,
    price_precision: 0,
    last_price: '',
    high: '',
    low: '',
    change: '',
    change_rate: 0,
    trades: 0,
    volume: '',
    turnover: '',
    updated_at: 0,
  }
}

/**
 * The all-zero pool record the live service answers (HTTP 200) for an unknown pool:
 * strings `''`, numbers `0`, `pool_stats` zeroed the same way.
 */
export function zeroPoolDetail(): PoolDetailRecord {
  return {
    pool_id: 0,
    symbol: '',
    status: 0,
    base_coin: '',
    quote_coin: '',
    base_contract: '',
    quote_contract: '',
    base_symbol: '',
    quote_symbol: '',
    base_coin_precision: 0,
    quote_coin_precision: 0,
    price_precision: 0,
    maker_fee_rate: 0,
    taker_fee_rate: 0,
    min_amount: '',
    max_flct: 0,
    asking_time: 0,
    trading_time: 0,
    pool_stats: zeroPoolSummary(),
  }
}
