import { Observable, type OperatorFunction } from 'rxjs'
import type { BookEvent, Level } from '../book/book-event.js'
import {
  applySide,
  diffSide,
  isOrdered,
  sameSide,
  sortSide,
  withoutEmptyLevels,
} from '../book/book-side.js'
import { compareValidDecimals } from '../decimal.js'
import type { Depth } from '../schemas/depth.js'

/** Stale answers (older server timestamp) dropped in a row before the book resyncs anyway. */
const MAX_STALE_IN_A_ROW = 3

/** One poll of the depth endpoint, as the shared poller hands it on. */
export interface DepthPoll {
  readonly depth: Depth
  /** True for the first answer after the poller had to retry: the book resyncs. */
  readonly afterRecovery: boolean
}

interface Sides {
  readonly bids: readonly Level[]
  readonly asks: readonly Level[]
}

/**
 * Turns depth polls into `BookEvent`s for one subscriber: a `snapshot` first, then a
 * `delta` only when a level changed (found by a merge walk of each side: linear, no
 * sort, no deep compare of whole books), `seq` +1 per event.
 *
 * - A poll older than the last one applied (server timestamp) is dropped.
 * - A crossed book is not passed on; the next uncrossed one comes as a `resync` snapshot.
 * - After a recovery, or when a side is not in order or the self-check (previous book
 *   plus delta equals the served book) fails, a `resync` snapshot.
 */
export function toBookEvents(poolId: number): OperatorFunction<DepthPoll, BookEvent> {
  return (source) =>
    new Observable<BookEvent>((subscriber) => {
      let book: Sides | undefined
      let seq = 0
      let lastTimestamp = Number.NEGATIVE_INFINITY
      let resyncNext = false
      let stale = 0

      const snapshot = (sides: Sides, timestamp: number, reason: 'initial' | 'resync') => {
        book = sides
        seq += 1
        resyncNext = false
        subscriber.next({
          type: 'snapshot',
          poolId,
          seq,
          timestamp,
          bids: sides.bids,
          asks: sides.asks,
          reason,
        })
      }

      return source.subscribe({
        next: ({ depth, afterRecovery }) => {
          // Remembered before the stale check, so a stale first answer cannot swallow it.
          if (afterRecovery) resyncNext = true
          if (depth.timestamp < lastTimestamp) {
            // A venue whose clock stepped back would otherwise be ignored until it caught
            // up: after a few stale answers in a row, believe the venue and resync.
            stale += 1
            if (stale < MAX_STALE_IN_A_ROW) return
            resyncNext = true
          }
          stale = 0
          lastTimestamp = depth.timestamp
          const served = orderedSides(depth)
          if (served.unordered) resyncNext = true
          if (isCrossed(served)) {
            resyncNext = true
            return
          }
          if (book === undefined) return snapshot(served, depth.timestamp, 'initial')
          if (resyncNext) return snapshot(served, depth.timestamp, 'resync')
          const bids = diffSide('bids', book.bids, served.bids, true)
          const asks = diffSide('asks', book.asks, served.asks, true)
          if (bids === undefined || asks === undefined) {
            return snapshot(served, depth.timestamp, 'resync')
          }
          if (bids.length === 0 && asks.length === 0) return
          const next: Sides = {
            bids: applySide('bids', book.bids, bids),
            asks: applySide('asks', book.asks, asks),
          }
          if (!sameSide(next.bids, served.bids) || !sameSide(next.asks, served.asks)) {
            return snapshot(served, depth.timestamp, 'resync')
          }
          book = next
          seq += 1
          subscriber.next({
            type: 'delta',
            poolId,
            seq,
            prevSeq: seq - 1,
            timestamp: depth.timestamp,
            bids,
            asks,
          })
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      })
    })
}

/**
 * The served sides without empty levels, frozen arrays (they are shared by every
 * subscriber's events and books); sorted (and flagged) if the venue sent them out of order.
 */
function orderedSides(depth: Depth): Sides & { readonly unordered: boolean } {
  let bids = frozenSide(withoutEmptyLevels(depth.bids))
  let asks = frozenSide(withoutEmptyLevels(depth.asks))
  const unordered = !isOrdered('bids', bids) || !isOrdered('asks', asks)
  if (unordered) {
    bids = sortSide('bids', bids)
    asks = sortSide('asks', asks)
  }
  return { bids, asks, unordered }
}

function isCrossed({ bids, asks }: Sides): boolean {
  const bid = bids[0]
  const ask = asks[0]
  return bid !== undefined && ask !== undefined && compareValidDecimals(bid[0], ask[0]) >= 0
}

/**
 * Freezes the side array. The level tuples inside are typed readonly but not frozen:
 * freezing each level cost about a fifth of a poll of a large book (bench/book-diff.ts).
 */
function frozenSide(levels: readonly Level[]): readonly Level[] {
  return Object.isFrozen(levels) ? levels : Object.freeze(levels)
}
