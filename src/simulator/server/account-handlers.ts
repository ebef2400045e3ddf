/**
 * Handlers of the account endpoints (docs/venue-interface.md#endpoints). The server has already
 * resolved the API key to an account.
 *
 * @packageDocumentation
 */
import { notFound, serviceInternalError } from './error-replies.js'
import { listOrders, openOrderShape } from './list-orders.js'
import { listTrades } from './list-trades.js'
import { listTransfers } from './list-transfers.js'
import { ok, type Reply } from './reply.js'
import { ReplyError } from './reply-error.js'
import type { AccountRouteContext } from './route.js'

const ORDER_ID_PATTERN = /^(\d+)-(\d+)-([01])$/

/** `GET /api/v1/info`. */
export function accountInfoHandler({ account }: AccountRouteContext): Reply {
  return ok(account.info())
}

/** `GET /api/v1/balances`. */
export function balancesHandler({ account }: AccountRouteContext): Reply {
  const balances = account.balances()
  return ok(balances, { total: balances.length })
}

/** `GET /api/v1/history-orders`: see {@link listOrders}. */
export function historyOrdersHandler({ account, query }: AccountRouteContext): Reply {
  return listOrders(account.historyOrders(), query)
}

/** `GET /api/v1/open-orders`: see {@link listOrders}; records without the history-only fields. */
export function openOrdersHandler({ account, query }: AccountRouteContext): Reply {
  return listOrders(account.openOrders(), query, openOrderShape)
}

/**
 * `GET /api/v1/orders/{pool-order-side}`: the order with its trades. A malformed id, an
 * unknown order and someone else's order all answer 500 `service internal error`; an order
 * the venue purged (quirk `purgeCanceledAfterMs`) answers the quirk's `purgeStatus`.
 */
export function orderHandler({ account, pathParam }: AccountRouteContext): Reply {
  const match = ORDER_ID_PATTERN.exec(pathParam)
  if (match === null) throw new ReplyError(serviceInternalError())
  const poolId = Number(match[1])
  const orderId = Number(match[2])
  const side = match[3] === '1' ? 1 : 0
  const order = account.order(poolId, orderId, side)
  if (order === undefined) {
    throw new ReplyError(missingOrder(account.purgedOrder?.(poolId, orderId, side)))
  }
  return ok(order)
}

/**
 * `GET /api/v1/orders/client-id/{cid}`: the newest order with the client id, 500 for an
 * unknown client id, or the quirk's `purgeStatus` when the venue purged it.
 */
export function orderByClientIdHandler({ account, pathParam }: AccountRouteContext): Reply {
  const order = account.orderByClientId(pathParam)
  if (order === undefined) {
    throw new ReplyError(missingOrder(account.purgedOrderByClientId?.(pathParam)))
  }
  return ok(order)
}

/** The answer for an order that does not show: 404 only for a purge answered so. */
function missingOrder(purgedStatus: 404 | 500 | undefined): Reply {
  return purgedStatus === 404 ? notFound() : serviceInternalError()
}

/** `GET /api/v1/trades`: see {@link listTrades}. */
export function tradesHandler({ account, query }: AccountRouteContext): Reply {
  return listTrades(account.trades(), query)
}

/** `GET /api/v1/transfers`: see {@link listTransfers}. */
export function transfersHandler({ account, query }: AccountRouteContext): Reply {
  return listTransfers(account.transfers(), query)
}
