/**
 * The fast path of `/api/v1/trades` pages (`fastTrades`, src/schemas/fast-paths.ts) against
 * `z.array(tradeDetailSchema)`: on any input it gives `undefined` or exactly the schema's
 * output (same values, same keys in the same order, unknown keys dropped), never accepts
 * what the schema refuses, leaves its input as it was, and does take every plain page the
 * venue sends (else it would be no faster). Sizes: `FUZZ_RUNS`, `FUZZ_SEED` (test/fuzz/config.ts).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { VenueResponseError } from '../src/errors/venue-response-error.js'
import { ENDPOINTS } from '../src/rest/endpoints.js'
import { interpretResponse } from '../src/rest/interpret-response.js'
import { parseJsonExact } from '../src/rest/parse-json-exact.js'
import { fastTrades } from '../src/schemas/fast-paths.js'
import { tradeDetailSchema } from '../src/schemas/trade-detail.js'
import { params } from './fuzz/config.js'
import { expectFastAgrees, schemaOutput as schemaOf } from './helpers/fast-path-check.js'

const pageSchema = ENDPOINTS.trades.schema

const schemaOutput = (input: unknown) => schemaOf(pageSchema, input)
const agrees = (input: unknown) => expectFastAgrees(pageSchema, fastTrades, input)

const KEYS = Object.keys(tradeDetailSchema.shape) as (keyof typeof tradeDetailSchema.shape)[]

// Values as the venue sends them: ids are unsigned 64-bit.
const digits = fc.bigInt({ min: 1n, max: 2n ** 64n - 1n }).map(String)
const id = fc.oneof(
  fc.nat(),
  fc.constant(Number.MAX_SAFE_INTEGER),
  digits,
  fc.constantFrom('0', '18446744073709551615'),
)
const decimal = fc.oneof(
  fc.stringMatching(/^-?\d{1,8}(\.\d{1,10})?$/),
  fc.constantFrom('0', '0.0', '-0', '1.10', '000.5'),
)
const seconds = fc.oneof(
  fc.integer({ min: 1_600_000_000, max: 1_900_000_000 }),
  fc.constantFrom(0, 1_700_000_000_000, 1_699_999_999.5),
)
const text = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('', 'active', '__proto__'))

const plainFields = {
  global_seq: id,
  tx_id: fc.stringMatching(/^[0-9a-f]{64}$/),
  pool_id: fc.nat({ max: 1_000 }),
  base_coin: text,
  quote_coin: text,
  base_quantity: decimal,
  quote_quantity: decimal,
  price: decimal,
  timestamp: seconds,
  taker: text,
  taker_fee: decimal,
  taker_is_bid: fc.boolean(),
  taker_order_id: id,
  taker_order_cid: text,
  taker_permission: text,
  maker: text,
  maker_fee: decimal,
  maker_order_id: id,
  maker_order_cid: text,
  maker_permission: text,
}

/** A trade record as the venue sends it. */
const plainTrade = fc.record(plainFields)

const ID_KEYS = ['global_seq', 'taker_order_id', 'maker_order_id'] as const
const DECIMAL_KEYS = ['base_quantity', 'quote_quantity', 'price', 'taker_fee', 'maker_fee'] as const
const TEXT_KEYS = KEYS.filter(
  (key) =>
    !(ID_KEYS as readonly string[]).includes(key) &&
    !(DECIMAL_KEYS as readonly string[]).includes(key) &&
    !['pool_id', 'timestamp', 'taker_is_bid'].includes(key),
)

/** Values often wrong anywhere. */
const junk = fc.oneof(
  fc.constantFrom(null, undefined, true, false, '', {}, [], Number.NaN, Number.POSITIVE_INFINITY),
  fc.anything({ maxDepth: 1 }),
)

/** Per field: forms the schema takes but rarely sees (the fast path may leave them to it), and wrong ones. */
const oddId = fc.oneof(
  fc.constantFrom('007', '0', '00', '-1', '1e3', ' 1', '1 ', '١', '+1', '18446744073709551615'),
  // Past the 64-bit range: the schema refuses them, so the fast path must stand aside.
  fc.constantFrom('18446744073709551616', '99999999999999999999', '0018446744073709551616'),
  fc.bigInt({ min: 2n ** 64n, max: 10n ** 25n }).map(String),
  fc.constantFrom(-1, -0, 1.5, 2 ** 53, 2 ** 60, 1e21, Number.MAX_SAFE_INTEGER + 0.5),
  fc.integer(),
  fc.stringMatching(/^0{0,3}\d{1,22}$/),
  junk,
)
const oddPool = fc.oneof(
  fc.constantFrom(-1, -0, 1.5, '3', '-0', '03', 2 ** 53, 2 ** 60, -(2 ** 53)),
  fc.integer(),
  fc.double(),
  junk,
)
const oddDecimal = fc.oneof(
  fc.constantFrom(1.5, 1e-7, 1e21, -0, 0, 123, -2.5, 0.1 + 0.2),
  fc.constantFrom('1e5', '.5', '1.', '-', '+1', ' 1', '-0', '00.10', '1,5', '0x10', '١'),
  fc.double(),
  fc.string({ unit: fc.constantFrom('0', '1', '9', '.', '-', 'e', ' '), maxLength: 6 }),
  junk,
)
const oddTime = fc.oneof(
  fc.constantFrom('1700000000', '1700000000.5', '-5', '0', '1700000000000', '1e9'),
  fc.constantFrom('2023-11-14T22:15:00Z', '2024-01-02', '2024-02-30T00:00:00Z', '2024-01-02T03:04'),
  fc.constantFrom(-5, -0, 0.0004, 1.5, 1e12, 1e12 - 1, 999_999_999_999.6, 9e15, 1e300, -1e300),
  fc.constantFrom(1_699_999_999.9996, 1_700_000_000.0005, -0.0004),
  fc.double(),
  fc.integer(),
  junk,
)
const oddText = fc.oneof(fc.constantFrom(0, 1, -0, 1.5), junk)
const oddBoolean = fc.oneof(fc.constantFrom('true', 'false', 0, 1), junk)

/** One field (key, odd value) of a trade record. */
const oddField = fc.oneof(
  fc.tuple(fc.constantFrom(...ID_KEYS), oddId),
  fc.tuple(fc.constant('pool_id'), oddPool),
  fc.tuple(fc.constantFrom(...DECIMAL_KEYS), oddDecimal),
  fc.tuple(fc.constant('timestamp'), oddTime),
  fc.tuple(fc.constantFrom(...TEXT_KEYS), oddText),
  fc.tuple(fc.constant('taker_is_bid'), oddBoolean),
)

/**
 * A plain record through JSON (as the client sees an answer; `__proto__` then is an own
 * key), with one or two fields given odd values, sometimes one removed, sometimes extra keys.
 */
const mutatedTrade = fc
  .tuple(
    plainTrade,
    fc.array(oddField, { minLength: 1, maxLength: 2 }),
    fc.subarray(KEYS, { maxLength: 1 }),
    fc.dictionary(
      fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'extra')),
      fc.anything({ maxDepth: 1 }),
      { maxKeys: 2 },
    ),
    fc.nat({ max: 3 }),
  )
  .map(([trade, odd, removed, extra, variant]) => {
    const record = JSON.parse(
      JSON.stringify(variant === 0 ? { ...trade, ...extra } : trade),
    ) as Record<string, unknown>
    for (const [key, value] of odd) record[key] = value
    if (variant === 1) for (const key of removed) delete record[key]
    return record
  })

/** Keys in another order than the schema's (the output must still be in the schema's). */
const shuffledTrade = fc
  .tuple(plainTrade, fc.shuffledSubarray(KEYS, { minLength: KEYS.length }))
  .map(([trade, order]) => Object.fromEntries(order.map((key) => [key, trade[key]])))

const anyTrade = fc.oneof(
  { weight: 3, arbitrary: plainTrade },
  { weight: 4, arbitrary: mutatedTrade },
  { weight: 1, arbitrary: shuffledTrade },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 1 }) },
)

/** The error a trades answer holding `page` is refused with (the fast path tried first). */
function refusalOf(page: readonly unknown[]): VenueResponseError {
  const body = JSON.stringify({ code: 0, message: '', data: page })
  const context = { endpoint: 'trades', redact: (t: string) => t, now: () => 0 }
  let caught: unknown
  try {
    interpretResponse({ status: 200, headers: {}, body }, pageSchema, context, (data, tally) =>
      ENDPOINTS.trades.fast?.(data, undefined, tally),
    )
  } catch (error) {
    caught = error
  }
  expect(caught).toBeInstanceOf(VenueResponseError)
  return caught as VenueResponseError
}

describe('fastTrades, the fast path of trades pages', () => {
  it('is undefined or exactly the schema output, on any page', () => {
    fc.assert(
      fc.property(fc.array(anyTrade, { maxLength: 5 }), (page) => agrees(page)),
      params(600),
    )
  })

  it('is undefined or exactly the schema output, on any single record and on non-pages', () => {
    fc.assert(
      fc.property(
        fc.oneof({ weight: 4, arbitrary: mutatedTrade }, fc.anything()),
        fc.boolean(),
        (input, wrap) => {
          agrees(wrap ? [input] : input)
        },
      ),
      params(600),
    )
  })

  it('takes every plain page, through the JSON the venue sends', () => {
    fc.assert(
      fc.property(fc.array(plainTrade, { maxLength: 100 }), (page) => {
        const body = JSON.stringify({ code: 0, message: '', data: page, meta: {} })
        const data = (parseJsonExact(body) as { data: unknown }).data
        const fast = fastTrades(data)
        expect(fast).toBeDefined()
        expect(fast).toStrictEqual(schemaOutput(data))
      }),
      params(300),
    )
  })

  it('is the path interpretResponse takes for a plain page, with the schema output', () => {
    const trade = {
      global_seq: 1058,
      tx_id: 'ab'.repeat(32),
      pool_id: 2,
      base_coin: 'chain.token-CHN',
      quote_coin: 'usdt.ext-USDT',
      base_quantity: '0.03800',
      quote_quantity: '83.486',
      price: '2197.0',
      timestamp: 1_700_000_100,
      taker: 'demo.trader',
      taker_fee: '0.2505',
      taker_is_bid: false,
      taker_order_id: 670,
      taker_order_cid: 'cid-1',
      taker_permission: 'active',
      maker: 'mm.alpha',
      maker_fee: '0.00004',
      maker_order_id: '18446744073709551615',
      maker_order_cid: '',
      maker_permission: 'active',
      venue_flag: 1,
    }
    const body = JSON.stringify({ code: 0, message: '', data: [trade, trade], meta: { total: 2 } })
    const context = { endpoint: 'trades', redact: (t: string) => t, now: () => 0 }
    const { data, meta } = interpretResponse(
      { status: 200, headers: {}, body },
      pageSchema,
      context,
      (data, tally) => ENDPOINTS.trades.fast?.(data, undefined, tally),
    )
    expect(fastTrades(JSON.parse(body).data)).toBeDefined()
    expect(data).toStrictEqual(pageSchema.parse(JSON.parse(body).data))
    expect(data[0]).toMatchObject({
      global_seq: '1058',
      timestamp: 1_700_000_100_000,
      taker_order_id: '670',
      maker_order_id: '18446744073709551615',
    })
    expect(data[0]).not.toHaveProperty('venue_flag')
    expect(meta).toEqual({ total: 2 })
  })

  it('leaves a bad field to the schema: a VenueResponseError naming its path', () => {
    const good = pageSchema.parse([]) // no trade: the shape comes from fc below
    expect(good).toEqual([])
    const page = fc.sample(plainTrade, { numRuns: 3, seed: 7 }).map((t) => ({ ...t }))
    ;(page[2] as Record<string, unknown>)['price'] = '1e5'
    const caught = refusalOf(page)
    expect(caught).toMatchObject({ problem: 'schema', endpoint: 'trades' })
    expect((caught as VenueResponseError).issues[0]?.path).toEqual([2, 'price'])
  })

  it('stands aside for an id above 2^64 - 1, which the schema reports as a VenueResponseError', () => {
    const [trade] = fc.sample(plainTrade, { numRuns: 1, seed: 11 })
    for (const key of ID_KEYS) {
      const page = [{ ...trade, [key]: '18446744073709551616' }]
      expect(fastTrades(page)).toBeUndefined()
      expect(refusalOf(page).issues[0]?.path).toEqual([0, key])
    }
  })
})
