import type { RestClient, RestMethodName } from '../../src/index.js'

/** Calls one `venue.rest` method with valid arguments. */
export type RestCall = (rest: RestClient) => Promise<unknown>

/** One valid call per market data method (no API key needed). */
export const MARKET_CALLS = {
  depth: (rest) => rest.depth({ poolId: 1 }),
  klines: (rest) => rest.klines({ poolId: 1, interval: '1m' }),
  latestTrades: (rest) => rest.latestTrades({ poolId: 1 }),
} satisfies Partial<Record<RestMethodName, RestCall>>

/** One valid call per account method: these send the API key, and need one. */
export const ACCOUNT_CALLS = {
  accountInfo: (rest) => rest.accountInfo(),
  balances: (rest) => rest.balances(),
  historyOrders: (rest) => rest.historyOrders(),
  openOrders: (rest) => rest.openOrders(),
  order: (rest) => rest.order('1-7-0'),
  orderByClientId: (rest) => rest.orderByClientId('cid-7'),
  trades: (rest) => rest.trades(),
  transfers: (rest) => rest.transfers(),
} satisfies Partial<Record<RestMethodName, RestCall>>

/** One valid call per general method (no API key needed). */
export const GENERAL_CALLS = {
  ping: (rest) => rest.ping(),
  systemInfo: (rest) => rest.systemInfo(),
  pools: (rest) => rest.pools(),
  pool: (rest) => rest.pool(1),
  tokens: (rest) => rest.tokens(),
  token: (rest) => rest.token('USDT'),
} satisfies Partial<Record<RestMethodName, RestCall>>

/** One valid call per REST method, in docs/rest.md's order. */
export const REST_CALLS: Readonly<Record<RestMethodName, RestCall>> = {
  ...MARKET_CALLS,
  ...ACCOUNT_CALLS,
  ...GENERAL_CALLS,
}
