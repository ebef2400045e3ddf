import { concatMap, from, type Observable } from 'rxjs'
import { keyedDiff } from '../core/keyed-diff.js'
import type { RestClient } from '../rest/index.js'
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

/** Scans of more than one page tried before the last scan is taken as it is. */
const MAX_SCANS = 3

/**
 * Every open order, across pages (newest first); an order seen twice across pages
 * counts once. Offset paging shifts when an order opens or closes between two pages,
 * which could hide an order at a page boundary (a false `closed`): a scan of several
 * pages is therefore checked by reading the first page again, and repeated (up to 3
 * scans) when that page changed meanwhile.
 */
export async function allOpenOrders(rest: RestClient, signal: AbortSignal): Promise<OpenOrder[]> {
  for (let scan = 1; ; scan += 1) {
    const byId = new Map<string, OpenOrder>()
    let first: OpenOrder[] = []
    let pages = 0
    for (let offset = 0; ; offset += PAGE) {
      const page = await rest.openOrders({ limit: PAGE, offset }, { signal })
      if (offset === 0) first = page
      pages += 1
      for (const order of page) if (!byId.has(order.id)) byId.set(order.id, order)
      if (page.length < PAGE) break
    }
    if (pages === 1 || scan === MAX_SCANS) return [...byId.values()]
    const again = await rest.openOrders({ limit: PAGE, offset: 0 }, { signal })
    if (sameIds(first, again)) return [...byId.values()]
  }
}

function sameIds(a: readonly OpenOrder[], b: readonly OpenOrder[]): boolean {
  return a.length === b.length && a.every((order, i) => order.id === b[i]?.id)
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
