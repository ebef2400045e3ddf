/**
 * What one entry of the stream catalogue (catalogue.ts) is made of: how the stream is
 * polled, or built on other streams, and how a relay carries it. The catalogue lists the
 * entries; the venue, its argument guards, the polled and relayed stream sets, the relay
 * publisher and the relay stream names are read off it. docs/adding-a-stream.md shows
 * the steps.
 */
import type { Observable } from 'rxjs'
import { checkPoolId, type MarketDataSource, unsignedId } from '../rest/index.js'
import { KLINE_INTERVALS, type KlineInterval } from '../schemas/kline.js'
import { checkFillCursor } from './fills.js'
import type { OrderFeeds } from './order-feeds.js'
import type { StreamContext } from './stream-context.js'
import { checkInterval } from './watch-klines.js'

/** What a polled stream is opened on: the venue's stream context and market data. */
export interface PollOn {
  readonly context: StreamContext
  /** The venue's `marketData`: the `source` a market-data stream polls by default. */
  readonly marketData: MarketDataSource
  /** What `watchOrder` follows: the venue's polls (when absent), or a relay's streams. */
  readonly orderFeeds?: OrderFeeds | undefined
}

/** A stream the venue polls, and takes from a relay instead when `relay` is set. */
export interface PolledEntry {
  /**
   * Opens the stream on the venue's context. Its parameters after `on` are the venue
   * method's, written out (no default value, no rest): their count is how many arguments
   * the method takes (a defined one more is refused), unless `arity` says fewer.
   */
  readonly poll: (on: PollOn, ...args: never[]) => Observable<unknown>
  /**
   * How many arguments the venue's method takes, when fewer than `poll`'s: the last ones
   * are for the streams built on this one (`method`: the name errors give).
   */
  readonly arity?: number
  /** How a relay carries it; absent: the venue polls it even when it follows a relay. */
  readonly relay?: RelaySpec
}

/** A stream built on the streams a venue polls or follows (its `StreamSet`). */
export interface BuiltEntry<S> {
  /** Opens the stream; its parameters after `on` are the venue method's (see `poll`). */
  readonly build: (on: PollOn & { readonly streams: S }, ...args: never[]) => Observable<unknown>
}

/**
 * How a stream is carried through Redis, end to end: what the relay publishes for it (and
 * stores for a late reader), what a relay taking it over reads back, and how a consumer
 * reads it. The publisher (relay-publisher/stream-sources.ts) and the reader
 * (relay-reader/relay-streams.ts) each hold one table keyed by style.
 *
 * - `book`: book events; the book's snapshot as the state; a reader starts from it and
 *   starts again from it when it fell behind.
 * - `trades`: public trade events, no state; a reader starts at the end.
 * - `candles`: candle events, the open candle as the state.
 * - `latest`: the whole value each time it changed, the last one as the state.
 * - `balances`: what changed per coin, the whole list as the state (balances-entries.ts).
 * - `open-orders`: order events, the open orders as the state.
 * - `feed`: a cursor feed, one entry per item under an id made of its cursor.
 */
export type RelayStyle =
  | 'book'
  | 'trades'
  | 'candles'
  | 'latest'
  | 'balances'
  | 'open-orders'
  | 'feed'

/** The name and the keys of a relayed stream. */
interface RelayName {
  /** The start of its name (`depth` in `depth:1`): what `startRelay({ streams })` takes. */
  readonly kind: string
  /**
   * The arguments its name holds after the kind, in order (`klines:1:5m`): the method's
   * first arguments, in the same order. The method's next argument is its options.
   */
  readonly params: readonly RelayParam[]
  /** Whether it carries data of the account behind the API key (its Redis keys are per account). */
  readonly account: boolean
}

/** A relayed stream of events (every style but `feed`). */
export interface EventsRelay extends RelayName {
  readonly style: Exclude<RelayStyle, 'feed'>
  /**
   * The options of the polled stream a relayed one honours (checked, then left to the
   * relay); any other given is refused. Absent: the method takes no options.
   */
  readonly honours?: readonly ('source' | 'priority')[]
  /**
   * For a stream whose first argument, the `poolId` of its name, may be a pool's symbol
   * instead (`watchPool(idOrSymbol)`): where a relayed venue finds the symbol's id.
   */
  readonly bySymbol?: SymbolLookup
}

/**
 * How a relayed venue finds the id of a pool named by its symbol without asking the venue:
 * in the last value of another relayed stream, which lists the pools.
 */
export interface SymbolLookup {
  /** The relayed stream listing the pools (`pools`); a stream of style `latest`. */
  readonly kind: string
  /** The id of the pool of `symbol` in that stream's value; undefined: it lists none. */
  readonly idOf: (list: never, symbol: string) => number | undefined
}

/** A relayed cursor feed. */
export interface FeedRelay extends RelayName {
  readonly style: 'feed'
  readonly cursor: FeedCursor
  /** The pool of an item, for a feed that takes `poolId` (it filters what the relay publishes). */
  readonly poolOf?: (item: never) => number
}

/** How a relay carries a stream. */
export type RelaySpec = EventsRelay | FeedRelay

/** An argument a relayed stream's name holds. */
interface RelayParamSpec<V> {
  /** How the name shows it in the list of names (`POOL`). */
  readonly shown: string
  /** What the list of names says of it, if anything. */
  readonly note?: string
  /** Its value in a name, or undefined when the text is not one. */
  readonly parse: (text: string) => V | undefined
  /** The method's argument, checked as the polled stream checks it (`VenueInputError`). */
  readonly check: (method: string, value: unknown) => V
}

/** The arguments a relayed stream's name can hold. */
export const RELAY_PARAMS: {
  readonly poolId: RelayParamSpec<number>
  readonly interval: RelayParamSpec<KlineInterval>
} = {
  poolId: {
    shown: 'POOL',
    parse: (text) => (/^(0|[1-9]\d{0,8})$/.test(text) ? Number(text) : undefined),
    check: checkPoolId,
  },
  interval: {
    shown: 'INTERVAL',
    note: `with INTERVAL one of ${KLINE_INTERVALS.join(' ')}`,
    parse: (text) =>
      (KLINE_INTERVALS as readonly string[]).includes(text) ? (text as KlineInterval) : undefined,
    check: checkInterval,
  },
}

/** An argument a relayed stream's name can hold. */
export type RelayParam = keyof typeof RELAY_PARAMS

/** The value of a {@link RelayParam}. */
export type RelayParamValue<P extends RelayParam> =
  (typeof RELAY_PARAMS)[P] extends RelayParamSpec<infer V> ? V : never

/**
 * A feed's cursor as a relay stores it: the entry id an item is published under (so a
 * reader starts right after a cursor), and back.
 */
export interface FeedCursor {
  /** The cursor of `method`, checked (`VenueInputError`), canonical. */
  readonly check: (method: string, cursor: unknown) => string
  readonly idOf: (cursor: string) => string
  readonly cursorOf: (id: string) => string
}

/** A cursor that is one number (`global_seq`, a transfer's `sid`): `<cursor>-0`. */
export const SEQ_CURSOR: FeedCursor = {
  check: (method, cursor) => unsignedId(method, 'cursor', cursor),
  idOf: (cursor) => `${cursor}-0`,
  cursorOf: (id) => id.slice(0, id.indexOf('-')),
}

/** A fill cursor: `g/1` (the first fill of trade g) is `g-0`; `g` (all of it) is `g-1`. */
export const FILL_CURSOR: FeedCursor = {
  check: checkFillCursor,
  idOf: (cursor) => (cursor.endsWith('/1') ? `${cursor.slice(0, -2)}-0` : `${cursor}-1`),
  cursorOf: (id) => {
    const [seq, half] = id.split('-')
    return half === '0' ? `${seq}/1` : (seq as string)
  },
}

/** The arguments of an entry's method. */
export type ArgsOf<E> = E extends { readonly poll: (on: never, ...args: infer A) => unknown }
  ? A
  : E extends { readonly build: (on: never, ...args: infer A) => unknown }
    ? A
    : never

/**
 * The arguments of an entry's venue method: {@link ArgsOf}, up to its `arity` (the last
 * ones are for the streams built on it), names kept.
 */
export type MethodArgsOf<E> = E extends { readonly arity: infer N extends number }
  ? UpTo<ArgsOf<E>, N>
  : ArgsOf<E>

/** The first `N` elements of a tuple, names kept: its last ones dropped one at a time. */
type UpTo<A extends readonly unknown[], N extends number> = A extends readonly []
  ? A
  : Required<A>['length'] extends N
    ? A
    : A extends readonly [...infer Head, unknown?]
      ? UpTo<Head, N>
      : A

/** What an entry's stream emits. */
export type EventOf<E> = E extends { readonly poll: (...args: never[]) => Observable<infer T> }
  ? T
  : E extends { readonly build: (...args: never[]) => Observable<infer T> }
    ? T
    : never

/** The relayed stream an entry's relay names: `{ kind: 'klines', poolId, interval }`. */
export type RelayStreamOf<R> = R extends {
  readonly kind: infer K
  readonly params: readonly (infer P extends RelayParam)[]
}
  ? { readonly [N in 'kind' | P]: N extends RelayParam ? RelayParamValue<N> : K }
  : never
