/**
 * The venue side of the fuzz suites: valid answers for every endpoint (cursor-aware for
 * the account feeds, so a feed started anywhere gets a next item at once), and the
 * checks every request the client sends must pass (path, query, authorization).
 */
import type { RestMethodName } from '../../src/index.js'
import * as fixtures from '../helpers/fixtures.js'
import type { RecordedRequest } from '../helpers/recording-server.js'

/** The request's path without its query, as sent. */
export function rawPathname(request: RecordedRequest): string {
  const at = request.rawPath.indexOf('?')
  return at < 0 ? request.rawPath : request.rawPath.slice(0, at)
}

/** The path, percent-decoding undone where possible. */
export function decodedPathname(request: RecordedRequest): string {
  const path = rawPathname(request)
  try {
    return decodeURIComponent(path)
  } catch {
    return path
  }
}

/** `n + 1` of a digit string, or `fallback` when `digits` is no digit string. */
function next(digits: string | undefined, fallback: string): string {
  return digits !== undefined && /^\d+$/.test(digits) ? String(BigInt(digits) + 1n) : fallback
}

/**
 * The per-run path prefix of a request (`/r17` of `/r17/api/v1/ping`), or `''`. A venue
 * created with `baseUrl: server.url + '/r17'` sends only such requests, so the requests
 * of one run can be told from those a previous run's streams may still send.
 */
export function runPrefix(request: RecordedRequest): string {
  return /^\/r\d+(?=\/)/.exec(request.rawPath)?.[0] ?? ''
}

/** The id of the newest trade and transfer of the fake venue. */
const NEWEST = '18446744073709551614'

/**
 * Valid data for a request (fixtures of every endpoint), run prefix ignored. `/trades`
 * and `/transfers` answer one item just past the requested cursor, so every feed has a
 * next item.
 */
export function validData(request: RecordedRequest): unknown {
  const path = rawPathname(request).slice(runPrefix(request).length)
  // The newest item (asked descending without a cursor, as a feed's tail finds where it
  // starts) has a large id, past any cursor a run is likely to give: the pages a feed asks
  // after its cursor are then items its tail covers too, as on a real venue.
  const newest = request.query['sort'] === 'desc'
  if (path === '/api/v1/trades') {
    const seq =
      newest && request.query['global_seq'] === undefined
        ? NEWEST
        : next(request.query['global_seq'], '1001')
    return [{ ...fixtures.tradeDetail, global_seq: seq }]
  }
  if (path === '/api/v1/transfers') {
    const sid =
      newest && request.query['id'] === undefined ? NEWEST : next(request.query['id'], '17')
    return [{ ...fixtures.transfer, sid }]
  }
  return fixtures.dataFor(path)
}

/** Endpoints by REST method, as docs/rest.md's table gives them. */
const PATHS: Readonly<
  Record<RestMethodName, { readonly paths: readonly string[]; readonly auth: boolean }>
> = {
  depth: { paths: ['/api/v1/depth', '/api/v1/depth/v2'], auth: false },
  klines: { paths: ['/api/v1/klines', '/api/v1/klines/v2'], auth: false },
  latestTrades: { paths: ['/api/v1/latest-trades', '/api/v1/latest-trades/v2'], auth: false },
  accountInfo: { paths: ['/api/v1/info'], auth: true },
  balances: { paths: ['/api/v1/balances'], auth: true },
  historyOrders: { paths: ['/api/v1/history-orders'], auth: true },
  openOrders: { paths: ['/api/v1/open-orders'], auth: true },
  order: { paths: ['/api/v1/orders/{id}'], auth: true },
  orderByClientId: { paths: ['/api/v1/orders/client-id/{id}'], auth: true },
  trades: { paths: ['/api/v1/trades'], auth: true },
  transfers: { paths: ['/api/v1/transfers'], auth: true },
  ping: { paths: ['/api/v1/ping'], auth: false },
  systemInfo: { paths: ['/api/v1/system-info'], auth: false },
  pools: { paths: ['/api/v1/pools'], auth: false },
  pool: { paths: ['/api/v1/pools/{id}'], auth: false },
  tokens: { paths: ['/api/v1/tokens'], auth: false },
  token: { paths: ['/api/v1/token/{id}'], auth: false },
}

/** Whether the method's endpoint is an account endpoint (the only ones that get the key). */
export function isAccountMethod(method: RestMethodName): boolean {
  return PATHS[method].auth
}

const DIGITS = /^(0|[1-9]\d*)$/
const SMALL = (max: number) => (v: string) => DIGITS.test(v) && Number(v) >= 1 && Number(v) <= max
const digits = (v: string) => DIGITS.test(v)
const oneOf =
  (...allowed: string[]) =>
  (v: string) =>
    allowed.includes(v)
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const text = (v: string) => v !== '' && !/[\u0000-\u001f\u007f]/.test(v)
const decimal = (v: string) => /^\d+(\.\d+)?$/.test(v)
const seconds = (v: string) => DIGITS.test(v) && Number(v) < 1e11

type QueryRules = Readonly<Record<string, (value: string) => boolean>>

const ORDER_QUERY: QueryRules = {
  pool_id: digits,
  side: oneOf('0', '1'),
  type: oneOf('0', '1'),
  status: oneOf('0', '1', '2', '3', '4'),
  limit: SMALL(100),
  offset: digits,
}

/** The query names each method may send (default wire names) and what their values look like. */
const QUERIES: Readonly<Record<RestMethodName, QueryRules>> = {
  depth: { pool_id: digits, limit: SMALL(5000), precision: decimal },
  klines: {
    pool_id: digits,
    interval: oneOf('1m', '5m', '15m', '30m', '1h', '4h', '1d', '1w', '1M'),
    start: seconds,
    end: seconds,
  },
  latestTrades: { pool_id: digits, limit: SMALL(100) },
  accountInfo: {},
  balances: {},
  historyOrders: ORDER_QUERY,
  openOrders: ORDER_QUERY,
  order: {},
  orderByClientId: {},
  trades: {
    pool_id: digits,
    global_seq: digits,
    after: seconds,
    before: seconds,
    sort: oneOf('asc', 'desc'),
    limit: SMALL(100),
  },
  transfers: {
    id: digits,
    start: seconds,
    end: seconds,
    sort: oneOf('asc', 'desc'),
    limit: SMALL(1000),
  },
  ping: {},
  systemInfo: {},
  pools: { base_coin: text, quote_coin: text, limit: SMALL(1000), offset: digits },
  pool: {},
  tokens: {},
  token: {},
}

/** A path segment as `encodeURIComponent` writes it: unreserved characters and `%XX`. */
const ENCODED_SEGMENT = /^(?:[A-Za-z0-9\-._~!'()*]|%[0-9A-F]{2})+$/

function decodes(text: string): string | undefined {
  try {
    return decodeURIComponent(text)
  } catch {
    return undefined
  }
}

/**
 * What is wrong with a request `method` sent (an empty list when nothing): a GET under
 * `/api/v1/` on the method's endpoint, no `.` or `..` segment (raw or decoded), one
 * well-encoded path parameter, a query of the method's names with well-formed values and
 * no repeats, and an authorization header exactly on account endpoints (equal to `key`).
 */
export function requestProblems(
  method: RestMethodName,
  request: RecordedRequest,
  key: string | undefined,
  prefix = '',
): string[] {
  const problems: string[] = []
  const raw = request.rawPath
  if (request.method !== 'GET') problems.push(`method ${request.method}`)
  if (!raw.startsWith(prefix)) return [...problems, `path ${raw} is not under ${prefix}`]
  const [path = '', query, ...more] = raw.slice(prefix.length).split('?')
  if (more.length > 0) problems.push('more than one "?"')
  if (raw.includes('#')) problems.push('a "#" in the request target')
  if (!path.startsWith('/api/v1/')) problems.push(`path ${path} is not under /api/v1/`)
  const segments = path.split('/').slice(1)
  for (const segment of segments) {
    const decoded = decodes(segment)
    if (segment === '.' || segment === '..' || decoded === '.' || decoded === '..') {
      problems.push(`a dot segment in ${path}`)
    }
    if (segment === '' && path !== '/') problems.push(`an empty segment in ${path}`)
  }
  const { paths, auth } = PATHS[method]
  const matches = paths.some((template) => {
    if (!template.endsWith('{id}')) return path === template
    const head = template.slice(0, -'{id}'.length)
    if (!path.startsWith(head)) return false
    const segment = path.slice(head.length)
    return segment !== '' && ENCODED_SEGMENT.test(segment) && decodes(segment) !== undefined
  })
  if (!matches) problems.push(`path ${path} is not ${paths.join(' or ')}`)
  if (method === 'order' && matches && !/^\/api\/v1\/orders\/\d+-\d+-[01]$/.test(path)) {
    problems.push(`order path ${path} is not {poolId}-{orderId}-{side}`)
  }

  const rules = QUERIES[method]
  const seen = new Set<string>()
  if (query !== undefined) {
    if (query === '') problems.push('an empty query after "?"')
    for (const pair of query === '' ? [] : query.split('&')) {
      const at = pair.indexOf('=')
      const name = decodes((at < 0 ? pair : pair.slice(0, at)).replace(/\+/g, ' '))
      const value = at < 0 ? undefined : decodes(pair.slice(at + 1).replace(/\+/g, ' '))
      if (name === undefined || value === undefined) {
        problems.push(`query pair ${pair} is not name=value, percent-encoded`)
        continue
      }
      if (seen.has(name)) problems.push(`query name ${name} repeated`)
      seen.add(name)
      const rule = Object.hasOwn(rules, name) ? rules[name] : undefined
      if (rule === undefined) problems.push(`query name ${name} is not one of ${method}'s`)
      else if (!rule(value)) problems.push(`query ${name}=${JSON.stringify(value)} is malformed`)
    }
  }

  const authorization = request.headers.authorization
  if (auth && authorization !== key) problems.push('account request without the key')
  if (!auth && authorization !== undefined) problems.push('authorization header on a public call')
  return problems
}
