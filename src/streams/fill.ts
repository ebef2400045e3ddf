/**
 * One fill of one of the account's orders: its side of a trade.
 *
 * @example
 * ```ts
 * import type { Fill } from 'venue-rx'
 *
 * venue.watchFills({ poolId: 2 }).subscribe((fill: Fill) => {
 *   // { globalSeq: '1058', orderId: '670', clientId: 'cid-118', role: 'taker', side: 'sell',
 *   //   price: '2197.0', quantity: '0.03800', quoteQuantity: '83.4860', fee: '0.2505',
 *   //   feeCoin: 'usdt.ext-USDT', ... }
 *   position.apply(fill.side, fill.quantity, fill.price)
 *   // A sell receives the quote coin, less the fee: 83.4860 - 0.2505 USDT credited.
 *   fees.add(fill.feeCoin, fill.fee)
 * })
 * ```
 */
export interface Fill {
  /** The trade's `global_seq` (digits, exact). */
  readonly globalSeq: string
  readonly txId: string
  readonly poolId: number
  /** The account's order that filled (digits). */
  readonly orderId: string
  /** That order's client id. */
  readonly clientId: string
  readonly price: string
  /** Base quantity. */
  readonly quantity: string
  readonly quoteQuantity: string
  /** The account's fee for this fill (the maker's or the taker's, as the account was). */
  readonly fee: string
  /**
   * The coin `fee` is charged in: the coin the account receives, from which the venue
   * takes its fee. A buy receives the base coin (`trade.base_coin`), a sell the quote coin
   * (`trade.quote_coin`), maker or taker alike (docs/venue-interface.md#fees).
   */
  readonly feeCoin: string
  readonly role: 'maker' | 'taker'
  /** The account's side: a taker that bid bought; the maker took the other side. */
  readonly side: 'buy' | 'sell'
  /** Epoch ms. */
  readonly timestamp: number
  /**
   * Delivered after a fill with a greater `global_seq`: the venue showed it late. Absent
   * on fills delivered in order.
   */
  readonly late?: true
}
