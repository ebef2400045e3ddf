/**
 * The shape of one entry of the simulator's route table.
 *
 * @packageDocumentation
 */
import type { AccountView, Market } from '../market/types.js'
import type { Reply } from './reply.js'

/** What a public (market or general) route handler receives. */
export interface RouteContext {
  readonly market: Market
  readonly query: URLSearchParams
  /** The decoded path parameter (`{...}` of the path template), `''` when there is none. */
  readonly pathParam: string
}

/** What an account route handler receives: the account behind the request's API key. */
export interface AccountRouteContext extends RouteContext {
  readonly account: AccountView
}

/** A route that needs no API key. */
export interface PublicRoute {
  /** Path template; one `{name}` segment at most marks the path parameter. */
  readonly path: string
  readonly auth: false
  readonly handle: (context: RouteContext) => Reply
}

/** A route that needs `Authorization: <key>`. */
export interface AccountRoute {
  /** Path template; one `{name}` segment at most marks the path parameter. */
  readonly path: string
  readonly auth: true
  readonly handle: (context: AccountRouteContext) => Reply
}

/** One entry of the route table. */
export type Route = PublicRoute | AccountRoute
