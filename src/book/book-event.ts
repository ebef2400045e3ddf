/** One price level: `[price, quantity]`, exact decimal strings as the venue sent them. */
export type Level = readonly [price: string, quantity: string]

/** Which side of the book. Bids run high to low, asks low to high. */
export type BookSide = 'bids' | 'asks'

/** The whole book at one poll: the first event of a subscription, and after any resync. */
export interface BookSnapshot {
  readonly type: 'snapshot'
  readonly poolId: number
  /** 1 for the first event of a subscription, then +1 per event. */
  readonly seq: number
  /** The venue's depth timestamp, epoch ms. */
  readonly timestamp: number
  readonly bids: readonly Level[]
  readonly asks: readonly Level[]
  /** `'initial'` first; `'resync'` after recovery from errors, a crossed book or a failed self-check. */
  readonly reason: 'initial' | 'resync'
}

/** The levels that changed since the previous event; quantity `'0'` removes a level. */
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

/** What `watchDepth` emits. */
export type BookEvent = BookSnapshot | BookDelta
