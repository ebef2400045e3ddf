import { map, type Observable, type OperatorFunction, pipe, scan } from 'rxjs'
import { applyBookEvent } from '../book/apply-book-event.js'
import type { BookEvent } from '../book/book-event.js'
import type { OrderBook } from '../book/order-book.js'
import type { StreamPriority } from '../core/poll-pacer.js'
import { normalizeDecimal } from '../decimal.js'
import type { DepthArgs, MarketDataSource } from '../rest/index.js'
import { checkPoolId, checkSource, depthQuery } from '../rest/index.js'
import type { Depth } from '../schemas/depth.js'
import type { StreamContext } from './stream-context.js'
import { streamKey } from './stream-key.js'
import { priorityOption, streamOptions } from './stream-options.js'
import { pollAnswers, streamPipeline } from './stream-pipeline.js'
import { type DepthPoll, toBookEvents } from './to-book-events.js'

/**
 * Options of `watchDepth` and `watchOrderBook`.
 *
 * @example
 * ```ts
 * // 20 levels a side, prices grouped to 0.001, order book only (no AMM)
 * venue.watchOrderBook(0, { limit: 20, precision: '0.001', source: 'v1' })
 * ```
 */
export interface DepthStreamOptions {
  /** Levels per side (the venue's default is 100). */
  readonly limit?: number | undefined
  /** Price grouping, 0.00000001 to 10000. */
  readonly precision?: string | number | undefined
  /** V2 (order book plus AMM) or V1; default the venue's `marketData`. */
  readonly source?: MarketDataSource | undefined
  /**
   * This book's weight in the venue's pacing: `'high'` for the books a bot trades on
   * (about twice the polls of a `'normal'` book that changes as often), `'low'`. Default
   * `'normal'`. A relayed book takes it and leaves it to the relay.
   */
  readonly priority?: StreamPriority | undefined
}

/**
 * The pool's order book as `BookEvent`s: a snapshot, then a delta only when a level
 * changed. Subscribers with the same arguments share one poller; each subscription has
 * its own `seq` and starts with a snapshot of the current book.
 * Throws `VenueInputError` at once for bad arguments.
 */
export function watchDepth(
  context: StreamContext,
  defaultSource: MarketDataSource,
  poolId: number,
  options?: DepthStreamOptions,
  method = 'watchDepth',
): Observable<BookEvent> {
  // The positional pool is the only pool: the options cannot name another one.
  checkPoolId(method, poolId)
  const given = streamOptions(method, options, ['limit', 'precision', 'source', 'priority'])
  const source = checkSource(method, given['source'], defaultSource)
  const priority = priorityOption(method, given['priority'])
  // Checked by depthQuery below before any use.
  const args = { poolId, limit: given['limit'], precision: given['precision'] } as DepthArgs
  // Keyed by the wire query, the precision by value: 0.01, '0.01' and '0.010' share a poller.
  const query = Object.fromEntries(
    depthQuery(args, method)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [
        name,
        name === 'precision' ? normalizeDecimal(String(value)) : value,
      ]),
  )
  const key = streamKey('watchDepth', [{ ...query, source }])
  const polls = streamPipeline(
    context,
    key,
    // A public trade in the pool, seen by a trades poller, gives the book the next turn.
    pollAnswers((rest, signal) => rest.depth({ ...args, source }, { signal }), {
      hurry: context.nudges.on(`book:${poolId}`),
      changes: topChanged,
    }),
    {
      shape: map(({ value, afterRecovery }): DepthPoll => ({ depth: value, afterRecovery })),
      priority,
    },
  )
  return polls.pipe(toBookEvents(poolId))
}

/** Levels a side {@link topChanged} compares. */
const TOP_LEVELS = 20

/**
 * Whether a book changed, for the pacer's change rate only: its first levels a side and
 * its depth (the delta itself compares every level). A change deep in the book alone
 * does not count; comparing the whole book would cost as much as the diff a second time.
 */
function topChanged(before: Depth, after: Depth): boolean {
  return !sameTop(before.bids, after.bids) || !sameTop(before.asks, after.asks)
}

function sameTop(a: Depth['bids'], b: Depth['bids']): boolean {
  if (a.length !== b.length) return false
  const n = Math.min(a.length, TOP_LEVELS)
  for (let i = 0; i < n; i += 1) {
    const x = a[i]
    const y = b[i]
    if (x?.[0] !== y?.[0] || x?.[1] !== y?.[1]) return false
  }
  return true
}

/**
 * Folds `BookEvent`s through `applyBookEvent`: an immutable `OrderBook` after every event
 * (bids, asks, best prices, spread, mid, depth queries). `watchOrderBook` is `watchDepth`
 * through it, whether the events are polled or relayed.
 *
 * @example
 * ```ts
 * venue.watchDepth(0).pipe(toOrderBooks()).subscribe((book) => console.log(book.mid))
 * ```
 */
export function toOrderBooks(): OperatorFunction<BookEvent, OrderBook> {
  return pipe(
    scan<BookEvent, OrderBook | undefined, undefined>(applyBookEvent, undefined),
    map((book) => book as OrderBook),
  )
}
