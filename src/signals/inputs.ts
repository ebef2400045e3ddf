import type { Level } from '../book/book-event.js'
import { OrderBook } from '../book/order-book.js'
import { isDecimal } from '../decimal.js'
import type { PublicTrade } from '../schemas/public-trade.js'
import type { PublicTradeEvent } from '../streams/watch-trades.js'
import { toDecimal } from './checks.js'
import { readDecimal } from './scaled.js'

/**
 * Checks of the values that flow through the signal operators. A value an operator cannot
 * read errors its stream with a `TypeError` naming the operator and the field: a NaN time
 * or a price of `"abc"` must stop the stream where it happened, not stall a window for good
 * or turn into a wrong number downstream.
 */

/**
 * A trade as the trade signals take it: a `PublicTrade` or an event of `watchTrades`.
 *
 * @example
 * ```ts
 * import { from } from 'rxjs'
 * import { vwap } from 'venue-rx/signals'
 *
 * venue.watchTrades(0).pipe(vwap(60_000)) // PublicTradeEvents: gap events are skipped
 * const latest = await venue.rest.latestTrades({ poolId: 0, limit: 100 })
 * from(latest.reverse()).pipe(vwap(60_000)) // PublicTrades, oldest first
 * ```
 */
export type TradeInput = PublicTrade | PublicTradeEvent

/** Longest string quoted whole in a message. */
const MAX_QUOTED = 40

/** A value as a message shows it: strings quoted (cut), objects by kind. */
function shown(value: unknown): string {
  if (typeof value === 'string') {
    return JSON.stringify(value.length > MAX_QUOTED ? `${value.slice(0, MAX_QUOTED)}…` : value)
  }
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object' && value !== null) return 'an object'
  if (typeof value === 'function') return 'a function'
  if (typeof value === 'symbol') return 'a symbol'
  if (typeof value === 'bigint') return `${value}n`
  return String(value)
}

/** Errors the stream: `method: field rule (got value)`. */
export function refuse(method: string, field: string, rule: string, value: unknown): never {
  throw new TypeError(`${method}: ${field} ${rule} (got ${shown(value)})`)
}

/** A value of a series (a decimal string or a finite number) as decimal text. */
export function seriesDecimal(method: string, field: string, value: unknown): string {
  const text = toDecimal(value)
  if (text === undefined)
    refuse(method, field, 'must be a decimal string or a finite number', value)
  return text
}

/** A price, quantity or volume: a non-negative decimal string. */
export function amountText(method: string, field: string, value: unknown): string {
  if (typeof value !== 'string' || !isDecimal(value) || value.startsWith('-')) {
    refuse(method, field, 'must be a non-negative decimal string', value)
  }
  return value
}

/** A time: a finite number of epoch ms. */
export function epochMs(method: string, field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    refuse(method, field, 'must be a finite number of epoch ms', value)
  }
  return value
}

/** The input of a book signal, which must be an `OrderBook` (its levels are read below). */
export function orderBook(method: string, input: unknown): OrderBook {
  if (!(input instanceof OrderBook)) refuse(method, 'book', 'must be an OrderBook', input)
  return input
}

/**
 * A level of a book: a `[price, quantity]` pair of non-negative decimal strings. A book
 * built by hand is not checked by `OrderBook`, so each level a signal reads is checked here.
 */
export function bookLevel(
  method: string,
  side: 'bids' | 'asks',
  index: number,
  level: unknown,
): Level {
  const where = `book.${side}[${index}]`
  if (!Array.isArray(level) || level.length !== 2) {
    refuse(method, where, 'must be a [price, quantity] pair', level)
  }
  amountText(method, `${where} price`, level[0])
  amountText(method, `${where} quantity`, level[1])
  return level as unknown as Level
}

/**
 * Reads the price (`at` 0) or the quantity (`at` 1) of a book level into `read` of
 * scaled.ts when the level is a pair and that amount a non-negative decimal string, as
 * {@link bookLevel} takes them; `false` otherwise (and the caller runs the checks of
 * {@link bookLevel}, {@link bestLevel} or {@link topLevels}, which throw the error).
 */
export function readLevelAmount(level: unknown, at: 0 | 1): boolean {
  if (!Array.isArray(level) || level.length !== 2) return false
  const value: unknown = level[at]
  return typeof value === 'string' && value.charCodeAt(0) !== 45 /* - */ && readDecimal(value)
}

/**
 * Reads decimal text already checked (by {@link amountText} or {@link seriesDecimal}) into
 * `read` of scaled.ts. `readDecimal` takes all that those checks take: the `TypeError`
 * here guards against a change to one of them, no text that passed them reaches it.
 */
export function readChecked(method: string, text: string): void {
  if (!readDecimal(text)) refuse(method, 'value', 'must be a decimal string', text)
}

/** The best level of a side, checked, or `undefined` when the side is empty. */
export function bestLevel(
  method: string,
  book: OrderBook,
  side: 'bids' | 'asks',
): Level | undefined {
  const best = side === 'bids' ? book.bestBid : book.bestAsk
  return best === undefined ? undefined : bookLevel(method, side, 0, best)
}

/** The first `count` levels of a side, checked. */
export function topLevels(
  method: string,
  book: OrderBook,
  side: 'bids' | 'asks',
  count: number,
): readonly Level[] {
  const levels = book.top(side, count)
  for (const [index, level] of levels.entries()) bookLevel(method, side, index, level)
  return levels
}

/**
 * The trade of an input, its fields checked (`side` too when `withSide`), or `undefined`
 * for a `gap` event, which the trade signals skip.
 */
export function tradeOf(method: string, input: unknown, withSide = false): PublicTrade | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    refuse(method, 'trade', 'must be a PublicTrade or a PublicTradeEvent', input)
  }
  let trade: object = input
  if ('type' in input) {
    // An event of watchTrades; a PublicTrade has no `type`.
    if (input.type === 'gap') return undefined
    if (input.type !== 'trade') refuse(method, 'event.type', "must be 'trade' or 'gap'", input.type)
    const inner = 'trade' in input ? input.trade : undefined
    if (typeof inner !== 'object' || inner === null) {
      refuse(method, 'event.trade', 'must be a PublicTrade', inner)
    }
    trade = inner
  }
  const fields = trade as Record<string, unknown>
  amountText(method, 'trade.price', fields['price'])
  amountText(method, 'trade.quantity', fields['quantity'])
  epochMs(method, 'trade.traded_at', fields['traded_at'])
  if (withSide && fields['side'] !== 'buy' && fields['side'] !== 'sell') {
    refuse(method, 'trade.side', "must be 'buy' or 'sell'", fields['side'])
  }
  return trade as PublicTrade
}
