import fc from 'fast-check'
import { describe, expect, expectTypeOf, it } from 'vitest'
import type { z } from 'zod'
import { numberToDecimalString } from '../src/decimal.js'
import { type Envelope, envelopeSchema } from '../src/schemas/envelope.js'
import { fastDepth } from '../src/schemas/fast-paths.js'
import type {
  Balance,
  Depth,
  Kline,
  Level,
  OrderWithTrades,
  PoolDetail,
  Token,
  Transfer,
} from '../src/schemas/index.js'
import {
  accountInfoSchema,
  balanceSchema,
  decimalString,
  depthSchema,
  finiteNumber,
  KLINE_INTERVALS,
  klineSchema,
  levelSchema,
  nonNegativeSafeInteger,
  OrderSide,
  OrderStatus,
  OrderType,
  openOrderSchema,
  orderSchema,
  orderWithTradesSchema,
  PoolStatus,
  pingSchema,
  poolDetailSchema,
  poolSummarySchema,
  publicTradeSchema,
  safeInteger,
  systemInfoSchema,
  timestampMillis,
  timestampSeconds,
  tokenSchema,
  tradeDetailSchema,
  transferSchema,
} from '../src/schemas/index.js'
import { parseIsoTimestamp } from '../src/schemas/primitives.js'
import { params } from './fuzz/config.js'
import { canonicalNumber } from './fuzz/decimal-text.js'

/** 2023-11-14T22:13:20.000Z */
const T_SECONDS = 1_700_000_000
const T_MS = T_SECONDS * 1000
/** 2024-01-02T03:04:05.678Z */
const ISO_MS = 1_704_164_645_678

/** Parses and returns the issues of a failing parse, failing the test if it succeeds. */
function issuesOf(schema: z.ZodType, input: unknown): z.core.$ZodIssue[] {
  const result = schema.safeParse(input)
  if (result.success) throw new Error(`expected failure, parsed ${JSON.stringify(result.data)}`)
  return result.error.issues
}

/** Paths of the issues of a failing parse. */
function pathsOf(schema: z.ZodType, input: unknown): PropertyKey[][] {
  return issuesOf(schema, input).map((issue) => issue.path)
}

/**
 * Parses `wire` with `added` fields (unknown ones, or nested values with unknown fields) and
 * expects `wire` back with `changes` applied: unknown fields stripped, values converted.
 */
function expectParsed<S extends z.ZodType>(
  schema: S,
  wire: object,
  added: object,
  changes: object,
): z.output<S> {
  const parsed = schema.parse({ ...wire, ...added })
  expect(parsed).toStrictEqual({ ...wire, ...changes })
  return parsed
}

const tradeDetailWire = {
  global_seq: 184467,
  tx_id: 'a1b2c3',
  pool_id: 1,
  base_coin: 'chain.token-CHAIN',
  quote_coin: 'usdt.ext-USDT',
  base_quantity: '10.0000',
  quote_quantity: '12.345600',
  price: '1.234560',
  timestamp: T_SECONDS,
  taker: 'alice',
  taker_fee: '0.037036',
  taker_is_bid: true,
  taker_order_id: 77,
  taker_order_cid: 'cid-77',
  taker_permission: 'active',
  maker: 'bob',
  maker_fee: '0.012345',
  maker_order_id: 66,
  maker_order_cid: '',
  maker_permission: 'active',
}

/** What the schema makes of a wire trade: ids as digit strings, the time in epoch ms. */
const tradeDetailParsed = {
  ...tradeDetailWire,
  global_seq: '184467',
  taker_order_id: '77',
  maker_order_id: '66',
  timestamp: T_MS,
}

const openOrderWire = {
  id: '1-77-0',
  order_id: 77,
  order_cid: 'cid-77',
  pool_id: 1,
  pool_symbol: 'chain.token-CHAIN-usdt.ext-USDT',
  pool_base_coin: 'chain.token-CHAIN',
  pool_quote_coin: 'usdt.ext-USDT',
  base_coin_precision: 4,
  quote_coin_precision: 6,
  side: 0,
  type: 1,
  order_price: '1.234560',
  order_amount: '10.0000',
  order_total: '12.345600',
  avg_price: '0.000000',
  executed_amount: '0.0000',
  order_time: T_SECONDS,
  trader: 'alice',
}

const orderWire = {
  ...openOrderWire,
  filled_total: '0.000000',
  history: true,
  permission: 'active',
  status: 3,
  unread: false,
}

const poolSummaryWire = {
  pool_id: 1,
  symbol: 'chain.token-CHAIN-usdt.ext-USDT',
  base_coin: 'chain.token-CHAIN',
  quote_coin: 'usdt.ext-USDT',
  base_coin_precision: 4,
  quote_coin_precision: 6,
  price_precision: 6,
  last_price: '1.234560',
  high: '1.300000',
  low: '1.100000',
  change: '0.034560',
  change_rate: 0.0288,
  trades: 1532,
  volume: '120034.5000',
  turnover: '148188.000000',
  updated_at: T_SECONDS,
}

describe('numberToDecimalString', () => {
  it('writes tiny and huge numbers without exponent notation', () => {
    expect(numberToDecimalString(1e-7)).toBe('0.0000001')
    expect(numberToDecimalString(1.5e21)).toBe('1500000000000000000000')
    expect(numberToDecimalString(-1.2345e-10)).toBe('-0.00000000012345')
    expect(numberToDecimalString(1e21)).toBe('1000000000000000000000')
  })

  it('keeps ordinary numbers as JavaScript writes them and negative zero as "0"', () => {
    expect(numberToDecimalString(123.456)).toBe('123.456')
    expect(numberToDecimalString(0.1)).toBe('0.1')
    expect(numberToDecimalString(-42)).toBe('-42')
    expect(numberToDecimalString(-0)).toBe('0')
  })

  it('throws a RangeError for NaN and infinities', () => {
    expect(() => numberToDecimalString(Number.NaN)).toThrow(RangeError)
    expect(() => numberToDecimalString(Number.POSITIVE_INFINITY)).toThrow(RangeError)
  })
})

describe('decimalString', () => {
  it('keeps decimal strings byte for byte', () => {
    for (const text of ['1.10', '0.00000000', '-3.5', '007', '123456789012345678901234.5']) {
      expect(decimalString.parse(text)).toBe(text)
    }
  })

  it('turns JSON numbers into plain decimal strings', () => {
    expect(decimalString.parse(1.1)).toBe('1.1')
    expect(decimalString.parse(1e-7)).toBe('0.0000001')
    expect(decimalString.parse(1.5e21)).toBe('1500000000000000000000')
    expect(decimalString.parse(0)).toBe('0')
  })

  it('rejects empty, non-decimal and exponent text with a clear message', () => {
    for (const text of ['', ' 1', '1.', '.5', '+1', '1e5', 'abc', '1,5']) {
      const [issue] = issuesOf(decimalString, text)
      expect(issue?.message).toMatch(/decimal/)
    }
  })

  it('rejects NaN, infinities, booleans and null', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, true, null, undefined]) {
      const [issue] = issuesOf(decimalString, value)
      expect(issue?.message).toBe('Expected a decimal string or a finite number')
    }
  })
})

describe('timestampSeconds', () => {
  it('turns integer seconds into epoch milliseconds', () => {
    expect(timestampSeconds.parse(T_SECONDS)).toBe(T_MS)
  })

  it('turns numeric strings of seconds into epoch milliseconds, rounding to the millisecond', () => {
    expect(timestampSeconds.parse('1700000000')).toBe(T_MS)
    expect(timestampSeconds.parse('1700000000.5')).toBe(T_MS + 500)
    expect(timestampSeconds.parse(1_700_000_000.0004)).toBe(T_MS)
  })

  it('takes numbers at or above 1e12 as already being milliseconds', () => {
    expect(timestampSeconds.parse(T_MS + 123)).toBe(T_MS + 123)
    expect(timestampSeconds.parse(String(T_MS + 123))).toBe(T_MS + 123)
    expect(timestampSeconds.parse(1e12)).toBe(1e12)
    expect(timestampSeconds.parse(999_999_999_999)).toBe(999_999_999_999_000)
  })

  it('reads ISO-8601 with Z, with an offset, without a zone (UTC) and plain dates', () => {
    expect(timestampSeconds.parse('2024-01-02T03:04:05.678Z')).toBe(ISO_MS)
    expect(timestampSeconds.parse('2024-01-02T05:04:05.678+02:00')).toBe(ISO_MS)
    expect(timestampSeconds.parse('2024-01-01T22:34:05.678-04:30')).toBe(ISO_MS)
    expect(timestampSeconds.parse('2024-01-02T03:04:05.678')).toBe(ISO_MS)
    expect(timestampSeconds.parse('2024-01-02T03:04:05Z')).toBe(ISO_MS - 678)
    expect(timestampSeconds.parse('2024-01-02')).toBe(Date.UTC(2024, 0, 2))
  })

  it('agrees with Date.parse on ISO forms that both understand', () => {
    for (const text of [
      '2024-01-02T03:04:05.678Z',
      '2024-02-29T23:59:59.999+01:00',
      '1999-12-31T00:00:00Z',
    ]) {
      expect(timestampSeconds.parse(text)).toBe(Date.parse(text))
    }
  })

  it('maps the unset time 0 and "0" to 0', () => {
    expect(timestampSeconds.parse(0)).toBe(0)
    expect(timestampSeconds.parse('0')).toBe(0)
  })

  it('rejects empty text, garbage, impossible dates and non-finite numbers', () => {
    for (const value of [
      '',
      'yesterday',
      '2024-02-30',
      '2024-13-01T00:00:00Z',
      '2024-01-02T24:00:00Z',
      '2024-01-02T03:04:05+25:00',
      Number.NaN,
      Number.POSITIVE_INFINITY,
      1e300,
      null,
    ]) {
      expect(timestampSeconds.safeParse(value).success).toBe(false)
    }
  })

  it('keeps unreadable text in the issue input, not in its message (the message may be logged unredacted)', () => {
    const result = timestampSeconds.safeParse('yesterday', { reportInput: true })
    const issue = result.error?.issues[0]
    expect(issue?.input).toBe('yesterday')
    expect(issue?.message).not.toContain('yesterday')
  })
})

describe('timestampMillis', () => {
  it('takes numbers and numeric strings as milliseconds', () => {
    expect(timestampMillis.parse(T_MS + 123)).toBe(T_MS + 123)
    expect(timestampMillis.parse('1700000000123')).toBe(T_MS + 123)
    expect(timestampMillis.parse(1234.6)).toBe(1235)
    expect(timestampMillis.parse(0)).toBe(0)
  })

  it('reads ISO-8601 like timestampSeconds', () => {
    expect(timestampMillis.parse('2024-01-02T03:04:05.678Z')).toBe(ISO_MS)
    expect(timestampMillis.parse('2024-01-02T05:04:05.678+02:00')).toBe(ISO_MS)
  })
})

describe('parseIsoTimestamp', () => {
  it('rounds fractions finer than a millisecond and accepts compact offsets', () => {
    expect(parseIsoTimestamp('2024-01-02T03:04:05.6785Z')).toBe(ISO_MS + 1)
    expect(parseIsoTimestamp('2024-01-02T03:04:05.6Z')).toBe(ISO_MS - 78)
    expect(parseIsoTimestamp('2024-01-02T05:04:05.678+0200')).toBe(ISO_MS)
    expect(parseIsoTimestamp('2024-01-02T05:04:05.678+02')).toBe(ISO_MS)
  })

  it('handles years below 100 literally', () => {
    expect(parseIsoTimestamp('0099-01-01')).toBe(Date.parse('0099-01-01T00:00:00Z'))
  })

  it('returns undefined for text that is not a calendar time', () => {
    expect(parseIsoTimestamp('2023-02-29')).toBeUndefined()
    expect(parseIsoTimestamp('2024-01-02T03:04:05.678Zjunk')).toBeUndefined()
    expect(parseIsoTimestamp('')).toBeUndefined()
  })
})

describe('safeInteger and nonNegativeSafeInteger', () => {
  it('accept integer numbers and digit strings', () => {
    expect(safeInteger.parse(42)).toBe(42)
    expect(safeInteger.parse('42')).toBe(42)
    expect(safeInteger.parse('-7')).toBe(-7)
    expect(safeInteger.parse(Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER)
    expect(nonNegativeSafeInteger.parse('0')).toBe(0)
  })

  it('reject unsafe integers because precision would be lost', () => {
    for (const value of [2 ** 53, '9007199254740993', 1e21, '-9007199254740993']) {
      const [issue] = issuesOf(safeInteger, value)
      expect(issue?.message).toMatch(/precision would be lost/)
    }
  })

  it('reject fractions, empty text and garbage', () => {
    for (const value of [1.5, '1.5', '', 'abc', '+1', true]) {
      expect(safeInteger.safeParse(value).success).toBe(false)
    }
  })

  it('nonNegativeSafeInteger rejects negative values', () => {
    expect(nonNegativeSafeInteger.safeParse(-1).success).toBe(false)
    expect(nonNegativeSafeInteger.safeParse('-1').success).toBe(false)
  })
})

describe('finiteNumber', () => {
  it('accepts numbers and numeric strings and rejects the rest', () => {
    expect(finiteNumber.parse(0.003)).toBe(0.003)
    expect(finiteNumber.parse('0.003')).toBe(0.003)
    expect(finiteNumber.parse('-1.5e-3')).toBe(-0.0015)
    for (const value of ['', 'abc', '1e999', Number.NaN, null]) {
      expect(finiteNumber.safeParse(value).success).toBe(false)
    }
  })

  it.each([
    ['1e-4', 0.0001],
    ['0.0001', 0.0001],
    ['0.003', 0.003],
    ['0.0030', 0.003],
    ['3E-3', 0.003],
    ['.5', 0.5],
    ['5.', 5],
    ['-0', -0],
    ['0e-99999999', 0],
    ['9007199254740992', 9007199254740992],
    ['1000000000000000000000', 1e21],
    ['1.7976931348623157e308', Number.MAX_VALUE],
    ['5e-324', Number.MIN_VALUE],
  ])('takes text %s that is exactly the number it becomes', (text, value) => {
    expect(finiteNumber.parse(text)).toBe(value)
  })

  it.each([
    ['9007199254740993', 'the double is 9007199254740992'],
    ['0.10000000000000000001', 'the double prints as 0.1'],
    ['-0.30000000000000000004', 'the double prints as -0.3'],
    ['1e-400', 'it underflows to zero'],
    ['18446744073709551616', 'the double 2^64 prints as 18446744073709552000'],
    [
      '0.1000000000000000055511151231257827',
      'the exact value of the double 0.1, which prints as 0.1',
    ],
  ])(
    'refuses text %s, which a double would change (%s), with a message that does not quote it',
    (text) => {
      const parsed = finiteNumber.safeParse(text)
      expect(parsed.success).toBe(false)
      const message = parsed.error?.issues[0]?.message ?? ''
      expect(message).toBe('Expected a number a double holds as written (it would be rounded)')
      expect(message).not.toContain(text)
    },
  )

  it('takes the shortest text of any double and refuses text a digit longer than the double holds', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (d) => {
        // `===`: String(-0) is "0".
        expect(finiteNumber.parse(String(d)) === d).toBe(true)
        expect(finiteNumber.parse(d.toExponential()) === d).toBe(true)
        // Text with more digits than the double's shortest form: taken exactly when those
        // digits say the same number (an oracle written apart from src/).
        const long = d.toPrecision(21)
        const same = canonicalNumber(long) === canonicalNumber(String(Number(long)))
        expect(finiteNumber.safeParse(long).success, long).toBe(same)
      }),
      params(2_000),
    )
  })

  it('a number field takes any JSON number as it is (JSON.parse already made it a double)', () => {
    expect(finiteNumber.parse(0.1)).toBe(0.1)
    expect(finiteNumber.parse(2 ** 64)).toBe(2 ** 64)
  })
})

describe('envelopeSchema', () => {
  it('parses a success envelope and keeps data untouched', () => {
    const data = [{ pool_id: 1 }]
    expect(envelopeSchema.parse({ code: 0, message: '', data, meta: { total: 12 } })).toStrictEqual(
      { code: 0, message: '', data, meta: { total: 12 } },
    )
  })

  it('defaults message to "" and meta to {} when absent and strips unknown keys', () => {
    const parsed = envelopeSchema.parse({ code: 500, data: null, trace_id: 'x' })
    expect(parsed).toStrictEqual({ code: 500, message: '', data: null, meta: {} })
  })

  it('rejects a missing or non-integer code', () => {
    expect(pathsOf(envelopeSchema, { message: 'x', data: null })).toStrictEqual([['code']])
    expect(envelopeSchema.safeParse({ code: 1.5, data: null }).success).toBe(false)
  })
})

describe('depthSchema', () => {
  const wire = {
    asks: [
      ['1.234600', '10.50000000'],
      ['1.234700', '3.10'],
    ],
    bids: [['1.234500', '7.00000001']],
    pool_id: 1,
    precision: '0.000001',
    timestamp: T_MS + 321,
  }

  it('parses a realistic snapshot with millisecond timestamp and exact strings', () => {
    expectParsed(depthSchema, wire, {}, {})
  })

  it('strips unknown top-level fields and ignores extra level elements', () => {
    const added = { bids: [['1.234500', '7', 'extra', 4]], sequence: 99 }
    const parsed = expectParsed(depthSchema, wire, added, { bids: [['1.234500', '7']] })
    expect(parsed).not.toHaveProperty('sequence')
  })

  it('turns numeric levels into decimal strings', () => {
    expect(levelSchema.parse([1.5e-7, 12])).toStrictEqual(['0.00000015', '12'])
  })

  it('names the path of a bad quantity', () => {
    expect(pathsOf(depthSchema, { ...wire, bids: [['1.2', 'lots']] })).toStrictEqual([
      ['bids', 0, 1],
    ])
  })

  it('names the path of a missing quantity', () => {
    expect(pathsOf(depthSchema, { ...wire, asks: [...wire.asks, ['1.3']] })).toStrictEqual([
      ['asks', 2, 1],
    ])
  })

  it('refuses a negative quantity, as text or as a number, naming its path', () => {
    expect(pathsOf(depthSchema, { ...wire, bids: [['1.2', '-0.5']] })).toStrictEqual([
      ['bids', 0, 1],
    ])
    expect(pathsOf(depthSchema, { ...wire, asks: [['1.3', -2]] })).toStrictEqual([['asks', 0, 1]])
    expect(issuesOf(levelSchema, ['1.2', '-1'])[0]?.message).toBe(
      'Expected a quantity of 0 or more',
    )
  })

  it('takes a quantity of zero in any writing (the book streams drop such a level)', () => {
    for (const zero of ['0', '0.000', '-0', '-0.00']) {
      expect(levelSchema.parse(['1.2', zero])).toStrictEqual(['1.2', zero])
    }
  })

  it('fastDepth refuses a negative quantity as the schema does, with or without a known answer', () => {
    const negative = { ...wire, bids: [['1.2', '-1']] }
    expect(fastDepth(negative)).toBeUndefined()
    const known = depthSchema.parse({ ...wire, bids: [['1.2', '1']] })
    expect(fastDepth(negative, known)).toBeUndefined()
    expect(depthSchema.safeParse(negative).success).toBe(false)
    expect(fastDepth({ ...wire, bids: [['1.2', '-0']] })).toStrictEqual(
      depthSchema.parse({ ...wire, bids: [['1.2', '-0']] }),
    )
  })
})

describe('klineSchema', () => {
  it('parses numbers into exact decimal strings and seconds into epoch ms', () => {
    const parsed = klineSchema.parse({
      open: 1.2345,
      high: 1.3,
      low: 1.1,
      close: 1.25,
      volume: 120034.5,
      turnover: 1e-7,
      count: 42,
      interval: '1m',
      pool_id: 1,
      timestamp: T_SECONDS,
      vwap: 1.2,
    })
    expect(parsed).toStrictEqual({
      open: '1.2345',
      high: '1.3',
      low: '1.1',
      close: '1.25',
      volume: '120034.5',
      turnover: '0.0000001',
      count: 42,
      interval: '1m',
      pool_id: 1,
      timestamp: T_MS,
    })
  })

  it('lists the documented intervals', () => {
    expect(KLINE_INTERVALS).toStrictEqual(['1m', '5m', '15m', '30m', '1h', '4h', '1d', '1w', '1M'])
  })
})

describe('publicTradeSchema', () => {
  const wire = {
    buyer: 'alice',
    seller: 'bob',
    pool_id: 1,
    price: '1.10',
    quantity: '5.00000000',
    side: 'buy',
    traded_at: T_SECONDS,
  }

  it('parses a trade with exact strings and epoch ms', () => {
    expectParsed(publicTradeSchema, wire, { maker_order: 3 }, { traded_at: T_MS })
  })

  it('rejects an unknown side at its path', () => {
    expect(pathsOf(publicTradeSchema, { ...wire, side: 'hold' })).toStrictEqual([['side']])
  })
})

describe('accountInfoSchema and systemInfoSchema', () => {
  it('parse string records and strip unknown fields', () => {
    const account = {
      chain_account: 'alice',
      parent_chain_account: 'root',
      permission: 'active',
    }
    expectParsed(accountInfoSchema, account, { extra: 1 }, {})
    const system = {
      app_contract: 'app.venue',
      pay_chain_account: 'pay.venue',
      token_contract: 'token.venue',
      version: '2.1.0',
    }
    expectParsed(systemInfoSchema, system, { build: 'abc' }, {})
  })
})

describe('balanceSchema', () => {
  const wire = {
    coin: 'usdt.ext-USDT',
    balance: '100.10',
    locked: '12.345600',
    locks: [{ balance: '12.345600', pool_id: 1, pool_symbol: 'chain.token-CHAIN-usdt.ext-USDT' }],
    stablecoin_price: '1.0000',
  }

  it('parses a balance with locks and strips unknown nested fields', () => {
    const added = { frozen: '0', locks: [{ ...wire.locks[0], order_count: 2 }] }
    expectParsed(balanceSchema, wire, added, { locks: wire.locks })
  })

  it('defaults locks to [] when absent, with a fresh array each time', () => {
    const { locks: _locks, ...rest } = wire
    const first = balanceSchema.parse(rest)
    const second = balanceSchema.parse(rest)
    expect(first.locks).toStrictEqual([])
    expect(first.locks).not.toBe(second.locks)
  })

  it('names the path of a bad nested value', () => {
    const bad = { ...wire, locks: [{ ...wire.locks[0], balance: 'NaN' }] }
    expect(pathsOf(balanceSchema, bad)).toStrictEqual([['locks', 0, 'balance']])
  })
})

describe('tradeDetailSchema', () => {
  it('parses a fill and converts its time', () => {
    expectParsed(tradeDetailSchema, tradeDetailWire, { app_fee: '0.01' }, tradeDetailParsed)
  })

  it('keeps a global_seq and order ids beyond 2^53 exactly (sent as digits)', () => {
    const parsed = tradeDetailSchema.parse({
      ...tradeDetailWire,
      global_seq: '18446744073709551615',
      taker_order_id: '9007199254740993',
      maker_order_id: '0009007199254740995',
    })
    expect(parsed.global_seq).toBe('18446744073709551615')
    expect(parsed.taker_order_id).toBe('9007199254740993')
    expect(parsed.maker_order_id).toBe('9007199254740995')
  })

  it('refuses a global_seq or an order id above 2^64 - 1 (sent as digits)', () => {
    for (const key of ['global_seq', 'taker_order_id', 'maker_order_id']) {
      for (const id of [
        '18446744073709551616',
        '100000000000000000000',
        '0'.repeat(5) + '2'.repeat(20),
      ]) {
        expect(pathsOf(tradeDetailSchema, { ...tradeDetailWire, [key]: id })).toStrictEqual([[key]])
      }
    }
    // The largest id, even zero-padded, is one.
    expect(
      tradeDetailSchema.parse({ ...tradeDetailWire, global_seq: '0018446744073709551615' })
        .global_seq,
    ).toBe('18446744073709551615')
  })

  it('refuses a global_seq sent as an unsafe JSON number (its digits are already lost)', () => {
    const [issue] = issuesOf(tradeDetailSchema, { ...tradeDetailWire, global_seq: 2 ** 64 })
    expect(issue?.path).toStrictEqual(['global_seq'])
  })
})

describe('order schemas', () => {
  it('parses an open order', () => {
    expectParsed(openOrderSchema, openOrderWire, {}, { order_id: '77', order_time: T_MS })
  })

  it('parses a full order and strips unknown fields', () => {
    const converted = { order_id: '77', order_time: T_MS }
    const parsed = expectParsed(orderSchema, orderWire, { app_id: 'x' }, converted)
    expect(parsed.status).toBe(OrderStatus.Canceled)
  })

  it('keeps an undocumented status code', () => {
    expect(orderSchema.parse({ ...orderWire, status: 9 }).status).toBe(9)
  })

  it('parses an order with trades and strips unknown nested fields', () => {
    const parsed = orderWithTradesSchema.parse({
      ...orderWire,
      trades: [{ ...tradeDetailWire, route: 'amm' }],
    })
    expect(parsed.trades).toStrictEqual([tradeDetailParsed])
  })

  it('defaults trades to [] when absent', () => {
    expect(orderWithTradesSchema.parse(orderWire).trades).toStrictEqual([])
  })

  it('rejects side and type codes outside 0 and 1', () => {
    expect(pathsOf(openOrderSchema, { ...openOrderWire, side: 2, type: 'limit' })).toStrictEqual([
      ['side'],
      ['type'],
    ])
  })

  it('names the path of a bad trade inside an order', () => {
    const bad = { ...orderWire, trades: [tradeDetailWire, { ...tradeDetailWire, price: '' }] }
    expect(pathsOf(orderWithTradesSchema, bad)).toStrictEqual([['trades', 1, 'price']])
  })

  it('exposes the side, type and status codes', () => {
    expect(OrderSide).toStrictEqual({ Buy: 0, Sell: 1 })
    expect(OrderType).toStrictEqual({ Market: 0, Limit: 1 })
    expect(OrderStatus).toStrictEqual({
      Unfilled: 0,
      PartiallyFilled: 1,
      Filled: 2,
      Canceled: 3,
      Rejected: 4,
    })
  })
})

describe('transferSchema', () => {
  const wire = {
    amount: '25.000000',
    contract: 'usdt.ext',
    symbol: 'USDT',
    from: 'alice',
    to: 'app.venue',
    tx_id: 'f00d',
    side: 'deposit',
    sid: '1024',
    name: 'USDT',
    created_at: '2024-01-02T03:04:05.678Z',
  }

  it('parses a documented record with ISO created_at', () => {
    expectParsed(transferSchema, wire, { memo: 'hi' }, { created_at: ISO_MS })
  })

  it('reads a numeric created_at as milliseconds', () => {
    expect(transferSchema.parse({ ...wire, created_at: ISO_MS }).created_at).toBe(ISO_MS)
  })

  it('normalises sid to canonical digit text', () => {
    const sidOf = (sid: unknown) => transferSchema.parse({ ...wire, sid }).sid
    expect(sidOf(1024)).toBe('1024')
    expect(sidOf('001024')).toBe('1024')
    expect(sidOf('0')).toBe('0')
    expect(sidOf('000')).toBe('0')
    expect(sidOf(0)).toBe('0')
    expect(sidOf('18446744073709551615')).toBe('18446744073709551615')
  })

  it('rejects a sid that is negative, fractional, unsafe or not digits', () => {
    for (const sid of [-1, 1.5, 2 ** 53, '', '-1', '12a', ' 1']) {
      expect(pathsOf(transferSchema, { ...wire, sid })).toStrictEqual([['sid']])
    }
  })

  it('rejects a sid above 2^64 - 1, leading zeros or not: no 64-bit id is that large', () => {
    for (const sid of ['18446744073709551616', '00018446744073709551616', '99999999999999999999']) {
      const [issue] = issuesOf(transferSchema, { ...wire, sid })
      expect(issue?.path).toStrictEqual(['sid'])
      expect(issue?.message).toMatch(/unsigned 64-bit/)
    }
  })
})

describe('pingSchema', () => {
  it('turns seconds into epoch ms', () => {
    expect(pingSchema.parse({ timestamp: T_SECONDS })).toStrictEqual({ timestamp: T_MS })
  })
})

describe('poolSummarySchema and poolDetailSchema', () => {
  const detailWire = {
    pool_id: 1,
    symbol: 'chain.token-CHAIN-usdt.ext-USDT',
    status: PoolStatus.Open,
    base_coin: 'chain.token-CHAIN',
    quote_coin: 'usdt.ext-USDT',
    base_contract: 'chain.token',
    quote_contract: 'usdt.ext',
    base_symbol: 'CHAIN',
    quote_symbol: 'USDT',
    base_coin_precision: 4,
    quote_coin_precision: 6,
    price_precision: 6,
    maker_fee_rate: 0.001,
    taker_fee_rate: '0.003',
    min_amount: '1.000000',
    max_flct: 10,
    asking_time: T_SECONDS - 60,
    trading_time: '2023-11-14T22:13:20Z',
    pool_stats: poolSummaryWire,
  }

  it('parses a pool summary', () => {
    expectParsed(poolSummarySchema, poolSummaryWire, { rank: 3 }, { updated_at: T_MS })
  })

  it('refuses change_rate text a double would round, naming its path', () => {
    for (const rate of ['0.10000000000000000001', '9007199254740993']) {
      expect(pathsOf(poolSummarySchema, { ...poolSummaryWire, change_rate: rate })).toStrictEqual([
        ['change_rate'],
      ])
    }
  })

  it('accepts change_rate as numeric text', () => {
    expect(poolSummarySchema.parse({ ...poolSummaryWire, change_rate: '-0.5' }).change_rate).toBe(
      -0.5,
    )
  })

  it('parses a pool detail with nested stats and strips unknown nested fields', () => {
    expectParsed(
      poolDetailSchema,
      detailWire,
      { amm: true, pool_stats: { ...poolSummaryWire, hidden: 1 } },
      {
        taker_fee_rate: 0.003,
        asking_time: T_MS - 60_000,
        trading_time: T_MS,
        pool_stats: { ...poolSummaryWire, updated_at: T_MS },
      },
    )
  })

  it('names the path of a bad nested stat', () => {
    const bad = { ...detailWire, pool_stats: { ...poolSummaryWire, trades: -1 } }
    expect(pathsOf(poolDetailSchema, bad)).toStrictEqual([['pool_stats', 'trades']])
  })

  it('exposes the pool status codes', () => {
    expect(PoolStatus).toStrictEqual({ Closed: 0, Open: 1 })
  })
})

describe('tokenSchema', () => {
  const chain = {
    chain_id: 1,
    chain_name: 'ext',
    permission_id: 3,
    withdraw_fee: '1.000000',
    ext_withdraw_fee: '0.50',
    min_deposit_amount: '5',
    min_withdraw_amount: '10.000000',
  }
  const base = {
    symbol: 'USDT',
    name: 'Tether',
    decimals: 6,
    chain_contract: 'usdt.ext',
    ext_decimals: 6,
    ext_token_address: '0xdac17f958d2ee523a2206206994597c13d831ec7',
    icon_url: 'https://example.invalid/usdt.png',
  }
  const emptyInfo = {
    circulating_supply: '',
    fully_diluted_market_cap: '',
    historical_high: '',
    historical_high_date: '',
    historical_low: '',
    historical_low_date: '',
    intro: '',
    issue_date: '',
    market_capitalization: '',
    market_dominance: '',
    maximum_supply: '',
    rank: '',
    total_supply: '',
    volume: '',
    volume_div_market_cap: '',
    links: [],
  }

  it('parses a token with sparse info, filling defaults and stripping unknown fields', () => {
    const parsed = tokenSchema.parse({
      ...base,
      info: { rank: '3', links: [{ name: 'site', url: 'https://example.invalid', kind: 'web' }] },
      support_chain: [{ ...chain, fee_coin: 'USDT' }],
      listed: true,
    })
    expect(parsed).toStrictEqual({
      ...base,
      info: { ...emptyInfo, rank: '3', links: [{ name: 'site', url: 'https://example.invalid' }] },
      support_chain: [chain],
    })
  })

  it('defaults info and support_chain when absent', () => {
    const parsed = tokenSchema.parse(base)
    expect(parsed.info).toStrictEqual(emptyInfo)
    expect(parsed.support_chain).toStrictEqual([])
  })

  it('names the path of a bad chain fee', () => {
    const bad = { ...base, support_chain: [{ ...chain, withdraw_fee: 'free' }] }
    expect(pathsOf(tokenSchema, bad)).toStrictEqual([['support_chain', 0, 'withdraw_fee']])
  })
})

describe('inferred types', () => {
  it('output normalised scalar types', () => {
    expectTypeOf<Level>().toEqualTypeOf<readonly [price: string, quantity: string]>()
    expectTypeOf<Depth['timestamp']>().toEqualTypeOf<number>()
    expectTypeOf<Kline['open']>().toEqualTypeOf<string>()
    expectTypeOf<Envelope['meta']>().toEqualTypeOf<Record<string, unknown>>()
    expectTypeOf<Balance['locks'][number]['pool_id']>().toEqualTypeOf<number>()
    expectTypeOf<OrderWithTrades['side']>().toEqualTypeOf<0 | 1>()
    expectTypeOf<OrderWithTrades['trades'][number]['timestamp']>().toEqualTypeOf<number>()
    expectTypeOf<PoolDetail['pool_stats']['change_rate']>().toEqualTypeOf<number>()
    expectTypeOf<Token['info']['links']>().toEqualTypeOf<{ name: string; url: string }[]>()
    expectTypeOf<Transfer['sid']>().toEqualTypeOf<string>()
  })
})
