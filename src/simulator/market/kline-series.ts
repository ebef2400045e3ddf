/**
 * Candles of one pool, one source and one interval, built from trades as they happen.
 * Only candles that had trades exist. History is capped so long runs stay bounded.
 *
 * @packageDocumentation
 */
import { formatFixed } from './fixed-point.js'
import { candleBounds, type KlineInterval } from './kline-intervals.js'
import type { PoolSpec } from './pool-spec.js'
import type { KlineRecord } from './types.js'

/** Candles kept per series; older ones are dropped. */
export const MAX_CANDLES = 5000

/** One candle in integer units. */
export interface Candle {
  /** Start, Unix seconds. */
  readonly start: number
  /** End (exclusive), Unix seconds. */
  readonly end: number
  readonly open: bigint
  high: bigint
  low: bigint
  close: bigint
  /** Base units. */
  volume: bigint
  /** Quote units. */
  turnover: bigint
  count: number
}

/** Candles of one interval, ascending by start. */
export class KlineSeries {
  readonly interval: KlineInterval
  readonly candles: Candle[] = []

  constructor(interval: KlineInterval) {
    this.interval = interval
  }

  /** Adds a trade at `sec` (never earlier than the previous one). */
  add(sec: number, price: bigint, quantity: bigint, quote: bigint): void {
    const last = this.candles.at(-1)
    if (last !== undefined && sec >= last.start && sec < last.end) {
      if (price > last.high) last.high = price
      if (price < last.low) last.low = price
      last.close = price
      last.volume += quantity
      last.turnover += quote
      last.count += 1
      return
    }
    const [start, end] = candleBounds(this.interval, sec)
    this.candles.push({
      start,
      end,
      open: price,
      high: price,
      low: price,
      close: price,
      volume: quantity,
      turnover: quote,
      count: 1,
    })
    if (this.candles.length > MAX_CANDLES + MAX_CANDLES / 4) {
      this.candles.splice(0, this.candles.length - MAX_CANDLES)
    }
  }

  /** Candles with a start in [startSec, endSec], ascending. */
  range(startSec: number, endSec: number): Candle[] {
    let low = 0
    let high = this.candles.length
    while (low < high) {
      const middle = (low + high) >> 1
      if ((this.candles[middle] as Candle).start < startSec) low = middle + 1
      else high = middle
    }
    const found: Candle[] = []
    for (let i = low; i < this.candles.length; i++) {
      const candle = this.candles[i] as Candle
      if (candle.start > endSec) break
      found.push(candle)
    }
    return found
  }
}

/** A candle in wire form: OHLCV as JSON numbers of the exact decimal text. */
export function toKlineRecord(pool: PoolSpec, interval: string, candle: Candle): KlineRecord {
  const price = (units: bigint): number => Number(formatFixed(units, pool.pricePrecision))
  return {
    pool_id: pool.id,
    interval,
    open: price(candle.open),
    high: price(candle.high),
    low: price(candle.low),
    close: price(candle.close),
    volume: Number(formatFixed(candle.volume, pool.basePrecision)),
    turnover: Number(formatFixed(candle.turnover, pool.quotePrecision)),
    count: candle.count,
    timestamp: candle.start,
  }
}
