import { VenueNotFoundError } from '../errors/venue-not-found-error.js'
import { VenueServerError } from '../errors/venue-server-error.js'

/**
 * Whether a venue error of one order's look-up (`/orders/{id}`, `/orders/client-id/{cid}`)
 * means "the venue does not show this order" (yet, or any more): a 404
 * `VenueNotFoundError`, or the venue's ambiguous 500 `service internal error` (its answer
 * for an order it does not know). The order streams treat it as the order's own trouble:
 * `watchOrder` asks again (a fresh order) or counts it towards `unknown`, the open-orders
 * poll keeps the order listed and looks it up again; it is never transport trouble to
 * retry with the backoff. Only for those look-ups: the same 500 from a list or account
 * endpoint (`/trades`, `/history-orders`, `/open-orders`, `/info`, `/ping`) says nothing
 * about an order and is transport trouble, retried as every stream retries it.
 *
 * @example
 * ```ts
 * try {
 *   await rest.order('0-25-0')
 * } catch (error) {
 *   if (isUnseen(error)) console.log('not shown (yet)')
 *   else throw error
 * }
 * ```
 */
export function isUnseen(error: unknown): boolean {
  return (
    error instanceof VenueNotFoundError || (error instanceof VenueServerError && error.ambiguous)
  )
}
