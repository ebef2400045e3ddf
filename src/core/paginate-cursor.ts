import {
  asyncScheduler,
  defer,
  from,
  Observable,
  type ObservableInput,
  type SchedulerLike,
  type Subscriber,
  Subscription,
  tap,
  throwError,
  timer,
} from 'rxjs'
import { VenueInputError } from '../errors/venue-input-error.js'
import { fromRequest } from './from-request.js'
import type { PollPace } from './poll-pacer.js'
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
 * // (with a settle window, `held` items after `cursor` wait, up to `newest`)
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
  /**
   * Items seen but held back by the settle window (see `settleMs`): they follow `cursor`
   * once nothing before them can still appear. 0 without a settle window.
   */
  readonly held: number
  /** Cursor of the newest item seen, delivered or held (`cursor` when none is held). */
  readonly newest: C | undefined
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
  /** Pause between polls once caught up (tail), ms. Not used with `pace`. */
  readonly intervalMs?: number | undefined
  /**
   * Where the tail's pause counts from: the end of the last page's request (default), or
   * its start (`'start'`: polls `intervalMs` apart whatever the answers take).
   */
  readonly measureFrom?: 'end' | 'start' | undefined
  /**
   * Decides when the tail's next poll starts instead of `intervalMs` (a venue's pacer):
   * after a page that is not full, the next request waits for `pace.turn()`;
   * `pace.started()` is called as every request starts.
   */
  readonly pace?: PollPace | undefined
  /** Called with each delivered item's cursor, after delivery; the next item waits for it. */
  readonly save?: ((cursor: C) => Promise<void> | void) | undefined
  /** Retry of a failed page (the cursor is kept, so nothing repeats). */
  readonly retry: RetryBackoffOptions
  /** Called after every page. */
  readonly onProgress?: ((progress: CursorProgress<C>) => void) | undefined
  /** Scheduler of the tail pauses and of the settle window's clock (tests). */
  readonly scheduler?: SchedulerLike | undefined
  /**
   * The settle window, ms: how long after it happens an item may take to show at the
   * source. A venue can show an item after a later one (its records committed out of
   * order); the feed then holds the newest items, reads them again with each page, and
   * delivers an item only once nothing before it can still appear (see
   * {@link PaginateCursorOptions.timeOf}). Every item is delivered once, in cursor order.
   * Default 0: items are delivered as soon as a page shows them.
   */
  readonly settleMs?: number | undefined
  /**
   * The source's own time of an item, epoch ms (whole seconds are fine). With it, an item
   * at least `settleMs` + 1 s older than the newest item of the same page is delivered at
   * once (a page that shows an item that new would show any item that old), so that a
   * backfill does not wait `settleMs` per page. Without it, every item waits `settleMs`
   * from the page that first showed it.
   */
  readonly timeOf?: ((item: T) => number) | undefined
  /**
   * Hands the feed over instead of tailing. Asked after each page that is not full, with
   * the cursor delivered so far (items the settle window holds come after it: the source
   * taking over delivers them): `'end'` completes the feed (another source takes over
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

interface Step<T> {
  /** Items of this page to deliver, ascending, all after the cursor the page was asked with. */
  readonly items: readonly T[]
  /** Whether the next page is fetched at once (backfill) or after a pause (tail). */
  readonly full: boolean
  /** Whether the page moved the cursor. */
  readonly moved: boolean
}

/**
 * The page's new items: those after `cursor`, ascending and unique. A page already
 * strictly ascending after `cursor` (what the venue sends) is taken as it is, in one
 * pass; any other one is filtered, sorted and freed of duplicates.
 */
function stepOf<T, C>(
  options: PaginateCursorOptions<T, C>,
  cursor: C | undefined,
  page: readonly T[],
): Step<T> {
  const { cursorOf, compare } = options
  let previous = cursor
  let plain = true
  for (let i = 0; i < page.length; i += 1) {
    const next = cursorOf(page[i] as T)
    if (previous !== undefined && compare(next, previous) <= 0) {
      plain = false
      break
    }
    previous = next
  }
  let unique: readonly T[] = page
  if (!plain) {
    const fresh = page
      .filter((item) => cursor === undefined || compare(cursorOf(item), cursor) > 0)
      .sort((a, b) => compare(cursorOf(a), cursorOf(b)))
    unique = fresh.filter(
      (item, i) => i === 0 || compare(cursorOf(fresh[i - 1] as T), cursorOf(item)) !== 0,
    )
  }
  return {
    items: unique,
    // Full and moving: go on at once. A full page that did not move the cursor ends the
    // page loop (wait for the tail interval instead of spinning).
    full: page.length >= options.pageSize && unique.length > 0,
    moved: unique.length > 0,
  }
}

/** An item held by the settle window, and when a page first showed it (feed clock, ms). */
interface Held<C> {
  readonly cursor: C
  readonly seen: number
}

/**
 * Splits a page's new items (ascending) into those settled and those held back.
 *
 * An item is settled when nothing before it can still appear: a page showed it at least
 * `settleMs` ago (anything before it happened earlier, so it shows by now), or this page
 * also shows an item at least `settleMs` + 1 s newer by the source's clock (a page read
 * after that much has passed shows anything older; the extra second covers timestamps in
 * whole seconds). Every item before a settled one is settled too: the items up to the last
 * settled one are delivered, the rest held, keeping when they were first seen.
 */
function settle<T, C>(
  options: PaginateCursorOptions<T, C>,
  step: Step<T>,
  held: readonly Held<C>[],
  now: number,
): { readonly step: Step<T>; readonly held: Held<C>[] } {
  const { cursorOf, compare, timeOf } = options
  const settleMs = options.settleMs ?? 0
  const items = step.items
  const seen = new Array<number>(items.length)
  let h = 0
  for (let i = 0; i < items.length; i += 1) {
    const cursor = cursorOf(items[i] as T)
    while (h < held.length && compare((held[h] as Held<C>).cursor, cursor) < 0) h += 1
    const known = held[h]
    seen[i] = known !== undefined && compare(known.cursor, cursor) === 0 ? known.seen : now
  }
  const newest = timeOf === undefined || items.length === 0 ? undefined : timeOf(items.at(-1) as T)
  let ready = 0
  for (let i = items.length - 1; i >= 0; i -= 1) {
    const old =
      newest !== undefined &&
      newest - (timeOf as (item: T) => number)(items[i] as T) >= settleMs + 1_000
    if (now - (seen[i] as number) >= settleMs || old) {
      ready = i + 1
      break
    }
  }
  const keep: Held<C>[] = []
  for (let i = ready; i < items.length; i += 1) {
    keep.push({ cursor: cursorOf(items[i] as T), seen: seen[i] as number })
  }
  return {
    step: {
      items: ready === items.length ? items : items.slice(0, ready),
      full: step.full && ready > 0,
      moved: ready > 0,
    },
    held: keep,
  }
}

/**
 * One subscription of {@link paginateCursor}: a loop written out rather than composed of
 * operators. Each item goes straight to the subscriber (no operator chain per item), a
 * page answered by a promise (the REST client's) costs no Observable at all, and a poll
 * of the tail one timer. A class, so that its methods are the same functions for every
 * subscription (compiled once, not once per feed).
 */
class CursorPager<T, C> {
  readonly #options: PaginateCursorOptions<T, C>
  readonly #subscriber: Subscriber<T>
  #pages = 0
  #items = 0
  #delivered: C | undefined
  /** Items the settle window holds back, with when they were first seen. */
  #held: Held<C>[] = []
  /** The request or the pause under way. */
  #pending: Subscription | undefined
  /** When the last page was asked for (the scheduler's clock). */
  #requestedAt = 0
  // A trampoline: a page asked for while the loop is already running (a page that
  // answered synchronously) is fetched once the running step has returned, so that the
  // call stack stays flat whatever the number of synchronous pages.
  #looping = false
  #again = false
  readonly #fail = (error: unknown): void => this.#subscriber.error(error)
  readonly #fetchNext = (): void => this.fetchNext()

  constructor(options: PaginateCursorOptions<T, C>, subscriber: Subscriber<T>) {
    this.#options = options
    this.#subscriber = subscriber
    this.#delivered = options.start
  }

  /** Stops the request or the pause under way. */
  stop(): void {
    this.#pending?.unsubscribe()
  }

  /** Asks for the page after the cursor delivered so far. */
  fetchNext(): void {
    if (this.#looping) {
      this.#again = true
      return
    }
    this.#looping = true
    try {
      do {
        this.#again = false
        this.#request(this.#delivered)
      } while (this.#again && !this.#subscriber.closed)
    } finally {
      this.#looping = false
    }
  }

  /**
   * Asks for the page after `cursor`. A promise is followed directly; any other answer
   * (an Observable, in tests) through the same steps as `fromRequest`: unsubscribing
   * while it is in flight aborts it.
   */
  #request(cursor: C | undefined): void {
    this.#requestedAt = (this.#options.scheduler ?? asyncScheduler).now()
    this.#options.pace?.started()
    const controller = new AbortController()
    let answer: ObservableInput<readonly T[]>
    try {
      answer = this.#options.fetchPage(cursor, controller.signal)
    } catch (error) {
      this.#retryAfter(cursor, error)
      return
    }
    let settled = false
    const settle = () => {
      settled = true
    }
    if (answer instanceof Promise) {
      this.#pending = new Subscription(() => {
        if (!settled) controller.abort()
      })
      answer.then(
        (page: readonly T[]) => {
          settle()
          if (!this.#subscriber.closed) this.#onPage(cursor, page)
        },
        (error: unknown) => {
          settle()
          if (!this.#subscriber.closed) this.#retryAfter(cursor, error)
        },
      )
      return
    }
    const answers = new Observable<readonly T[]>((inner) => {
      const subscription = from(answer)
        .pipe(tap({ next: settle, error: settle, complete: settle }))
        .subscribe(inner)
      return () => {
        subscription.unsubscribe()
        if (!settled) controller.abort()
      }
    })
    this.#follow(cursor, answers, (error) => this.#retryAfter(cursor, error))
  }

  /**
   * After a failed attempt at the page after `cursor`: exactly what
   * `fromRequest(...).pipe(retryBackoff(retry))` does with that failure (the same
   * decision, waits and notices), and the retries from the same cursor.
   */
  #retryAfter(cursor: C | undefined, error: unknown): void {
    const { fetchPage, retry } = this.#options
    let failed = true
    const attempts = defer(() => {
      if (!failed) return fromRequest((signal) => fetchPage(cursor, signal))
      failed = false
      return throwError(() => error)
    })
    this.#follow(cursor, attempts.pipe(retryBackoff<readonly T[]>(retry)), this.#fail)
  }

  /** Follows `answers` (the page after `cursor`) for its first value. */
  #follow(
    cursor: C | undefined,
    answers: Observable<readonly T[]>,
    onError: (error: unknown) => void,
  ): void {
    let answered = false
    const subscription = answers.subscribe({
      next: (page) => {
        // One page per request: a second value would break the order.
        if (answered) return
        answered = true
        this.#onPage(cursor, page)
      },
      error: onError,
    })
    // Settled while subscribing: whatever came next (a pause, a request, a retry) is the
    // pending one now.
    if (subscription.closed) return
    if (answered || this.#subscriber.closed) subscription.unsubscribe()
    else this.#pending = subscription
  }

  /** The page asked after `cursor` arrived: its new items are delivered. */
  #onPage(cursor: C | undefined, page: readonly T[]): void {
    let step: Step<T>
    try {
      this.#pages += 1
      step = stepOf(this.#options, cursor, page)
      if ((this.#options.settleMs ?? 0) > 0) {
        const now = (this.#options.scheduler ?? asyncScheduler).now()
        const settled = settle(this.#options, step, this.#held, now)
        step = settled.step
        this.#held = settled.held
      }
    } catch (error) {
      this.#fail(error)
      return
    }
    this.#deliver(step, 0)
  }

  /**
   * A page, item by item from `start`: each delivered, then its cursor saved, and the
   * next one waits until that save settled (see {@link deliverThenSave}). The save runs
   * even when the consumer stops on this very item (take(n), first()): it was delivered,
   * so a restart must not repeat it. Then progress, and the next page, pause or end.
   */
  #deliver(step: Step<T>, start: number): void {
    const { cursorOf, save } = this.#options
    const subscriber = this.#subscriber
    const list = step.items
    for (let index = start; index < list.length; index += 1) {
      const item = list[index] as T
      const cursor = cursorOf(item)
      if (save === undefined) {
        // Nothing to wait for: no closure per item.
        subscriber.next(item)
        this.#delivered = cursor
        this.#items += 1
        if (subscriber.closed) return
        continue
      }
      const resume = index + 1
      const goOn = deliverThenSave(
        subscriber,
        item,
        () => {
          this.#delivered = cursor
          this.#items += 1
          return save(cursor)
        },
        () => this.#deliver(step, resume),
      )
      if (!goOn) return
    }
    this.#afterPage(step)
  }

  /** Progress, then the next page at once, a pause, or the end (`handOver`). */
  #afterPage(step: Step<T>): void {
    const { onProgress, handOver, intervalMs, scheduler, measureFrom, pace } = this.#options
    try {
      const cursor = this.#delivered
      const held = this.#held
      onProgress?.({
        phase: step.full ? 'backfill' : 'tail',
        pages: this.#pages,
        items: this.#items,
        cursor,
        held: held.length,
        newest: held.at(-1)?.cursor ?? cursor,
      })
      // The consumer may have left from inside its callback: then nothing more is asked
      // or scheduled (a pause left behind would keep the process up for an interval).
      if (this.#subscriber.closed) return
      const decision = step.full ? 'next' : (handOver?.(cursor) ?? 'wait')
      if (this.#subscriber.closed) return
      if (decision === 'end') {
        this.#subscriber.complete()
      } else if (decision === 'next' && step.moved) {
        this.fetchNext()
      } else {
        const spent =
          measureFrom === 'start' ? (scheduler ?? asyncScheduler).now() - this.#requestedAt : 0
        this.#pending = (
          pace?.turn() ??
          timer(Math.max(0, (intervalMs as number) - spent), scheduler as SchedulerLike)
        ).subscribe(this.#fetchNext)
      }
    } catch (error) {
      this.#fail(error)
    }
  }
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
 * - With `settleMs`, the newest items wait until nothing before them can still show (an
 *   item the source shows after a later one is delivered in its place, not lost): each
 *   page is asked from the cursor delivered so far, so held items are read again with it.
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
  const { intervalMs, pace } = options
  if (pace === undefined && !(typeof intervalMs === 'number' && intervalMs >= 0)) {
    throw new VenueInputError(
      'intervalMs',
      'paginateCursor: intervalMs must be a number >= 0 (or give pace)',
    )
  }
  return new Observable<T>((subscriber) => {
    const pager = new CursorPager(options, subscriber)
    pager.fetchNext()
    return () => pager.stop()
  })
}
