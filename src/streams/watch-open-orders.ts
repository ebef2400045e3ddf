import equal from 'fast-deep-equal'
import {
  catchError,
  concatMap,
  defer,
  forkJoin,
  map,
  mergeMap,
  type Observable,
  of,
  scan,
  tap,
} from 'rxjs'
import { fromRequest } from '../core/from-request.js'
import { diffByKey } from '../core/keyed-diff.js'
import { retryBackoff } from '../core/retry-backoff.js'
import { compareDecimal } from '../decimal.js'
import { VenueError } from '../errors/venue-error.js'
import type { RestClient } from '../rest/index.js'
import type { OpenOrder, OrderWithTrades } from '../schemas/order.js'
import { type OrderOutcome, orderOutcome } from './order-outcome.js'
import { isUnseen } from './order-unseen.js'
import type { StreamContext } from './stream-context.js'
import { streamKey } from './stream-key.js'
import { type PollBatch, pollAnswers, streamPipeline } from './stream-pipeline.js'

/**
 * A change of the account's working orders, keyed by order `id`.
 *
 * @example
 * ```ts
 * import type { OpenOrderEvent } from 'venue-rx'
 *
 * venue.watchOpenOrders().subscribe((event: OpenOrderEvent) => {
 *   if (event.type === 'opened') console.log('new', event.order.id, event.order.order_price)
 *   else if (event.type === 'changed') {
 *     const { previous, order } = event
 *     console.log('fill', order.id, previous.executed_amount, '->', order.executed_amount)
 *   } else if (event.status === 'unknown') console.warn(event.reason)
 *   else console.log('ended', event.order.id, event.status, event.final.filled_total)
 * })
 * ```
 */
export type OpenOrderEvent =
  | { readonly type: 'opened'; readonly order: OpenOrder }
  | { readonly type: 'changed'; readonly order: OpenOrder; readonly previous: OpenOrder }
  /**
   * The order left the open set: `order` is its last open state, `status` how it ended,
   * `final` the order as the venue keeps it now (final `executed_amount`, `avg_price`,
   * `filled_total`, `status`, and its `trades`).
   */
  | {
      readonly type: 'closed'
      readonly order: OpenOrder
      readonly status: OrderOutcome
      readonly final: OrderWithTrades
    }
  /**
   * The order left the open set and the venue no longer answers for it (venues purge
   * canceled orders that never filled): after `orderLookups` look-ups, one poll apart, its
   * end is `unknown`. `order` is the last record seen; `reason` names the order and what
   * the venue answered.
   */
  | {
      readonly type: 'closed'
      readonly order: OpenOrder
      readonly status: 'unknown'
      readonly final: undefined
      readonly reason: string
    }

/**
 * How an order that left the open set ended, as the shared poll saw it: its final record
 * from a page of ended orders (`tradesKnown` false when it executed something: a page lists
 * no trades, so `final.trades` is empty) or from its look-up (`tradesKnown`: the trades the
 * venue listed with it).
 */
export type OrderEnding =
  | {
      readonly id: string
      readonly status: OrderOutcome
      readonly final: OrderWithTrades
      readonly tradesKnown: boolean
    }
  | {
      readonly id: string
      readonly status: 'unknown'
      readonly final: undefined
      readonly reason: string
    }

/**
 * One poll of the open orders, shared by every subscriber: the orders open now, and how
 * each order that left the set since the previous poll ended. Every poll is emitted (an
 * order stream counts polls as its clock), changed or not.
 */
export interface OpenOrdersState {
  /** Polls answered in this run of the poller, from 1. */
  readonly poll: number
  readonly orders: readonly OpenOrder[]
  /** `orders` by id. */
  readonly byId: ReadonlyMap<string, OpenOrder>
  readonly endings: readonly OrderEnding[]
}

/** The venue caps a page of orders at 100. */
const PAGE = 100

/**
 * Every open order, across pages (newest first); an order seen twice across pages counts
 * once. The venue's `meta.total` says when the last page is in (no empty page asked for
 * after a full one); without it, a short page ends the scan. Offset paging can shift when
 * an order opens or closes between two pages and hide an order at a page boundary: the
 * shared poller looks up any order missing from one scan before it calls it closed.
 */
export async function allOpenOrders(rest: RestClient, signal: AbortSignal): Promise<OpenOrder[]> {
  const byId = new Map<string, OpenOrder>()
  let total: number | undefined
  const onMeta = (meta: Readonly<Record<string, unknown>>) => {
    const value = meta['total']
    total =
      typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined
  }
  for (let offset = 0; ; offset += PAGE) {
    const page = await rest.openOrders({ limit: PAGE, offset }, { signal, onMeta })
    for (const order of page) if (!byId.has(order.id)) byId.set(order.id, order)
    if (page.length < PAGE || (total !== undefined && offset + page.length >= total)) break
  }
  return [...byId.values()]
}

/**
 * The shared poller of the open orders (one for `watchOpenOrders` and every `watchOrder`):
 * each poll lists every open order, and tells how each order that left the list since the
 * previous poll ended: from pages of the newest ended orders when several left (a mass
 * cancel, many orders filled at once: their records without trades), otherwise, or for an
 * order those pages do not show ended, by looking it up (one request each).
 *
 * One order's trouble stays with that order:
 * - a look-up that shows the order still working (a list that missed it) keeps it listed;
 * - a look-up the venue does not answer (404, its ambiguous 500, or another refusal of
 *   that order) keeps it listed and is tried again on the next poll; after
 *   `orderLookups` of them in a row, its ending is `unknown`;
 * - transport trouble of a look-up fails the poll, which is retried whole (the list too)
 *   with the venue's backoff and reported `retrying`.
 */
export function openOrdersState(context: StreamContext): Observable<OpenOrdersState> {
  return streamPipeline(
    context,
    streamKey('watchOpenOrders'),
    (lane) =>
      defer(() => {
        let previous = new Map<string, OpenOrder>()
        const unresolved = new Map<string, number>()
        let poll = 0
        return pollAnswers(
          async (rest, signal): Promise<OpenOrdersState> => {
            const listed = await allOpenOrders(rest, signal)
            const now = new Map(listed.map((order) => [order.id, order]))
            const endings: OrderEnding[] = []
            const stillOpen: OpenOrder[] = []
            const misses = new Map<string, number>()
            const left = [...previous.values()].filter((order) => !now.has(order.id))
            const fromHistory = await endingsInHistory(rest, left, signal)
            for (const order of left) {
              const id = order.id
              const ending = fromHistory.get(id) ?? (await lookUpEnding(rest, id, signal))
              if (ending === 'working') {
                stillOpen.push(order)
              } else if ('unanswered' in ending) {
                const count = (unresolved.get(id) ?? 0) + 1
                if (count < context.orderLookups) {
                  stillOpen.push(order)
                  misses.set(id, count)
                } else {
                  endings.push({
                    id,
                    status: 'unknown',
                    final: undefined,
                    reason: `order ${id}: the venue no longer answers for it (${ending.unanswered}) after ${count} look-ups, one poll apart; its end is unknown`,
                  })
                }
              } else endings.push(ending)
            }
            // Only a poll that succeeded as a whole moves the state on (a retry redoes it).
            const orders = [...listed, ...stillOpen]
            previous = new Map(orders.map((order) => [order.id, order]))
            unresolved.clear()
            for (const [id, n] of misses) unresolved.set(id, n)
            poll += 1
            return { poll, orders, byId: previous, endings }
          },
          {
            // A new own trade seen by a running feed polls the open orders at once.
            wake: context.nudges.on('account'),
            // The poll count moves every time: a change is an order that moved or ended.
            changes: (before, after) =>
              after.endings.length > 0 || !equal(before.orders, after.orders),
          },
        )(lane)
      }),
    { shape: map((polled) => polled.value) },
  )
}

/** The venue caps a page of orders at 100; a mass cancel reads at most this many pages. */
const MAX_HISTORY_PAGES = 5

/**
 * Endings of orders that left the list, read from the newest ended orders
 * (`/history-orders`, newest first, 100 a page, read after the list) rather than one
 * look-up each: 200 orders canceled or filled at once cost 2 pages, not 200 requests. Used
 * when at least two orders left: one costs a look-up either way, and its look-up lists its
 * trades. A page lists no trades: an order that executed something gets `trades: []` and
 * `tradesKnown: false` (the order streams take its fills from the fills tail;
 * `watchOpenOrders` looks it up for them). An order not found there ended is looked up (it
 * may not be final yet, or be older than the pages read).
 */
async function endingsInHistory(
  rest: RestClient,
  left: readonly OpenOrder[],
  signal: AbortSignal,
): Promise<Map<string, OrderEnding>> {
  const wanted = new Set(left.map((order) => order.id))
  const endings = new Map<string, OrderEnding>()
  if (wanted.size < 2) return endings
  const pages = Math.min(MAX_HISTORY_PAGES, Math.ceil(wanted.size / PAGE) + 1)
  for (let page = 0; page < pages && wanted.size > 0; page += 1) {
    const orders = await rest.historyOrders({ limit: PAGE, offset: page * PAGE }, { signal })
    for (const order of orders) {
      const status = orderOutcome(order)
      if (status === undefined || !wanted.delete(order.id)) continue
      const tradesKnown = compareDecimal(order.executed_amount, '0') === 0
      endings.set(order.id, { id: order.id, status, final: { ...order, trades: [] }, tradesKnown })
    }
    if (orders.length < PAGE) break
  }
  return endings
}

/**
 * How order `id` ended: its ending, `'working'` when the venue still shows it working, or
 * what the venue answered when it did not answer for it. Transport trouble is thrown.
 */
async function lookUpEnding(
  rest: RestClient,
  id: string,
  signal: AbortSignal,
): Promise<OrderEnding | 'working' | { readonly unanswered: string }> {
  try {
    const final = await rest.order(id, { signal })
    const status = orderOutcome(final)
    return status === undefined ? 'working' : { id, status, final, tradesKnown: true }
  } catch (error) {
    if (error instanceof VenueError && error.retryable && !isUnseen(error)) throw error
    if (!(error instanceof VenueError)) throw error
    return { unanswered: describeRefusal(error) }
  }
}

/** What the venue answered, in a few words (HTTP status and message). */
function describeRefusal(error: VenueError): string {
  const { status, venueMessage } = error as { status?: unknown; venueMessage?: unknown }
  const http = typeof status === 'number' ? `HTTP ${status}` : error.code
  return typeof venueMessage === 'string' && venueMessage !== ''
    ? `${http} ${JSON.stringify(venueMessage)}`
    : http
}

/**
 * The account's open orders as `opened` / `changed` / `closed` events; a `closed` event
 * says how the order ended (`filled`, `canceled`, `rejected`) with its final record and
 * trades, or `unknown` for an order the venue stopped answering for. One order's trouble
 * never ends, stalls or errors the stream.
 * Subscribers share one poller; each one first receives `opened` for every order open at
 * that moment.
 *
 * What it costs: the poller's pages of open orders; an order that left the list is looked
 * up (one request), several that left together come from shared pages of the newest ended
 * orders; of those, each that executed something is looked up by each subscription for
 * its trades (the pages list none) before the poll's events are emitted.
 */
export function watchOpenOrders(context: StreamContext): Observable<OpenOrderEvent> {
  return openOrderBatches(context).pipe(mergeMap((batch) => batch.events))
}

/**
 * {@link watchOpenOrders} one batch per poll: the first (`initial`) calls every order open
 * when the subscription joined `opened` (empty when none is), each later one what that
 * poll changed (often nothing). For a consumer that treats the first poll apart (the relay
 * publisher sorts it out against the open set the last relay left).
 */
export function openOrderBatches(context: StreamContext): Observable<PollBatch<OpenOrderEvent>> {
  return openOrdersState(context).pipe(
    // The first batch tells what is open now: none of its endings is told, none looked up.
    concatMap((state, index) => (index === 0 ? of(state) : withTrades(context, state))),
    scan(
      (last: { open: ReadonlyMap<string, OpenOrder>; events: OpenOrderEvent[] }, state) => {
        const diff = diffByKey(last.open, state.orders, (order) => order.id)
        const endings = new Map(state.endings.map((ending) => [ending.id, ending]))
        const events: OpenOrderEvent[] = []
        for (const order of diff.removed) {
          const ending = endings.get(order.id)
          // Every order that left the shared list has its ending in the same poll.
          if (ending === undefined) continue
          events.push(
            ending.status === 'unknown'
              ? {
                  type: 'closed',
                  order,
                  status: 'unknown',
                  final: undefined,
                  reason: ending.reason,
                }
              : { type: 'closed', order, status: ending.status, final: ending.final },
          )
        }
        for (const { previous, current } of diff.changed) {
          events.push({ type: 'changed', order: current, previous })
        }
        for (const order of diff.added) events.push({ type: 'opened', order })
        return { open: diff.current, events }
      },
      { open: new Map<string, OpenOrder>(), events: [] },
    ),
    map(
      (step, index): PollBatch<OpenOrderEvent> => ({ initial: index === 0, events: step.events }),
    ),
  )
}

/**
 * `state` with the trades of every ending that has none from the shared poll (an order
 * that executed something, ended through a page of ended orders): each looked up, transport
 * trouble retried with the venue's backoff and reported under `watchOpenOrders`. When the
 * venue does not answer for it, the ending keeps the page's record (no trades).
 */
function withTrades(context: StreamContext, state: OpenOrdersState): Observable<OpenOrdersState> {
  const wanting = state.endings.filter(
    (ending) => ending.status !== 'unknown' && !ending.tradesKnown,
  )
  if (wanting.length === 0) return of(state)
  const key = streamKey('watchOpenOrders')
  const { health, scheduler } = context
  const rest = context.rest(key)
  const lookUp = (ending: OrderEnding): Observable<OrderEnding> =>
    fromRequest((signal) => rest.order(ending.id, { signal })).pipe(
      tap(() => health.ok(key)),
      retryBackoff<OrderWithTrades>({
        ...context.backoff,
        isRetryable: (error) => error instanceof VenueError && error.retryable && !isUnseen(error),
        onRetry: ({ attempt, delayMs, error }) => health.retrying(key, attempt, delayMs, error),
        scheduler,
      }),
      map(
        (final): OrderEnding => ({
          id: ending.id,
          status: orderOutcome(final) ?? (ending.status as OrderOutcome),
          final,
          tradesKnown: true,
        }),
      ),
      catchError((error: unknown) => {
        if (!(error instanceof VenueError)) throw error
        return of(ending)
      }),
    )
  return forkJoin(wanting.map(lookUp)).pipe(
    map((found) => {
      const byId = new Map(found.map((ending) => [ending.id, ending]))
      return {
        ...state,
        endings: state.endings.map((ending) => byId.get(ending.id) ?? ending),
      }
    }),
  )
}
