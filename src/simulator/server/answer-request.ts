import type { Market } from '../market/types.js'
import {
  invalidApiKey,
  methodNotAllowed,
  missingApiKey,
  notFound,
  serviceInternalError,
} from './error-replies.js'
import { createRouteMatcher } from './match-route.js'
import type { Reply } from './reply.js'
import { ReplyError } from './reply-error.js'
import type { Route } from './route.js'
import { ROUTES } from './routes.js'

/** The parts of an HTTP request the routes look at. */
export interface SimulatorRequest {
  readonly method: string
  readonly url: URL
  /** The `Authorization` header, if any. */
  readonly authorization: string | undefined
}

const BEARER_PREFIX = /^bearer\s+/i

/** The API key of an `Authorization` header: trimmed, a leading `Bearer ` stripped. */
export function apiKeyOf(authorization: string | undefined): string {
  return (authorization ?? '').trim().replace(BEARER_PREFIX, '').trim()
}

/**
 * Builds the function that answers one request from the market, without faults: 405 for
 * anything but GET, 404 for an unknown path, the live service's API key checks on account
 * routes, then the route's handler. A handler that throws something other than a
 * {@link ReplyError} answers 500 `service internal error` with the error text in
 * `meta.sim_error`, so market bugs are visible without crashing the server.
 *
 * @example
 * ```ts
 * const answer = createRequestAnswerer(market)
 * answer({ method: 'GET', url: new URL('http://sim/api/v1/ping'), authorization: undefined })
 * // { status: 200, body: { code: 0, message: '', data: { timestamp: ... }, meta: {} } }
 * ```
 */
export function createRequestAnswerer(
  market: Market,
  routes: readonly Route[] = ROUTES,
): (request: SimulatorRequest) => Reply {
  const match = createRouteMatcher(routes)
  return ({ method, url, authorization }) => {
    if (method !== 'GET') return methodNotAllowed()
    const found = match(url.pathname)
    if (found === undefined) return notFound()
    const context = { market, query: url.searchParams, pathParam: found.pathParam }
    try {
      if (!found.route.auth) return found.route.handle(context)
      const apiKey = apiKeyOf(authorization)
      if (apiKey === '') return missingApiKey()
      const account = market.account(apiKey)
      if (account === undefined) return invalidApiKey()
      return found.route.handle({ ...context, account })
    } catch (error) {
      if (error instanceof ReplyError) return error.reply
      const reply = serviceInternalError()
      return { ...reply, body: { ...reply.body, meta: { sim_error: String(error) } } }
    }
  }
}
