/**
 * Zod schemas for every resource of the venue interface, and the types inferred from them.
 *
 * @packageDocumentation
 */
export type { AccountInfo } from './account-info.js'
export { accountInfoSchema } from './account-info.js'
export type { Balance, BalanceLock } from './balance.js'
export { balanceLockSchema, balanceSchema } from './balance.js'
export type { Depth, Level } from './depth.js'
export { depthSchema, levelSchema } from './depth.js'
export type { Kline, KlineInterval } from './kline.js'
export { KLINE_INTERVALS, klineSchema } from './kline.js'
export type { OpenOrder, Order, OrderWithTrades } from './order.js'
export {
  OrderSide,
  OrderStatus,
  OrderType,
  openOrderSchema,
  orderSchema,
  orderWithTradesSchema,
} from './order.js'
export type { Ping } from './ping.js'
export { pingSchema } from './ping.js'
export type { PoolDetail } from './pool-detail.js'
export { PoolStatus, poolDetailSchema } from './pool-detail.js'
export type { PoolSummary } from './pool-summary.js'
export { poolSummarySchema } from './pool-summary.js'
export {
  decimalString,
  finiteNumber,
  nonNegativeSafeInteger,
  safeInteger,
  timestampMillis,
  timestampSeconds,
  unsignedIntegerString,
} from './primitives.js'
export type { PublicTrade } from './public-trade.js'
export { publicTradeSchema } from './public-trade.js'
export type { SystemInfo } from './system-info.js'
export { systemInfoSchema } from './system-info.js'
export type { Token, TokenChain, TokenInfo, TokenLink } from './token.js'
export { tokenChainSchema, tokenInfoSchema, tokenLinkSchema, tokenSchema } from './token.js'
export type { TradeDetail } from './trade-detail.js'
export { tradeDetailSchema } from './trade-detail.js'
export type { Transfer } from './transfer.js'
export { transferSchema } from './transfer.js'
