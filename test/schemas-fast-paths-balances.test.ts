/**
 * The fast path of `/api/v1/balances` (`fastBalances`, src/schemas/fast-paths.ts) against
 * `z.array(balanceSchema)`: on any input it gives `undefined` or exactly the schema's
 * output (same values, same keys in the same order, unknown keys dropped), never accepts
 * what the schema refuses, leaves its input as it was, and takes every plain list the
 * venue sends; an answer with a number the fast path cannot prove exact goes to the exact
 * parse. Sizes: `FUZZ_RUNS`, `FUZZ_SEED` (test/fuzz/config.ts).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ENDPOINTS } from '../src/rest/endpoints.js'
import { interpretResponse } from '../src/rest/interpret-response.js'
import { parseJsonExact } from '../src/rest/parse-json-exact.js'
import { fastBalances } from '../src/schemas/fast-paths.js'
import { params } from './fuzz/config.js'
import { expectFastAgrees, schemaOutput as schemaOf } from './helpers/fast-path-check.js'

const listSchema = ENDPOINTS.balances.schema

const schemaOutput = (input: unknown) => schemaOf(listSchema, input)
const agrees = (input: unknown) => expectFastAgrees(listSchema, fastBalances, input)

const decimal = fc.oneof(
  fc.stringMatching(/^\d{1,8}(\.\d{1,10})?$/),
  fc.constantFrom('0', '0.0', '1.10', '000.5', '-0'),
)
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('', 'usdt.ext-USDT', '__proto__'),
)
const plainLock = fc.record({
  balance: decimal,
  pool_id: fc.nat({ max: 1_000 }),
  pool_symbol: text,
})
const plainBalance = fc.record({
  coin: text,
  balance: decimal,
  locked: decimal,
  locks: fc.array(plainLock, { maxLength: 3 }),
  stablecoin_price: decimal,
})

const junk = fc.oneof(
  fc.constantFrom(null, undefined, true, '', {}, [], Number.NaN, 1.5, -1, '1e5', '.5', ' 1'),
  fc.anything({ maxDepth: 1 }),
)
const FIELDS = ['coin', 'balance', 'locked', 'locks', 'stablecoin_price'] as const
const LOCK_FIELDS = ['balance', 'pool_id', 'pool_symbol'] as const

/** A plain record through JSON with a field (of it or of a lock) odd, removed, or extra keys. */
const mutatedBalance = fc
  .tuple(
    plainBalance,
    fc.constantFrom(...FIELDS),
    fc.constantFrom(...LOCK_FIELDS),
    junk,
    fc.nat({ max: 3 }),
  )
  .map(([balance, field, lockField, value, variant]) => {
    const record = JSON.parse(JSON.stringify(balance)) as Record<string, unknown>
    const locks = record['locks'] as Record<string, unknown>[]
    if (variant === 0) record[field] = value
    else if (variant === 1) delete record[field]
    else if (variant === 2 && locks[0] !== undefined) locks[0][lockField] = value
    else record['extra'] = value
    return record
  })

const shuffledBalance = fc
  .tuple(plainBalance, fc.shuffledSubarray([...FIELDS], { minLength: FIELDS.length }))
  .map(([balance, order]) => Object.fromEntries(order.map((key) => [key, balance[key]])))

const anyBalance = fc.oneof(
  { weight: 3, arbitrary: plainBalance },
  { weight: 4, arbitrary: mutatedBalance },
  { weight: 1, arbitrary: shuffledBalance },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 1 }) },
)

const context = { endpoint: 'balances', redact: (t: string) => t, now: () => 0 }
const interpret = (body: string) =>
  interpretResponse({ status: 200, headers: {}, body }, listSchema, context, (data, tally) =>
    ENDPOINTS.balances.fast?.(data, undefined, tally),
  )

describe('fastBalances, the fast path of the balances list', () => {
  it('is undefined or exactly the schema output, on any list', () => {
    fc.assert(
      fc.property(fc.array(anyBalance, { maxLength: 5 }), (list) => agrees(list)),
      params(600),
    )
  })

  it('takes every plain list, through the JSON the venue sends', () => {
    fc.assert(
      fc.property(fc.array(plainBalance, { maxLength: 40 }), (list) => {
        const body = JSON.stringify({ code: 0, message: '', data: list, meta: {} })
        const data = (parseJsonExact(body) as { data: unknown }).data
        const fast = fastBalances(data)
        expect(fast).toBeDefined()
        expect(fast).toStrictEqual(schemaOutput(data))
        // And the client's answer is the exact parse's, whichever path it took.
        expect(interpret(body).data).toStrictEqual(schemaOutput(data))
      }),
      params(300),
    )
  })

  it('leaves numbers to the exact parse: the answer is the one without the fast path, digit for digit', () => {
    // Decimals written as numbers (the fast path takes only text), a pool id written
    // long, a record without locks: the schema reads them from the exact parse.
    const body =
      '{"code":0,"message":"","data":[{"coin":"c","balance":1.10,"locked":"0","stablecoin_price":1e2},' +
      '{"coin":"d","balance":"2","locked":"0","locks":[{"balance":"1","pool_id":1.0e1,"pool_symbol":"p"}],"stablecoin_price":"0.30000000000000000001"}]}'
    const data = (parseJsonExact(body) as { data: unknown }).data
    expect(fastBalances(data)).toBeUndefined()
    const withFast = interpret(body).data
    const without = interpretResponse({ status: 200, headers: {}, body }, listSchema, context).data
    expect(withFast).toStrictEqual(without)
    expect(withFast[0]?.locks).toEqual([])
    expect(withFast[1]?.stablecoin_price).toBe('0.30000000000000000001')
  })
})
