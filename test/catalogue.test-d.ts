/**
 * The types read off the stream catalogue are the ones written out before it: the relay's
 * stream names (`RelayStream`, public in `venue-rx/relay`), the stream set's methods
 * (what the venue and `watchOrder` open streams from), and the venue's `watch...` methods,
 * whose hand-written signatures and docs stay in the `Venue` type.
 */
import type { Observable } from 'rxjs'
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

  test('the catalogue has every watch method of Venue, each assignable both ways', () => {
    expectTypeOf<keyof StreamMethods>().toEqualTypeOf<Extract<keyof Venue, `watch${string}`>>()
    expectTypeOf<Venue>().toExtend<StreamMethods>()
    expectTypeOf<StreamMethods>().toExtend<Pick<Venue, keyof StreamMethods>>()
  })
})
