import { VenueInputError } from '../errors/venue-input-error.js'
import { type CatalogueRelayStream, RELAYED } from '../streams/catalogue.js'
import { RELAY_PARAMS } from '../streams/catalogue-entry.js'

/**
 * A stream a relay publishes, by what it carries: `{ kind: 'depth', poolId }`,
 * `{ kind: 'trades', poolId }`, `{ kind: 'klines', poolId, interval }`,
 * `{ kind: 'pool', poolId }`, or the kind alone for `my-trades`, `transfers`, `fills`,
 * `balances`, `open-orders`, `pools`, `tokens`, `system-info` and `account` (one per
 * relayed stream of the catalogue, streams/catalogue.ts). Its name (`depth:1`,
 * `klines:1:5m`, `my-trades`, ...) is what `venue-rx relay --streams` and
 * `startRelay({ streams })` take.
 *
 * @example
 * ```ts
 * import { parseRelayStream } from 'venue-rx/relay'
 *
 * parseRelayStream('klines:1:5m') // { kind: 'klines', poolId: 1, interval: '5m' }
 * ```
 */
export type RelayStream = CatalogueRelayStream

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

/** Whether `stream` carries data of the account behind the API key. */
export function isAccountStream(stream: RelayStream): boolean {
  return relayOf(stream.kind)?.account === true
}

/** How a relay carries the streams of `kind`. */
const relayOf = (kind: string) => RELAYED.find(({ relay }) => relay.kind === kind)?.relay

/** How the list of names shows each: `depth:POOL`, `klines:POOL:INTERVAL with ...`, `pools`. */
const FORMS = RELAYED.map(({ relay: { kind, params } }) =>
  [
    [kind, ...params.map((param) => RELAY_PARAMS[param].shown)].join(':'),
    ...params.flatMap((param) => RELAY_PARAMS[param].note ?? []),
  ].join(' '),
)

/**
 * Reads a stream name. Throws `VenueInputError` for a name that is not one of `depth:POOL`,
 * `trades:POOL`, `klines:POOL:INTERVAL`, `my-trades`, `transfers`, `fills`, `balances`,
 * `open-orders`, `pools`, `pool:POOL`, `tokens`, `system-info`, `account`.
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
  const [kind, ...texts] = name.split(':')
  for (const { relay } of RELAYED) {
    if (relay.kind !== kind || relay.params.length !== texts.length) continue
    const values = relay.params.map((param, at) => RELAY_PARAMS[param].parse(texts[at] as string))
    if (values.every((value) => value !== undefined)) {
      return Object.fromEntries([
        ['kind', kind],
        ...relay.params.map((param, at) => [param, values[at]]),
      ]) as RelayStream
    }
  }
  throw VenueInputError.quoting({
    argument: 'streams',
    value: name,
    whole: true,
    render: (_, shown) => `relay: unknown stream ${shown} (streams: ${FORMS.join(', ')})`,
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
  const params = relayOf(stream.kind)?.params ?? []
  const named = stream as Readonly<Record<string, unknown>>
  return [stream.kind, ...params.map((param) => String(named[param]))].join(':')
}
