import { compareDecimal } from '../decimal.js'
import { OrderStatus } from '../schemas/order.js'

/**
 * How an order ended.
 *
 * @example
 * ```ts
 * import type { OrderOutcome } from 'venue-rx'
 *
 * venue.watchOpenOrders().subscribe((event) => {
 *   if (event.type !== 'closed') return
 *   const outcome: OrderOutcome = event.status // 'filled', 'canceled' or 'rejected'
 *   console.log(event.order.id, outcome, event.final.executed_amount)
 * })
 * ```
 */
export type OrderOutcome = 'filled' | 'canceled' | 'rejected'

/** The fields of an order record that tell whether and how it ended. */
export interface OrderEndFields {
  readonly status: number
  readonly history: boolean
  readonly order_amount: string
  readonly executed_amount: string
}

/**
 * How an order ended, or `undefined` while it is still working.
 *
 * - Status 2 is `filled`, 3 `canceled`, 4 `rejected`.
 * - An order in the history set is final whatever its status says: the venue has been
 *   seen to leave status 1 (partially filled) on an order canceled after a partial fill,
 *   and 0 on one canceled before any fill; both are `canceled`. An unknown status in the
 *   history set is `filled` when the whole amount executed, else `canceled`.
 *
 * @example
 * ```ts
 * orderOutcome({ status: 1, history: true, order_amount: '10', executed_amount: '4' }) // 'canceled'
 * orderOutcome({ status: 1, history: false, order_amount: '10', executed_amount: '4' }) // undefined
 * ```
 */
export function orderOutcome(order: OrderEndFields): OrderOutcome | undefined {
  switch (order.status) {
    case OrderStatus.Filled:
      return 'filled'
    case OrderStatus.Canceled:
      return 'canceled'
    case OrderStatus.Rejected:
      return 'rejected'
  }
  if (!order.history) return undefined
  if (order.status === OrderStatus.Unfilled || order.status === OrderStatus.PartiallyFilled) {
    return 'canceled'
  }
  return compareDecimal(order.executed_amount, order.order_amount) >= 0 ? 'filled' : 'canceled'
}
