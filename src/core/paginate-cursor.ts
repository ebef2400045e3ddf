import {
  asyncScheduler,
  Observable,
  type ObservableInput,
  queueScheduler,
  type SchedulerLike,
  type Subscriber,
  type Subscription,
  take,
  timer,
} from 'rxjs'
import { VenueInputError } from '../errors/venue-input-error.js'
import { AboveWatermark, type CursorPosition } from './cursor-position.js'
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
  /** Cursor of the greatest item delivered (or the start cursor). */
  readonly cursor: C | undefined
  /**
   * Items seen but held back (`order: 'ascending'` only, see `settleMs`): they follow
   * `cursor` once nothing before them can still appear. 0 otherwise.
   */
  readonly held: number
  /** Cursor of the newest item seen, delivered or held (`cursor` when none is held). */
  readonly newest: C | undefined
  /**
   * The watermark and the items delivered above it: what a checkpoint keeps (with
   * `order: 'ascending'`, the cursor and nothing above it).
   */
  readonly position: CursorPosition<C>
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
  /**
   * Items after `start` delivered already (a saved {@link CursorPosition}'s `above`): not
   * delivered again.
   */
  readonly startAbove?: readonly C[] | undefined
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
  /**
   * Called with the feed's position after each delivered item (the watermark and the items
   * delivered above it); the next item waits for it.
   */
  readonly save?: ((position: CursorPosition<C>) => Promise<void> | void) | undefined
  /** Retry of a failed page (the cursor is kept, so nothing repeats). */
  readonly retry: RetryBackoffOptions
  /** Called after every page. */
  readonly onProgress?: ((progress: CursorProgress<C>) => void) | undefined
  /** Scheduler of the tail pauses and of the settle window's clock (tests). */
  readonly scheduler?: SchedulerLike | undefined
  /**
   * How long after it happens an item may take to show at the source, ms. A venue can show
   * an item after a later one (its records committed out of order). Default 0: items show
   * in cursor order.
   *
   * With `order: 'on-sight'` (the default) each item is delivered the first time a page
   * shows it. The feed keeps a watermark: the greatest cursor below which nothing new can
   * show any more (an item delivered `settleMs` before the current poll started, or older
   * than `settleMs` + 1 s by {@link PaginateCursorOptions.sourceNow}). Each poll reads its
   * pages from the watermark, so an item shown late is still seen: it is delivered then,
   * once, through `markLate`. The items delivered above the watermark are remembered (and
   * saved, see `save`) until it passes them.
   *
   * With `order: 'ascending'` the newest items are held instead, read again with each page,
   * and delivered once nothing before them can still appear: every item in cursor order,
   * each `settleMs` late (less for items old by `timeOf`).
   */
  readonly settleMs?: number | undefined
  /** `'on-sight'` (default) or `'ascending'`: see `settleMs`. */
  readonly order?: 'on-sight' | 'ascending' | undefined
  /**
   * The source's own time of an item, epoch ms (whole seconds are fine): with `sourceNow`,
   * an old item passes the watermark at once; with `order: 'ascending'`, an item at least
   * `settleMs` + 1 s older than the newest of the same page is delivered at once.
   */
  readonly timeOf?: ((item: T) => number) | undefined
  /**
   * The source's clock at the feed's time `at` (the scheduler's clock), epoch ms, at most
   * what it really read then (a lower bound), or `undefined` while unknown. With `timeOf`,
   * an item older than `settleMs` + 1 s by it is below the watermark at once: a backfill of
   * old items keeps nothing above it.
   */
  readonly sourceClock?: ((at: number) => number | undefined) | undefined
  /** How an item delivered after a greater one is marked (default: as it is). */
  readonly markLate?: ((item: T) => T) | undefined
  /**
   * The most items remembered above the watermark (default 10,000). Past it, a poll
   * delivers nothing newer until the watermark moves on: they wait, none is lost.
   */
  readonly maxAbove?: number | undefined
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

/** What the watermark keeps of an item delivered above it. */
interface Seen {
  /** When a page first showed it (the feed's clock). */
  readonly seen: number
  /** Its time at the source, when known. */
  readonly time: number | undefined
}

/**
 * One subscription of {@link paginateCursor}: the feed's state, and its steps (a turn, a
 * page, a pause) run one after another on rxjs's queue scheduler, so that pages answering
 * synchronously keep the call stack flat. Items go straight to the subscriber, each saved
 * before the next (no operator per item).
 *
 * A poll (a "turn") reads its first page from the watermark and the next ones while they
 * come back full, each from the last cursor of the page before.
 */
class CursorPager<T, C> {
  readonly #options: PaginateCursorOptions<T, C>
  readonly #subscriber: Subscriber<T>
  readonly #settleMs: number
  /** `order: 'ascending'` with a settle window: items are held, not delivered on sight. */
  readonly #ascending: boolean
  readonly #maxAbove: number
  #pages = 0
  #items = 0
  /** The watermark and the items delivered above it (always empty when ascending). */
  readonly #above: AboveWatermark<C, Seen>
  /** The greatest cursor delivered. */
  #newest: C | undefined
  /** The greatest cursor a page showed. */
  #newestSeen: C | undefined
  /** Ascending: items the settle window holds back, with when they were first seen. */
  #held: Held<C>[] = []
  /** Ascending: items of the start position delivered already. */
  readonly #skip: ReadonlySet<C>
  /** Where the next page of this turn starts. */
  #from: C | undefined
  /** When this turn's first page was asked (the scheduler's clock). */
  #turnStart = 0
  /** The first item of this turn not delivered (too many above the watermark). */
  #blocked: C | undefined
  /** When the last page was asked for (the scheduler's clock). */
  #requestedAt = 0
  /** The request or the pause under way. */
  #pending: Subscription | undefined

  constructor(options: PaginateCursorOptions<T, C>, subscriber: Subscriber<T>) {
    this.#options = options
    this.#subscriber = subscriber
    this.#settleMs = options.settleMs ?? 0
    this.#ascending = options.order === 'ascending' && this.#settleMs > 0
    this.#maxAbove = options.maxAbove ?? MAX_ABOVE
    this.#above = new AboveWatermark<C, Seen>(options.compare, options.start)
    const startAbove = options.startAbove ?? []
    if (this.#ascending) {
      this.#skip = new Set(startAbove)
    } else {
      this.#skip = new Set()
      const seen = this.#now()
      for (const cursor of startAbove) {
        if (!this.#above.has(cursor)) this.#above.add(cursor, { seen, time: undefined })
      }
    }
    this.#newest = this.#above.newest
    this.#newestSeen = this.#newest
  }

  #now(): number {
    return (this.#options.scheduler ?? asyncScheduler).now()
  }

  /** Starts the feed; the returned teardown stops the request or the pause under way. */
  start(): () => void {
    this.#schedule(this.#turn)
    return () => this.#pending?.unsubscribe()
  }

  /**
   * Runs `step` on the queue scheduler: at once, or, from inside a step (a page that
   * answered synchronously), once that step has returned.
   */
  #schedule(step: () => void): void {
    queueScheduler.schedule(() => {
      if (!this.#subscriber.closed) step.call(this)
    })
  }

  /** A new turn: its first page from the watermark. */
  #turn(): void {
    this.#from = this.#above.watermark
    this.#turnStart = this.#now()
    this.#blocked = undefined
    this.#page()
  }

  /**
   * Asks for the page after `#from`, retried with backoff from the same cursor. Only the
   * first attempt counts as a request started (`pace.started()`, `measureFrom`).
   */
  #page(): void {
    const { fetchPage, retry, pace } = this.#options
    const cursor = this.#from
    this.#requestedAt = this.#now()
    pace?.started()
    this.#pending = fromRequest((signal) => fetchPage(cursor, signal))
      .pipe(
        retryBackoff<readonly T[]>(retry),
        // One page per request: a second value would break the order.
        take(1),
      )
      .subscribe({
        next: (page) => this.#onPage(cursor, page),
        error: (error: unknown) => this.#subscriber.error(error),
      })
  }

  /** The pause before the next turn: `intervalMs`, or the pace's turn. */
  #pause(): void {
    const { intervalMs, scheduler, measureFrom, pace } = this.#options
    const spent = measureFrom === 'start' ? this.#now() - this.#requestedAt : 0
    const pause =
      pace?.turn() ?? timer(Math.max(0, (intervalMs as number) - spent), scheduler as SchedulerLike)
    this.#pending = pause.subscribe(() => this.#schedule(this.#turn))
  }

  /** The page asked after `cursor` arrived: its new items are delivered. */
  #onPage(cursor: C | undefined, page: readonly T[]): void {
    let step: Step<T>
    try {
      this.#pages += 1
      step = stepOf(this.#options, cursor, page)
      if (this.#ascending) {
        const settled = settle(this.#options, step, this.#held, this.#now())
        step = settled.step
        this.#held = settled.held
      } else {
        step = this.#unknown(step)
      }
    } catch (error) {
      this.#subscriber.error(error)
      return
    }
    this.#deliver(step, 0)
  }

  /**
   * On sight: the items of a page not delivered yet, each marked late when it comes after
   * a greater one; past `maxAbove` remembered items, none (the turn ends there).
   */
  #unknown(step: Step<T>): Step<T> {
    const { cursorOf, compare, markLate } = this.#options
    const above = this.#above
    const fresh: T[] = []
    let newest = this.#newest
    const last = step.items.at(-1)
    if (last !== undefined) {
      const cursor = cursorOf(last)
      this.#from = cursor
      if (this.#newestSeen === undefined || compare(cursor, this.#newestSeen) > 0) {
        this.#newestSeen = cursor
      }
    }
    for (const item of step.items) {
      const cursor = cursorOf(item)
      if (this.#blocked !== undefined || above.has(cursor)) continue
      if (this.#settleMs > 0 && above.size + fresh.length >= this.#maxAbove) {
        this.#blocked = cursor
        continue
      }
      const late = newest !== undefined && compare(cursor, newest) < 0
      if (!late) newest = cursor
      fresh.push(late && markLate !== undefined ? markLate(item) : item)
    }
    return {
      items: fresh,
      full: step.full && this.#blocked === undefined,
      moved: fresh.length > 0,
    }
  }

  /** Records `item` (the cursor `cursor`) as delivered. */
  #record(cursor: C, item: T): void {
    this.#items += 1
    const { compare } = this.#options
    if (this.#newest === undefined || compare(cursor, this.#newest) > 0) this.#newest = cursor
    if (this.#ascending || this.#settleMs === 0) {
      this.#above.advanceTo(cursor)
    } else {
      this.#above.add(cursor, { seen: this.#now(), time: this.#options.timeOf?.(item) })
    }
  }

  /**
   * Moves the watermark up to the greatest item nothing before which can still show: one
   * delivered `settleMs` before this turn started (anything before it happened earlier, so
   * this turn's pages show it), or older than `settleMs` + 1 s by the source's clock (the
   * second covers times in whole seconds). Only items this turn's pages covered count
   * (`limit`), and none past an item left undelivered.
   */
  #advance(limit: C | undefined): void {
    if (this.#ascending || this.#settleMs === 0) return
    const { compare } = this.#options
    const settleMs = this.#settleMs
    const start = this.#turnStart
    // The source's clock when this turn started (known maybe only since).
    const sourceNow = this.#options.sourceClock?.(start)
    const blocked = this.#blocked
    const settled = this.#above.lastSettled(
      ({ seen, time }) =>
        seen + settleMs <= start ||
        (time !== undefined && sourceNow !== undefined && sourceNow - time >= settleMs + 1_000),
      (cursor) =>
        (limit === undefined || compare(cursor, limit) <= 0) &&
        (blocked === undefined || compare(cursor, blocked) < 0),
    )
    this.#above.advanceTo(settled)
  }

  /**
   * A page, item by item from `start`: each delivered, then the position saved, and the
   * next one waits until that save settled (see {@link deliverThenSave}). The save runs
   * even when the consumer stops on this very item (take(n), first()): it was delivered,
   * so a restart must not repeat it. Then the watermark, progress, and the next page,
   * pause or end.
   */
  #deliver(step: Step<T>, start: number): void {
    const { cursorOf, save } = this.#options
    const subscriber = this.#subscriber
    const list = step.items
    for (let index = start; index < list.length; index += 1) {
      const item = list[index] as T
      const cursor = cursorOf(item)
      if (this.#skip.size > 0 && this.#skip.has(cursor)) {
        // Ascending, from a position: delivered before the restart.
        this.#above.advanceTo(cursor)
        continue
      }
      if (save === undefined) {
        // Nothing to wait for: no closure per item.
        subscriber.next(item)
        this.#record(cursor, item)
        if (subscriber.closed) return
        continue
      }
      const resume = index + 1
      const goOn = deliverThenSave(
        subscriber,
        item,
        () => {
          this.#record(cursor, item)
          return save(this.#above.position())
        },
        () => this.#deliver(step, resume),
      )
      if (!goOn) return
    }
    this.#afterPage(step)
  }

  /** The watermark, progress, then the next page at once, a pause, or the end (`handOver`). */
  #afterPage(step: Step<T>): void {
    const { onProgress, handOver } = this.#options
    try {
      this.#advance(step.full ? (this.#from as C) : undefined)
      const cursor = this.#newest
      const held = this.#held
      const newest = this.#ascending ? (held.at(-1)?.cursor ?? cursor) : this.#newestSeen
      onProgress?.({
        phase: step.full ? 'backfill' : 'tail',
        pages: this.#pages,
        items: this.#items,
        cursor,
        held: held.length,
        newest,
        position: this.#above.position(),
      })
      // The consumer may have left from inside its callback: then nothing more is asked
      // or scheduled (a pause left behind would keep the process up for an interval).
      if (this.#subscriber.closed) return
      const decision = step.full ? 'next' : (handOver?.(cursor) ?? 'wait')
      if (this.#subscriber.closed) return
      if (decision === 'end') {
        this.#subscriber.complete()
        return
      }
      if (step.full && !this.#ascending) this.#schedule(this.#page)
      else if (decision === 'next' && step.moved) this.#schedule(this.#turn)
      else this.#schedule(this.#pause)
    } catch (error) {
      this.#subscriber.error(error)
    }
  }
}

/**
 * The most items a feed remembers above its watermark, by default (see
 * {@link PaginateCursorOptions.maxAbove}).
 *
 * @example
 * ```ts
 * import { MAX_ABOVE } from 'venue-rx/operators'
 *
 * paginateCursor({ ...options, settleMs: 1_000, maxAbove: MAX_ABOVE / 10 })
 * ```
 */
export const MAX_ABOVE = 10_000

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
    return new CursorPager(options, subscriber).start()
  })
}
