import { canonicalId, withinMaxId } from '../decimal.js'
import { VenueInputError } from '../errors/venue-input-error.js'
import { KLINE_INTERVALS, type KlineInterval } from '../schemas/kline.js'
import type { OrderRef } from './args.js'
import {
  argsObject,
  decimalIn,
  fail,
  integerIn,
  knownKeys,
  oneOf,
  pathSegment,
  poolId,
  seconds,
  text,
} from './checks.js'
import type { ParamNames } from './param-names.js'

/**
 * Per-method argument checks and wire encoding: camelCase arguments in, snake_case
 * query pairs out. Everything here runs before any request is sent.
 */

/** Query parameters in send order; `undefined` values are left out. */
export type Query = ReadonlyArray<readonly [name: string, value: string | number | undefined]>

const SORTS = ['asc', 'desc'] as const
const SIDES = [0, 1] as const
const STATUSES = [0, 1, 2, 3, 4] as const
const MAX = Number.MAX_SAFE_INTEGER

/** Length of one kline interval in seconds (a month counts 31 days). */
export const INTERVAL_SECONDS: Readonly<Record<KlineInterval, number>> = {
  '1m': 60,
  '5m': 300,
  '15m': 900,
  '30m': 1800,
  '1h': 3600,
  '4h': 14_400,
  '1d': 86_400,
  '1w': 604_800,
  '1M': 2_678_400,
}

function opt<T>(value: unknown, check: (v: unknown) => T): T | undefined {
  return value === undefined ? undefined : check(value)
}

/** `rest.depth` query; `m` names the caller in errors. */
export function depthQuery(input: unknown, m = 'depth'): Query {
  const a = argsObject(m, input)
  knownKeys(m, a, ['poolId', 'limit', 'precision', 'source'])
  return [
    ['pool_id', poolId(m, a['poolId'])],
    ['precision', opt(a['precision'], (v) => decimalIn(m, 'precision', v, '0.00000001', '10000'))],
    ['limit', opt(a['limit'], (v) => integerIn(m, 'limit', v, 1, 5000))],
  ]
}

/** `rest.klines` query; `start` and `end` are always sent (the live service requires both). */
export function klinesQuery(input: unknown, nowMs: number): Query {
  const m = 'klines'
  const a = argsObject(m, input)
  knownKeys(m, a, ['poolId', 'interval', 'start', 'end', 'source'])
  const id = poolId(m, a['poolId'])
  const interval = oneOf(m, 'interval', a['interval'], KLINE_INTERVALS)
  const span = 100 * INTERVAL_SECONDS[interval]
  let end = opt(a['end'], (v) => seconds(m, 'end', v))
  let start = opt(a['start'], (v) => seconds(m, 'start', v))
  end ??= start === undefined ? Math.floor(nowMs / 1000) : Math.max(start, Math.floor(nowMs / 1000))
  start ??= Math.max(0, end - span)
  ordered(m, ['start', start], ['end', end])
  return [
    ['pool_id', id],
    ['interval', interval],
    ['start', start],
    ['end', end],
  ]
}

/** `rest.latestTrades` query. */
export function latestTradesQuery(input: unknown): Query {
  const m = 'latestTrades'
  const a = argsObject(m, input)
  knownKeys(m, a, ['poolId', 'limit', 'source'])
  return [
    ['pool_id', opt(a['poolId'], (v) => poolId(m, v))],
    ['limit', opt(a['limit'], (v) => integerIn(m, 'limit', v, 1, 100))],
  ]
}

/** `rest.historyOrders` / `rest.openOrders` query. */
export function ordersQuery(m: string, input: unknown, names: ParamNames['orders']): Query {
  const a = argsObject(m, input)
  knownKeys(m, a, ['poolId', 'side', 'type', 'status', 'limit', 'offset'])
  return [
    [names.poolId, opt(a['poolId'], (v) => poolId(m, v))],
    [names.side, opt(a['side'], (v) => oneOf(m, 'side', v, SIDES))],
    [names.type, opt(a['type'], (v) => oneOf(m, 'type', v, SIDES))],
    [names.status, opt(a['status'], (v) => oneOf(m, 'status', v, STATUSES))],
    [names.limit, opt(a['limit'], (v) => integerIn(m, 'limit', v, 1, 100))],
    [names.offset, opt(a['offset'], (v) => integerIn(m, 'offset', v, 0, MAX))],
  ]
}

/** `rest.trades` query. */
export function tradesQuery(input: unknown, names: ParamNames['trades']): Query {
  const m = 'trades'
  const a = argsObject(m, input)
  knownKeys(m, a, ['poolId', 'limit', 'after', 'before', 'afterSeq', 'sort'])
  const after = opt(a['after'], (v) => seconds(m, 'after', v))
  const before = opt(a['before'], (v) => seconds(m, 'before', v))
  ordered(m, ['after', after], ['before', before])
  return [
    [names.poolId, opt(a['poolId'], (v) => poolId(m, v))],
    [names.afterSeq, opt(a['afterSeq'], (v) => unsignedId(m, 'afterSeq', v))],
    [names.after, after],
    [names.before, before],
    [names.sort, opt(a['sort'], (v) => oneOf(m, 'sort', v, SORTS))],
    [names.limit, opt(a['limit'], (v) => integerIn(m, 'limit', v, 1, 100))],
  ]
}

/** `rest.transfers` query. */
export function transfersQuery(input: unknown, names: ParamNames['transfers']): Query {
  const m = 'transfers'
  const a = argsObject(m, input)
  knownKeys(m, a, ['limit', 'start', 'end', 'afterId', 'sort'])
  const start = opt(a['start'], (v) => seconds(m, 'start', v))
  const end = opt(a['end'], (v) => seconds(m, 'end', v))
  ordered(m, ['start', start], ['end', end])
  return [
    [names.afterId, opt(a['afterId'], (v) => unsignedId(m, 'afterId', v))],
    [names.start, start],
    [names.end, end],
    [names.sort, opt(a['sort'], (v) => oneOf(m, 'sort', v, SORTS))],
    [names.limit, opt(a['limit'], (v) => integerIn(m, 'limit', v, 1, 1000))],
  ]
}

/** Rejects a time window whose first bound is after its second. */
function ordered(
  m: string,
  [firstName, first]: [string, number | undefined],
  [secondName, second]: [string, number | undefined],
): void {
  if (first !== undefined && second !== undefined && first > second) {
    throw new VenueInputError(
      firstName,
      `${m}: ${firstName} must not be after ${secondName} (got ${first} > ${second})`,
    )
  }
}

/**
 * An id or sequence number of the venue (unsigned 64-bit there): digits up to 2^64 - 1
 * (leading zeros dropped), or a non-negative safe integer. Returned as canonical digits.
 * The rule is `canonicalId`'s, shared with the feeds' cursors.
 *
 * @example
 * ```ts
 * unsignedId('trades', 'afterSeq', '007') // '7'
 * unsignedId('trades', 'afterSeq', 1058)  // '1058'
 * unsignedId('trades', 'afterSeq', '18446744073709551616') // throws VenueInputError
 * ```
 */
export function unsignedId(m: string, argument: string, value: unknown): string {
  if (typeof value === 'number') return String(integerIn(m, argument, value, 0, MAX))
  return (
    canonicalId(value) ??
    fail(
      m,
      argument,
      'must be digits of an unsigned 64-bit integer or a non-negative safe integer',
      value,
    )
  )
}

/** `rest.pools` query. */
export function poolsQuery(input: unknown): Query {
  const m = 'pools'
  const a = argsObject(m, input)
  knownKeys(m, a, ['baseCoin', 'quoteCoin', 'limit', 'offset'])
  return [
    ['base_coin', opt(a['baseCoin'], (v) => text(m, 'baseCoin', v))],
    ['quote_coin', opt(a['quoteCoin'], (v) => text(m, 'quoteCoin', v))],
    ['limit', opt(a['limit'], (v) => integerIn(m, 'limit', v, 1, 1000))],
    ['offset', opt(a['offset'], (v) => integerIn(m, 'offset', v, 0, MAX))],
  ]
}

/** The encoded `{id}` path segment of `rest.order`. */
export function orderSegment(ref: OrderRef): string {
  const m = 'order'
  if (typeof ref === 'string') {
    // Canonical integers only (no leading zeros); the pool id safe, the order id 64-bit.
    const match = /^(0|[1-9]\d*)-(0|[1-9]\d{0,19})-([01])$/.exec(ref)
    if (match === null || !Number.isSafeInteger(Number(match[1])) || !withinMaxId(match[2] ?? '')) {
      throw new VenueInputError(
        'id',
        `${m}: id must look like "{poolId}-{orderId}-{side}", e.g. "0-1-0"`,
      )
    }
    return ref
  }
  if (typeof ref !== 'object' || ref === null) {
    throw new VenueInputError(
      'id',
      `${m}: id must be a string "0-1-0" or { poolId, orderId, side }`,
    )
  }
  const a = ref as unknown as Record<string, unknown>
  knownKeys(m, a, ['poolId', 'orderId', 'side'])
  const pool = poolId(m, a['poolId'])
  const order = unsignedId(m, 'orderId', a['orderId'])
  const side = oneOf(m, 'side', a['side'], SIDES)
  return `${pool}-${order}-${side}`
}

/** The encoded `{id}` segment of `rest.orderByClientId`. */
export function clientIdSegment(cid: unknown): string {
  return pathSegment('orderByClientId', 'clientId', text('orderByClientId', 'clientId', cid))
}

/** The encoded `{id}` segment of `rest.pool`: a pool id or a pool symbol; `m` names the caller. */
export function poolSegment(idOrSymbol: unknown, m = 'pool'): string {
  if (typeof idOrSymbol === 'number') return String(poolId(m, idOrSymbol, 'idOrSymbol'))
  return pathSegment(m, 'idOrSymbol', text(m, 'idOrSymbol', idOrSymbol))
}

/** The encoded `{id}` segment of `rest.token`. */
export function tokenSegment(symbol: unknown): string {
  return pathSegment('token', 'symbol', text('token', 'symbol', symbol))
}

/** Encodes query pairs, leaving out undefined values: `?a=1&b=x` or `''`. */
export function encodeQuery(query: Query): string {
  const params = new URLSearchParams()
  for (const [name, value] of query) if (value !== undefined) params.append(name, String(value))
  const encoded = params.toString()
  return encoded === '' ? '' : `?${encoded}`
}
