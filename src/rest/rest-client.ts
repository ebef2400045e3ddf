import type { z } from 'zod'
import type { ApiKey } from '../api-key.js'
import { VenueAuthError } from '../errors/venue-auth-error.js'
import { redactError } from '../errors/venue-error.js'
import { VenueInputError } from '../errors/venue-input-error.js'
import { VenueNotFoundError } from '../errors/venue-not-found-error.js'
import { isPlainObject } from '../plain-object.js'
import type { AccountInfo } from '../schemas/account-info.js'
import type { Balance } from '../schemas/balance.js'
import type { Depth } from '../schemas/depth.js'
import type { Kline } from '../schemas/kline.js'
import type { OpenOrder, Order, OrderWithTrades } from '../schemas/order.js'
import type { Ping } from '../schemas/ping.js'
import type { PoolDetail } from '../schemas/pool-detail.js'
import type { PoolSummary } from '../schemas/pool-summary.js'
import type { PublicTrade } from '../schemas/public-trade.js'
import type { SystemInfo } from '../schemas/system-info.js'
import type { Token } from '../schemas/token.js'
import type { TradeDetail } from '../schemas/trade-detail.js'
import type { Transfer } from '../schemas/transfer.js'
import type { Transport } from '../transport/transport.js'
import type {
  CallOptions,
  DepthArgs,
  KlinesArgs,
  LatestTradesArgs,
  MarketDataSource,
  OrderRef,
  OrdersArgs,
  PoolsArgs,
  SourceArg,
  TradesArgs,
  TransfersArgs,
} from './args.js'
import { source as checkSource } from './checks.js'
import { ENDPOINTS, type Endpoint } from './endpoints.js'
import { interpretResponse, type VenueResult } from './interpret-response.js'
import type { ParamNames } from './param-names.js'
import * as q from './requests.js'

/**
 * One promise method per endpoint, each resolving to the validated `data`.
 * Arguments are checked before any request (`VenueInputError`); see docs/errors.md
 * for every error a call can reject with.
 *
 * @example
 * ```ts
 * import type { RestClient } from 'venue-rx'
 *
 * const rest: RestClient = venue.rest
 * const [pool, book] = await Promise.all([
 *   rest.pool('chain.token-CHN-usdt.ext-USDT'),
 *   rest.depth({ poolId: 0, limit: 5 }),
 * ])
 * console.log(pool.pool_id, pool.taker_fee_rate, book.asks[0]) // 0 0.003 ['1.0477', '355.1400']
 * ```
 */
export interface RestClient {
  /** Order book depth of a pool (V2 merges AMM liquidity). */
  depth(args: DepthArgs, options?: CallOptions): Promise<Depth>
  /** Candles of a pool. */
  klines(args: KlinesArgs, options?: CallOptions): Promise<Kline[]>
  /** The latest public trades, newest first. */
  latestTrades(args?: LatestTradesArgs, options?: CallOptions): Promise<PublicTrade[]>
  /** The account behind the API key. */
  accountInfo(options?: CallOptions): Promise<AccountInfo>
  /** The account's balances, with amounts locked by open orders. */
  balances(options?: CallOptions): Promise<Balance[]>
  /** Final orders of the account, newest first. */
  historyOrders(args?: OrdersArgs, options?: CallOptions): Promise<Order[]>
  /** Working orders of the account, newest first. */
  openOrders(args?: OrdersArgs, options?: CallOptions): Promise<OpenOrder[]>
  /** One order with its trades, by `"{poolId}-{orderId}-{side}"` or its parts. */
  order(id: OrderRef, options?: CallOptions): Promise<OrderWithTrades>
  /** One order by its client order id. */
  orderByClientId(clientId: string, options?: CallOptions): Promise<Order>
  /** The account's own trades. */
  trades(args?: TradesArgs, options?: CallOptions): Promise<TradeDetail[]>
  /** The account's deposits and withdrawals. */
  transfers(args?: TransfersArgs, options?: CallOptions): Promise<Transfer[]>
  /** Server time. */
  ping(options?: CallOptions): Promise<Ping>
  /** Contracts and version of the venue. */
  systemInfo(options?: CallOptions): Promise<SystemInfo>
  /** Summaries of the trading pools. */
  pools(args?: PoolsArgs, options?: CallOptions): Promise<PoolSummary[]>
  /** One pool by id or symbol. Rejects with `VenueNotFoundError` for an all-zero record. */
  pool(idOrSymbol: number | string, options?: CallOptions): Promise<PoolDetail>
  /** Every listed token. */
  tokens(options?: CallOptions): Promise<Token[]>
  /** One token by symbol. */
  token(symbol: string, options?: CallOptions): Promise<Token>
}

/**
 * Sends one endpoint's request and validates the answer: what every method of the
 * {@link RestClient} calls (the streams build on the `RestClient`, not on this).
 */
export type RequestEndpoint = <S extends z.ZodType>(
  endpoint: Endpoint<S>,
  path: string,
  query: q.Query,
  options: CallOptions | undefined,
  /** What error messages name instead of the method (`order 1-42-0`). */
  subject?: string,
) => Promise<VenueResult<z.output<S>>>

/** The venue settings a REST client uses (and nothing else of the venue's options). */
export interface RestClientSettings {
  /** Sent to account endpoints only; removed from the text of every error. */
  readonly apiKey: ApiKey | undefined
  readonly requestTimeoutMs: number
  /** Market-data set when a call names no `source`. */
  readonly marketData: MarketDataSource
  readonly paramNames: ParamNames
  /**
   * The venue's `baseUrl` as resolved, for the hint of a 404 only (the transport sends the
   * requests): one that ends in `/api/v1` is named as the cause. Without it, the hint
   * says what a `baseUrl` should be.
   */
  readonly baseUrl?: string | undefined
}

/** What {@link createRestClient} needs. */
export interface RestClientDeps {
  readonly transport: Transport
  readonly options: RestClientSettings
  /** Current time in ms. Default `Date.now`. */
  readonly now?: () => number
}

/**
 * How many requests keep their last output for `fast` (see `Endpoint.remember`): past
 * that, the one answered longest ago is dropped.
 */
const REMEMBERED = 8

/**
 * Builds the low-level request function: auth header, timeout, typed errors, the hint of
 * a 404, validation (through the endpoint's fast path when it has one, given the last
 * output of the same request when the endpoint `remember`s).
 */
export function createRequester(deps: RestClientDeps): RequestEndpoint {
  const { transport, options } = deps
  const now = deps.now ?? Date.now
  const key = options.apiKey
  const redact = key === undefined ? (text: string) => text : (text: string) => key.redact(text)
  // The last output per request of the endpoints that `remember` (a few, newest last).
  const remembered = new Map<string, unknown>()
  const notFoundHint = notFoundHints(options, redact)

  return async (endpoint, path, query, callOptions, subject) => {
    const method = endpoint.method
    const signal = callSignal(method, callOptions)
    const headers: Record<string, string> = { accept: 'application/json' }
    if (endpoint.auth) {
      if (key === undefined) {
        throw new VenueAuthError(
          'missing-key',
          `${method}: this account endpoint needs the apiKey option`,
          {
            endpoint: method,
          },
        )
      }
      headers['authorization'] = key.reveal()
    }
    const target = path + q.encodeQuery(query)
    const response = await transport.request({
      path: target,
      headers,
      signal,
      timeoutMs: options.requestTimeoutMs,
      endpoint: method,
    })
    const context = {
      endpoint: method,
      subject,
      redact,
      now,
      notFoundHint: response.status === 404 ? notFoundHint(endpoint, path, query) : undefined,
    }
    const { fast } = endpoint
    if (fast === undefined) return interpretResponse(response, endpoint.schema, context)
    if (!endpoint.remember) {
      return interpretResponse(response, endpoint.schema, context, (data, tally) =>
        fast(data, undefined, tally),
      )
    }
    const known = remembered.get(target)
    const answer = interpretResponse(response, endpoint.schema, context, (data, tally) =>
      fast(data, known as never, tally),
    )
    remembered.delete(target)
    remembered.set(target, answer.data)
    if (remembered.size > REMEMBERED) remembered.delete(remembered.keys().next().value as string)
    return answer
  }
}

/** A `baseUrl` path that ends in the prefix venue-rx adds to every endpoint itself. */
const API_PREFIX_AT_END = /\/api\/v1\/*$/i

/**
 * The hint of an HTTP 404, per request. A `baseUrl` that ends in `/api/v1` sends every
 * request to `/api/v1/api/v1/...`, so it is named as the cause of any 404. Otherwise, a
 * request with an id in its path (an order, a pool, a token) may name something the venue
 * does not have: no hint, the id is the likely cause. Any other request (ping, the pool
 * list, balances...) cannot be "not found" unless the path is wrong, so the hint says
 * what `baseUrl` should be; for a request naming a pool in its query (depth, klines, the
 * latest trades, the account's trades, its open or history orders), the pool may be the
 * cause too.
 */
function notFoundHints(
  options: RestClientSettings,
  redact: (text: string) => string,
): (endpoint: Endpoint, path: string, query: q.Query) => string | undefined {
  const poolParam: Readonly<Record<string, string>> = {
    depth: 'pool_id',
    klines: 'pool_id',
    latestTrades: 'pool_id',
    trades: options.paramNames.trades.poolId,
    historyOrders: options.paramNames.orders.poolId,
    openOrders: options.paramNames.orders.poolId,
  }
  // Parsed once; `createVenue` has checked it (a client built without it says less).
  let prefix: string | undefined
  if (options.baseUrl !== undefined && URL.canParse(options.baseUrl)) {
    const { pathname } = new URL(options.baseUrl)
    if (API_PREFIX_AT_END.test(pathname)) prefix = pathname.replace(/\/+$/, '')
  }
  return (endpoint, path, query) => {
    if (prefix !== undefined) {
      // The path only, never the host. It holds the caller's text (baseUrl, an id): that
      // part is redacted, the library's own words are not.
      const went = redact(`${prefix}${path}`)
      return `check baseUrl: it ends in /api/v1, which venue-rx adds to every path itself (this request went to ${went}); give the venue's root`
    }
    if (endpoint.path.includes('{id}')) return undefined
    const pool = poolParam[endpoint.method]
    const namesPool = query.some(([name, value]) => name === pool && value !== undefined)
    return namesPool
      ? "check the pool, or baseUrl (the venue's root, without /api/v1)"
      : "check baseUrl (the venue's root, without /api/v1)"
  }
}

/**
 * Checks the call options of a method (`signal`, `onMeta`, nothing else) and returns the
 * signal; a wrong one throws `VenueInputError` naming it.
 */
function callSignal(method: string, callOptions: unknown): AbortSignal | undefined {
  if (callOptions === undefined) return undefined
  if (!isPlainObject(callOptions)) {
    throw new VenueInputError('options', `${method}: the last argument must be { signal }`)
  }
  for (const name of Object.keys(callOptions)) {
    if (name !== 'signal' && name !== 'onMeta') {
      throw VenueInputError.quoting({
        argument: name,
        render: (shown) =>
          `${method}: unknown call option ${JSON.stringify(shown)} (allowed: signal, onMeta)`,
      })
    }
  }
  const onMeta = (callOptions as { onMeta?: unknown }).onMeta
  if (onMeta !== undefined && typeof onMeta !== 'function') {
    throw new VenueInputError('onMeta', `${method}: onMeta must be a function`)
  }
  const signal = (callOptions as { signal?: unknown }).signal
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new VenueInputError('signal', `${method}: signal must be an AbortSignal`)
  }
  return signal
}

/** Creates a REST client: `venue.rest`, and the client of each lane of the streams. */
export function createRestClient(deps: RestClientDeps): RestClient {
  const request = createRequester(deps)
  const { paramNames, marketData } = deps.options
  const now = deps.now ?? Date.now
  const key = deps.options.apiKey
  const redact = (text: string) => (key === undefined ? text : key.redact(text))
  const E = ENDPOINTS

  const data = async <S extends z.ZodType>(
    endpoint: Endpoint<S>,
    path: string,
    query: q.Query,
    options: CallOptions | undefined,
    subject?: string,
  ): Promise<z.output<S>> => {
    const answer = await request(endpoint, path, query, options, subject)
    options?.onMeta?.(answer.meta)
    return answer.data
  }

  const marketPath = (endpoint: Endpoint, args: SourceArg | undefined): string => {
    const source = checkSource(endpoint.method, args?.source, marketData)
    return source === 'v2' && endpoint.v2Path !== undefined ? endpoint.v2Path : endpoint.path
  }
  const withId = (endpoint: Endpoint, segment: string) => endpoint.path.replace('{id}', segment)

  const client: RestClient = {
    depth: async (args, o) => {
      const query = q.depthQuery(args)
      return data(E.depth, marketPath(E.depth, args), query, o)
    },
    klines: async (args, o) => {
      const query = q.klinesQuery(args, now())
      return data(E.klines, marketPath(E.klines, args), query, o)
    },
    latestTrades: async (args, o) => {
      const query = q.latestTradesQuery(args)
      return data(E.latestTrades, marketPath(E.latestTrades, args), query, o)
    },
    accountInfo: async (o) => data(E.accountInfo, E.accountInfo.path, [], o),
    balances: async (o) => data(E.balances, E.balances.path, [], o),
    historyOrders: async (args, o) =>
      data(
        E.historyOrders,
        E.historyOrders.path,
        q.ordersQuery('historyOrders', args, paramNames.orders),
        o,
      ),
    openOrders: async (args, o) =>
      data(
        E.openOrders,
        E.openOrders.path,
        q.ordersQuery('openOrders', args, paramNames.orders),
        o,
      ),
    order: async (id, o) => {
      const segment = q.orderSegment(id)
      // Errors name the order: one bot follows many.
      return data(E.order, withId(E.order, segment), [], o, `order ${segment}`)
    },
    orderByClientId: async (cid, o) =>
      data(E.orderByClientId, withId(E.orderByClientId, q.clientIdSegment(cid)), [], o),
    trades: async (args, o) =>
      data(E.trades, E.trades.path, q.tradesQuery(args, paramNames.trades), o),
    transfers: async (args, o) =>
      data(E.transfers, E.transfers.path, q.transfersQuery(args, paramNames.transfers), o),
    ping: async (o) => data(E.ping, E.ping.path, [], o),
    systemInfo: async (o) => data(E.systemInfo, E.systemInfo.path, [], o),
    pools: async (args, o) => data(E.pools, E.pools.path, q.poolsQuery(args), o),
    pool: async (idOrSymbol, o) => {
      const pool = await data(E.pool, withId(E.pool, q.poolSegment(idOrSymbol)), [], o)
      if (pool === null) {
        throw new VenueNotFoundError(
          `pool: no pool ${JSON.stringify(typeof idOrSymbol === 'string' ? redact(idOrSymbol) : idOrSymbol)} (the venue sent an all-zero record)`,
          {
            status: 200,
            endpoint: 'pool',
          },
        )
      }
      return pool
    },
    tokens: async (o) => data(E.tokens, E.tokens.path, [], o),
    token: async (symbol, o) => data(E.token, withId(E.token, q.tokenSegment(symbol)), [], o),
  }
  return redactErrors(client, deps.options.apiKey)
}

/**
 * Errors can quote arguments (an input error shows the bad value), a caller may pass the
 * key text by mistake, and a transport error may hold the bytes the venue sent: every
 * rejection of every method leaves here with the key removed, its `cause` chain included.
 */
function redactErrors(client: RestClient, key: ApiKey | undefined): RestClient {
  if (key === undefined) return client
  const scrub = (error: unknown): never => {
    throw redactError(error, key)
  }
  const wrapped: Record<string, unknown> = {}
  for (const [name, method] of Object.entries(client) as [
    string,
    (...args: unknown[]) => Promise<unknown>,
  ][]) {
    wrapped[name] = (...args: unknown[]) => method(...args).catch(scrub)
  }
  return wrapped as unknown as RestClient
}
