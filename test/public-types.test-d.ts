import { describe, expectTypeOf, test } from 'vitest'
import {
  type Balance,
  createVenue,
  type Depth,
  type KlineInterval,
  type KlinesArgs,
  type OrderRef,
  type OrderWithTrades,
  type RelayReaderSettings,
  type RelaySettings,
  type ReplayVenueOptions,
  type RestClient,
  type SharedBudgetSettings,
  type TradeDetail,
  type Venue,
  VenueAbortError,
  VenueApiError,
  VenueAuthError,
  type VenueAuthReason,
  VenueError,
  VenueInputError,
  VenueNetworkError,
  VenueNotFoundError,
  type VenueOptions,
  VenueRateLimitError,
  VenueRejectedError,
  VenueResponseError,
  type VenueResponseProblem,
  VenueServerError,
  type VenueSettings,
  VenueTimeoutError,
} from '../src/index.js'

declare const venue: Venue

describe('createVenue and Venue', () => {
  test('createVenue takes VenueOptions and returns a Venue', () => {
    expectTypeOf(createVenue).parameters.toEqualTypeOf<
      [options: VenueOptions | ReplayVenueOptions]
    >()
    expectTypeOf(createVenue).returns.toEqualTypeOf<Venue>()
    expectTypeOf(venue.rest).toEqualTypeOf<RestClient>()
    expectTypeOf(venue.settings).toEqualTypeOf<VenueSettings>()
    expectTypeOf(venue.close).returns.toEqualTypeOf<Promise<void>>()
  })

  test('VenueOptions needs only baseUrl', () => {
    expectTypeOf({ baseUrl: 'http://127.0.0.1:8787' }).toExtend<VenueOptions>()
    // @ts-expect-error baseUrl is required
    const noBase: VenueOptions = { apiKey: 'k' }
    expectTypeOf(noBase).toEqualTypeOf<VenueOptions>()
  })

  test("VenueOptions accepts marketData 'v1' and 'v2' and rejects 'v3'", () => {
    expectTypeOf({ baseUrl: 'x', marketData: 'v1' as const }).toExtend<VenueOptions>()
    expectTypeOf({ baseUrl: 'x', marketData: 'v2' as const }).toExtend<VenueOptions>()
    // @ts-expect-error 'v3' is not a MarketDataSource
    const v3: VenueOptions = { baseUrl: 'x', marketData: 'v3' }
    expectTypeOf(v3.marketData).toEqualTypeOf<'v1' | 'v2' | undefined>()
  })

  test('VenueOptions rejects an unknown option in an object literal', () => {
    // @ts-expect-error pollMs is not an option
    const typo: VenueOptions = { baseUrl: 'x', pollMs: 10 }
    expectTypeOf(typo).toEqualTypeOf<VenueOptions>()
  })

  test('the settings never expose the key, only whether there is one', () => {
    expectTypeOf<VenueSettings>().not.toHaveProperty('apiKey')
    expectTypeOf<VenueSettings['hasApiKey']>().toEqualTypeOf<boolean>()
  })
})

describe('REST method types', () => {
  test('depth resolves to Depth with [price, quantity] string levels and a number timestamp', () => {
    expectTypeOf(venue.rest.depth).returns.resolves.toEqualTypeOf<Depth>()
    expectTypeOf<Depth['bids']>().toEqualTypeOf<(readonly [string, string])[]>()
    expectTypeOf<Depth['asks']>().toEqualTypeOf<(readonly [string, string])[]>()
    expectTypeOf<Depth['bids'][number][0]>().toEqualTypeOf<string>()
    expectTypeOf<Depth['timestamp']>().toEqualTypeOf<number>()
    expectTypeOf<Depth['pool_id']>().toEqualTypeOf<number>()
  })

  test('depth requires poolId', () => {
    expectTypeOf(venue.rest.depth).toBeCallableWith({ poolId: 1, limit: 5, precision: '0.01' })
    // @ts-expect-error poolId is required
    void venue.rest.depth({ limit: 5 })
  })

  test('balances resolves to Balance[]', () => {
    expectTypeOf(venue.rest.balances).returns.resolves.toEqualTypeOf<Balance[]>()
    expectTypeOf<Balance['balance']>().toEqualTypeOf<string>()
  })

  test('order accepts a string id or { poolId, orderId, side: 0 | 1 }, not side 2', () => {
    expectTypeOf(venue.rest.order).toBeCallableWith('1-7-0')
    expectTypeOf(venue.rest.order).toBeCallableWith({ poolId: 1, orderId: 7, side: 0 })
    expectTypeOf(venue.rest.order).toBeCallableWith({ poolId: 1, orderId: 7, side: 1 })
    expectTypeOf(venue.rest.order).returns.resolves.toEqualTypeOf<OrderWithTrades>()
    expectTypeOf<Exclude<OrderRef, string>['side']>().toEqualTypeOf<0 | 1>()
    // @ts-expect-error side must be 0 (buy) or 1 (sell)
    void venue.rest.order({ poolId: 1, orderId: 7, side: 2 })
    // @ts-expect-error a number is not an order id
    void venue.rest.order(7)
  })

  test('klines requires an interval of the KlineInterval union', () => {
    expectTypeOf<KlineInterval>().toEqualTypeOf<
      '1m' | '5m' | '15m' | '30m' | '1h' | '4h' | '1d' | '1w' | '1M'
    >()
    expectTypeOf<KlinesArgs['interval']>().toEqualTypeOf<KlineInterval>()
    expectTypeOf(venue.rest.klines).toBeCallableWith({ poolId: 1, interval: '1h' })
    // @ts-expect-error '2m' is not a KlineInterval
    void venue.rest.klines({ poolId: 1, interval: '2m' })
    // @ts-expect-error interval is required
    void venue.rest.klines({ poolId: 1 })
  })

  test('trades resolves to TradeDetail[] with global_seq and order ids as exact digit strings', () => {
    expectTypeOf(venue.rest.trades).returns.resolves.toEqualTypeOf<TradeDetail[]>()
    expectTypeOf<TradeDetail['global_seq']>().toEqualTypeOf<string>()
    expectTypeOf<TradeDetail['taker_order_id']>().toEqualTypeOf<string>()
  })

  test('every method takes an optional { signal } as its last argument', () => {
    expectTypeOf(venue.rest.ping).toBeCallableWith({ signal: new AbortController().signal })
    expectTypeOf(venue.rest.ping).toBeCallableWith()
    // @ts-expect-error the signal must be an AbortSignal
    void venue.rest.ping({ signal: 'stop' })
  })
})

describe('error types', () => {
  test('every error class exposes code: string and retryable: boolean', () => {
    expectTypeOf<VenueError['code']>().toEqualTypeOf<string>()
    expectTypeOf<VenueError['retryable']>().toEqualTypeOf<boolean>()
    expectTypeOf<VenueError['endpoint']>().toEqualTypeOf<string | undefined>()
    expectTypeOf(VenueError.code).toEqualTypeOf<string>()
    for (const error of [
      new VenueInputError('a', 'm'),
      new VenueAuthError('forbidden', 'm'),
      new VenueNotFoundError('m', { status: 404 }),
      new VenueRejectedError('m', { status: 400 }),
      new VenueRateLimitError('m', { status: 429 }),
      new VenueServerError('m', { status: 500 }),
      new VenueNetworkError('m', {}),
      new VenueTimeoutError('m', { timeoutMs: 1 }),
      new VenueAbortError('m'),
      new VenueResponseError('json', 'm', { status: 200 }),
      new VenueApiError('m', { status: 200, venueCode: 1 }),
    ]) {
      expectTypeOf(error).toExtend<VenueError>()
      expectTypeOf(error.code).toExtend<string>()
      expectTypeOf(error.retryable).toExtend<boolean>()
    }
  })

  test('the extra fields have their documented types', () => {
    expectTypeOf<VenueRateLimitError['retryAfterMs']>().toEqualTypeOf<number | undefined>()
    expectTypeOf<VenueAuthError['reason']>().toEqualTypeOf<VenueAuthReason>()
    expectTypeOf<VenueAuthReason>().toEqualTypeOf<
      'missing-key' | 'invalid-key' | 'unauthorized' | 'forbidden'
    >()
    expectTypeOf<VenueServerError['ambiguous']>().toEqualTypeOf<boolean>()
    expectTypeOf<VenueResponseError['problem']>().toEqualTypeOf<VenueResponseProblem>()
    expectTypeOf<VenueResponseProblem>().toEqualTypeOf<
      'json' | 'envelope' | 'schema' | 'status' | 'size' | 'inconsistent'
    >()
    expectTypeOf<VenueApiError['venueCode']>().toEqualTypeOf<number>()
    expectTypeOf<VenueNetworkError['causeCode']>().toEqualTypeOf<string | undefined>()
    expectTypeOf<VenueTimeoutError['timeoutMs']>().toEqualTypeOf<number>()
  })

  test('fields are read-only', () => {
    const error = new VenueRateLimitError('m', { status: 429, retryAfterMs: 5 })
    // @ts-expect-error retryAfterMs is read-only
    error.retryAfterMs = 0
    // @ts-expect-error code is read-only
    error.code = 'VENUE_RATE_LIMITED'
  })

  test('VenueAuthError rejects an unknown reason', () => {
    // @ts-expect-error 'expired' is not a VenueAuthReason
    expectTypeOf(new VenueAuthError('expired', 'm')).toExtend<VenueError>()
  })
})

describe('Redis settings: one type per role', () => {
  test('relay takes RelayReaderSettings, sharedBudget SharedBudgetSettings', () => {
    expectTypeOf<NonNullable<VenueOptions['relay']>>().toEqualTypeOf<RelayReaderSettings>()
    expectTypeOf<NonNullable<VenueOptions['sharedBudget']>>().toEqualTypeOf<SharedBudgetSettings>()
  })

  test('the deprecated RelaySettings still fits both options', () => {
    expectTypeOf<RelaySettings>().toExtend<RelayReaderSettings>()
    expectTypeOf<RelaySettings>().toExtend<SharedBudgetSettings>()
    expectTypeOf({ redis: 'redis://127.0.0.1:6379' }).toExtend<RelaySettings>()
  })
})
