/**
 * Every `watch...` method checks its arguments at the call, like the REST methods:
 * a `VenueInputError` naming the argument, thrown synchronously, before any request.
 * Regression tests for a book labelled with another pool (`watchDepth(1, { poolId: 2 })`),
 * `null` options, checkpoints without `load`/`save`, a non-function `onProgress`, and
 * misspelt option names that were silently ignored.
 */
import { firstValueFrom, type Observable } from 'rxjs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createVenue, type Venue, VenueInputError } from '../src/index.js'
import { dataFor } from './helpers/fixtures.js'
import { ok, type RecordingServer, startRecordingServer } from './helpers/recording-server.js'

let server: RecordingServer
let venue: Venue

beforeEach(async () => {
  server = await startRecordingServer((request) => ok(dataFor(request.pathname)))
  venue = createVenue({
    baseUrl: server.url,
    apiKey: 'k-stream-input-test-key',
    pollIntervalMs: 10,
  })
})

afterEach(async () => {
  await venue.close()
  await server.close()
})

/** Calls `watch` and returns the VenueInputError it threw at the call. */
function thrownBy(watch: () => unknown): VenueInputError {
  let thrown: unknown
  try {
    watch()
  } catch (error) {
    thrown = error
  }
  expect(thrown).toBeInstanceOf(VenueInputError)
  return thrown as VenueInputError
}

const loose = (value: unknown) => value as never

interface Case {
  readonly title: string
  readonly argument: string
  readonly call: (venue: Venue) => unknown
}

const CASES: readonly Case[] = [
  // The positional pool is the only pool.
  {
    title: 'watchDepth with a second pool in its options',
    argument: 'poolId',
    call: (v) => v.watchDepth(1, loose({ poolId: 2, limit: 3 })),
  },
  {
    title: 'watchOrderBook with a second pool in its options',
    argument: 'poolId',
    call: (v) => v.watchOrderBook(1, loose({ poolId: 2 })),
  },
  {
    title: 'watchDepth with a pool that is not a pool id',
    argument: 'poolId',
    call: (v) => v.watchDepth(loose('not-a-pool'), loose({ poolId: 0 })),
  },
  { title: 'watchDepth with a negative pool', argument: 'poolId', call: (v) => v.watchDepth(-1) },
  { title: 'watchDepth with NaN', argument: 'poolId', call: (v) => v.watchDepth(Number.NaN) },
  {
    title: 'watchTrades with a fractional pool',
    argument: 'poolId',
    call: (v) => v.watchTrades(1.5),
  },
  // Options objects.
  {
    title: 'watchDepth with null options',
    argument: 'options',
    call: (v) => v.watchDepth(1, loose(null)),
  },
  {
    title: 'watchDepth with a string as options',
    argument: 'options',
    call: (v) => v.watchDepth(1, loose('v1')),
  },
  {
    title: 'watchDepth with source null',
    argument: 'source',
    call: (v) => v.watchDepth(1, loose({ source: null })),
  },
  {
    title: 'watchDepth with limit 0',
    argument: 'limit',
    call: (v) => v.watchDepth(1, { limit: 0 }),
  },
  {
    title: 'watchDepth with precision 0',
    argument: 'precision',
    call: (v) => v.watchDepth(1, { precision: '0' }),
  },
  {
    title: 'watchTrades with null options',
    argument: 'options',
    call: (v) => v.watchTrades(1, loose(null)),
  },
  {
    title: 'watchTrades with source v3',
    argument: 'source',
    call: (v) => v.watchTrades(1, loose({ source: 'v3' })),
  },
  {
    title: 'watchTrades with an unknown option',
    argument: 'limit',
    call: (v) => v.watchTrades(1, loose({ limit: 5 })),
  },
  {
    title: 'watchMyTrades with null options',
    argument: 'options',
    call: (v) => v.watchMyTrades(loose(null)),
  },
  {
    title: 'watchMyTrades with a snake_case pool_id',
    argument: 'pool_id',
    call: (v) => v.watchMyTrades(loose({ pool_id: 1 })),
  },
  {
    title: 'watchMyTrades with a checkpoint without save',
    argument: 'checkpoint',
    call: (v) => v.watchMyTrades(loose({ checkpoint: { load: () => undefined } })),
  },
  {
    title: 'watchMyTrades with a checkpoint that is a string',
    argument: 'checkpoint',
    call: (v) => v.watchMyTrades(loose({ checkpoint: './cursor.json' })),
  },
  {
    title: 'watchMyTrades with onProgress that is not a function',
    argument: 'onProgress',
    call: (v) => v.watchMyTrades(loose({ onProgress: true })),
  },
  {
    title: 'watchMyTrades with a cursor that is not a sequence number',
    argument: 'cursor',
    call: (v) => v.watchMyTrades({ cursor: '-1' }),
  },
  {
    title: 'watchTransfers with null options',
    argument: 'options',
    call: (v) => v.watchTransfers(loose(null)),
  },
  {
    title: 'watchTransfers with a checkpoint without load',
    argument: 'checkpoint',
    call: (v) => v.watchTransfers(loose({ checkpoint: { save: () => undefined } })),
  },
  {
    title: 'watchTransfers with onProgress that is an object',
    argument: 'onProgress',
    call: (v) => v.watchTransfers(loose({ onProgress: {} })),
  },
  {
    title: 'watchTransfers with a poolId (transfers have no pool)',
    argument: 'poolId',
    call: (v) => v.watchTransfers(loose({ poolId: 1 })),
  },
  { title: 'watchPool with an empty symbol', argument: 'idOrSymbol', call: (v) => v.watchPool('') },
  { title: 'watchPool with a path trick', argument: 'idOrSymbol', call: (v) => v.watchPool('..') },
  { title: 'watchPool with null', argument: 'idOrSymbol', call: (v) => v.watchPool(loose(null)) },
  {
    title: 'watchBalances with an unknown option',
    argument: 'coin',
    call: (v) => v.watchBalances(loose({ coin: 'USDT' })),
  },
  {
    title: 'watchBalances with includeValuation that is not a boolean',
    argument: 'includeValuation',
    call: (v) => v.watchBalances(loose({ includeValuation: 'yes' })),
  },
  {
    title: 'watchBalances with an argument it does not take',
    argument: 'arguments',
    call: (v) => (v.watchBalances as (...args: unknown[]) => unknown)({}, 1),
  },
  {
    title: 'watchPools with an argument it does not take',
    argument: 'arguments',
    call: (v) => (v.watchPools as (...args: unknown[]) => unknown)(1),
  },
]

/**
 * Every option of every watch method, given `null`: only `undefined` means "not given", so
 * `null` is a wrong value like any other (a `?? default` would silently take it for the
 * default). Regression test for `watchBalances({ includeValuation: null })`, which did.
 */
const NULL_OPTIONS: readonly (readonly [
  method: string,
  option: string,
  call: (v: Venue) => unknown,
])[] = [
  ...['limit', 'precision', 'source'].flatMap((option) => [
    ['watchDepth', option, (v: Venue) => v.watchDepth(1, loose({ [option]: null }))] as const,
    [
      'watchOrderBook',
      option,
      (v: Venue) => v.watchOrderBook(1, loose({ [option]: null })),
    ] as const,
  ]),
  ['watchTrades', 'source', (v) => v.watchTrades(1, loose({ source: null }))],
  ...['source', 'since'].map(
    (option) =>
      [
        'watchKlines',
        option,
        (v: Venue) => v.watchKlines(1, '1m', loose({ [option]: null })),
      ] as const,
  ),
  ...['poolId', 'cursor', 'checkpoint', 'onProgress'].flatMap((option) => [
    ['watchMyTrades', option, (v: Venue) => v.watchMyTrades(loose({ [option]: null }))] as const,
    ['watchFills', option, (v: Venue) => v.watchFills(loose({ [option]: null }))] as const,
  ]),
  ...['cursor', 'checkpoint', 'onProgress'].map(
    (option) =>
      [
        'watchTransfers',
        option,
        (v: Venue) => v.watchTransfers(loose({ [option]: null })),
      ] as const,
  ),
  ...['visibleWithinMs', 'fillGraceMs', 'placedAfter'].map(
    (option) =>
      [
        'watchOrder',
        option,
        (v: Venue) => v.watchOrder({ clientId: 'bot-1' }, loose({ [option]: null })),
      ] as const,
  ),
  ['watchOrder', 'clientId', (v) => v.watchOrder(loose({ clientId: null }))],
  ['watchBalances', 'includeValuation', (v) => v.watchBalances(loose({ includeValuation: null }))],
]

describe('null is no option value: every watch method refuses it naming the option', () => {
  it.each(NULL_OPTIONS)(
    '%s with %s: null is a VenueInputError naming it, no request',
    (method, option, call) => {
      const error = thrownBy(() => call(venue))
      expect(error.argument).toBe(option)
      expect(error.message).toMatch(new RegExp(`^${method}: .*${option}`))
      expect(server.requests).toHaveLength(0)
    },
  )

  it('watchBalances still takes includeValuation left out, undefined, true or false', () => {
    for (const options of [
      undefined,
      {},
      { includeValuation: undefined },
      { includeValuation: true },
      { includeValuation: false },
    ]) {
      expect(() => venue.watchBalances(options)).not.toThrow()
    }
  })
})

describe('watch methods check their arguments at the call', () => {
  it.each(CASES)('$title: VenueInputError naming $argument, no request', ({ argument, call }) => {
    const error = thrownBy(() => call(venue))
    expect(error.argument).toBe(argument)
    expect(error.message).toContain(argument === 'arguments' ? 'takes no arguments' : argument)
    expect(server.requests).toHaveLength(0)
  })

  it('a book stream names the pool it polls, and polls that pool only', async () => {
    const event = await firstValueFrom(venue.watchDepth(1, { limit: 3 }))
    expect(event.poolId).toBe(1)
    expect(server.requests.map((r) => r.query['pool_id'])).toEqual(['1'])
  })

  it('watchMyTrades with a poolId follows that pool only', async () => {
    await firstValueFrom(venue.watchMyTrades({ poolId: 2 }) as Observable<unknown>)
    const trades = server.requests.filter((r) => r.pathname === '/api/v1/trades')
    expect(trades.length).toBeGreaterThan(0)
    expect(trades.map((r) => r.query['pool_id'])).toEqual(trades.map(() => '2'))
  })

  it('watch methods still accept undefined options and a trailing undefined', async () => {
    expect(() => venue.watchDepth(1, undefined)).not.toThrow()
    expect(() => venue.watchMyTrades(undefined)).not.toThrow()
    expect(() => (venue.watchBalances as (...args: unknown[]) => unknown)(undefined)).not.toThrow()
  })
})
