import {
  concat,
  concatMap,
  defer,
  from,
  map,
  mergeWith,
  type Observable,
  type ObservableInput,
  of,
  Subject,
} from 'rxjs'
import { backfillThenJoin } from '../core/backfill-then-join.js'
import { fromRequest } from '../core/from-request.js'
import { type CursorProgress, paginateCursor } from '../core/paginate-cursor.js'
import { retryBackoff } from '../core/retry-backoff.js'
import type { RestClient } from '../rest/index.js'
import type { Checkpoint } from './checkpoint.js'
import type { NudgeTopic } from './nudges.js'
import type { StreamContext } from './stream-context.js'
import { checkpointOption, onProgressOption, streamOptions } from './stream-options.js'
import { streamPipeline } from './stream-pipeline.js'

/**
 * Options every cursor feed takes.
 *
 * @example
 * ```ts
 * import type { CursorFeedOptions } from 'venue-rx'
 *
 * const options: CursorFeedOptions<string> = {
 *   cursor: '93', // start after transfer 93
 *   onProgress: ({ phase, items }) => console.log(phase, items), // 'backfill' 100, ... 'tail' 214
 * }
 * venue.watchTransfers(options)
 * ```
 */
export interface CursorFeedOptions<C> {
  /** Start after this cursor (exclusive). Ignored when `checkpoint` holds a saved cursor. */
  readonly cursor?: C | undefined
  /** Loaded at start, saved after each delivered item. */
  readonly checkpoint?: Checkpoint<C> | undefined
  /** Called after every page: phase, pages, items, cursor (for progress bars). */
  readonly onProgress?: ((progress: CursorProgress<C>) => void) | undefined
}

/** What a concrete feed supplies. */
export interface CursorFeedSpec<T, C> {
  /** Stream key, for the health board and the request-budget lane. */
  readonly key: string
  readonly pageSize: number
  readonly fetchPage: (
    rest: RestClient,
    cursor: C | undefined,
    signal: AbortSignal,
  ) => ObservableInput<readonly T[]>
  /** The cursor of the newest item now, `undefined` when there is none yet. */
  readonly head: (rest: RestClient, signal: AbortSignal) => Promise<C | undefined>
  readonly cursorOf: (item: T) => C
  /** The venue's time of an item, epoch ms: lets the settle window pass old items at once. */
  readonly timeOf?: ((item: T) => number) | undefined
  readonly compare: (a: C, b: C) => number
  /** Rejects a cursor of the wrong form (e.g. loaded from another feed's checkpoint). */
  readonly checkCursor: (cursor: unknown) => C
  /**
   * What a new item seen by the shared tail nudges (the account's trades and transfers:
   * `account`, so the balances and open orders are polled at once).
   */
  readonly nudges?: NudgeTopic | undefined
}

/**
 * What the shared tail of a feed emits: first where it starts (every item after `cursor`
 * follows), then each item once, ascending. A late subscriber gets the latest event
 * replayed, so it learns from where the tail covers everything.
 */
export type TailEvent<T, C> =
  | { readonly type: 'start'; readonly cursor: C | undefined }
  | { readonly type: 'item'; readonly item: T }
  /**
   * A page was polled; the tail has emitted every item up to `cursor`, and holds `held`
   * more (up to `newest`) in its settle window.
   */
  | {
      readonly type: 'page'
      readonly cursor: C | undefined
      readonly held: number
      readonly newest: C | undefined
    }

/**
 * Items a subscriber may hold from the shared tail while it backfills or saves; beyond
 * that it drops them and backfills on its own again (memory stays bounded). `watchOrder`
 * holds as many of the fills tail while it looks for its order.
 */
export const MAX_QUEUED = 10_000

/**
 * Checks the options object of a cursor feed at the call: only `cursor`, `checkpoint`,
 * `onProgress` and the feed's own `extra` names, a checkpoint with `load` and `save`, a
 * function for `onProgress`. The cursor itself is the feed's to check.
 */
export function feedOptions(
  method: string,
  options: unknown,
  extra: readonly string[],
): Record<string, unknown> {
  const given = streamOptions(method, options, ['cursor', 'checkpoint', 'onProgress', ...extra])
  checkpointOption(method, given['checkpoint'])
  onProgressOption(method, given['onProgress'])
  return given
}

/**
 * The shared tail of a feed: one poller per key for every subscriber (the
 * {@link streamPipeline}, shared): it finds the newest item (`head`), emits `start`
 * there, then each newer item once as it appears.
 */
export function sharedTail<T, C>(
  context: StreamContext,
  spec: CursorFeedSpec<T, C>,
): Observable<TailEvent<T, C>> {
  return streamPipeline<TailEvent<T, C>>(
    context,
    spec.key,
    (lane) => {
      const pages = new Subject<TailEvent<T, C>>()
      // The newest item the tail has seen, from its start.
      let seen: C | undefined
      return fromRequest((signal) => spec.head(lane.rest, signal)).pipe(
        retryBackoff<C | undefined>(lane.retry()),
        concatMap((head) => {
          seen = head
          return concat(
            of<TailEvent<T, C>>({ type: 'start', cursor: head }),
            paginateCursor<T, C>({
              start: head,
              fetchPage: (cursor, signal) => spec.fetchPage(lane.rest, cursor, signal),
              cursorOf: spec.cursorOf,
              compare: spec.compare,
              pageSize: spec.pageSize,
              pace: lane.pace,
              retry: lane.retry(),
              onProgress: ({ cursor, held, newest }) => {
                lane.ok()
                // A newer item than the tail had seen (held in the settle window or not).
                const moved =
                  newest !== undefined && (seen === undefined || spec.compare(newest, seen) > 0)
                lane.pace.observed(moved)
                if (moved) {
                  if (spec.nudges !== undefined) context.nudges.nudge(spec.nudges)
                  seen = newest
                }
                pages.next({ type: 'page', cursor, held, newest })
              },
              scheduler: lane.scheduler,
              settleMs: context.settleMs,
              timeOf: spec.timeOf,
            }).pipe(
              map((item): TailEvent<T, C> => ({ type: 'item', item })),
              mergeWith(pages),
            ),
          )
        }),
      )
    },
    FEED_PACING,
  )
}

/**
 * How a feed is paced: its own items (trades, fills, transfers) are what a bot acts on, so
 * it polls at least every `pollIntervalMs` whatever else moves (`'high'`).
 */
const FEED_PACING = { defaultPriority: 'high' } as const

/**
 * A cursor feed on the venue: each item exactly once, ascending, from the checkpoint (or
 * `cursor`), saved after delivery. A subscriber that is behind backfills on its own
 * (`paginateCursor` in full pages, run by the {@link streamPipeline} under `key#n`), then
 * joins the feed's shared tail, which every caught-up subscriber shares: one poller
 * whatever their number. The hand-over ({@link backfillThenJoin}) loses and repeats
 * nothing: when the backfill first catches up the subscriber starts listening to the tail
 * (queueing its items), backfills on at least up to where the tail starts, then takes the
 * tail's items after its own cursor. One that falls more than 10,000 items behind the
 * tail (a slow checkpoint) drops them and backfills again.
 */
export function cursorFeed<T, C>(
  context: StreamContext,
  spec: CursorFeedSpec<T, C>,
  options: CursorFeedOptions<C>,
  tail: Observable<TailEvent<T, C>> = sharedTail(context, spec),
): Observable<T> {
  const { compare, cursorOf } = spec
  const after = (cursor: C, than: C | undefined) => than === undefined || compare(cursor, than) > 0
  return defer(() => from(Promise.resolve(options.checkpoint?.load()))).pipe(
    concatMap((saved) => {
      let delivered = saved === undefined ? options.cursor : spec.checkCursor(saved)
      const save =
        options.checkpoint === undefined
          ? undefined
          : (cursor: C) => options.checkpoint?.save(cursor)
      return backfillThenJoin<T, TailEvent<T, C>, T>(() => {
        // Counted afresh by each attempt (a new backfill starts its own count).
        let pages = 0
        let items = 0
        // The newest item this backfill saw once caught up.
        let newestSeen: C | undefined
        return {
          // The tail is joined once the backfill first catches up (not before: a feed far
          // behind would keep a tail poller busy for nothing while it backfills). From then
          // on its events are held, so none is missed while the backfill reaches where
          // the tail starts.
          backfill: (join) =>
            streamPipeline<T>(
              context,
              spec.key,
              (lane) =>
                paginateCursor<T, C>({
                  start: delivered,
                  fetchPage: (cursor, signal) => spec.fetchPage(lane.rest, cursor, signal),
                  cursorOf,
                  compare,
                  pageSize: spec.pageSize,
                  pace: lane.pace,
                  save,
                  retry: lane.retry(),
                  onProgress: (progress) => {
                    lane.ok()
                    pages = progress.pages
                    items = progress.items
                    // Caught up, this run may see a new item before the shared tail does:
                    // it nudges as the tail would (not while it reads the past).
                    const { newest } = progress
                    const moved =
                      progress.phase === 'tail' &&
                      newest !== undefined &&
                      (newestSeen === undefined || compare(newest, newestSeen) > 0)
                    lane.pace.observed(moved)
                    if (moved) {
                      if (newestSeen !== undefined && spec.nudges !== undefined) {
                        context.nudges.nudge(spec.nudges)
                      }
                      newestSeen = newest
                    }
                    options.onProgress?.(progress)
                  },
                  scheduler: lane.scheduler,
                  settleMs: context.settleMs,
                  timeOf: spec.timeOf,
                  handOver: () => {
                    join.listen()
                    const covered = join.covered()
                    if (covered === undefined) return 'wait'
                    // Not covered: the tail starts later than this backfill reached, so
                    // those items exist.
                    return covered ? 'end' : 'next'
                  },
                }),
              { ...FEED_PACING, sharing: 'own' },
            ),
          shared: tail,
          fromBackfill: (item, emit) => {
            delivered = cursorOf(item)
            emit(item)
          },
          fromShared: (event, emit) => {
            if (event.type === 'start') return
            if (event.type === 'page') {
              pages += 1
              options.onProgress?.({
                phase: 'tail',
                pages,
                items,
                cursor: delivered,
                held: event.held,
                newest: event.newest,
              })
              return
            }
            const cursor = cursorOf(event.item)
            if (!after(cursor, delivered)) return
            emit(event.item)
            delivered = cursor
            items += 1
            return save?.(cursor)
          },
          // Where the tail starts (its first event): every item after it follows.
          covers: (first) => {
            const start = first.type === 'item' ? cursorOf(first.item) : first.cursor
            return (
              start === undefined || (delivered !== undefined && compare(delivered, start) >= 0)
            )
          },
          hold: MAX_QUEUED,
          handOver: 'when-backfill-ends',
        }
      })
    }),
  )
}
