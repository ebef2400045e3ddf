/**
 * What `watchOrder` follows: the account's open orders and its fills, from the venue's own
 * polls or from a relay's streams. An order stream is the same state machine either way
 * (order-watch.ts); the feeds say what they show and how far back.
 *
 * @packageDocumentation
 */
import { concatMap, defer, interval, map, merge, Observable, scan, takeUntil } from 'rxjs'
import type { OpenOrder } from '../schemas/order.js'
import type { Fill } from './fills.js'
import type { StreamContext } from './stream-context.js'
import { type FillsOptions, fillsTail } from './watch-fills.js'
import { type OpenOrderEvent, type OrderEnding, openOrdersState } from './watch-open-orders.js'

/** One look at the account's open orders, as an order stream takes it. */
export interface OrdersView {
  /** The orders open now, by id. */
  readonly open: ReadonlyMap<string, OpenOrder>
  /** How the orders that left the list since the previous view ended. */
  readonly endings: readonly OrderEnding[]
  /**
   * A look at the whole list taken since the subscription: a tick of each order's own
   * clock (a poll of the list; on a relay, one poll interval gone by).
   */
  readonly poll: boolean
}

/** The account's fills as an order stream takes them: where they start, then each one. */
export type FillsEvent =
  /** Every later fill comes after this (see {@link OrderFeeds.whole}). */
  { readonly type: 'ready' } | { readonly type: 'fill'; readonly fill: Fill }

/**
 * The feeds of one venue's order streams.
 *
 * @example
 * ```ts
 * const feeds = relay === undefined ? polledOrderFeeds(context) : relayedOrderFeeds(context, streams)
 * watchOrder(context, '0-25-0', {}, feeds)
 * ```
 */
export interface OrderFeeds {
  /**
   * The open orders, a view per poll (or relayed event): subscribed once the fills are ready,
   * or, with the whole story, at the order stream's subscription.
   */
  readonly openOrders: Observable<OrdersView>
  /** The account's fills: `ready`, then each fill as it shows (fills before `ready` too). */
  readonly fills: Observable<FillsEvent>
  /**
   * Whether the feeds hold the whole story of an order they show (a relay's): the fills
   * before `ready` are every fill the relay kept, in order, and the list closes each order
   * it listed. Then an order the list shows needs no request (its fills are there), an
   * order whose fills reach its amount is left to the list to close, and an ended one
   * waits for its fills. Otherwise (the venue's fills tail starts when it is subscribed)
   * the venue is asked for what happened before.
   */
  readonly whole: boolean
  /**
   * How long after `ready` the list is given to show an order before the venue is asked
   * for it, ms: 0 (the first poll of the list after the subscription decides), or about
   * two polls of the relay.
   */
  readonly showWithinMs: number
}

/**
 * The feeds of a venue that polls: the shared poll of the open orders (`watchOpenOrders`'
 * own, without its per-subscription look-ups of ended orders' trades: an order stream takes
 * its fills from the fills tail), and the shared tail of the account's fills (the one
 * `watchFills` joins). A poll replayed at the subscription (older than the fills tail) is
 * not a tick: the first poll after it is.
 */
export function polledOrderFeeds(context: StreamContext): OrderFeeds {
  const states = openOrdersState(context)
  return {
    openOrders: new Observable<OrdersView>((subscriber) => {
      let replaying = true
      const subscription = states.subscribe({
        next: (state) =>
          subscriber.next({ open: state.byId, endings: state.endings, poll: !replaying }),
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      })
      replaying = false
      return subscription
    }),
    fills: defer(() => {
      let ready = false
      return fillsTail(context).pipe(
        concatMap((event): FillsEvent[] => {
          const out: FillsEvent[] = []
          // The tail's first event (its start, or its latest one replayed) says it is there.
          if (!ready) {
            ready = true
            out.push({ type: 'ready' })
          }
          if (event.type === 'item') out.push({ type: 'fill', fill: event.item })
          return out
        }),
      )
    }),
    whole: false,
    showWithinMs: 0,
  }
}

/**
 * The relayed streams an order stream follows: a relayed venue's `watchOpenOrders()` and
 * `watchFills(options)` (its `StreamSet`'s).
 */
export interface RelayedOrderStreams {
  readonly openOrders: () => Observable<OpenOrderEvent>
  /** The fills the relay keeps, then each new one (`onProgress` after each read). */
  readonly fills: (options: Pick<FillsOptions, 'onProgress'>) => Observable<Fill>
}

/** Polls of a relay's open orders an order stream waits for an order to show. */
const RELAY_SHOW_POLLS = 2

/**
 * The feeds of a venue reading from a relay: its open orders (the relay's state first,
 * then each change, every order it listed closed with its final record) and its fills read
 * from the oldest the relay's stream keeps (every fill it kept, in order; `ready` once caught
 * up). Ticks every `pollIntervalMs` of the venue give each order its
 * own clock.
 */
export function relayedOrderFeeds(
  context: StreamContext,
  streams: RelayedOrderStreams,
): OrderFeeds {
  const scheduler = context.scheduler
  const ticks = interval(context.pollIntervalMs, scheduler).pipe(
    map(() => undefined),
    takeUntil(context.closed),
  )
  const empty: OrdersView = { open: new Map(), endings: [], poll: false }
  return {
    openOrders: defer(() =>
      merge(streams.openOrders(), ticks).pipe(
        scan(
          (view: OrdersView, change: OpenOrderEvent | undefined) =>
            change === undefined
              ? { open: view.open, endings: [], poll: true }
              : applyEvent(view.open, change),
          empty,
        ),
      ),
    ),
    fills: new Observable<FillsEvent>((subscriber) => {
      let ready = false
      return streams
        .fills({
          onProgress: ({ phase }) => {
            if (ready || phase !== 'tail') return
            ready = true
            subscriber.next({ type: 'ready' })
          },
        })
        .subscribe({
          next: (fill) => subscriber.next({ type: 'fill', fill }),
          error: (error: unknown) => subscriber.error(error),
          complete: () => subscriber.complete(),
        })
    }),
    whole: true,
    showWithinMs: RELAY_SHOW_POLLS * context.pollIntervalMs,
  }
}

/** The view after one relayed event. */
function applyEvent(before: ReadonlyMap<string, OpenOrder>, event: OpenOrderEvent): OrdersView {
  const open = new Map(before)
  const { id } = event.order
  if (event.type !== 'closed') {
    open.set(id, event.order)
    return { open, endings: [], poll: false }
  }
  open.delete(id)
  const ending: OrderEnding =
    event.status === 'unknown'
      ? { id, status: 'unknown', final: undefined, reason: event.reason }
      : { id, status: event.status, final: event.final, tradesKnown: true }
  return { open, endings: [ending], poll: false }
}
