import { map, mergeMap, Observable } from 'rxjs'
import { newInWindow } from '../core/new-in-window.js'
import type { StreamPriority } from '../core/poll-pacer.js'
import type { MarketDataSource } from '../rest/index.js'
import { checkPoolId, checkSource } from '../rest/index.js'
import type { PublicTrade } from '../schemas/public-trade.js'
import { polledResource } from './polled-resource.js'
import type { StreamContext } from './stream-context.js'
import { streamKey } from './stream-key.js'
import { priorityOption, streamOptions } from './stream-options.js'
import type { PollBatch } from './stream-pipeline.js'

/**
 * Options of `watchTrades`.
 *
 * @example
 * ```ts
 * venue.watchTrades(0, { source: 'v1' }) // order book trades only, no AMM swaps
 * ```
 */
export interface PublicTradesOptions {
  /** V2 (order book plus AMM trades) or V1; default the venue's `marketData`. */
  readonly source?: MarketDataSource | undefined
  /** This stream's weight in the venue's pacing (see `DepthStreamOptions.priority`). */
  readonly priority?: StreamPriority | undefined
}

/**
 * What `watchTrades` emits.
 *
 * @example
 * ```ts
 * import type { PublicTradeEvent } from 'venue-rx'
 *
 * venue.watchTrades(0).subscribe((event: PublicTradeEvent) => {
 *   if (event.type === 'gap') console.warn(`trades missing? ${event.since} to ${event.until}`)
 *   else console.log(event.trade.side, event.trade.quantity, '@', event.trade.price)
 * })
 * ```
 */
export type PublicTradeEvent =
  | { readonly type: 'trade'; readonly trade: PublicTrade }
  /**
   * More trades happened between two polls than the window of the latest trades holds
   * (100): some may be missing before the next trade events. `since` is the time of the
   * last trade known before the gap (epoch ms), `until` the oldest one after it.
   */
  | {
      readonly type: 'gap'
      readonly poolId: number
      readonly since: number
      readonly until: number
    }

/** The largest window of latest trades the venue serves. */
const WINDOW = 100

/** Whether two public trades are the same record (they carry no id). */
function sameTrade(a: PublicTrade, b: PublicTrade): boolean {
  return (
    a.traded_at === b.traded_at &&
    a.price === b.price &&
    a.quantity === b.quantity &&
    a.side === b.side &&
    a.buyer === b.buyer &&
    a.seller === b.seller &&
    a.pool_id === b.pool_id
  )
}

/**
 * The events of a window of public trades after the window before it (both oldest first):
 * a `gap` first when they do not overlap, then each trade that follows the overlap.
 *
 * @example
 * ```ts
 * tradesAfter([t1, t2], [t2, t3], 0) // [{ type: 'trade', trade: t3 }]
 * tradesAfter([t1], [t5, t6], 0)     // [{ type: 'gap', poolId: 0, since: t1.traded_at, until: t5.traded_at }, t5, t6 as trades]
 * ```
 */
export function tradesAfter(
  previous: readonly PublicTrade[],
  current: readonly PublicTrade[],
  poolId: number,
): PublicTradeEvent[] {
  const { added, gap } = newInWindow(previous, current, sameTrade)
  const events: PublicTradeEvent[] = []
  if (gap) {
    const since = previous.at(-1)?.traded_at ?? 0
    const until = current[0]?.traded_at ?? since
    events.push({ type: 'gap', poolId, since, until })
  }
  for (const trade of added) events.push({ type: 'trade', trade })
  return events
}

/**
 * New public trades of a pool, each once, oldest first. Public trades carry no id: each
 * poll reads the latest 100 and only what follows the overlap with the previous poll is
 * new (two identical fills are two trades). When the windows do not overlap, a `gap`
 * event says that trades may be missing, and `venue.health` shows the stream as `gap`.
 * The first poll delivers the trades of the current window. Subscribers share a poller;
 * memory holds one window per subscriber.
 */
export function watchTrades(
  context: StreamContext,
  defaultSource: MarketDataSource,
  poolId: number,
  options?: PublicTradesOptions,
): Observable<PublicTradeEvent> {
  return tradeBatches(context, defaultSource, poolId, options).pipe(
    mergeMap((batch) => batch.events),
  )
}

/**
 * {@link watchTrades} one batch per poll: the first (`initial`) holds the trades of the
 * window when the subscription joined, each later one what that poll added (empty when a
 * changed window added nothing). For a consumer that treats the first window apart (the
 * relay publisher goes on from the trades it published last).
 */
export function tradeBatches(
  context: StreamContext,
  defaultSource: MarketDataSource,
  poolId: number,
  options?: PublicTradesOptions,
): Observable<PollBatch<PublicTradeEvent>> {
  checkPoolId('watchTrades', poolId)
  const given = streamOptions('watchTrades', options, ['source', 'priority'])
  const source = checkSource('watchTrades', given['source'], defaultSource)
  const priority = priorityOption('watchTrades', given['priority'])
  const key = streamKey('watchTrades', [poolId, { source }])
  // A new trade moves the pool's book: its pollers get the next turn. The window counts
  // as changed (and is passed on) when it holds a new trade.
  const windows = polledResource(
    context,
    key,
    (rest, signal) => rest.latestTrades({ poolId, limit: WINDOW, source }, { signal }),
    {
      onChange: () => context.nudges.nudge(`book:${poolId}`),
      // The pacer's change rate counts trades, not windows that moved.
      changes: (before, after) =>
        newInWindow([...before].reverse(), [...after].reverse(), sameTrade).added.length,
      priority,
    },
  )
  return new Observable<PollBatch<PublicTradeEvent>>((subscriber) => {
    let previous: readonly PublicTrade[] = []
    return windows
      .pipe(
        map((newestFirst, index): PollBatch<PublicTradeEvent> => {
          const current = [...newestFirst].reverse()
          const events = tradesAfter(previous, current, poolId)
          const first = events[0]
          if (first?.type === 'gap') context.health.gap(key, first.since, first.until)
          previous = current
          return { initial: index === 0, events }
        }),
      )
      .subscribe(subscriber)
  })
}
