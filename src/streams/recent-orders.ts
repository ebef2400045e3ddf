import { asyncScheduler } from 'rxjs'
import type { RestClient } from '../rest/index.js'
import type { Order } from '../schemas/order.js'
import type { StreamContext } from './stream-context.js'

/** The venue caps a page of orders at 100. */
const PAGE = 100

/** The deepest page of ended orders an order stream looks in (the 500 newest). */
const MAX_PAGES = 5

/**
 * Page `index` of the account's ended orders (`/history-orders`, newest first, 100 a
 * page), asked at most once per poll interval for every `watchOrder` of a venue: 200
 * streams starting together on ended orders cost two requests, not 200 look-ups. A failed
 * page is asked again by the next caller.
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
  const now = (context.scheduler ?? asyncScheduler).now()
  const { lookups } = context
  let known = lookups.historyPages
  if (known === undefined || now - known.at >= context.pollIntervalMs) {
    known = { at: now, pages: new Map() }
    lookups.historyPages = known
  }
  const { pages } = known
  let page = pages.get(index)
  if (page === undefined) {
    page = rest.historyOrders({ limit: PAGE, offset: index * PAGE })
    pages.set(index, page)
    const asked = page
    asked.catch(() => {
      if (pages.get(index) === asked) pages.delete(index)
    })
  }
  return page
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
