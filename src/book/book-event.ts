/**
 * One price level: `[price, quantity]`, exact decimal strings as the venue sent them.
 *
 * @example
 * ```ts
 * import type { BookLevel } from 'venue-rx'
 *
 * const best: BookLevel | undefined = book.bestBid // ['1.0475', '22.8103']
 * const [price, quantity] = best ?? ['0', '0']
 * ```
 */
export type Level = readonly [price: string, quantity: string]

/**
 * Which side of the book. Bids run high to low, asks low to high.
 *
 * @example
 * ```ts
 * import type { BookSide } from 'venue-rx'
 *
 * // the side a resting order of the account joins
 * const side: BookSide = order.side === 0 ? 'bids' : 'asks'
 * const levels = book[side] // bids high to low, asks low to high
 * ```
 */
export type BookSide = 'bids' | 'asks'

/**
 * The whole book at one poll: the first event of a subscription, and after any resync.
 *
 * @example
 * ```ts
 * venue.watchDepth(0).subscribe((event) => {
 *   if (event.type !== 'snapshot') return
 *   // { type: 'snapshot', poolId: 0, seq: 1, timestamp: 1700000100000, reason: 'initial',
 *   //   bids: [['1.0475', '22.8103'], ...], asks: [['1.0477', '355.1400'], ...] }
 *   if (event.reason === 'resync') console.warn('book rebuilt after errors')
 * })
 * ```
 */
export interface BookSnapshot {
  readonly type: 'snapshot'
  readonly poolId: number
  /** 1 for the first event of a subscription, then +1 per event. */
  readonly seq: number
  /** The venue's depth timestamp, epoch ms. */
  readonly timestamp: number
  readonly bids: readonly Level[]
  readonly asks: readonly Level[]
  /** `'initial'` first; `'resync'` after recovery from errors, a crossed book or a side out of order. */
  readonly reason: 'initial' | 'resync'
}

/**
 * The levels that changed since the previous event; quantity `'0'` removes a level.
 *
 * @example
 * ```ts
 * // after a snapshot with seq 1: bid level 1.0475 removed, ask level 1.0477 now 120.5
 * const delta: BookDelta = {
 *   type: 'delta',
 *   poolId: 0,
 *   seq: 2,
 *   prevSeq: 1,
 *   timestamp: 1700000101000,
 *   bids: [['1.0475', '0']],
 *   asks: [['1.0477', '120.5']],
 * }
 * ```
 */
export interface BookDelta {
  readonly type: 'delta'
  readonly poolId: number
  readonly seq: number
  /** `seq` of the event this one applies to (always `seq - 1` within a subscription). */
  readonly prevSeq: number
  readonly timestamp: number
  /** Changed bid levels, high to low. */
  readonly bids: readonly Level[]
  /** Changed ask levels, low to high. */
  readonly asks: readonly Level[]
}

/**
 * What `watchDepth` emits.
 *
 * @example
 * ```ts
 * import type { BookEvent } from 'venue-rx'
 *
 * venue.watchDepth(0, { limit: 20 }).subscribe((event: BookEvent) => {
 *   if (event.type === 'snapshot') console.log('snapshot', event.reason, event.bids, event.asks)
 *   else console.log('delta', event.seq, event.bids, event.asks) // quantity '0' removes a level
 * })
 * ```
 */
export type BookEvent = BookSnapshot | BookDelta
