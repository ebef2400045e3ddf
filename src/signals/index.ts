/**
 * Signals of market data, as pure RxJS operators over the streams of venue-rx: order book
 * measures (`mid`, `spread`, `microprice`, `imbalance`, `depthWithin`), trade measures over
 * windows of trade time (`vwap`, `tradeFlowImbalance`, `ohlcv`), series tools (`ema`,
 * `crossover`, `threshold`) and an adapter for the `trading-signals` indicators
 * (`indicator`). Exact decimal strings throughout; each division takes `{ places }`
 * (default 18, rounded half to even). A book signal gives `null` for a book that has no
 * such value (an empty side), and the series tools pass a `null` over. A value an operator
 * cannot read errors its stream with a `TypeError`; a bad argument throws
 * `VenueInputError` at the call. docs/signals.md has an example of each.
 *
 * @packageDocumentation
 */
export type { DecimalLike } from './checks.js'
export { type CrossEvent, crossover } from './crossover.js'
export { type DepthWithin, depthWithin } from './depth-within.js'
export { type EmaOptions, ema } from './ema.js'
export { type ImbalanceOptions, imbalance } from './imbalance.js'
export {
  type CandleEvent,
  type CandleInput,
  type CandleLike,
  type CandleNumbers,
  type IndicatorLike,
  type IndicatorOptions,
  indicator,
  type PriceInput,
} from './indicator.js'
export type { TradeInput } from './inputs.js'
export { type MicropriceOptions, microprice } from './microprice.js'
export { mid } from './mid.js'
export { type OhlcvCandle, type OhlcvEvent, ohlcv } from './ohlcv.js'
export { type SpreadOptions, spread } from './spread.js'
export { type ThresholdEvent, type ThresholdOptions, threshold } from './threshold.js'
export {
  type TradeFlowImbalanceOptions,
  tradeFlowImbalance,
} from './trade-flow-imbalance.js'
export { type VwapOptions, vwap } from './vwap.js'
