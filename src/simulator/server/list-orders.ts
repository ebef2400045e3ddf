import type { OrderRecord } from '../market/types.js'
import { PARAM_NAMES } from './param-names.js'
import { integerOr, optionalInteger } from './query.js'
import { ok, type Reply } from './reply.js'

const names = PARAM_NAMES.orders

/**
 * Filters and pages an account's orders (already newest first) for history-orders and
 * open-orders: `pool_id`, `side` (0/1), `type` (0/1), `status`, then `offset` and `limit`
 * (default 20; above 100 clamped to 100, as the live service does). `meta.total` counts the
 * filtered orders before paging.
 *
 * @example
 * ```ts
 * listOrders(orders, new URLSearchParams('side=1&limit=500')).body.data // up to 100 sells
 * ```
 */
export function listOrders(
  orders: readonly OrderRecord[],
  query: URLSearchParams,
  shape: (order: OrderRecord) => unknown = (order) => order,
): Reply {
  const poolId = optionalInteger(query, names.poolId, { min: 0 })
  const side = optionalInteger(query, names.side, { min: 0, max: 1 })
  const type = optionalInteger(query, names.type, { min: 0, max: 1 })
  const status = optionalInteger(query, names.status, { min: 0 })
  const limit = integerOr(query, names.limit, 20, { min: 1, max: 100, clampToMax: true })
  const offset = integerOr(query, names.offset, 0, { min: 0 })
  const matching = orders.filter(
    (order) =>
      (poolId === undefined || order.pool_id === poolId) &&
      (side === undefined || order.side === side) &&
      (type === undefined || order.type === type) &&
      (status === undefined || order.status === status),
  )
  return ok(matching.slice(offset, offset + limit).map(shape), { total: matching.length })
}

/**
 * An order as the open-order list shows it: without the history-only fields
 * (`filled_total`, `history`, `permission`, `status`, `unread`; docs/venue-interface.md#orders).
 */
export function openOrderShape(order: OrderRecord): unknown {
  const { filled_total, history, permission, status, unread, ...open } = order
  return open
}
