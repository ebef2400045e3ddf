/**
 * One catalogue of streams (src/streams/catalogue.ts): the venue's `watch...` methods, the
 * argument guards, the polled and relayed stream sets, the relay publisher and the relay
 * stream names are read off it, so that a stream is named in a few files only, and adding
 * one touches its module and the catalogue (docs/adding-a-stream.md).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { afterAll, describe, expect, it } from 'vitest'
import { createVenue, type Venue, VenueInputError } from '../src/index.js'
import {
  isAccountStream,
  parseRelayStream,
  type RelayStream,
  relayStreamName,
} from '../src/redis/stream-names.js'
import { relayStreams } from '../src/relay-reader/relay-streams.js'
import { RELAYED, streamOpeners } from '../src/streams/catalogue.js'
import type { StreamContext } from '../src/streams/stream-context.js'
import { polledStreams } from '../src/streams/stream-set.js'
import { SRC, sources } from './helpers/source-imports.js'

const venue = createVenue({ baseUrl: 'http://127.0.0.1:9' })
afterAll(() => venue.close())

/** The venue's `watch...` methods, in the venue's order. */
const METHODS = Object.keys(venue).filter((name) => name.startsWith('watch'))

/** The code of a source file, its comments left out. */
function codeOf(file: string): string {
  const text = readFileSync(join(SRC, file), 'utf8')
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS)
  return ts.createPrinter({ removeComments: true }).printFile(source)
}

describe('the catalogue is the list of streams', () => {
  it('its methods are the venue’s watch methods, in its order', () => {
    const context = {} as StreamContext
    const catalogued = streamOpeners({ context, marketData: 'v2' }, polledStreams(context, 'v2'))
    expect(catalogued.map(({ method }) => method)).toEqual(METHODS)
    expect(METHODS).toHaveLength(15)
  })

  it('the polled and the relayed stream sets hold its relayed streams', () => {
    const relayed = RELAYED.map(({ method }) => method)
    expect(relayed).toEqual([
      'watchDepth',
      'watchTrades',
      'watchKlines',
      'watchMyTrades',
      'watchTransfers',
      'watchFills',
      'watchBalances',
      'watchOpenOrders',
      'watchPools',
      'watchPool',
      'watchTokens',
      'watchSystemInfo',
      'watchAccount',
    ])
    const context = {} as StreamContext
    expect(Object.keys(polledStreams(context, 'v2'))).toEqual(relayed)
    const reader = { context, connection: undefined as never, readIntervalMs: 100 }
    const scope = { prefix: 'p', baseUrl: 'http://x', marketData: 'v2' as const, apiKey: 'k' }
    expect(Object.keys(relayStreams(reader, scope))).toEqual(relayed)
  })

  /**
   * The code (comments left out) of every file under src/ but the CLI's: the CLI uses the
   * venue's methods as a user does (as examples/ and bench/ do). Before the catalogue,
   * `watchKlines` was named in venue.ts, stream-set.ts, watch-klines.ts, relay-streams.ts
   * and stream-sources.ts; then in venue.ts (the `Venue` type and its docs), the catalogue
   * and the stream's module; now the `Venue` type's methods come from the catalogue, whose
   * entries hold their docs: a stream is named by its entry and by its own module only.
   */
  it('names each stream method in the code of the catalogue and of its module only', () => {
    const code = sources()
      .filter((file) => !file.startsWith('cli/'))
      .map((file) => ({ file, code: codeOf(file) }))
    const naming = Object.fromEntries(
      METHODS.map((method) => {
        const word = new RegExp(`(?<![\\w$])${method}(?![\\w$])`)
        return [method, code.filter((each) => word.test(each.code)).map(({ file }) => file)]
      }),
    )
    const resources = ['streams/catalogue.ts', 'streams/watch-resources.ts']
    expect(naming).toEqual({
      watchDepth: ['streams/catalogue.ts', 'streams/watch-depth.ts'],
      watchTrades: ['streams/catalogue.ts', 'streams/watch-trades.ts'],
      watchKlines: ['streams/catalogue.ts', 'streams/watch-klines.ts'],
      watchMyTrades: ['streams/catalogue.ts', 'streams/watch-my-trades.ts'],
      watchTransfers: ['streams/catalogue.ts', 'streams/watch-transfers.ts'],
      watchFills: ['streams/catalogue.ts', 'streams/watch-fills.ts'],
      watchBalances: ['streams/catalogue.ts', 'streams/watch-balances.ts'],
      watchOpenOrders: ['streams/catalogue.ts', 'streams/watch-open-orders.ts'],
      watchPools: resources,
      watchPool: resources,
      watchTokens: resources,
      watchSystemInfo: resources,
      watchAccount: resources,
      watchOrder: ['streams/catalogue.ts', 'streams/watch-order.ts'],
      // Built on watchDepth's stream in the catalogue: no module of its own.
      watchOrderBook: ['streams/catalogue.ts'],
    })
  })
})

describe('the venue’s argument guards come from the catalogue', () => {
  /** How many arguments each method takes, as before the catalogue. */
  const ARITY: Record<string, number> = {
    watchPools: 0,
    watchPool: 1,
    watchTokens: 0,
    watchSystemInfo: 0,
    watchAccount: 0,
    watchBalances: 1,
    watchOpenOrders: 0,
    watchDepth: 2,
    watchOrderBook: 2,
    watchTrades: 2,
    watchMyTrades: 1,
    watchTransfers: 1,
    watchFills: 1,
    watchOrder: 2,
    watchKlines: 3,
  }

  it.each(METHODS)('%s refuses a defined argument after its own, at the call', (method) => {
    expect(Object.keys(ARITY).sort()).toEqual([...METHODS].sort())
    const arity = ARITY[method] as number
    const watch = venue[method as keyof Venue] as (...args: unknown[]) => unknown
    const args = [...Array.from({ length: arity }, () => undefined), 'extra']
    let thrown: unknown
    try {
      watch(...args)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(VenueInputError)
    expect((thrown as VenueInputError).message).toBe(`${method}: takes no arguments`)
  })
})

describe('relay stream names come from the catalogue', () => {
  const EXAMPLES: Record<string, RelayStream> = {
    'depth:1': { kind: 'depth', poolId: 1 },
    'trades:0': { kind: 'trades', poolId: 0 },
    'klines:2:5m': { kind: 'klines', poolId: 2, interval: '5m' },
    'my-trades': { kind: 'my-trades' },
    transfers: { kind: 'transfers' },
    fills: { kind: 'fills' },
    balances: { kind: 'balances' },
    'open-orders': { kind: 'open-orders' },
    pools: { kind: 'pools' },
    'pool:1': { kind: 'pool', poolId: 1 },
    tokens: { kind: 'tokens' },
    'system-info': { kind: 'system-info' },
    account: { kind: 'account' },
  }

  it('one name per relayed stream, read and written back', () => {
    expect(Object.values(EXAMPLES).map(({ kind }) => kind)).toEqual(
      RELAYED.map(({ relay }) => relay.kind),
    )
    for (const [name, stream] of Object.entries(EXAMPLES)) {
      expect(parseRelayStream(name)).toEqual(stream)
      expect(relayStreamName(stream)).toBe(name)
    }
  })

  it('the account streams are those of the account behind the key', () => {
    const account = Object.values(EXAMPLES).filter(isAccountStream)
    expect(account.map(({ kind }) => kind)).toEqual([
      'my-trades',
      'transfers',
      'fills',
      'balances',
      'open-orders',
      'account',
    ])
  })

  it.each([
    'depth',
    'depth:1:',
    'depth:01',
    'trades:x',
    'klines:1',
    'klines:1:7m',
    'klines:1:5m:',
    'pools:1',
    'pool',
    'pool:x',
    'pool:1:',
    'orders',
  ])('%s is no name: the error lists every name, as before', (name) => {
    expect(() => parseRelayStream(name)).toThrow(
      `relay: unknown stream "${name}" (streams: depth:POOL, trades:POOL, ` +
        'klines:POOL:INTERVAL with INTERVAL one of 1m 5m 15m 30m 1h 4h 1d 1w 1M, ' +
        'my-trades, transfers, fills, balances, open-orders, pools, pool:POOL, tokens, system-info, account)',
    )
  })
})
