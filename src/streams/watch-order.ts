import {
  asyncScheduler,
  catchError,
  concatMap,
  defer,
  first,
  Observable,
  Subject,
  type Subscriber,
  Subscription,
  take,
  tap,
  timer,
} from 'rxjs'
import { backfillThenJoin, type JoinSpec } from '../core/backfill-then-join.js'
import { reportEnd } from '../core/health.js'
import { type RetryBackoffOptions, retryBackoff } from '../core/retry-backoff.js'
import { addDecimal, compareDecimal, compareIds } from '../decimal.js'
import { VenueError } from '../errors/venue-error.js'
import { VenueInputError } from '../errors/venue-input-error.js'
import { VenueNotFoundError } from '../errors/venue-not-found-error.js'
import type { VenueServerError } from '../errors/venue-server-error.js'
import {
  checkPathSegment,
  checkText,
  failArgument,
  orderSegment,
  type RestClient,
} from '../rest/index.js'
import type { OpenOrder, Order, OrderWithTrades } from '../schemas/order.js'
import { clampDelay } from '../timers.js'
import { MAX_QUEUED, type TailEvent } from './cursor-feed.js'
import { chainAccount, type Fill, fillsOf } from './fills.js'
import {
  type OrderEvent,
  type OrderInput,
  type OrderLife,
  type OrderLifeSettings,
  type OrderStep,
  startOrder,
  stepOrder,
} from './order-life.js'
import { isUnseen } from './order-unseen.js'
import { recentFills } from './recent-fills.js'
import { endedInPages, findEnded } from './recent-orders.js'
import type { StreamContext } from './stream-context.js'
import { streamKey } from './stream-key.js'
import { streamOptions } from './stream-options.js'
import { ownRunKey } from './stream-pipeline.js'
import { venueNow } from './venue-clock.js'
import { fillsTail } from './watch-fills.js'
import { type OpenOrdersState, openOrdersState } from './watch-open-orders.js'

export type { OrderEvent, OrderProgress } from './order-life.js'

/**
 * Which order `watchOrder` follows: its composite id, its parts, or its client id.
 *
 * @example
 * ```ts
 * venue.watchOrder('0-25-0')                              // composite id
 * venue.watchOrder({ poolId: 0, orderId: '25', side: 0 }) // its parts
 * venue.watchOrder({ clientId: 'bot-1' })                 // client id
 * ```
 */
export type WatchOrderRef =
  | string
  | { readonly poolId: number; readonly orderId: string | number; readonly side: 0 | 1 }
  | { readonly clientId: string }

/**
 * Options of `watchOrder`.
 *
 * @example
 * ```ts
 * // a slow venue: wait up to 30 s for a new order to show before VenueNotFoundError
 * venue.watchOrder({ clientId: 'bot-1' }, { visibleWithinMs: 30_000 })
 * // a restarted bot following an order it placed an hour ago under a reused client id
 * venue.watchOrder({ clientId: 'bot-1' }, { placedAfter: Date.parse('2026-11-25T10:00:00Z') })
 * ```
 */
export interface WatchOrderOptions {
  /**
   * How long a fresh order the venue does not show yet (its 500 `service internal error`)
   * is asked for again before `VenueNotFoundError`, ms; default 10,000.
   */
  readonly visibleWithinMs?: number | undefined
  /**
   * With a client id: only an order placed at or after this time (epoch ms, the venue's
   * clock) is taken, so that a client id used again never follows an older order. Default:
   * one minute before the subscription (by the venue's clock). `0` takes any order.
   */
  readonly placedAfter?: number | undefined
  /**
   * How long `done` waits for the fills of an ended order to add up to its executed
   * amount, ms; default the venue's `fillGraceMs` (10,000).
   */
  readonly fillGraceMs?: number | undefined
}

const METHOD = 'watchOrder'

/** Polls between two look-ups of an order missing from the open list. */
const RECHECK_POLLS = 2

/** How far before the subscription a client id's order may have been placed, by default. */
const DEFAULT_PLACED_WINDOW_MS = 60_000

/** The most trades the venue has been seen to list with an order. */
const ORDER_TRADES_CAP = 100

/** The order as first found, with the fills known of it then. */
interface Found {
  readonly record: OpenOrder | Order
  readonly fills: readonly Fill[]
}

/** The order's fills as {@link backfillThenJoin} passes them on: found, then each later one. */
type OrderFill =
  | ({ readonly type: 'found' } & Found)
  | { readonly type: 'fill'; readonly fill: Fill }

/** How one order is asked for: by composite id, or by client id first. */
type Target =
  | { readonly id: string }
  | { readonly clientId: string; readonly placedAfter: number | undefined }

function target(ref: unknown, placedAfter: unknown): Target {
  if (typeof ref === 'object' && ref !== null && 'clientId' in ref) {
    streamOptions(METHOD, ref, ['clientId'])
    const clientId = (ref as { clientId: unknown }).clientId
    // The rule of the venue's client-id path segment: checked here, not at the first look-up.
    checkPathSegment(METHOD, 'clientId', checkText(METHOD, 'clientId', clientId))
    if (
      placedAfter !== undefined &&
      (typeof placedAfter !== 'number' || !Number.isSafeInteger(placedAfter) || placedAfter < 0)
    ) {
      failArgument(METHOD, 'placedAfter', 'must be epoch ms, a whole number 0 or more', placedAfter)
    }
    return { clientId: clientId as string, placedAfter: placedAfter as number | undefined }
  }
  if (placedAfter !== undefined) {
    failArgument(METHOD, 'placedAfter', 'applies to a client id only', placedAfter)
  }
  try {
    return { id: orderSegment(ref as never) }
  } catch (error) {
    if (!(error instanceof VenueInputError)) throw error
    throw new VenueInputError(
      'ref',
      `${METHOD}: ref must be "{poolId}-{orderId}-{side}", { poolId, orderId, side } or { clientId }`,
    )
  }
}

function wholeMs(name: string, value: unknown, fallback: number): number {
  // `null` is refused like any other wrong value, not taken as "the default".
  const ms = value === undefined ? fallback : value
  if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms < 0) {
    failArgument(METHOD, name, 'must be a whole number of ms, 0 or more', ms)
  }
  return ms
}

/**
 * Transport trouble of a list or account request (`/trades`, `/history-orders`,
 * `/open-orders`, `/info`, `/ping`), retried like every stream's: a 5xx, the ambiguous 500
 * `service internal error` included (it means "not shown" only for one order's look-up).
 */
const transient = (error: unknown) => error instanceof VenueError && error.retryable

/**
 * Transport trouble of one order's look-up (`/orders/{id}`, `/orders/client-id/{cid}`):
 * as {@link transient}, but the ambiguous 500 says the venue does not show the order
 * ({@link isUnseen}), which the order's life counts, not the backoff.
 */
const transientLookUp = (error: unknown) => !isUnseen(error) && transient(error)

/**
 * The newest order in `orders` (newest first) that `wanted` names: by id, or by client id
 * placed at or after `placedAfter` (epoch ms; order times are whole seconds).
 */
export function pickOrder<T extends OpenOrder>(
  orders: readonly T[],
  wanted: { readonly id: string } | { readonly clientId: string; readonly placedAfter: number },
): T | undefined {
  if ('id' in wanted) return orders.find((order) => order.id === wanted.id)
  const from = Math.floor(wanted.placedAfter / 1000) * 1000
  return orders.find((order) => order.order_cid === wanted.clientId && order.order_time >= from)
}

/**
 * One order's fills and end: `fill` once per fill (ascending `global_seq`; one the venue
 * showed after a later fill of the order comes when it shows, marked `late`), `update` when
 * the order changed without a fill, then one `done` (`filled`, `canceled`, `rejected`, or
 * `unknown` for an order the venue stopped answering for), then completion. `done` waits
 * up to `fillGraceMs` for the fills to add up to the executed amount; after that it comes
 * marked `reconciled: false` with the amount `missing`. An order that ended before the
 * subscription replays its fills, then `done`.
 *
 * What it costs: every `watchOrder` of a venue shares one tail of the account's fills and
 * one poll of the open orders. At the start, an order found in the open list without fills
 * costs nothing more; an ended one without fills is found in shared pages of the newest
 * ended orders; otherwise one look-up (`/orders/{id}`; a client id first through the lists,
 * then `/orders/client-id/...`). Orders that leave the open list together (a mass cancel,
 * many filled at once) end through shared pages of the newest ended orders, their fills
 * from the fills tail: no request of their own. An order missing from the open list with
 * no end known, or whose fills reach its amount while listed, is asked for on its own
 * clock (at once, then every 2 polls): the orders asked for in one turn share fresh pages
 * of ended orders, and one those pages do not show ended (or asked for alone) is looked up;
 * when the venue does not answer for it `orderLookups` times in a row, it is `done` with
 * `status: 'unknown'`. A fresh order the venue does not show yet is asked for with the
 * venue's backoff for `visibleWithinMs`, then the stream fails with a `VenueNotFoundError`
 * naming it. Every other request (the lists, the shared scans, account info, the clock) is
 * retried as every stream's: transport trouble and any 5xx, the venue's ambiguous 500
 * included, with the venue's backoff, reported `retrying`. Throws `VenueInputError` at once
 * for a bad reference or option.
 */
export function watchOrder(
  context: StreamContext,
  ref: WatchOrderRef,
  options?: WatchOrderOptions,
): Observable<OrderEvent> {
  const given = streamOptions(METHOD, options, ['visibleWithinMs', 'placedAfter', 'fillGraceMs'])
  const wanted = target(ref, given['placedAfter'])
  const visibleWithinMs = wholeMs('visibleWithinMs', given['visibleWithinMs'], 10_000)
  const settings: OrderLifeSettings = {
    lookups: context.orderLookups,
    recheckPolls: RECHECK_POLLS,
    fillGraceMs: wholeMs('fillGraceMs', given['fillGraceMs'], context.fillGraceMs),
  }
  const tail = fillsTail(context)
  return defer(() => {
    // Each subscription reports its own look-ups: `retrying` while the venue is away,
    // `ok` once it answers, `failed` when the stream ends with an error.
    const key = ownRunKey(streamKey(METHOD, [ref]))
    return new Observable<OrderEvent>((subscriber) => {
      const watch = new OrderWatch(context, key, wanted, visibleWithinMs, settings, subscriber)
      watch.start(tail)
      return () => watch.stop()
    }).pipe(reportEnd(context.health, key))
  })
}

/** The I/O around one order's {@link OrderLife}: requests, the feeds, timers. */
class OrderWatch {
  readonly #context: StreamContext
  /** Health key of this subscription. */
  readonly #key: string
  readonly #wanted: Target
  readonly #visibleWithinMs: number
  readonly #settings: OrderLifeSettings
  readonly #subscriber: Subscriber<OrderEvent>
  readonly #rest: RestClient
  readonly #abort = new AbortController()
  readonly #subscriptions = new Subscription()
  /** The account's chain account (tells its side of a trade), known once finding starts. */
  #account: string | undefined
  #life: OrderLife | undefined
  #wake: Subscription | undefined
  /** When the fills tail first answered this subscription (scheduler clock). */
  #tailStartedAt: number | undefined
  /** Polls newer than the subscription, while the order is not found yet. */
  readonly #newPolls = new Subject<OpenOrdersState>()

  constructor(
    context: StreamContext,
    key: string,
    wanted: Target,
    visibleWithinMs: number,
    settings: OrderLifeSettings,
    subscriber: Subscriber<OrderEvent>,
  ) {
    this.#context = context
    this.#key = key
    this.#wanted = wanted
    this.#visibleWithinMs = visibleWithinMs
    this.#settings = settings
    this.#subscriber = subscriber
    this.#rest = context.rest(`${METHOD}#lookups`)
  }

  get #now(): number {
    return (this.#context.scheduler ?? asyncScheduler).now()
  }

  /**
   * The order's fills, through {@link backfillThenJoin}: the fills tail is listened to
   * first, so that none between finding the order and the tail is missed; the order is
   * looked for once the tail knows where it starts (the backfill: its record and the fills
   * known then), and the tail's fills of it follow.
   */
  start(tail: Observable<TailEvent<Fill, string>>): void {
    this.#subscriptions.add(
      backfillThenJoin(() => this.#fillsAttempt(tail)).subscribe({
        next: (item) => {
          if (item.type === 'found') {
            this.#run(startOrder(item.record, item.fills, this.#settings, this.#now))
          } else this.#input({ type: 'fills', fills: [item.fill] })
        },
        error: (error: unknown) => this.#subscriber.error(error),
        complete: () => this.#subscriber.complete(),
      }),
    )
  }

  stop(): void {
    this.#abort.abort()
    this.#wake?.unsubscribe()
    this.#subscriptions.unsubscribe()
  }

  /**
   * One attempt at the order's fills. The tail's fills of the wanted order that come
   * before it is found are found with it, sorted with its record's fills as one batch (the
   * tail passes them on again at the join: dropped there). The order is looked for after
   * the tail started, so its record's fills and the tail from its start leave no gap; a
   * fill both show is emitted once (the order's life keeps the `global_seq`s emitted).
   */
  #fillsAttempt(
    tail: Observable<TailEvent<Fill, string>>,
  ): JoinSpec<Found, TailEvent<Fill, string>, OrderFill> {
    const early: Fill[] = []
    let id: string | undefined
    return {
      backfill: (join) => {
        join.listen()
        return this.#newPolls.pipe(
          take(1),
          concatMap((state) => this.#find(state)),
        )
      },
      shared: tail.pipe(
        tap((event) => {
          this.#tailStarted()
          if (event.type === 'item' && id === undefined && this.#isWanted(event.item)) {
            early.push(event.item)
          }
        }),
      ),
      fromBackfill: (found, emit) => {
        const foundId = found.record.id
        id = foundId
        const fills = [...found.fills, ...early.filter((fill) => this.#mine(fill, foundId))]
        emit({ type: 'found', record: found.record, fills })
      },
      fromShared: (event, emit) => {
        if (event.type !== 'item' || id === undefined || early.includes(event.item)) return
        if (this.#mine(event.item, id)) emit({ type: 'fill', fill: event.item })
      },
      covers: () => id !== undefined,
      hold: MAX_QUEUED,
      handOver: 'when-backfill-ends',
    }
  }

  /** The tail's first event: the polls are listened to from then on. */
  #tailStarted(): void {
    if (this.#tailStartedAt !== undefined) return
    this.#tailStartedAt = this.#now
    this.#listenToPolls()
  }

  /** Whether a fill is of the order asked for (by id, or by client id before it is found). */
  #isWanted(fill: Fill): boolean {
    const wanted = this.#wanted
    return 'id' in wanted ? this.#mine(fill, wanted.id) : fill.clientId === wanted.clientId
  }

  #mine(fill: Fill, id: string): boolean {
    const [pool, order, side] = id.split('-')
    return (
      String(fill.poolId) === pool &&
      fill.orderId === order &&
      (fill.side === 'buy' ? '0' : '1') === side
    )
  }

  /**
   * The shared open-orders poll: until the order is found, its answers newer than this
   * subscription go to {@link OrderWatch.#newPolls} (the first finds the order; a state
   * replayed at once may predate fills the tail already passed on), and every answer after
   * that is a tick of the order's own clock.
   */
  #listenToPolls(): void {
    let subscribing = true
    this.#subscriptions.add(
      openOrdersState(this.#context).subscribe({
        next: (state) => {
          if (this.#life !== undefined) this.#onPoll(state)
          else if (!subscribing) this.#newPolls.next(state)
        },
        error: (error: unknown) => this.#subscriber.error(error),
        complete: () => this.#subscriber.complete(),
      }),
    )
    subscribing = false
  }

  /**
   * Finds the order, with the fills known of it so far: the open list, the newest ended
   * orders, then a look-up.
   */
  async #find(state: OpenOrdersState): Promise<Found> {
    this.#account = await this.#retry(() => chainAccount(this.#context, this.#rest))
    const wanted =
      'id' in this.#wanted
        ? this.#wanted
        : {
            clientId: this.#wanted.clientId,
            placedAfter:
              this.#wanted.placedAfter ??
              (await this.#retry(() => venueNow(this.#context, this.#rest))) -
                DEFAULT_PLACED_WINDOW_MS,
          }
    const listed = pickOrder(state.orders, wanted)
    if (listed !== undefined && compareDecimal(listed.executed_amount, '0') === 0) {
      return { record: listed, fills: await this.#earlyFills(listed) }
    }
    const found =
      listed ??
      (await this.#retry(() =>
        findEnded(this.#context, this.#rest, (page) => pickOrder(page, wanted)),
      ))
    // Ended without a fill: nothing more to read.
    if (found !== undefined && compareDecimal(found.executed_amount, '0') === 0) {
      return { record: found, fills: [] }
    }
    const id = found?.id ?? ('id' in wanted ? wanted.id : await this.#idOfClientId(wanted))
    const record = await this.#visible(
      () => this.#rest.order(id, { signal: this.#abort.signal }),
      () => `order ${id}`,
    )
    return { record, fills: await this.#fillsOf(record) }
  }

  /**
   * The fills of an order the open list shows without any: none, unless it is young. A
   * young order may have filled after the list was read (or the list may lag) and before
   * the fills tail started: its fills are read from the account's trades of the last
   * minute, in one scan every young order starting with it shares.
   */
  async #earlyFills(order: OpenOrder): Promise<Fill[]> {
    const venueMs = await this.#retry(() => venueNow(this.#context, this.#rest))
    const since = venueMs - DEFAULT_PLACED_WINDOW_MS
    if (order.order_time < since) return []
    const fills = await this.#retry(() =>
      recentFills(this.#context, this.#rest, since, this.#tailStartedAt as number),
    )
    return fills.filter((fill) => this.#mine(fill, order.id))
  }

  /** The id of the newest order with the client id placed after the time, once visible. */
  async #idOfClientId(wanted: { clientId: string; placedAfter: number }): Promise<string> {
    let older: Order | undefined
    const placed = new Date(Math.floor(wanted.placedAfter / 1000) * 1000).toISOString()
    const order = await this.#visible(
      async () => {
        const answer = await this.#rest.orderByClientId(wanted.clientId, {
          signal: this.#abort.signal,
        })
        // The venue's answer for the client id: only its time is checked.
        if (pickOrder([answer], { ...wanted, clientId: answer.order_cid }) !== undefined) {
          return answer
        }
        // Only an older order uses the client id: as good as not visible yet.
        older = answer
        throw new VenueNotFoundError(`${METHOD}: only an older order uses the client id`, {
          status: 404,
        })
      },
      () =>
        `an order with client id ${JSON.stringify(wanted.clientId)} placed at or after ${placed}` +
        (older === undefined
          ? ''
          : ` (only order ${older.id}, placed ${new Date(older.order_time).toISOString()}, uses it)`),
    )
    return order.id
  }

  #onPoll(state: OpenOrdersState): void {
    const id = (this.#life as OrderLife).id
    const ending = state.endings.find((each) => each.id === id)
    const end =
      ending === undefined
        ? undefined
        : ending.status === 'unknown'
          ? { status: ending.status, record: (this.#life as OrderLife).record, fills: [] }
          : {
              status: ending.status,
              record: ending.final,
              fills: this.#liveFills(ending.final),
            }
    this.#input({
      type: 'poll',
      poll: state.poll,
      now: this.#now,
      open: state.orders.find((order) => order.id === id),
      end,
    })
  }

  #input(input: OrderInput): void {
    const life = this.#life
    if (life === undefined || this.#subscriber.closed) return
    this.#run(stepOrder(life, input, this.#settings))
  }

  /** Carries out one step: its events, then a look-up, a wake-up or the end. */
  #run(step: OrderStep): void {
    this.#life = step.life
    for (const event of step.events) this.#subscriber.next(event)
    if (this.#subscriber.closed) return
    if (step.complete) {
      this.#subscriber.complete()
      return
    }
    if (step.wakeAt !== undefined) {
      this.#wake?.unsubscribe()
      const at = step.wakeAt
      this.#wake = timer(
        clampDelay(at - this.#now),
        this.#context.scheduler ?? undefined,
      ).subscribe(() => this.#input({ type: 'time', now: Math.max(at, this.#now) }))
    }
    if (step.ask) this.#lookUp(step.life.id)
  }

  /**
   * One look at the known order (the reducer asked): its ended record from fresh pages of
   * the newest ended orders that every order asking in the same turn shares (many orders
   * filled or canceled at once cost a page, not a look-up each; the fills come from the
   * fills tail), else a look-up of its own.
   */
  #lookUp(id: string): void {
    this.#retry(() => endedInPages(this.#context, this.#rest, id))
      .then((ended): OrderInput | Promise<OrderInput> =>
        ended === undefined
          ? this.#lookUpAlone(id)
          : { type: 'answer', record: ended, fills: [], now: this.#now },
      )
      .then(
        (input) => this.#input(input),
        (error: unknown) => this.#subscriber.error(error),
      )
  }

  /** The order's look-up: its record and trades, or that the venue did not answer for it. */
  #lookUpAlone(id: string): Promise<OrderInput> {
    return this.#retryLookUp(() => this.#rest.order(id, { signal: this.#abort.signal })).then(
      (record): OrderInput => ({
        type: 'answer',
        record,
        fills: this.#liveFills(record),
        now: this.#now,
      }),
      (error: unknown): OrderInput => {
        if (isUnseen(error)) return { type: 'unanswered', now: this.#now }
        throw error
      },
    )
  }

  /** The fills of a record's trades (this order's side of each). */
  #tradesOf(record: OrderWithTrades): Fill[] {
    const account = this.#account as string
    return record.trades
      .flatMap((trade) => fillsOf(trade, account))
      .filter((fill) => this.#mine(fill, record.id))
  }

  /**
   * Whether a record's trades (`listed`, as fills) are all the order's: not when the venue
   * lists as many as it ever does and they do not add up to the executed amount (it lists
   * only the newest).
   */
  #listsAll(record: OrderWithTrades, listed: readonly Fill[]): boolean {
    if (record.trades.length < ORDER_TRADES_CAP) return true
    const sum = listed.reduce((total, fill) => addDecimal(total, fill.quantity), '0')
    return compareDecimal(sum, record.executed_amount) >= 0
  }

  /**
   * The fills of a record read while the order is followed (a look-up, an ending): its
   * trades' fills, or none when the venue listed only the newest of them: emitted now,
   * they would come before the older ones the fills tail has not brought yet, out of
   * order. The tail brings every fill of the order, in order, since the start.
   */
  #liveFills(record: OrderWithTrades): Fill[] {
    const listed = this.#tradesOf(record)
    return this.#listsAll(record, listed) ? listed : []
  }

  /**
   * The fills of the order found at the start. When the venue lists only its newest
   * trades, the earlier ones are read from the account's trades (from the order's time,
   * ascending), so that an order of many fills is still followed whole.
   */
  async #fillsOf(record: OrderWithTrades): Promise<Fill[]> {
    const listed = this.#tradesOf(record)
    if (this.#listsAll(record, listed)) return listed
    const found = new Map(listed.map((fill) => [fill.globalSeq, fill]))
    let after: string | undefined
    const firstListed = listed.reduce<string | undefined>(
      (low, fill) =>
        low === undefined || compareIds(fill.globalSeq, low) < 0 ? fill.globalSeq : low,
      undefined,
    )
    for (;;) {
      const page = await this.#retry(() =>
        this.#rest.trades(
          {
            poolId: record.pool_id,
            after: Math.floor(record.order_time / 1000) - 1,
            ...(after === undefined ? {} : { afterSeq: after }),
            sort: 'asc',
            limit: 100,
          },
          { signal: this.#abort.signal },
        ),
      )
      for (const trade of page) {
        for (const fill of fillsOf(trade, this.#account as string)) {
          if (this.#mine(fill, record.id)) found.set(fill.globalSeq, fill)
        }
      }
      const last = page.at(-1)?.global_seq
      // The rest is in the record's own list: stop where it starts.
      if (last === undefined || page.length < 100) break
      if (firstListed !== undefined && compareIds(last, firstListed) >= 0) break
      after = last
    }
    return [...found.values()]
  }

  /**
   * Runs `request` (a list or account request, or a shared scan of them), retrying
   * transport trouble ({@link transient}) with the venue's backoff (a 429's Retry-After
   * honoured), each retry reported `retrying`; anything else is thrown.
   */
  #retry<R>(request: () => Promise<R>): Promise<R> {
    return this.#settle(this.#retried(request, transient))
  }

  /** {@link OrderWatch.#retry} for one order's look-up: "not shown" is thrown, not retried. */
  #retryLookUp<R>(request: () => Promise<R>): Promise<R> {
    return this.#settle(this.#retried(request, transientLookUp))
  }

  #retried<R>(request: () => Promise<R>, isRetryable: (error: unknown) => boolean): Observable<R> {
    const { health } = this.#context
    return defer(request).pipe(
      tap(() => health.ok(this.#key)),
      retryBackoff<R>(
        this.#backoff({
          isRetryable,
          onRetry: ({ attempt, delayMs, error }) =>
            health.retrying(this.#key, attempt, delayMs, error),
        }),
      ),
    )
  }

  /**
   * Runs `request` (one order's look-up) until the venue shows what it asks for: transport
   * trouble is retried as in {@link OrderWatch.#retryLookUp}, and "not shown"
   * ({@link isUnseen}) for `visibleWithinMs`; then the stream fails with a
   * `VenueNotFoundError` naming `what`.
   */
  #visible<R>(request: () => Promise<R>, what: () => string): Promise<R> {
    const visibleWithinMs = this.#visibleWithinMs
    return this.#settle(
      defer(() => {
        const started = this.#now
        const left = () => visibleWithinMs - (this.#now - started)
        return this.#retried(request, transientLookUp).pipe(
          retryBackoff<R>(
            this.#backoff({
              isRetryable: (error) => isUnseen(error) && left() > 0,
              // Asked again at least once a poll interval (a new order is found as soon as
              // the streams would see it anyway), and once more when the time is up.
              waitAtMostMs: () => Math.min(this.#context.pollIntervalMs, left()),
            }),
          ),
          catchError((error: unknown) => {
            if (!isUnseen(error)) throw error
            throw new VenueNotFoundError(
              `${METHOD}: the venue did not show ${what()} within ${visibleWithinMs} ms`,
              { status: (error as VenueNotFoundError | VenueServerError).status, cause: error },
            )
          }),
        )
      }),
    )
  }

  /** The venue's backoff on its scheduler, for the errors `isRetryable` takes. */
  #backoff(
    settings: Pick<RetryBackoffOptions, 'isRetryable' | 'waitAtMostMs' | 'onRetry'>,
  ): RetryBackoffOptions {
    const { backoff, scheduler } = this.#context
    return { ...backoff, ...settings, ...(scheduler === undefined ? {} : { scheduler }) }
  }

  /**
   * The first value of `source` (a request and its retries), as a promise. Stopping the
   * watch drops `source`, its waits included; the promise then never settles, as nothing
   * waits for it any more.
   */
  #settle<R>(source: Observable<R>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#subscriptions.add(source.pipe(first()).subscribe({ next: resolve, error: reject }))
    })
  }
}
