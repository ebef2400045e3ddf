/**
 * Wire records of trades: the trade detail of an engine fill (docs/venue-interface.md) and the
 * public trade (2.4) that every engine fill and AMM swap shows in latest trades.
 *
 * @packageDocumentation
 */
import { formatFixed } from './fixed-point.js'
import type { Fill } from './matching-engine.js'
import { PERMISSION } from './order.js'
import type { PoolSpec } from './pool-spec.js'
import { txId } from './random.js'
import type { PublicTradeRecord, TradeDetailRecord } from './types.js'

/**
 * The trade detail of a fill. Fees are written in the precision of the coin their payer
 * receives (base for the bid side, quote for the ask side). All fills of one taker order
 * share its `tx_id`, as one on-chain transaction would.
 */
export function tradeDetail(
  seed: number,
  globalSeq: number,
  fill: Fill,
  sec: number,
): TradeDetailRecord {
  const { taker, maker } = fill
  const pool = taker.pool
  const takerIsBid = taker.side === 0
  const bp = pool.basePrecision
  const qp = pool.quotePrecision
  return {
    global_seq: globalSeq,
    tx_id: txId(seed, `order-${pool.id}-${taker.orderId}`),
    pool_id: pool.id,
    base_coin: pool.base.id,
    quote_coin: pool.quote.id,
    base_quantity: formatFixed(fill.quantity, bp),
    quote_quantity: formatFixed(fill.quote, qp),
    price: formatFixed(fill.price, pool.pricePrecision),
    timestamp: sec,
    taker: taker.account,
    taker_fee: formatFixed(fill.takerFee, takerIsBid ? bp : qp),
    taker_is_bid: takerIsBid,
    taker_order_id: taker.orderId,
    taker_order_cid: taker.cid,
    taker_permission: PERMISSION,
    maker: maker.account,
    maker_fee: formatFixed(fill.makerFee, takerIsBid ? qp : bp),
    maker_order_id: maker.orderId,
    maker_order_cid: maker.cid,
    maker_permission: PERMISSION,
  }
}

/**
 * A public trade. `side` is the taker's side: `buy` when the taker (or the trader swapping
 * with the AMM) bought base.
 */
export function publicTrade(
  pool: PoolSpec,
  taker: string,
  counterparty: string,
  takerBuys: boolean,
  price: bigint,
  quantity: bigint,
  sec: number,
): PublicTradeRecord {
  return {
    pool_id: pool.id,
    buyer: takerBuys ? taker : counterparty,
    seller: takerBuys ? counterparty : taker,
    price: formatFixed(price, pool.pricePrecision),
    quantity: formatFixed(quantity, pool.basePrecision),
    side: takerBuys ? 'buy' : 'sell',
    traded_at: sec,
  }
}
