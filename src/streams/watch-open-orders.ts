import { concatMap, from, type Observable } from 'rxjs'
import { keyedDiff } from '../core/keyed-diff.js'
import type { RestClient } from '../rest/rest-client.js'
import type { OpenOrder } from '../schemas/order.js'
import { polledResource } from './polled-resource.js'
import type { StreamContext } from './stream-context.js'
import { streamKey } from './stream-key.js'

/** A change of the account's working orders, keyed by order `id`. */
export type OpenOrderEvent =
  | { readonly type: 'opened'; readonly order: OpenOrder }
  | { readonly type: 'changed'; readonly order: OpenOrder; readonly previous: OpenOrder }
  /** The order left the open set (filled, canceled or rejected); `order` is its last open state. */
  | { readonly type: 'closed'; readonly order: OpenOrder }

/** The venue caps a page of orders at 100. */
const PAGE = 100

/** Every open order, across pages (newest first); an order seen twice across pages counts once. */
export async function allOpenOrders(rest: RestClient, signal: AbortSignal): Promise<OpenOrder[]> {
  const byId = new Map<string, OpenOrder>()
  for (let offset = 0; ; offset += PAGE) {
    const page = await rest.openOrders({ limit: PAGE, offset }, { signal })
    for (const order of page) if (!byId.has(order.id)) byId.set(order.id, order)
    if (page.length < PAGE) return [...byId.values()]
  }
}

/**
 * The account's open orders as `opened` / `changed` / `closed` events. Subscribers share
 * one poller; each one first receives `opened` for every order open at that moment.
 */
export function watchOpenOrders(context: StreamContext): Observable<OpenOrderEvent> {
  const state = polledResource(context, streamKey('watchOpenOrders'), allOpenOrders)
  return state.pipe(
    keyedDiff((order: OpenOrder) => order.id),
    concatMap((diff) =>
      from<OpenOrderEvent[]>([
        ...diff.removed.map((order): OpenOrderEvent => ({ type: 'closed', order })),
        ...diff.changed.map(
          ({ previous, current }): OpenOrderEvent => ({
            type: 'changed',
            order: current,
            previous,
          }),
        ),
        ...diff.added.map((order): OpenOrderEvent => ({ type: 'opened', order })),
      ]),
    ),
  )
}
