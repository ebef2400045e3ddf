import { z } from 'zod'
import { accountInfoSchema } from '../schemas/account-info.js'
import { balanceSchema } from '../schemas/balance.js'
import { depthSchema } from '../schemas/depth.js'
import { fastBalances, fastDepth, fastTrades } from '../schemas/fast-paths.js'
import type { JsonTally } from '../schemas/json-tally.js'
import { klineSchema } from '../schemas/kline.js'
import { openOrderSchema, orderSchema, orderWithTradesSchema } from '../schemas/order.js'
import { pingSchema } from '../schemas/ping.js'
import { type PoolDetail, poolDetailSchema } from '../schemas/pool-detail.js'
import { poolSummarySchema } from '../schemas/pool-summary.js'
import { publicTradeSchema } from '../schemas/public-trade.js'
import { systemInfoSchema } from '../schemas/system-info.js'
import { tokenSchema } from '../schemas/token.js'
import { tradeDetailSchema } from '../schemas/trade-detail.js'
import { transferSchema } from '../schemas/transfer.js'

/** Which part of the interface an endpoint belongs to (docs/venue-interface.md#endpoints). */
export type EndpointGroup = 'market' | 'account' | 'general'

/**
 * The live service answers an unknown pool id with HTTP 200 and an all-zero record
 * (empty strings, zero numbers). Such a record becomes `null`, which `rest.pool` turns
 * into `VenueNotFoundError`, instead of failing the decimal checks of the real schema.
 */
const poolOrMissingSchema = z.unknown().transform((value, ctx): PoolDetail | null => {
  if (
    typeof value === 'object' &&
    value !== null &&
    (value as { symbol?: unknown }).symbol === ''
  ) {
    return null
  }
  const parsed = poolDetailSchema.safeParse(value)
  if (parsed.success) return parsed.data
  // Keep each issue's own path (e.g. `['min_amount']`), as the other endpoints do.
  for (const issue of parsed.error.issues) {
    ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path })
  }
  return z.NEVER
})

/** A fast path of an endpoint's schema (see src/schemas/fast-paths.ts). */
export type FastPath<T> = (data: unknown, known: T | undefined, tally: JsonTally) => T | undefined

/** One row of the endpoint table. */
export interface Endpoint<S extends z.ZodType = z.ZodType> {
  /** The `venue.rest` method that calls it. */
  readonly method: string
  readonly group: EndpointGroup
  /** Path template; `{id}` marks the one path parameter. */
  readonly path: string
  /** The V2 (order book plus AMM) path, for the three market-data endpoints. */
  readonly v2Path?: string
  /** Whether the `Authorization` header is sent. True exactly for the account group. */
  readonly auth: boolean
  /** Schema of the envelope's `data`. */
  readonly schema: S
  /**
   * The schema's output for the common plain form of an answer, found faster, or
   * `undefined` to let the schema decide (and report what is wrong). `known` is the
   * output of the last answer to the same request, for endpoints that `remember` it;
   * `tally` counts the characters the data can have been written with.
   */
  readonly fast?: FastPath<z.output<S>>
  /** Keep the last output per request for `fast` (endpoints polled for a changing whole). */
  readonly remember?: boolean
}

function endpoint<S extends z.ZodType>(
  method: string,
  group: EndpointGroup,
  path: string,
  schema: S,
  v2Path?: string,
  fast?: FastPath<z.output<S>>,
  remember = false,
): Endpoint<S> {
  return {
    method,
    group,
    path,
    auth: group === 'account',
    schema,
    ...(v2Path ? { v2Path } : {}),
    ...(fast ? { fast } : {}),
    ...(remember ? { remember } : {}),
  }
}

/**
 * Every endpoint of the venue (docs/venue-interface.md#endpoints), keyed by the `venue.rest` method name.
 * The REST client and the streams read paths, auth and schemas from here only.
 */
export const ENDPOINTS = {
  depth: endpoint(
    'depth',
    'market',
    '/api/v1/depth',
    depthSchema,
    '/api/v1/depth/v2',
    fastDepth,
    true,
  ),
  klines: endpoint('klines', 'market', '/api/v1/klines', z.array(klineSchema), '/api/v1/klines/v2'),
  latestTrades: endpoint(
    'latestTrades',
    'market',
    '/api/v1/latest-trades',
    z.array(publicTradeSchema),
    '/api/v1/latest-trades/v2',
  ),
  accountInfo: endpoint('accountInfo', 'account', '/api/v1/info', accountInfoSchema),
  balances: endpoint(
    'balances',
    'account',
    '/api/v1/balances',
    z.array(balanceSchema),
    undefined,
    (data, _known, tally) => fastBalances(data, tally),
  ),
  historyOrders: endpoint(
    'historyOrders',
    'account',
    '/api/v1/history-orders',
    z.array(orderSchema),
  ),
  openOrders: endpoint('openOrders', 'account', '/api/v1/open-orders', z.array(openOrderSchema)),
  order: endpoint('order', 'account', '/api/v1/orders/{id}', orderWithTradesSchema),
  orderByClientId: endpoint(
    'orderByClientId',
    'account',
    '/api/v1/orders/client-id/{id}',
    orderSchema,
  ),
  trades: endpoint(
    'trades',
    'account',
    '/api/v1/trades',
    z.array(tradeDetailSchema),
    undefined,
    (data, _known, tally) => fastTrades(data, tally),
  ),
  transfers: endpoint('transfers', 'account', '/api/v1/transfers', z.array(transferSchema)),
  ping: endpoint('ping', 'general', '/api/v1/ping', pingSchema),
  systemInfo: endpoint('systemInfo', 'general', '/api/v1/system-info', systemInfoSchema),
  pools: endpoint('pools', 'general', '/api/v1/pools', z.array(poolSummarySchema)),
  pool: endpoint('pool', 'general', '/api/v1/pools/{id}', poolOrMissingSchema),
  tokens: endpoint('tokens', 'general', '/api/v1/tokens', z.array(tokenSchema)),
  token: endpoint('token', 'general', '/api/v1/token/{id}', tokenSchema),
} as const

/**
 * Names of the `venue.rest` methods.
 *
 * @example
 * ```ts
 * import type { RestMethodName } from 'venue-rx'
 *
 * const method: RestMethodName = 'latestTrades' // 'depth' | 'klines' | ... | 'token'
 * const trades = await venue.rest[method]({ poolId: 0 })
 * ```
 */
export type RestMethodName = keyof typeof ENDPOINTS
