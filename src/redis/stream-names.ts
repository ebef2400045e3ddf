import { VenueInputError } from '../errors/venue-input-error.js'
import { KLINE_INTERVALS, type KlineInterval } from '../schemas/kline.js'

/**
 * A stream a relay publishes, by what it carries. Its name (`depth:1`, `klines:1:5m`,
 * `my-trades`, ...) is what `venue-rx relay --streams` and `startRelay({ streams })` take.
 *
 * @example
 * ```ts
 * import { parseRelayStream } from 'venue-rx/relay'
 *
 * parseRelayStream('klines:1:5m') // { kind: 'klines', poolId: 1, interval: '5m' }
 * ```
 */
export type RelayStream =
  | { readonly kind: 'depth'; readonly poolId: number }
  | { readonly kind: 'trades'; readonly poolId: number }
  | { readonly kind: 'klines'; readonly poolId: number; readonly interval: KlineInterval }
  | { readonly kind: 'my-trades' }
  | { readonly kind: 'transfers' }
  | { readonly kind: 'fills' }
  | { readonly kind: 'balances' }
  | { readonly kind: 'open-orders' }
  | { readonly kind: 'pools' }

/**
 * The kinds of {@link RelayStream}, as their names start.
 *
 * @example
 * ```ts
 * import { parseRelayStream, type RelayStreamKind } from 'venue-rx/relay'
 *
 * const kind: RelayStreamKind = parseRelayStream('fills').kind // 'fills'
 * ```
 */
export type RelayStreamKind = RelayStream['kind']

/** Streams of the account behind the API key (their Redis keys are per account). */
const ACCOUNT_KINDS: ReadonlySet<RelayStreamKind> = new Set([
  'my-trades',
  'transfers',
  'fills',
  'balances',
  'open-orders',
])

/** Whether `stream` carries data of the account behind the API key. */
export function isAccountStream(stream: RelayStream): boolean {
  return ACCOUNT_KINDS.has(stream.kind)
}

const SIMPLE = ['my-trades', 'transfers', 'fills', 'balances', 'open-orders', 'pools'] as const

/**
 * Reads a stream name. Throws `VenueInputError` for a name that is not one of `depth:POOL`,
 * `trades:POOL`, `klines:POOL:INTERVAL`, `my-trades`, `transfers`, `fills`, `balances`,
 * `open-orders`, `pools`.
 *
 * @example
 * ```ts
 * import { parseRelayStream } from 'venue-rx/relay'
 *
 * parseRelayStream('depth:1') // { kind: 'depth', poolId: 1 }
 * parseRelayStream('my-trades') // { kind: 'my-trades' }
 * ```
 */
export function parseRelayStream(name: unknown): RelayStream {
  if (typeof name !== 'string') {
    throw new VenueInputError('streams', 'relay: a stream name must be a string such as "depth:1"')
  }
  const simple = SIMPLE.find((kind) => kind === name)
  if (simple !== undefined) return { kind: simple }
  const [kind, pool, interval, ...rest] = name.split(':')
  const poolId = /^(0|[1-9]\d{0,8})$/.test(pool ?? '') ? Number(pool) : undefined
  if ((kind === 'depth' || kind === 'trades') && poolId !== undefined && interval === undefined) {
    return { kind, poolId }
  }
  if (
    kind === 'klines' &&
    poolId !== undefined &&
    rest.length === 0 &&
    (KLINE_INTERVALS as readonly string[]).includes(interval ?? '')
  ) {
    return { kind, poolId, interval: interval as KlineInterval }
  }
  throw VenueInputError.quoting({
    argument: 'streams',
    value: name,
    whole: true,
    render: (_, shown) =>
      `relay: unknown stream ${shown} (streams: depth:POOL, trades:POOL, ` +
      `klines:POOL:INTERVAL with INTERVAL one of ${KLINE_INTERVALS.join(' ')}, ${SIMPLE.join(', ')})`,
  })
}

/**
 * The name of `stream`, as {@link parseRelayStream} reads it.
 *
 * @example
 * ```ts
 * import { relayStreamName } from 'venue-rx/relay'
 *
 * relayStreamName({ kind: 'klines', poolId: 1, interval: '5m' }) // 'klines:1:5m'
 * ```
 */
export function relayStreamName(stream: RelayStream): string {
  switch (stream.kind) {
    case 'depth':
    case 'trades':
      return `${stream.kind}:${stream.poolId}`
    case 'klines':
      return `klines:${stream.poolId}:${stream.interval}`
    default:
      return stream.kind
  }
}
