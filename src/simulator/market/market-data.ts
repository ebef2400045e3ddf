/**
 * Public market data of one pool, fed by every trade: the V1 set (engine trades) and the
 * V2 set (engine and AMM trades), each with a trade tape and candles at every interval.
 *
 * @packageDocumentation
 */
import { KLINE_INTERVALS, type KlineInterval } from './kline-intervals.js'
import { KlineSeries } from './kline-series.js'
import type { PoolSpec } from './pool-spec.js'
import { TradeTape } from './trade-tape.js'
import type { PublicTradeRecord, Source } from './types.js'

/** A trade as market data sees it: integer units plus its public record. */
export interface MarketTrade {
  /** Market-wide public trade sequence. */
  readonly seq: number
  /** Unix seconds. */
  readonly sec: number
  /** Price units. */
  readonly price: bigint
  /** Base units. */
  readonly quantity: bigint
  /** Quote units. */
  readonly quote: bigint
  readonly record: PublicTradeRecord
}

/** Tape and candles of one source. */
export interface SourceData {
  readonly tape: TradeTape
  readonly klines: ReadonlyMap<KlineInterval, KlineSeries>
}

/** One pool's public market data. */
export class PoolMarketData {
  readonly pool: PoolSpec
  readonly v1: SourceData = newSourceData()
  readonly v2: SourceData = newSourceData()
  /** Price of the latest V2 trade (the start price before any trade). */
  lastPrice: bigint
  /** Unix seconds of the latest V2 trade, undefined before any trade. */
  lastTradeSec: number | undefined

  constructor(pool: PoolSpec) {
    this.pool = pool
    this.lastPrice = pool.startPrice
  }

  /** The data of one source. */
  source(source: Source): SourceData {
    return source === 'v1' ? this.v1 : this.v2
  }

  /** Records a trade: engine trades feed V1 and V2, AMM trades V2 only. */
  record(trade: MarketTrade, engine: boolean): void {
    const sets = engine ? [this.v1, this.v2] : [this.v2]
    for (const set of sets) {
      set.tape.push({ seq: trade.seq, record: trade.record })
      for (const series of set.klines.values()) {
        series.add(trade.sec, trade.price, trade.quantity, trade.quote)
      }
    }
    this.lastPrice = trade.price
    this.lastTradeSec = trade.sec
  }
}

function newSourceData(): SourceData {
  return {
    tape: new TradeTape(),
    klines: new Map(KLINE_INTERVALS.map((interval) => [interval, new KlineSeries(interval)])),
  }
}
