import { defer, map, mergeMap, type Observable, pipe, scan } from 'rxjs'
import { distinctUntilDeepChanged } from '../core/distinct-until-deep-changed.js'
import { diffByKey } from '../core/keyed-diff.js'
import { VenueNotFoundError } from '../errors/venue-not-found-error.js'
import { VenueServerError } from '../errors/venue-server-error.js'
import type { RestClient } from '../rest/index.js'
import type { OpenOrder, OrderWithTrades } from '../schemas/order.js'
import { type OrderOutcome, orderOutcome } from './order-outcome.js'
import { polledSource, pollingPipeline } from './polling-pipeline.js'
import type { StreamContext } from './stream-context.js'
import { streamKey } from './stream-key.js'

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
 *   } else console.log('ended', event.order.id, event.status, event.final.filled_total)
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

/** How an order that left the open set ended, as one lookup of it showed. */
export interface OrderEnding {
  readonly id: string
  readonly status: OrderOutcome
  readonly final: OrderWithTrades
}

/**
 * One poll of the open orders, shared by every subscriber: the orders open now, and how
 * each order that left the set since the previous poll ended.
 */
export interface OpenOrdersState {
  readonly orders: readonly OpenOrder[]
  readonly endings: readonly OrderEnding[]
}

/** Polls in a row an order may be missing from the list without a lookup that tells its end. */
const MAX_UNRESOLVED_POLLS = 5

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
 * each poll lists every open order, and looks up each order that left the list since the
 * previous poll (one request per ended order) to tell how it ended.
 *
 * An order whose lookup says it is still working (a list that missed it) stays in the
 * list. A lookup the venue cannot answer (an order it does not show yet or any more) is
 * tried again on the next polls; after 5 polls in a row the stream fails with that error
 * rather than guess an ending.
 */
export function openOrdersState(context: StreamContext): Observable<OpenOrdersState> {
  return pollingPipeline(
    context,
    streamKey('watchOpenOrders'),
    (lane) =>
      defer(() => {
        let previous = new Map<string, OpenOrder>()
        const unresolved = new Map<string, number>()
        return polledSource(async (rest, signal): Promise<OpenOrdersState> => {
          const listed = await allOpenOrders(rest, signal)
          const now = new Map(listed.map((order) => [order.id, order]))
          const endings: OrderEnding[] = []
          const stillOpen: OpenOrder[] = []
          const misses = new Map<string, number>()
          for (const [id, order] of previous) {
            if (now.has(id)) continue
            const ending = await lookUpEnding(rest, id, signal, (unresolved.get(id) ?? 0) + 1)
            if (ending === undefined) {
              stillOpen.push(order)
              misses.set(id, (unresolved.get(id) ?? 0) + 1)
            } else if (ending === 'working') stillOpen.push(order)
            else endings.push(ending)
          }
          // Only a poll that succeeded as a whole moves the state on (a retry redoes it).
          const orders = [...listed, ...stillOpen]
          previous = new Map(orders.map((order) => [order.id, order]))
          unresolved.clear()
          for (const [id, n] of misses) unresolved.set(id, n)
          return { orders, endings }
        })(lane)
      }),
    {
      shape: pipe(
        map((polled) => polled.value),
        distinctUntilDeepChanged(),
      ),
    },
  )
}

/**
 * How order `id` ended: its ending, `'working'` when the venue still shows it working,
 * or `undefined` when the venue does not answer for it (tried again later, up to
 * {@link MAX_UNRESOLVED_POLLS} times, then the error is thrown).
 */
async function lookUpEnding(
  rest: RestClient,
  id: string,
  signal: AbortSignal,
  attempt: number,
): Promise<OrderEnding | 'working' | undefined> {
  try {
    const final = await rest.order(id, { signal })
    const status = orderOutcome(final)
    return status === undefined ? 'working' : { id, status, final }
  } catch (error) {
    const unanswered =
      error instanceof VenueNotFoundError || (error instanceof VenueServerError && error.ambiguous)
    if (unanswered && attempt < MAX_UNRESOLVED_POLLS) return undefined
    throw error
  }
}

/**
 * The account's open orders as `opened` / `changed` / `closed` events; a `closed` event
 * says how the order ended (`filled`, `canceled`, `rejected`) with its final record.
 * Subscribers share one poller; each one first receives `opened` for every order open at
 * that moment.
 */
export function watchOpenOrders(context: StreamContext): Observable<OpenOrderEvent> {
  return openOrdersState(context).pipe(
    scan(
      (last: { open: ReadonlyMap<string, OpenOrder>; events: OpenOrderEvent[] }, state) => {
        const diff = diffByKey(last.open, state.orders, (order) => order.id)
        const endings = new Map(state.endings.map((ending) => [ending.id, ending]))
        const events: OpenOrderEvent[] = []
        for (const order of diff.removed) {
          const ending = endings.get(order.id)
          // Every order that left the shared list has its ending in the same poll.
          if (ending !== undefined) {
            events.push({ type: 'closed', order, status: ending.status, final: ending.final })
          }
        }
        for (const { previous, current } of diff.changed) {
          events.push({ type: 'changed', order: current, previous })
        }
        for (const order of diff.added) events.push({ type: 'opened', order })
        return { open: diff.current, events }
      },
      { open: new Map<string, OpenOrder>(), events: [] },
    ),
    mergeMap((step) => step.events),
  )
}
