import type { RestClient } from '../rest/index.js'
import type { Order } from '../schemas/order.js'
import { orderOutcome } from './order-outcome.js'
import type { StreamContext } from './stream-context.js'
import type { EndedAsks } from './venue-lookups.js'

/** The venue caps a page of orders at 100. */
const PAGE = 100

/** The deepest page of ended orders an order stream looks in (the 500 newest). */
const MAX_PAGES = 5

/**
 * Page `index` of the account's ended orders (`/history-orders`, newest first, 100 a
 * page), asked at most once per poll interval for every `watchOrder` of a venue (the
 * venue's shared look-up of ended pages): 200 streams starting together on ended orders
 * cost two requests, not 200 look-ups. A failed page is asked again by the next caller.
 *
 * @example
 * ```ts
 * const newest = await historyPage(context, rest, 0)
 * newest.find((order) => order.id === '0-25-0') // its final record, without trades
 * ```
 */
export function historyPage(
  context: StreamContext,
  rest: RestClient,
  index: number,
): Promise<Order[]> {
  const now = context.scheduler.now()
  return context.lookups.endedOrderPages.get(
    index,
    () => rest.historyOrders({ limit: PAGE, offset: index * PAGE }),
    { now, maxAgeMs: context.pollIntervalMs },
  )
}

/**
 * The first of the account's newest ended orders (up to 500, page by page) that `pick`
 * chooses, or `undefined`.
 *
 * @example
 * ```ts
 * const ended = await findEnded(context, rest, (page) => page.find((o) => o.id === '0-25-0'))
 * ```
 */
export async function findEnded(
  context: StreamContext,
  rest: RestClient,
  pick: (page: readonly Order[]) => Order | undefined,
): Promise<Order | undefined> {
  for (let index = 0; index < MAX_PAGES; index += 1) {
    const page = await historyPage(context, rest, index)
    const found = pick(page)
    if (found !== undefined || page.length < PAGE) return found
  }
  return undefined
}

/**
 * The ended record of order `id` as pages of the newest ended orders show it, read once for
 * every order asked for in the same turn of the venue's scheduler, after the last of them
 * asked (so the pages are newer than every ask): 50 orders filled or canceled at once cost
 * a page, not 50 look-ups. Resolves `undefined` when the pages do not show the order ended
 * (not ended, not among the newest, or purged), and without reading a page when it was
 * asked for alone (its own look-up costs the same one request, and lists its trades): the
 * caller then looks it up. Reads one page per 100 orders asked (at most 5), fewer when the
 * newest show them all. A failed read fails every ask of the turn; each asks again.
 *
 * @example
 * ```ts
 * const [a, b] = await Promise.all([
 *   endedInPages(context, rest, '0-25-0'),
 *   endedInPages(context, rest, '0-26-0'),
 * ]) // one /history-orders request for both
 * ```
 */
export function endedInPages(
  context: StreamContext,
  rest: RestClient,
  id: string,
): Promise<Order | undefined> {
  const { lookups } = context
  let asks = lookups.endedAsks
  if (asks === undefined) {
    const ids = new Set<string>()
    let read: (ended: Promise<ReadonlyMap<string, Order> | undefined>) => void = () => {}
    const ended = new Promise<ReadonlyMap<string, Order> | undefined>((resolve) => {
      read = resolve
    })
    const made: EndedAsks = { ids, ended }
    asks = made
    lookups.endedAsks = made
    context.scheduler.schedule(() => {
      // Asks from now on wait for pages read after them.
      if (lookups.endedAsks === made) lookups.endedAsks = undefined
      read(ids.size < 2 ? Promise.resolve(undefined) : readEnded(rest, ids))
    })
  }
  asks.ids.add(id)
  return asks.ended.then((ended) => ended?.get(id))
}

/** The ended records of `ids` in the newest pages of ended orders. */
async function readEnded(
  rest: RestClient,
  ids: ReadonlySet<string>,
): Promise<ReadonlyMap<string, Order>> {
  const ended = new Map<string, Order>()
  const pages = Math.min(MAX_PAGES, Math.ceil(ids.size / PAGE))
  for (let index = 0; index < pages && ended.size < ids.size; index += 1) {
    const page = await rest.historyOrders({ limit: PAGE, offset: index * PAGE })
    for (const order of page) {
      if (ids.has(order.id) && orderOutcome(order) !== undefined) ended.set(order.id, order)
    }
    if (page.length < PAGE) break
  }
  return ended
}
