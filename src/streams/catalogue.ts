/**
 * The stream catalogue: one entry per `watch...` method of a venue, holding everything
 * that varies from one stream to another (catalogue-entry.ts says what an entry holds),
 * and the method's doc comment. The `Venue` type's methods ({@link StreamMethods}), the
 * venue's methods and their argument guards (venue.ts), the polled and relayed stream
 * sets (stream-set.ts, relay-reader/relay-streams.ts), the relay publisher
 * (relay-publisher/stream-sources.ts) and the relay stream names (redis/stream-names.ts)
 * iterate over it; none of them lists the streams. docs/adding-a-stream.md shows how to
 * add one.
 *
 * The relayed streams come first, in the order the error for an unknown relay stream name
 * lists their names.
 */
import type { Observable } from 'rxjs'
import type { KlineInterval } from '../schemas/kline.js'
import type { PoolSummary } from '../schemas/pool-summary.js'
import type { TradeDetail } from '../schemas/trade-detail.js'
import {
  type ArgsOf,
  type BuiltEntry,
  type EventOf,
  FILL_CURSOR,
  type MethodArgsOf,
  type PolledEntry,
  type PollOn,
  type RelaySpec,
  type RelayStreamOf,
  SEQ_CURSOR,
} from './catalogue-entry.js'
import type { FeedItem } from './cursor-feed.js'
import type { Fill } from './fills.js'
import type { RelayedOrderStreams } from './order-feeds.js'
import { type BalancesOptions, watchBalances } from './watch-balances.js'
import { type DepthStreamOptions, toOrderBooks, watchDepth } from './watch-depth.js'
import { type FillsOptions, watchFills } from './watch-fills.js'
import { type KlinesStreamOptions, watchKlines } from './watch-klines.js'
import { type MyTradesOptions, watchMyTrades } from './watch-my-trades.js'
import { watchOpenOrders } from './watch-open-orders.js'
import { type WatchOrderOptions, type WatchOrderRef, watchOrder } from './watch-order.js'
import {
  watchAccount,
  watchPool,
  watchPools,
  watchSystemInfo,
  watchTokens,
} from './watch-resources.js'
import { type PublicTradesOptions, watchTrades } from './watch-trades.js'
import { type TransfersFeedOptions, watchTransfers } from './watch-transfers.js'

/** The streams the venue polls, or takes from a relay when it follows one (`relay`). */
const POLLED = {
  /**
   * The pool's order book as `BookEvent`s: a snapshot first, then a delta only when a
   * level changed (quantity `'0'` removes a level). Throws `VenueInputError` for bad arguments.
   */
  watchDepth: {
    poll: (
      { context, marketData }: PollOn,
      poolId: number,
      options?: DepthStreamOptions,
      method?: string,
    ) => watchDepth(context, marketData, poolId, options, method),
    arity: 2,
    relay: {
      kind: 'depth',
      params: ['poolId'],
      account: false,
      style: 'book',
      honours: ['source', 'priority'],
    },
  },
  /**
   * New public trades of a pool, each once, oldest first, and `gap` events when more
   * trades happened between two polls than the venue's window holds.
   */
  watchTrades: {
    poll: ({ context, marketData }: PollOn, poolId: number, options?: PublicTradesOptions) =>
      watchTrades(context, marketData, poolId, options),
    relay: {
      kind: 'trades',
      params: ['poolId'],
      account: false,
      style: 'trades',
      honours: ['source', 'priority'],
    },
  },
  /**
   * Candles of a pool: `update` for the open candle when it changes, `closed` once per
   * bucket in time order; `since` backfills closed candles first. Follows the venue's time.
   */
  watchKlines: {
    poll: (
      { context, marketData }: PollOn,
      poolId: number,
      interval: KlineInterval,
      options?: KlinesStreamOptions,
    ) => watchKlines(context, marketData, poolId, interval, options),
    relay: {
      kind: 'klines',
      params: ['poolId', 'interval'],
      account: false,
      style: 'candles',
      honours: ['source'],
    },
  },
  /**
   * The account's trades, each exactly once: backfill, then tail, each trade at the first
   * poll that shows it (one the venue shows after a later one marked `late`; strictly
   * ascending `global_seq` with `order: 'ascending'`); resumable with `checkpoint`.
   */
  watchMyTrades: {
    poll: ({ context }: PollOn, options?: MyTradesOptions) => watchMyTrades(context, options),
    relay: {
      kind: 'my-trades',
      params: [],
      account: true,
      style: 'feed',
      cursor: SEQ_CURSOR,
      poolOf: (trade: FeedItem<TradeDetail>) => trade.pool_id,
    },
  },
  /**
   * The account's transfers, each exactly once, on sight (late ones marked), or in
   * ascending id (`sid`) with `order: 'ascending'`; resumable.
   */
  watchTransfers: {
    poll: ({ context }: PollOn, options?: TransfersFeedOptions) => watchTransfers(context, options),
    relay: { kind: 'transfers', params: [], account: true, style: 'feed', cursor: SEQ_CURSOR },
  },
  /**
   * Every fill of the account exactly once, on sight (late ones marked; in `global_seq`
   * order with `order: 'ascending'`), with the account's role, side and fee (a self-trade
   * gives two fills); resumable with `checkpoint`.
   */
  watchFills: {
    poll: ({ context }: PollOn, options?: FillsOptions) => watchFills(context, options),
    relay: {
      kind: 'fills',
      params: [],
      account: true,
      style: 'feed',
      cursor: FILL_CURSOR,
      poolOf: (fill: Fill) => fill.poolId,
    },
  },
  /**
   * Balances with per-coin changes, whenever a holding changed (`balance`, `locked`,
   * locks; a valuation change too with `includeValuation`).
   */
  watchBalances: {
    poll: ({ context }: PollOn, options?: BalancesOptions) => watchBalances(context, options),
    relay: {
      kind: 'balances',
      params: [],
      account: true,
      style: 'balances',
      honours: ['priority'],
    },
  },
  /**
   * Open orders as `opened` / `changed` / `closed` events; `closed` says how the order
   * ended (`filled`, `canceled`, `rejected`) with its final record.
   */
  watchOpenOrders: {
    poll: ({ context }: PollOn) => watchOpenOrders(context),
    relay: { kind: 'open-orders', params: [], account: true, style: 'open-orders' },
  },
  /** Every pool summary, whenever any deep-changed. */
  watchPools: {
    poll: ({ context }: PollOn) => watchPools(context),
    relay: { kind: 'pools', params: [], account: false, style: 'latest' },
  },
  /** One pool's detail (by id or symbol), whenever it deep-changed. */
  watchPool: {
    poll: ({ context }: PollOn, idOrSymbol: number | string) => watchPool(context, idOrSymbol),
    relay: {
      kind: 'pool',
      params: ['poolId'],
      account: false,
      style: 'latest',
      // A symbol's id is read off the relayed pool list: its summaries hold each pool's
      // symbol and id, so a relayed venue asks the venue nothing.
      bySymbol: {
        kind: 'pools',
        idOf: (pools: readonly PoolSummary[], symbol: string) =>
          pools.find((pool) => pool.symbol === symbol)?.pool_id,
      },
    },
  },
  /** Every token, whenever any deep-changed. */
  watchTokens: {
    poll: ({ context }: PollOn) => watchTokens(context),
    relay: { kind: 'tokens', params: [], account: false, style: 'latest' },
  },
  /** System info, whenever it changed. */
  watchSystemInfo: {
    poll: ({ context }: PollOn) => watchSystemInfo(context),
    relay: { kind: 'system-info', params: [], account: false, style: 'latest' },
  },
  /** The account behind the API key, whenever it changed. */
  watchAccount: {
    poll: ({ context }: PollOn) => watchAccount(context),
    relay: { kind: 'account', params: [], account: true, style: 'latest' },
  },
  /**
   * One order's `fill` events (in `global_seq` order), `update`s, then `done` (`filled`,
   * `canceled`, `rejected`) once every fill is out, then completion.
   */
  watchOrder: {
    poll: ({ context, orderFeeds }: PollOn, ref: WatchOrderRef, options?: WatchOrderOptions) =>
      watchOrder(context, ref, options, orderFeeds),
  },
} as const satisfies Record<string, PolledEntry>

type Polled = typeof POLLED

/** The polled streams a relay carries. */
type RelayedMethod = {
  [K in keyof Polled]: Polled[K] extends { readonly relay: RelaySpec } ? K : never
}[keyof Polled]

/**
 * The streams a venue takes from either of its sources: polling the venue itself
 * (`polledStreams`), or following a relay (`relayStreams`). A venue picks one set when it
 * is created; both run through the same registry, health board, backoff and scheduler of
 * its `StreamContext`, so a stream behaves the same whichever feeds it. Each method
 * is the venue's (its signature comes from the catalogue); `watchDepth` takes a third
 * argument, `method`, the name its errors give (`watchOrderBook` folds this stream).
 *
 * @example
 * ```ts
 * const streams = relay === undefined ? polledStreams(context, 'v2') : relayStreams(reader, scope)
 * streams.watchDepth(0).subscribe((event) => console.log(event.type, event.seq))
 * ```
 */
export type StreamSet = {
  [K in RelayedMethod]: (...args: ArgsOf<Polled[K]>) => Observable<EventOf<Polled[K]>>
}

/** The streams built on the venue's {@link StreamSet}, polled or relayed alike. */
const BUILT = {
  /** Immutable `OrderBook` views, `watchDepth` folded through `applyBookEvent`. */
  watchOrderBook: {
    build: ({ streams }, poolId: number, options?: DepthStreamOptions) =>
      streams.watchDepth(poolId, options, 'watchOrderBook').pipe(toOrderBooks()),
  },
} as const satisfies Record<string, BuiltEntry<StreamSet>>

type Built = typeof BUILT

/** Every stream of a venue, by its method's name. */
type Catalogue = Polled & Built

/** The name of a venue's `watch...` method. */
export type StreamMethod = keyof Catalogue

/**
 * The venue's `watch...` methods, as the catalogue types them: the `Venue` type extends
 * it. A homomorphic mapped type, so that each method shows its entry's doc comment; its
 * parameters are the entry's, names kept ({@link MethodArgsOf}).
 */
export type StreamMethods = {
  -readonly [K in keyof Catalogue]: MethodOf<Catalogue[K]>
}

/**
 * The venue's method of an entry, typed as a method (not a function property), so that it
 * is checked bivariantly in its parameters, as a method written out in `Venue` was.
 */
type MethodOf<E> = {
  method(...args: MethodArgsOf<E>): Observable<EventOf<E>>
}['method']

/** The stream a relay publishes and a consumer reads, by what it carries. */
export type CatalogueRelayStream = RelayStreamOf<Polled[RelayedMethod]['relay']>

/** A relayed stream of the catalogue: its method, and how a relay carries it. */
export interface RelayedEntry {
  readonly method: RelayedMethod
  readonly relay: RelaySpec
}

/** The streams a relay carries, in the catalogue's order. */
export const RELAYED: readonly RelayedEntry[] = Object.entries(POLLED).flatMap(
  ([method, entry]: [string, PolledEntry]) =>
    entry.relay === undefined ? [] : [{ method: method as RelayedMethod, relay: entry.relay }],
)

/**
 * The catalogue's relayed stream of `kind` (a relay stream's name starts with it).
 * Throws for a kind no entry has (a name is parsed before it gets here).
 *
 * @example
 * ```ts
 * relayedEntry('klines') // { method: 'watchKlines', relay: { kind: 'klines', style: 'candles', ... } }
 * ```
 */
export function relayedEntry(kind: string): RelayedEntry {
  const found = RELAYED.find((entry) => entry.relay.kind === kind)
  if (found === undefined) throw new Error(`no relayed stream of kind ${kind}`)
  return found
}

/**
 * The {@link StreamSet} that polls the venue: each relayed stream's `poll` on `on`.
 *
 * @example
 * ```ts
 * polledSet({ context, marketData: 'v2' }).watchPools().subscribe((pools) => console.log(pools.length))
 * ```
 */
export function polledSet(on: PollOn): StreamSet {
  return Object.fromEntries(
    RELAYED.map(({ method }) => {
      const { poll } = POLLED[method] as PolledEntry
      return [method, (...args: never[]) => poll(on, ...args)]
    }),
  ) as StreamSet
}

/**
 * What `watchOrder` follows on a venue reading from a relay: the relayed open orders of
 * `streams`, and `fills`, the fills the relay keeps.
 *
 * @example
 * ```ts
 * relayedOrderFeeds(context, relayedOrderStreams(streams, relayedKeptFills(reader, scope)))
 * ```
 */
export function relayedOrderStreams(
  streams: StreamSet,
  fills: RelayedOrderStreams['fills'],
): RelayedOrderStreams {
  return { openOrders: () => streams.watchOpenOrders(), fills }
}

/** One `watch...` method of a venue: how it opens its stream, before the venue's guard. */
export interface StreamOpener {
  readonly method: StreamMethod
  /** How many arguments it takes: a defined one more is refused. */
  readonly arity: number
  readonly open: (...args: never[]) => Observable<unknown>
}

/**
 * Every `watch...` method of a venue, in the catalogue's order: a relayed stream from
 * `streams` (the venue polls it or follows a relay), the others polled on `on`, and the
 * built ones on `streams`.
 *
 * @example
 * ```ts
 * for (const { method, arity, open } of streamOpeners(on, streams)) methods[method] = guard(method, arity, open)
 * ```
 */
export function streamOpeners(on: PollOn, streams: StreamSet): StreamOpener[] {
  const polled = Object.entries(POLLED).map(
    ([method, entry]: [string, PolledEntry]): StreamOpener => ({
      method: method as StreamMethod,
      arity: entry.arity ?? entry.poll.length - 1,
      open:
        entry.relay === undefined
          ? (...args) => entry.poll(on, ...args)
          : (streams[method as RelayedMethod] as StreamOpener['open']),
    }),
  )
  const built = Object.entries(BUILT).map(
    ([method, entry]: [string, BuiltEntry<StreamSet>]): StreamOpener => ({
      method: method as StreamMethod,
      arity: entry.build.length - 1,
      open: (...args) => entry.build({ ...on, streams }, ...args),
    }),
  )
  return [...polled, ...built]
}
