/**
 * Handlers of the general endpoints (docs/venue-interface.md#endpoints).
 *
 * @packageDocumentation
 */
import { notFound } from './error-replies.js'
import { integerOr, optionalInteger, optionalString } from './query.js'
import { ok, type Reply } from './reply.js'
import { ReplyError } from './reply-error.js'
import type { RouteContext } from './route.js'
import { zeroPoolDetail } from './zero-pool-detail.js'

/**
 * What `/api/v1/system-info` answers. The market contract has no system info, so the
 * simulator serves these fixed values.
 */
export const SIMULATOR_SYSTEM_INFO = {
  app_contract: 'venue.sim',
  pay_chain_account: 'pay.sim',
  token_contract: 'token.sim',
  version: 'simulator-1',
} as const

/** `GET /api/v1/ping`: `{ timestamp }`, the market's time in Unix seconds. */
export function pingHandler({ market }: RouteContext): Reply {
  return ok({ timestamp: Math.floor(market.now() / 1000) })
}

/** `GET /api/v1/system-info`: {@link SIMULATOR_SYSTEM_INFO}. */
export function systemInfoHandler(): Reply {
  return ok({ ...SIMULATOR_SYSTEM_INFO })
}

/** A coin filter matches the full coin (`usdt.ext-USDT`) or its symbol (`USDT`), any case. */
function coinMatches(coin: string, filter: string | undefined): boolean {
  if (filter === undefined) return true
  const wanted = filter.toLowerCase()
  const full = coin.toLowerCase()
  return full === wanted || full.slice(full.lastIndexOf('-') + 1) === wanted
}

/**
 * `GET /api/v1/pools`: optional `base_coin`, `quote_coin` filters and `limit` / `offset`
 * paging; `meta.total` counts the filtered pools before paging.
 */
export function poolsHandler({ market, query }: RouteContext): Reply {
  const base = optionalString(query, 'base_coin')
  const quote = optionalString(query, 'quote_coin')
  const limit = optionalInteger(query, 'limit', { min: 1 })
  const offset = integerOr(query, 'offset', 0, { min: 0 })
  const pools = market
    .poolSummaries()
    .filter((pool) => coinMatches(pool.base_coin, base))
    .filter((pool) => coinMatches(pool.quote_coin, quote))
  const page = pools.slice(offset, limit === undefined ? undefined : offset + limit)
  return ok(page, { total: pools.length })
}

/** `GET /api/v1/pools/{symbolOrId}`: the pool, or the all-zero record for an unknown one. */
export function poolHandler({ market, pathParam }: RouteContext): Reply {
  return ok(market.poolDetail(pathParam) ?? zeroPoolDetail())
}

/** `GET /api/v1/tokens`: every token. */
export function tokensHandler({ market }: RouteContext): Reply {
  const tokens = market.tokens()
  return ok(tokens, { total: tokens.length })
}

/** `GET /api/v1/token/{symbol}`: the token, or 404 `not found`. */
export function tokenHandler({ market, pathParam }: RouteContext): Reply {
  const token = market.token(pathParam)
  if (token === undefined) throw new ReplyError(notFound())
  return ok(token)
}
