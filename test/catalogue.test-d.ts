/**
 * The types read off the stream catalogue are the ones written out before it: the relay's
 * stream names (`RelayStream`, public in `venue-rx/relay`), the stream set's methods
 * (what the venue and `watchOrder` open streams from), and the venue's `watch...` methods
 * (the `Venue` type extends the catalogue's `StreamMethods`; their docs are its entries').
 */
import { EMPTY, type Observable } from 'rxjs'
import { describe, expectTypeOf, test } from 'vitest'
import type {
  AccountInfo,
  BalancesOptions,
  BalancesUpdate,
  BookEvent,
  DepthStreamOptions,
  FeedItem,
  Fill,
  FillsOptions,
  KlineEvent,
  KlineInterval,
  KlinesStreamOptions,
  MyTradesOptions,
  OpenOrderEvent,
  OrderBook,
  OrderEvent,
  PoolDetail,
  PoolSummary,
  PublicTradeEvent,
  PublicTradesOptions,
  SystemInfo,
  Token,
  TradeDetail,
  Transfer,
  TransfersFeedOptions,
  Venue,
  WatchOrderOptions,
  WatchOrderRef,
} from '../src/index.js'
import type { RelayStream, RelayStreamKind } from '../src/relay.js'
import type { StreamMethods } from '../src/streams/catalogue.js'
import type { StreamSet } from '../src/streams/stream-set.js'

describe('types read off the catalogue', () => {
  test('RelayStream is the union of the relay stream names', () => {
    expectTypeOf<RelayStream>().toEqualTypeOf<
      | { readonly kind: 'depth'; readonly poolId: number }
      | { readonly kind: 'trades'; readonly poolId: number }
      | { readonly kind: 'klines'; readonly poolId: number; readonly interval: KlineInterval }
      | { readonly kind: 'my-trades' }
      | { readonly kind: 'transfers' }
      | { readonly kind: 'fills' }
      | { readonly kind: 'balances' }
      | { readonly kind: 'open-orders' }
      | { readonly kind: 'pools' }
      | { readonly kind: 'pool'; readonly poolId: number }
      | { readonly kind: 'tokens' }
      | { readonly kind: 'system-info' }
      | { readonly kind: 'account' }
    >()
    expectTypeOf<RelayStreamKind>().toEqualTypeOf<
      | 'depth'
      | 'trades'
      | 'klines'
      | 'my-trades'
      | 'transfers'
      | 'fills'
      | 'balances'
      | 'open-orders'
      | 'pools'
      | 'pool'
      | 'tokens'
      | 'system-info'
      | 'account'
    >()
  })

  test('StreamSet keeps its methods and their signatures', () => {
    expectTypeOf<StreamSet>().toEqualTypeOf<{
      watchDepth: (
        poolId: number,
        options?: DepthStreamOptions,
        method?: string,
      ) => Observable<BookEvent>
      watchTrades: (poolId: number, options?: PublicTradesOptions) => Observable<PublicTradeEvent>
      watchKlines: (
        poolId: number,
        interval: KlineInterval,
        options?: KlinesStreamOptions,
      ) => Observable<KlineEvent>
      watchMyTrades: (options?: MyTradesOptions) => Observable<FeedItem<TradeDetail>>
      watchTransfers: (options?: TransfersFeedOptions) => Observable<FeedItem<Transfer>>
      watchFills: (options?: FillsOptions) => Observable<Fill>
      watchBalances: (options?: BalancesOptions) => Observable<BalancesUpdate>
      watchOpenOrders: () => Observable<OpenOrderEvent>
      watchPools: () => Observable<PoolSummary[]>
      watchPool: (idOrSymbol: number | string) => Observable<PoolDetail>
      watchTokens: () => Observable<Token[]>
      watchSystemInfo: () => Observable<SystemInfo>
      watchAccount: () => Observable<AccountInfo>
    }>()
  })

  test('Venue keeps its watch methods and their signatures', () => {
    expectTypeOf<Pick<Venue, `watch${string}` & keyof Venue>>().toEqualTypeOf<{
      watchPools(): Observable<PoolSummary[]>
      watchPool(idOrSymbol: number | string): Observable<PoolDetail>
      watchTokens(): Observable<Token[]>
      watchSystemInfo(): Observable<SystemInfo>
      watchAccount(): Observable<AccountInfo>
      watchBalances(options?: BalancesOptions): Observable<BalancesUpdate>
      watchOpenOrders(): Observable<OpenOrderEvent>
      watchDepth(poolId: number, options?: DepthStreamOptions): Observable<BookEvent>
      watchOrderBook(poolId: number, options?: DepthStreamOptions): Observable<OrderBook>
      watchTrades(poolId: number, options?: PublicTradesOptions): Observable<PublicTradeEvent>
      watchMyTrades(options?: MyTradesOptions): Observable<FeedItem<TradeDetail>>
      watchTransfers(options?: TransfersFeedOptions): Observable<FeedItem<Transfer>>
      watchFills(options?: FillsOptions): Observable<Fill>
      watchOrder(ref: WatchOrderRef, options?: WatchOrderOptions): Observable<OrderEvent>
      watchKlines(
        poolId: number,
        interval: KlineInterval,
        options?: KlinesStreamOptions,
      ): Observable<KlineEvent>
    }>()
  })

  test('the watch methods of Venue are the catalogue’s, checked as methods', () => {
    expectTypeOf<Extract<keyof Venue, `watch${string}`>>().toEqualTypeOf<keyof StreamMethods>()
    // Parameters are checked bivariantly, as for the methods written out in Venue before:
    // a test double of narrower parameters is still one of its methods.
    const double: Pick<Venue, 'watchPool'> = {
      watchPool: (_idOrSymbol: number) => EMPTY,
    }
    expectTypeOf(double).toEqualTypeOf<Pick<Venue, 'watchPool'>>()
  })
})
