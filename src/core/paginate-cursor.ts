import {
  BehaviorSubject,
  concat,
  concatMap,
  defer,
  EMPTY,
  ignoreElements,
  map,
  Observable,
  type ObservableInput,
  observeOn,
  of,
  queueScheduler,
  type SchedulerLike,
  type Subscriber,
  tap,
  timer,
} from 'rxjs'
import { fromRequest } from './from-request.js'
import { type RetryBackoffOptions, retryBackoff } from './retry-backoff.js'

/**
 * Where a cursor feed stands, reported after every page.
 *
 * @example
 * ```ts
 * import type { CursorProgress } from 'venue-rx'
 *
 * venue.watchMyTrades({
 *   onProgress: (progress: CursorProgress<string>) =>
 *     console.log(progress.phase, progress.pages, progress.items, progress.cursor),
 * })
 * // 'backfill' 1 100 '412', 'backfill' 2 200 '731', ... then 'tail' ... once caught up
 * ```
 */
export interface CursorProgress<C> {
  /** `'backfill'` while full pages come back; `'tail'` once caught up. */
  readonly phase: 'backfill' | 'tail'
  /** Pages fetched so far. */
  readonly pages: number
  /** Items delivered so far. */
  readonly items: number
  /** Cursor of the last item delivered (or the start cursor). */
  readonly cursor: C | undefined
}

/**
 * Settings of {@link paginateCursor}.
 *
 * @example
 * ```ts
 * import { compareIds, type Transfer } from 'venue-rx'
 * import { type PaginateCursorOptions, paginateCursor } from 'venue-rx/operators'
 *
 * const options: PaginateCursorOptions<Transfer, string> = {
 *   start: undefined, // from the first transfer
 *   fetchPage: (sid, signal) =>
 *     venue.rest.transfers({ afterId: sid, sort: 'asc', limit: 100 }, { signal }),
 *   cursorOf: (transfer) => transfer.sid,
 *   compare: compareIds,
 *   pageSize: 100,
 *   intervalMs: 5_000,
 *   retry: { initialMs: 500, maxMs: 30_000, factor: 2 },
 * }
 * paginateCursor(options).subscribe((transfer) => console.log(transfer.sid, transfer.amount))
 * ```
 */
export interface PaginateCursorOptions<T, C> {
  /** Deliver only items after this cursor (exclusive); `undefined` = from the beginning. */
  readonly start: C | undefined
  /** One page of items after `cursor`, ascending (the feed sorts a page defensively). */
  readonly fetchPage: (cursor: C | undefined, signal: AbortSignal) => ObservableInput<readonly T[]>
  /** The cursor of an item. */
  readonly cursorOf: (item: T) => C
  /** Orders cursors: negative when `a` comes before `b`. */
  readonly compare: (a: C, b: C) => number
  /** A page this long is full: fetch the next one at once. A shorter page means caught up. */
  readonly pageSize: number
  /** Pause between polls once caught up (tail), ms. */
  readonly intervalMs: number
  /** Called with each delivered item's cursor, after delivery; the next item waits for it. */
  readonly save?: ((cursor: C) => Promise<void> | void) | undefined
  /** Retry of a failed page (the cursor is kept, so nothing repeats). */
  readonly retry: RetryBackoffOptions
  /** Called after every page. */
  readonly onProgress?: ((progress: CursorProgress<C>) => void) | undefined
  /** Scheduler of the tail pauses (tests). */
  readonly scheduler?: SchedulerLike | undefined
  /**
   * Hands the feed over instead of tailing. Asked after each page that is not full, with
   * the cursor delivered so far: `'end'` completes the feed (another source takes over
   * from there), `'next'` fetches the next page at once (more items are known to exist;
   * taken as `'wait'` when the page did not move the cursor), `'wait'` polls again after
   * `intervalMs`. Without it the feed tails for ever.
   */
  readonly handOver?: ((cursor: C | undefined) => 'end' | 'next' | 'wait') | undefined
}

/**
 * Delivers `item`, then runs `afterDelivery` (which saves its cursor). True when the caller
 * may go on at once; false when the subscriber closed, the save failed (the error is sent
 * on) or the save is a promise still pending: `resume` runs when it settles, unless the
 * subscriber closed meanwhile. The save runs even when the consumer stops on this very item
 * (`take(n)`): it was delivered, so a restart must not repeat it.
 */
export function deliverThenSave<T>(
  subscriber: Subscriber<T>,
  item: T,
  afterDelivery: () => Promise<void> | void,
  resume: () => void,
): boolean {
  subscriber.next(item)
  let saving: Promise<void> | void
  try {
    saving = afterDelivery()
  } catch (error) {
    subscriber.error(error)
    return false
  }
  if (saving === undefined) return !subscriber.closed
  saving.then(
    () => {
      if (!subscriber.closed) resume()
    },
    (error: unknown) => subscriber.error(error),
  )
  return false
}

interface Step<T, C> {
  /** Items of this page to deliver, ascending, all after the cursor the page was asked with. */
  readonly items: readonly T[]
  /** Cursor after this page's items. */
  readonly cursor: C | undefined
  /** Whether the next page is fetched at once (backfill) or after a pause (tail). */
  readonly full: boolean
  /** Whether the page moved the cursor. */
  readonly moved: boolean
}

/**
 * A cursor-paginated feed: each item exactly once, in ascending cursor order. Backfills
 * with full pages back to back, then tails by polling every `intervalMs`.
 *
 * - The cursor only moves past items that were delivered (and saved, with `save`), so a
 *   restart from the last saved cursor resumes with the next item.
 * - Items at or before the cursor (overlapping or repeated pages) are dropped: no
 *   duplicates, and no growing set of seen ids (memory stays flat).
 * - A full page that does not move the cursor ends the page loop (the feed waits for the
 *   tail interval instead of asking the same page again and again).
 * - A failed page is retried with backoff from the same cursor; rejections end the feed.
 *
 * @example
 * ```ts
 * paginateCursor({
 *   start: '0',
 *   fetchPage: (seq, signal) => venue.rest.trades({ afterSeq: seq, sort: 'asc', limit: 100 }, { signal }),
 *   cursorOf: (trade) => trade.global_seq,
 *   compare: compareIds,
 *   pageSize: 100,
 *   intervalMs: 1000,
 *   retry: { initialMs: 500, maxMs: 30_000, factor: 2 },
 * })
 * // every trade after global_seq 0 once, ascending, then new ones as they happen
 * ```
 */
export function paginateCursor<T, C>(options: PaginateCursorOptions<T, C>): Observable<T> {
  const {
    fetchPage,
    cursorOf,
    compare,
    pageSize,
    intervalMs,
    save,
    retry,
    onProgress,
    scheduler,
    handOver,
  } = options
  return defer(() => {
    let pages = 0
    let items = 0
    let delivered: C | undefined = options.start

    const fetchAfter = (cursor: C | undefined): Observable<Step<T, C>> =>
      fromRequest((signal) => fetchPage(cursor, signal)).pipe(
        retryBackoff<readonly T[]>(retry),
        map((page): Step<T, C> => {
          pages += 1
          const fresh = page
            .filter((item) => cursor === undefined || compare(cursorOf(item), cursor) > 0)
            .sort((a, b) => compare(cursorOf(a), cursorOf(b)))
          const unique = fresh.filter(
            (item, i) => i === 0 || compare(cursorOf(fresh[i - 1] as T), cursorOf(item)) !== 0,
          )
          const last = unique.at(-1)
          return {
            items: unique,
            cursor: last === undefined ? cursor : cursorOf(last),
            // Full and moving: go on at once. A full page that did not move the cursor
            // ends the page loop (wait for the tail interval instead of spinning).
            full: page.length >= pageSize && unique.length > 0,
            moved: unique.length > 0,
          }
        }),
      )

    // A page, item by item: each delivered, then its cursor saved, and the next one
    // waits until that save settled. The save runs even when the consumer stops on this
    // very item (take(n), first()): it was delivered, so a restart must not repeat it.
    const deliver = (step: Step<T, C>): Observable<T> =>
      new Observable<T>((subscriber) => {
        let index = 0
        const run = (): void => {
          while (index < step.items.length) {
            const item = step.items[index] as T
            index += 1
            const cursor = cursorOf(item)
            const goOn = deliverThenSave(
              subscriber,
              item,
              () => {
                delivered = cursor
                items += 1
                return save?.(cursor)
              },
              run,
            )
            if (!goOn) return
          }
          onProgress?.({ phase: step.full ? 'backfill' : 'tail', pages, items, cursor: delivered })
          subscriber.complete()
        }
        run()
      })

    // A BehaviorSubject, so a page that answers synchronously still finds the loop
    // subscribed; the queue scheduler turns the loop into iteration, not recursion.
    const next = new BehaviorSubject<C | undefined>(delivered)
    return next.pipe(
      observeOn(queueScheduler),
      concatMap((cursor) => fetchAfter(cursor)),
      concatMap((step) =>
        concat(
          deliver(step),
          defer(() => {
            const decision = step.full ? 'next' : (handOver?.(delivered) ?? 'wait')
            if (decision === 'end') {
              next.complete()
              return EMPTY
            }
            return (
              decision === 'next' && step.moved
                ? of(0)
                : timer(intervalMs, scheduler as SchedulerLike)
            ).pipe(
              tap(() => next.next(delivered)),
              ignoreElements(),
            )
          }),
        ),
      ),
    )
  })
}
