/**
 * The route table of the simulator: every endpoint of the venue (docs/venue-interface.md#endpoints).
 *
 * @packageDocumentation
 */
import {
  accountInfoHandler,
  balancesHandler,
  historyOrdersHandler,
  openOrdersHandler,
  orderByClientIdHandler,
  orderHandler,
  tradesHandler,
  transfersHandler,
} from './account-handlers.js'
import {
  pingHandler,
  poolHandler,
  poolsHandler,
  systemInfoHandler,
  tokenHandler,
  tokensHandler,
} from './general-handlers.js'
import { depthHandler, klinesHandler, latestTradesHandler } from './market-handlers.js'
import type { AccountRoute, PublicRoute, Route } from './route.js'

const publicRoute = (path: string, handle: PublicRoute['handle']): PublicRoute => ({
  path,
  auth: false,
  handle,
})

const accountRoute = (path: string, handle: AccountRoute['handle']): AccountRoute => ({
  path,
  auth: true,
  handle,
})

/** Every route the simulator serves; the first whose template fits a path wins. */
export const ROUTES: readonly Route[] = [
  // Market data (V1: order book only; V2: order book plus AMM)
  publicRoute('/api/v1/depth', depthHandler('v1')),
  publicRoute('/api/v1/depth/v2', depthHandler('v2')),
  publicRoute('/api/v1/klines', klinesHandler('v1')),
  publicRoute('/api/v1/klines/v2', klinesHandler('v2')),
  publicRoute('/api/v1/latest-trades', latestTradesHandler('v1')),
  publicRoute('/api/v1/latest-trades/v2', latestTradesHandler('v2')),
  // Account
  accountRoute('/api/v1/info', accountInfoHandler),
  accountRoute('/api/v1/balances', balancesHandler),
  accountRoute('/api/v1/history-orders', historyOrdersHandler),
  accountRoute('/api/v1/open-orders', openOrdersHandler),
  accountRoute('/api/v1/orders/client-id/{cid}', orderByClientIdHandler),
  accountRoute('/api/v1/orders/{id}', orderHandler),
  accountRoute('/api/v1/trades', tradesHandler),
  accountRoute('/api/v1/transfers', transfersHandler),
  // General
  publicRoute('/api/v1/ping', pingHandler),
  publicRoute('/api/v1/system-info', systemInfoHandler),
  publicRoute('/api/v1/pools', poolsHandler),
  publicRoute('/api/v1/pools/{symbolOrId}', poolHandler),
  publicRoute('/api/v1/tokens', tokensHandler),
  publicRoute('/api/v1/token/{symbol}', tokenHandler),
]
