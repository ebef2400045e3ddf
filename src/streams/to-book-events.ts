import { Observable, type OperatorFunction } from 'rxjs'
import type { BookEvent, Level } from '../book/book-event.js'
import { diffPolls, isOrdered, sortSide, withoutEmptyLevels } from '../book/book-side.js'
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
 * `delta` only when a level changed (found by a merge walk of each side against the
 * previous poll: linear, no sort, and a string compare for the levels the previous poll
 * had), `seq` +1 per event. The previous book plus the delta is the served book (the law
 * property-tested in test/to-book-events.test.ts).
 *
 * - A poll older than the last one applied (server timestamp) is dropped.
 * - A crossed book is not passed on; the next uncrossed one comes as a `resync` snapshot.
 * - After a recovery, or when a side is not in order, a `resync` snapshot.
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
          const served = servedSides(depth)
          // The usual poll: a delta against the previous one, the order checked on the way.
          if (book !== undefined && !resyncNext && !isCrossed(served)) {
            const bids = diffPolls('bids', book.bids, served.bids)
            const asks = bids && diffPolls('asks', book.asks, served.asks)
            if (bids !== undefined && asks !== undefined) {
              if (bids.length === 0 && asks.length === 0) return
              book = served
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
              return
            }
          }
          // The first poll, a resync, a crossed book or a side out of order.
          const sorted = orderedSides(served)
          if (sorted.unordered) resyncNext = true
          if (isCrossed(sorted)) {
            resyncNext = true
            return
          }
          snapshot(sorted, depth.timestamp, book === undefined ? 'initial' : 'resync')
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      })
    })
}

/**
 * The served sides without empty levels, frozen arrays (they are shared by every
 * subscriber's events and books).
 */
function servedSides(depth: Depth): Sides {
  return {
    bids: frozenSide(withoutEmptyLevels(depth.bids)),
    asks: frozenSide(withoutEmptyLevels(depth.asks)),
  }
}

/** `sides` sorted (and flagged) if the venue sent them out of order. */
function orderedSides(sides: Sides): Sides & { readonly unordered: boolean } {
  const unordered = !isOrdered('bids', sides.bids) || !isOrdered('asks', sides.asks)
  if (!unordered) return { ...sides, unordered }
  return { bids: sortSide('bids', sides.bids), asks: sortSide('asks', sides.asks), unordered }
}

function isCrossed({ bids, asks }: Sides): boolean {
  const bid = bids[0]
  const ask = asks[0]
  return bid !== undefined && ask !== undefined && compareValidDecimals(bid[0], ask[0]) >= 0
}

/**
 * Freezes the side array. The level tuples inside are typed readonly but not frozen:
 * freezing each level is a large part of a large book's poll.
 */
function frozenSide(levels: readonly Level[]): readonly Level[] {
  return Object.isFrozen(levels) ? levels : Object.freeze(levels)
}
