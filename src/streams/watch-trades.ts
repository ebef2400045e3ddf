import { concatMap, from, Observable } from 'rxjs'
import { newInWindow } from '../core/new-in-window.js'
import type { MarketDataSource } from '../rest/index.js'
import { checkPoolId, checkSource } from '../rest/index.js'
import type { PublicTrade } from '../schemas/public-trade.js'
import { polledResource } from './polled-resource.js'
import type { StreamContext } from './stream-context.js'
import { streamKey } from './stream-key.js'
import { streamOptions } from './stream-options.js'

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
export function sameTrade(a: PublicTrade, b: PublicTrade): boolean {
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
  checkPoolId('watchTrades', poolId)
  const given = streamOptions('watchTrades', options, ['source'])
  const source = checkSource('watchTrades', given['source'], defaultSource)
  const key = streamKey('watchTrades', [poolId, { source }])
  const windows = polledResource(context, key, (rest, signal) =>
    rest.latestTrades({ poolId, limit: WINDOW, source }, { signal }),
  )
  return new Observable<PublicTradeEvent>((subscriber) => {
    let previous: readonly PublicTrade[] = []
    return windows
      .pipe(
        concatMap((newestFirst) => {
          const current = [...newestFirst].reverse()
          const { added, gap } = newInWindow(previous, current, sameTrade)
          const events: PublicTradeEvent[] = []
          if (gap) {
            const since = previous.at(-1)?.traded_at ?? 0
            const until = current[0]?.traded_at ?? since
            events.push({ type: 'gap', poolId, since, until })
            context.health.gap(key, since, until)
          }
          for (const trade of added) events.push({ type: 'trade', trade })
          previous = current
          return from(events)
        }),
      )
      .subscribe(subscriber)
  })
}
