/**
 * The export list of each entry point, pinned: a symbol added to or dropped from the
 * public surface is a deliberate change that shows here (and in the CHANGELOG), and
 * internals (`ENDPOINTS`, `streamKey`, `backoffDelay`, `envelopeSchema`, ...) stay out.
 * Type-only exports leave no runtime name; `test/public-types.test-d.ts` checks those.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const names = async (entry: string) => Object.keys(await import(entry)).sort()

describe('entry points export exactly their public names', () => {
  it('venue-rx: what a bot uses', async () => {
    expect(await names('../src/index.js')).toEqual([
      'DEFAULT_PARAM_NAMES',
      'KLINE_INTERVALS',
      'OrderBook',
      'OrderSide',
      'OrderStatus',
      'OrderType',
      'PoolStatus',
      'VenueAbortError',
      'VenueApiError',
      'VenueAuthError',
      'VenueError',
      'VenueInputError',
      'VenueJournalError',
      'VenueNetworkError',
      'VenueNotFoundError',
      'VenueRateLimitError',
      'VenueRejectedError',
      'VenueRelayError',
      'VenueResponseError',
      'VenueServerError',
      'VenueTimeoutError',
      'addDecimal',
      'applyBookEvent',
      'compareDecimal',
      'compareIds',
      'createVenue',
      'divideDecimal',
      'fileCheckpoint',
      'halfDecimal',
      'isCursorPosition',
      'isDecimal',
      'isZeroDecimal',
      'memoryCheckpoint',
      'multiplyDecimal',
      'normalizeDecimal',
      'subtractDecimal',
      'toAsyncIterable',
    ])
  })

  it('venue-rx/operators: the building blocks of streams', async () => {
    expect(await names('../src/operators.js')).toEqual([
      'MAX_ABOVE',
      'diffByKey',
      'distinctUntilDeepChanged',
      'fromRequest',
      'isCursorPosition',
      'isEmptyDiff',
      'keyedDiff',
      'newInWindow',
      'paginateCursor',
      'poll',
      'retryBackoff',
    ])
  })

  it('venue-rx/schemas: the zod schemas and the codes of the resources', async () => {
    expect(await names('../src/schemas/index.js')).toEqual([
      'KLINE_INTERVALS',
      'OrderSide',
      'OrderStatus',
      'OrderType',
      'PoolStatus',
      'accountInfoSchema',
      'balanceLockSchema',
      'balanceSchema',
      'decimalString',
      'depthSchema',
      'finiteNumber',
      'klineSchema',
      'levelSchema',
      'nonNegativeSafeInteger',
      'openOrderSchema',
      'orderSchema',
      'orderWithTradesSchema',
      'pingSchema',
      'poolDetailSchema',
      'poolSummarySchema',
      'publicTradeSchema',
      'safeInteger',
      'systemInfoSchema',
      'timestampMillis',
      'timestampSeconds',
      'tokenChainSchema',
      'tokenInfoSchema',
      'tokenLinkSchema',
      'tokenSchema',
      'tradeDetailSchema',
      'transferSchema',
      'unsignedIntegerString',
    ])
  })

  it('venue-rx/signals: market signals as operators', async () => {
    expect(await names('../src/signals/index.js')).toEqual([
      'crossover',
      'depthWithin',
      'ema',
      'imbalance',
      'indicator',
      'microprice',
      'mid',
      'ohlcv',
      'spread',
      'threshold',
      'tradeFlowImbalance',
      'vwap',
    ])
  })

  it('venue-rx/simulator: the local venue', async () => {
    expect(await names('../src/simulator/index.js')).toEqual([
      'EXTRA_FIELD',
      'Faults',
      'Quirks',
      'checkFaultSpec',
      'checkQuirks',
      'createMarket',
      'createSimulatorServer',
      'startSimulator',
      'stopSimulatorServer',
    ])
  })

  it('venue-rx/relay: one poller for a fleet', async () => {
    expect(await names('../src/relay.js')).toEqual([
      'parseRelayStream',
      'relayStreamName',
      'startRelay',
    ])
  })

  it('package.json maps each entry point to its build output', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
    expect(Object.keys(pkg.exports)).toEqual([
      '.',
      './operators',
      './schemas',
      './signals',
      './simulator',
      './relay',
      './package.json',
    ])
    expect(pkg.exports['./operators']).toEqual({
      types: './dist/operators.d.ts',
      default: './dist/operators.js',
    })
    expect(pkg.peerDependencies).toEqual({ rxjs: '^7.8' })
    expect(pkg.dependencies.rxjs).toBeUndefined()
  })
})
