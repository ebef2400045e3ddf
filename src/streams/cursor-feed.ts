import {
  concat,
  concatMap,
  defer,
  from,
  map,
  mergeWith,
  Observable,
  type ObservableInput,
  of,
  Subject,
} from 'rxjs'
import { backfillThenJoin } from '../core/backfill-then-join.js'
import { AboveWatermark, type CursorPosition, isCursorPosition } from '../core/cursor-position.js'
import { fromRequest } from '../core/from-request.js'
import { type CursorProgress, deliverThenSave, paginateCursor } from '../core/paginate-cursor.js'
import { retryBackoff } from '../core/retry-backoff.js'
import { VenueError } from '../errors/venue-error.js'
import { failArgument, type RestClient } from '../rest/index.js'
import type { Checkpoint } from './checkpoint.js'
import type { NudgeTopic } from './nudges.js'
import type { StreamContext } from './stream-context.js'
import { checkpointOption, onProgressOption, streamOptions } from './stream-options.js'
import { streamPipeline } from './stream-pipeline.js'
import { venueClockAt, venueNow } from './venue-clock.js'

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
  /** Start after this cursor (exclusive). Ignored when `checkpoint` holds a saved position. */
  readonly cursor?: C | undefined
  /**
   * Loaded at start, saved after each delivered item: the feed's position (its watermark
   * and the items delivered above it). A checkpoint holding a plain cursor loads too.
   */
  readonly checkpoint?: Checkpoint<C> | undefined
  /** Called after every page: phase, pages, items, cursor (for progress bars). */
  readonly onProgress?: ((progress: CursorProgress<C>) => void) | undefined
  /**
   * `'on-sight'` (default): each item as soon as a poll shows it; one the venue shows after
   * a later one comes when it shows, marked `late: true`. `'ascending'`: strictly in cursor
   * order, each held for the venue's `settleMs` (this subscription then polls on its own).
   */
  readonly order?: 'on-sight' | 'ascending' | undefined
}

/**
 * An item of a cursor feed: `late` when it was delivered after an item with a greater
 * cursor (the venue showed it late).
 *
 * @example
 * ```ts
 * venue.watchMyTrades().subscribe((trade) => {
 *   if (trade.late) console.log('shown late:', trade.global_seq)
 * })
 * ```
 */
export type FeedItem<T> = T & { readonly late?: true }

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
  /** The venue's time of an item, epoch ms: old items pass the watermark at once. */
  readonly timeOf?: ((item: T) => number) | undefined
  readonly compare: (a: C, b: C) => number
  /** Rejects a cursor of the wrong form (e.g. loaded from another feed's checkpoint). */
  readonly checkCursor: (cursor: unknown) => C
  /** An item delivered late, marked (default: a copy with `late: true`). */
  readonly markLate?: ((item: T) => T) | undefined
  /**
   * What a new item seen by the shared tail nudges (the account's trades and transfers:
   * `account`, so the balances and open orders are polled at once).
   */
  readonly nudges?: NudgeTopic | undefined
}

/**
 * What the shared tail of a feed emits: first where it starts, then each item once, as it
 * shows, and a `page` event after each page. Every event says the tail's position after
 * it: what a subscriber must hold to take the tail from there. A late subscriber gets the
 * latest event replayed.
 */
export type TailEvent<T, C> =
  | { readonly type: 'start'; readonly position: CursorPosition<C> }
  | { readonly type: 'item'; readonly item: T; readonly position: CursorPosition<C> }
  | {
      readonly type: 'page'
      readonly position: CursorPosition<C>
      /** The newest item the tail has seen. */
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
 * `onProgress`, `order` and the feed's own `extra` names, a checkpoint with `load` and
 * `save`, a function for `onProgress`. The cursor itself is the feed's to check.
 */
export function feedOptions(
  method: string,
  options: unknown,
  extra: readonly string[],
): Record<string, unknown> {
  const given = streamOptions(method, options, [
    'cursor',
    'checkpoint',
    'onProgress',
    'order',
    ...extra,
  ])
  checkpointOption(method, given['checkpoint'])
  onProgressOption(method, given['onProgress'])
  const order = given['order']
  if (order !== undefined && order !== 'on-sight' && order !== 'ascending') {
    failArgument(method, 'order', "must be 'on-sight' or 'ascending'", order)
  }
  return given
}

/** A copy of `item` with `late: true`. */
function markedLate<T>(item: T): T {
  return { ...item, late: true }
}

/**
 * The watermark settings of a feed on the venue of `context`: its settle window, the
 * venue's clock (asked once per venue, before the first page) and how a late item is marked.
 */
function watermarkSettings<T, C>(context: StreamContext, spec: CursorFeedSpec<T, C>) {
  return {
    settleMs: context.settleMs,
    timeOf: spec.timeOf,
    sourceClock: (at: number) => venueClockAt(context, at),
    markLate: spec.markLate ?? markedLate,
  }
}

/**
 * `fetchPage` of `spec` on `rest`, the venue's clock asked first when the watermark uses it
 * (one `/ping` per venue). Transport trouble of the ping is retried with the page; a venue
 * that refuses it leaves this feed without the venue's clock (its watermark then moves
 * `settleMs` after each item, old or not).
 */
function pagesOf<T, C>(
  context: StreamContext,
  spec: CursorFeedSpec<T, C>,
  rest: RestClient,
): (cursor: C | undefined, signal: AbortSignal) => ObservableInput<readonly T[]> {
  let asked = spec.timeOf === undefined || context.settleMs === 0
  return (cursor, signal) => {
    if (asked || venueClockAt(context, 0) !== undefined) return spec.fetchPage(rest, cursor, signal)
    return from(
      venueNow(context, rest).then(
        () => {
          asked = true
        },
        (error: unknown) => {
          if (error instanceof VenueError && error.retryable) throw error
          asked = true
        },
      ),
    ).pipe(concatMap(() => spec.fetchPage(rest, cursor, signal)))
  }
}

/**
 * The shared tail of a feed: one poller per key for every subscriber (the
 * {@link streamPipeline}, shared): it finds the newest item (`head`), emits `start`
 * there (its watermark), then each newer item once as it shows.
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
          // The tail's position, as each event leaves it.
          const position = new AboveWatermark<C>(spec.compare, head)
          return concat(
            of<TailEvent<T, C>>({ type: 'start', position: position.position() }),
            paginateCursor<T, C>({
              start: head,
              fetchPage: pagesOf(context, spec, lane.rest),
              cursorOf: spec.cursorOf,
              compare: spec.compare,
              pageSize: spec.pageSize,
              pace: lane.pace,
              retry: lane.retry(),
              onProgress: (progress) => {
                lane.ok()
                const { newest } = progress
                // A newer item than the tail had seen.
                const moved =
                  newest !== undefined && (seen === undefined || spec.compare(newest, seen) > 0)
                lane.pace.observed(moved)
                if (moved) {
                  if (spec.nudges !== undefined) context.nudges.nudge(spec.nudges)
                  seen = newest
                }
                position.advanceTo(progress.position.watermark)
                pages.next({ type: 'page', position: progress.position, newest })
              },
              scheduler: lane.scheduler,
              ...watermarkSettings(context, spec),
              // Subscribers mark what is late to them.
              markLate: undefined,
            }).pipe(
              map((item): TailEvent<T, C> => {
                position.add(spec.cursorOf(item), undefined)
                return { type: 'item', item, position: position.position() }
              }),
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

/** Where a subscription starts: the checkpoint's position (or plain cursor), else `cursor`. */
function startPosition<T, C>(
  spec: CursorFeedSpec<T, C>,
  saved: unknown,
  cursor: C | undefined,
): CursorPosition<C> {
  if (saved === undefined) return { watermark: cursor, above: [] }
  if (!isCursorPosition(saved)) return { watermark: spec.checkCursor(saved), above: [] }
  const watermark = saved.watermark === undefined ? undefined : spec.checkCursor(saved.watermark)
  const above = saved.above.map((each) => spec.checkCursor(each))
  return { watermark, above }
}

/**
 * A cursor feed on the venue: each item exactly once, from the checkpoint (or `cursor`),
 * the position saved after delivery. On sight by default: each item as soon as a poll
 * shows it, one shown late marked `late`; with `order: 'ascending'`, strictly in cursor
 * order, each item once the watermark passed it (see {@link CursorFeedOptions.order}).
 *
 * A subscriber that is behind backfills on its own (`paginateCursor` in full pages, run by
 * the {@link streamPipeline} under `key#n`), then joins the feed's shared tail, which every
 * caught-up subscriber shares: one poller whatever their number. The hand-over
 * ({@link backfillThenJoin}) loses and repeats nothing: when the backfill first catches up
 * the subscriber starts listening to the tail (queueing its events), backfills on until
 * its own position holds the tail's (its watermark at least the tail's, every item the tail
 * delivered above it), then takes the tail's items it does not hold yet. One that falls
 * more than 10,000 items behind the tail (a slow checkpoint) drops them and backfills
 * again.
 */
export function cursorFeed<T, C>(
  context: StreamContext,
  spec: CursorFeedSpec<T, C>,
  options: CursorFeedOptions<C>,
  tail: Observable<TailEvent<T, C>> = sharedTail(context, spec),
): Observable<T> {
  const { checkpoint } = options
  return defer(() => from(Promise.resolve(checkpoint?.load()))).pipe(
    concatMap((saved) => {
      const start = startPosition(spec, saved, options.cursor)
      return options.order === 'ascending' && context.settleMs > 0
        ? inOrder(context, spec, start, options, tail)
        : onSight(context, spec, start, options, tail)
    }),
  )
}

/** What {@link onSight} reports and saves through. */
interface Sink<C> {
  readonly onProgress?: ((progress: CursorProgress<C>) => void) | undefined
  readonly save?: ((position: CursorPosition<C>) => Promise<void> | void) | undefined
}

/** A feed on sight from `start`: each item as a poll first shows it (see {@link cursorFeed}). */
function onSight<T, C>(
  context: StreamContext,
  spec: CursorFeedSpec<T, C>,
  start: CursorPosition<C>,
  options: CursorFeedOptions<C>,
  tail: Observable<TailEvent<T, C>>,
  sink: Sink<C> = {
    onProgress: options.onProgress,
    save: options.checkpoint === undefined ? undefined : (p) => options.checkpoint?.save(p),
  },
): Observable<T> {
  const { compare, cursorOf } = spec
  const markLate = spec.markLate ?? markedLate
  const { save } = sink
  // This subscription's position, kept across attempts.
  const mine = new AboveWatermark<C>(compare, start.watermark)
  for (const cursor of start.above) if (!mine.has(cursor)) mine.add(cursor, undefined)
  let newest = mine.newest
  const record = (cursor: C) => {
    mine.add(cursor, undefined)
    if (newest === undefined || compare(cursor, newest) > 0) newest = cursor
  }
  return backfillThenJoin<T, TailEvent<T, C>, T>(() => {
    // Counted afresh by each attempt (a new backfill starts its own count).
    let pages = 0
    let items = 0
    // The newest item this backfill saw once caught up.
    let newestSeen: C | undefined
    // The tail's join point, once known.
    let point: CursorPosition<C> | undefined
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
              start: mine.watermark,
              startAbove: mine.position().above,
              fetchPage: pagesOf(context, spec, lane.rest),
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
                mine.advanceTo(progress.position.watermark)
                // Caught up, this run may see a new item before the shared tail does:
                // it nudges as the tail would (not while it reads the past).
                const seen = progress.newest
                const moved =
                  progress.phase === 'tail' &&
                  seen !== undefined &&
                  (newestSeen === undefined || compare(seen, newestSeen) > 0)
                lane.pace.observed(moved)
                if (moved) {
                  if (newestSeen !== undefined && spec.nudges !== undefined) {
                    context.nudges.nudge(spec.nudges)
                  }
                  newestSeen = seen
                }
                sink.onProgress?.(progress)
              },
              scheduler: lane.scheduler,
              ...watermarkSettings(context, spec),
              handOver: (cursor) => {
                join.listen()
                const covered = join.covered()
                if (covered === undefined) return 'wait'
                if (covered) return 'end'
                // The tail starts past what this backfill reached: those items exist.
                const ahead =
                  point?.watermark !== undefined &&
                  (cursor === undefined || compare(cursor, point.watermark) < 0)
                return ahead ? 'next' : 'wait'
              },
            }),
          { ...FEED_PACING, sharing: 'own' },
        ),
      shared: tail,
      fromBackfill: (item, emit) => {
        record(cursorOf(item))
        emit(item)
      },
      fromShared: (event, emit) => {
        if (event.type === 'start') return
        if (event.type === 'page') {
          mine.advanceTo(event.position.watermark)
          pages += 1
          sink.onProgress?.({
            phase: 'tail',
            pages,
            items,
            cursor: newest,
            held: 0,
            newest: event.newest,
            position: mine.position(),
          })
          return
        }
        const cursor = cursorOf(event.item)
        if (mine.has(cursor)) return
        const late = newest !== undefined && compare(cursor, newest) < 0
        emit(late ? markLate(event.item) : event.item)
        record(cursor)
        items += 1
        return save?.(mine.position())
      },
      // Whether this subscription holds everything the tail's join point holds.
      covers: (first) => {
        point = first.position
        return mine.covers(first.position)
      },
      hold: MAX_QUEUED,
      handOver: 'when-backfill-ends',
    }
  })
}

/**
 * A feed strictly in cursor order from `start`: the feed on sight, each item held until its
 * watermark passes it, then delivered and saved (the position: that item's cursor, with
 * what `start` listed above it still later). Nothing is marked late.
 */
function inOrder<T, C>(
  context: StreamContext,
  spec: CursorFeedSpec<T, C>,
  start: CursorPosition<C>,
  options: CursorFeedOptions<C>,
  tail: Observable<TailEvent<T, C>>,
): Observable<T> {
  const { compare, cursorOf } = spec
  const { checkpoint } = options
  return new Observable<T>((subscriber) => {
    // Items seen and not delivered yet, by cursor.
    const held = new AboveWatermark<C, T>(compare, undefined)
    const ready: T[] = []
    let delivered = start.watermark
    let saving = false
    let pages = 0
    let items = 0
    const pump = (): void => {
      while (!saving && ready.length > 0 && !subscriber.closed) {
        const item = ready.shift() as T
        const cursor = cursorOf(item)
        const goOn = deliverThenSave(
          subscriber,
          item,
          () => {
            delivered = cursor
            items += 1
            const above = start.above.filter((each) => compare(each, cursor) > 0)
            return checkpoint?.save({ watermark: cursor, above })
          },
          () => {
            saving = false
            pump()
          },
        )
        if (!goOn) {
          saving = !subscriber.closed
          return
        }
      }
    }
    const feed = onSight(context, { ...spec, markLate: (item) => item }, start, options, tail, {
      onProgress: (progress) => {
        pages += 1
        const { watermark } = progress.position
        ready.push(...held.takeUpTo(watermark))
        options.onProgress?.({
          ...progress,
          pages,
          items,
          cursor: delivered,
          held: held.size + ready.length,
        })
        pump()
      },
    })
    return feed.subscribe({
      next: (item) => held.add(cursorOf(item), item),
      error: (error: unknown) => subscriber.error(error),
      complete: () => subscriber.complete(),
    })
  })
}
