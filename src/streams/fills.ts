import { canonicalId, compareIds } from '../decimal.js'
import { VenueResponseError } from '../errors/venue-response-error.js'
import { failArgument, type RestClient } from '../rest/index.js'
import type { TradeDetail } from '../schemas/trade-detail.js'
import type { Fill } from './fill.js'
import type { StreamContext } from './stream-context.js'

export type { Fill }

/**
 * A fill with its feed cursor: what the fills feed carries from page to checkpoint (the
 * cursor is data beside the fill, not looked up by the fill's identity), unwrapped to the
 * fill where it leaves the feed.
 */
export interface FillAtCursor {
  readonly fill: Fill
  /** The trade's `global_seq`, or `global_seq/1` for the first fill of a self-trade. */
  readonly cursor: string
}

/**
 * The fills of `account` in one of its trades, each with its feed cursor: one, or two for a
 * self-trade (the maker fill first). Each fill's cursor is the trade's `global_seq`,
 * except the first fill of a self-trade: `global_seq/1` (half the trade delivered). A
 * trade that names neither side as `account` is a `VenueResponseError` (`inconsistent`).
 *
 * @example
 * ```ts
 * fillsAtCursors(selfTrade, 'alice')
 * // [{ fill: { role: 'maker', ... }, cursor: '1058/1' },
 * //  { fill: { role: 'taker', ... }, cursor: '1058' }]
 * ```
 */
export function fillsAtCursors(trade: TradeDetail, account: string): FillAtCursor[] {
  const roles: ('maker' | 'taker')[] = []
  if (trade.maker === account) roles.push('maker')
  if (trade.taker === account) roles.push('taker')
  if (roles.length === 0) {
    // Well-formed, but not a trade of this account: not drift of the schema.
    throw new VenueResponseError(
      'inconsistent',
      `trades: trade ${trade.global_seq} names neither side as the account's chain account`,
      { status: 200 },
    )
  }
  return roles.map((role, i) => ({
    fill: fillOf(trade, role),
    cursor: i < roles.length - 1 ? `${trade.global_seq}/1` : trade.global_seq,
  }))
}

/**
 * The fills of `account` in one of its trades: {@link fillsAtCursors} without the cursors.
 *
 * @example
 * ```ts
 * fillsOf(trade, 'alice')
 * // [{ role: 'taker', side: 'buy', fee: trade.taker_fee, feeCoin: trade.base_coin, ... }]
 * ```
 */
export function fillsOf(trade: TradeDetail, account: string): Fill[] {
  return fillsAtCursors(trade, account).map(({ fill }) => fill)
}

/** The side `role` of `trade` as a fill. */
function fillOf(trade: TradeDetail, role: 'maker' | 'taker'): Fill {
  const maker = role === 'maker'
  const bought = maker ? !trade.taker_is_bid : trade.taker_is_bid
  return {
    globalSeq: trade.global_seq,
    txId: trade.tx_id,
    poolId: trade.pool_id,
    orderId: maker ? trade.maker_order_id : trade.taker_order_id,
    clientId: maker ? trade.maker_order_cid : trade.taker_order_cid,
    price: trade.price,
    quantity: trade.base_quantity,
    quoteQuantity: trade.quote_quantity,
    fee: maker ? trade.maker_fee : trade.taker_fee,
    // The fee comes out of what the account receives: base when it bought, else quote.
    feeCoin: bought ? trade.base_coin : trade.quote_coin,
    role,
    side: bought ? 'buy' : 'sell',
    timestamp: trade.timestamp,
  }
}

/** Splits a fill cursor into its `global_seq` and whether only half its trade is delivered. */
function parts(cursor: string): { readonly seq: string; readonly half: boolean } {
  const half = cursor.endsWith('/1')
  return { seq: half ? cursor.slice(0, -2) : cursor, half }
}

/** Orders fill cursors: by `global_seq`, half a trade before the whole of it. */
export function compareFillCursors(a: string, b: string): number {
  const x = parts(a)
  const y = parts(b)
  return compareIds(x.seq, y.seq) || Number(y.half) - Number(x.half)
}

/** The own-trades cursor to page from, to get every fill after `cursor`. */
export function tradesCursorBefore(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined
  const { seq, half } = parts(cursor)
  if (!half) return seq
  return seq === '0' ? undefined : (BigInt(seq) - 1n).toString()
}

/**
 * Checks a fill cursor and returns it canonical: a `global_seq` by the rule of every id
 * (`canonicalId`: digits up to 2^64 - 1, leading zeros dropped, or a non-negative safe
 * integer), or such digits followed by `/1`. Anything else is a `VenueInputError` naming
 * `cursor`: a cursor the venue could not take must not reach a request.
 *
 * @example
 * ```ts
 * checkFillCursor('watchFills', '007/1') // '7/1'
 * checkFillCursor('watchFills', 1058)    // '1058'
 * checkFillCursor('watchFills', '18446744073709551616/1') // throws VenueInputError
 * ```
 */
export function checkFillCursor(method: string, cursor: unknown): string {
  const half = typeof cursor === 'string' && cursor.endsWith('/1')
  const seq = canonicalId(half ? cursor.slice(0, -2) : cursor)
  if (seq === undefined) {
    return failArgument(
      method,
      'cursor',
      'must be a global_seq (digits of an unsigned 64-bit integer, or a non-negative safe integer), optionally followed by /1',
      cursor,
    )
  }
  return half ? `${seq}/1` : seq
}

/**
 * The account's chain account (from account info), asked once per venue: every fills
 * feed and order stream of it shares the answer. The request is not tied to one caller's
 * signal (a caller leaving must not fail the others); a failed answer is asked again by
 * the next caller.
 */
export function chainAccount(context: StreamContext, rest: RestClient): Promise<string> {
  return context.lookups.chainAccount.get('account', () =>
    rest.accountInfo().then((info) => info.chain_account),
  )
}
