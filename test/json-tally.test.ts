/**
 * Reading an answer with `JSON.parse` alone when its length proves every number was read
 * exactly (src/schemas/json-tally.ts, used by `interpretResponse` on the fast paths):
 *
 * - the count is the length of the compact, canonical writing of a value, never more;
 * - the proof refuses what it cannot cover (unsafe integers, exponents, fractions below 1);
 * - on trades pages and depth answers written with any spelling of their numbers (exponents,
 *   trailing `.0`, digits a double cannot hold, underflow), whitespace and escapes,
 *   `interpretResponse` with its fast path gives exactly what the careful path (the
 *   exact-number parse, then the schema) gives, or the same error;
 * - a number a double rounds, hidden by numbers written shorter than JavaScript writes
 *   them so that the lengths add up, is still caught.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { VenueResponseError } from '../src/errors/venue-response-error.js'
import { ENDPOINTS } from '../src/rest/endpoints.js'
import { interpretResponse } from '../src/rest/interpret-response.js'
import { fastDepth, fastTrades } from '../src/schemas/fast-paths.js'
import { JsonTally } from '../src/schemas/json-tally.js'
import { params } from './fuzz/config.js'

const context = { endpoint: 'test', redact: (t: string) => t, now: () => 0 }

/** What `interpretResponse` makes of `body`: the data and meta, or the error's kind. */
function outcome(body: string, endpoint: 'trades' | 'depth', fast: boolean): unknown {
  const { schema } = ENDPOINTS[endpoint]
  const path = ENDPOINTS[endpoint].fast
  try {
    const result = interpretResponse(
      { status: 200, headers: {}, body },
      schema,
      context,
      fast && path !== undefined
        ? (data, tally) => path(data, undefined, tally as never)
        : undefined,
    )
    return { ok: result }
  } catch (error) {
    if (!(error instanceof VenueResponseError)) throw error
    return { error: error.problem, message: error.message }
  }
}

/** The fast read and the careful one agree on `body`. */
function agree(body: string, endpoint: 'trades' | 'depth'): void {
  expect(outcome(body, endpoint, true)).toStrictEqual(outcome(body, endpoint, false))
}

describe('JsonTally', () => {
  /** JSON values whose numbers the proof covers, and whose strings need no escape. */
  const plainString = fc.string({ unit: fc.constantFrom('a', 'b', '1', '.', ' ', 'é', '𝄞') })
  const coveredNumber = fc.oneof(
    fc.integer({ min: -99_999_999_999_999, max: 999_999_999_999_999 }),
    fc.double({ min: 1, max: 1e12, noNaN: true }).filter((n) => String(n).length <= 15),
  )
  const plainJson = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      plainString,
      coveredNumber,
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(plainString, tie('value'), { maxKeys: 4 }),
    ),
  })).value

  it('counts exactly the compact writing of a value that needs no escape', () => {
    fc.assert(
      fc.property(plainJson, (value) => {
        const tally = new JsonTally()
        tally.value(value)
        const text = JSON.stringify(value)
        expect(tally.length).toBe(text.length)
        expect(tally.measurable).toBe(true)
      }),
      params(300),
    )
  })

  it('never counts more than the text a value came from', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value)
        const tally = new JsonTally()
        tally.value(JSON.parse(text))
        expect(tally.length).toBeLessThanOrEqual(text.length)
      }),
      params(300),
    )
  })

  it('counts any safe integer as long as JavaScript writes it, or leaves the proof past 15 characters', () => {
    const integers = fc.oneof(
      fc.maxSafeInteger(),
      fc.maxSafeNat(),
      fc.integer(),
      fc.constantFrom(-0, 0, 9, 10, -10, 99, 100, 999_999_999_999_999, 1e15, -99_999_999_999_999),
    )
    fc.assert(
      fc.property(integers, (value) => {
        const tally = new JsonTally()
        tally.number(value, 'n')
        const written = String(value)
        expect(tally.measurable).toBe(written.length <= 15)
        if (tally.measurable) expect(tally.length).toBe(written.length)
      }),
      params(200),
    )
  })

  it('counts what an exponent could save on round integers', () => {
    const slackOf = (value: number) => {
      const tally = new JsonTally()
      tally.number(value)
      return tally.slack
    }
    // 100 and 1e2 are both 3 characters; 1000 is 4 and 1e3 is 3.
    expect([7, 10, 100, 1000, 12_000, 10_000, 1_700_000_000, 1e12, -5000, 0].map(slackOf)).toEqual([
      0, 0, 0, 1, 1, 2, 6, 9, 1, 0,
    ])
  })

  it('refuses what the proof cannot cover', () => {
    for (const value of [
      2 ** 53,
      -(2 ** 53),
      1e21,
      0.001,
      0.5,
      -0.25,
      1e-7,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      1234567890123.4568,
    ]) {
      const tally = new JsonTally()
      tally.number(value)
      expect(tally.measurable, String(value)).toBe(false)
    }
    const tally = new JsonTally()
    tally.value(() => 1)
    expect(tally.measurable).toBe(false)
  })

  it('proves a text of exactly the count, allows trailing whitespace, and refuses the rest', () => {
    const tally = new JsonTally()
    tally.value({ a: 1, b: ['x'] })
    expect(tally.provesExact('{"a":1,"b":["x"]}')).toBe(true)
    expect(tally.provesExact('{"a":1,"b":["x"]}\r\n')).toBe(true)
    // One character over: no number a double rounds fits in one.
    expect(tally.provesExact('{"a":1, "b":["x"]}')).toBe(true)
    expect(tally.provesExact('{"a":1, "b": ["x"]}')).toBe(false)
    expect(tally.provesExact('{"a":1.0000000000000000001,"b":["x"]}')).toBe(false)
  })

  it('looks for a round number written in full as its member, once per member', () => {
    const member = new JsonTally()
    member.value({ a: 10_000 })
    expect(member.provesExact('{"a":10000}')).toBe(true)
    // In an array it has no member to look for: `1e4` could stand for it (2 characters).
    const element = new JsonTally()
    element.value([10_000])
    expect(element.provesExact('[10000]')).toBe(false)
    // Two equal members need two places: one found twice proves nothing for the other.
    const twice = new JsonTally()
    twice.value([{ a: 10_000 }, { a: 10_000 }])
    expect(twice.provesExact('[{"a":10000},{"a":10000}]')).toBe(true)
    const once = new JsonTally()
    once.value([{ a: 10_000 }, { a: 10_000 }])
    once.length -= 2 // as if the second were written `1e4`
    expect(once.provesExact('[{"a":10000},{"a":1e4}]')).toBe(false)
    // A prefix of a longer number is not the member.
    const prefix = new JsonTally()
    prefix.value({ a: 10_000 })
    expect(prefix.provesExact('{"a":10000.0000000000000000001}')).toBe(false)
  })

  it('finds round members counted in another order than written, however far apart', () => {
    // 300 records, each with a round member of its own and a long filler: the members are
    // counted last to first, every search then starts far past its member.
    const records = Array.from({ length: 300 }, (_, i) => ({
      filler: 'x'.repeat(20),
      t: (i + 1) * 1000,
    }))
    const text = JSON.stringify(records)
    const tally = new JsonTally()
    tally.arrayFrame(records.length)
    for (const record of [...records].reverse()) tally.value(record)
    expect(tally.provesExact(text)).toBe(true)
    // And one written short among them is still caught.
    const short = text.replace('"t":150000}', '"t":15e4}')
    const counted = new JsonTally()
    counted.arrayFrame(records.length)
    for (const record of records) counted.value(record)
    counted.length -= 2
    expect(counted.provesExact(short)).toBe(false)
  })

  it('searches on from the last place of the same key, and never takes a place twice', () => {
    // Two keys per record, counted in another order than written: each key keeps its own
    // place, so both are found however the records interleave them.
    const records = Array.from({ length: 50 }, (_, i) => ({ t: (i + 1) * 1000, u: 5000 }))
    const text = JSON.stringify(records)
    const tally = new JsonTally()
    tally.arrayFrame(records.length)
    for (const { t, u } of records) tally.value({ u, t })
    expect(tally.provesExact(text)).toBe(true)
    // Equal members counted last to first, the first written in full and the second short:
    // the one place found serves one of them only.
    const reversed = new JsonTally()
    reversed.arrayFrame(2)
    reversed.value({ a: 10_000 })
    reversed.value({ a: 10_000 })
    reversed.length -= 2
    expect(reversed.provesExact('[{"a":10000},{"a":1e4}]')).toBe(false)
    expect(reversed.provesExact('[{"a":1e4},{"a":10000}]')).toBe(false)
  })
})

// Trades pages and depth answers, as the venue writes them and otherwise.

/** A number as JavaScript writes it, with an exponent, with `.0`, or with digits a double drops. */
function spell(value: number, how: number): string {
  const plain = String(value)
  if (!Number.isInteger(value)) return how % 2 === 0 ? plain : `${plain}00000000000000000001`
  switch (how) {
    case 1: {
      const zeros = /0*$/.exec(plain)?.[0].length ?? 0
      return zeros > 0 && value !== 0 ? `${plain.slice(0, -zeros)}e${zeros}` : `${plain}e0`
    }
    case 2:
      return `${plain}.0`
    case 3:
      // Rounds to the same double: the careful path keeps these digits as text.
      return `${plain}.00000000000000000001`
    case 4:
      return value === 0 ? '1e-400' : plain
    default:
      return plain
  }
}

/** Writes `value` as JSON, each number through `spellings` (in order), with optional spaces and escapes. */
function write(value: unknown, spellings: number[], spaces: boolean, escapes: boolean): string {
  let n = 0
  const render = (v: unknown): string => {
    if (typeof v === 'number') return spell(v, spellings[n++ % spellings.length] ?? 0)
    if (typeof v === 'string') {
      const text = JSON.stringify(v)
      return escapes ? text.replace(/[a-z]/, (c) => `\\u00${c.charCodeAt(0).toString(16)}`) : text
    }
    if (Array.isArray(v)) return `[${v.map(render).join(spaces ? ', ' : ',')}]`
    if (v !== null && typeof v === 'object') {
      const members = Object.entries(v).map(([k, item]) => `${JSON.stringify(k)}:${render(item)}`)
      return `{${members.join(spaces ? ', ' : ',')}}`
    }
    return JSON.stringify(v)
  }
  return render(value)
}

const id = fc.oneof(
  fc.nat({ max: 10_000 }),
  fc.constantFrom(0, 1000, 10_000, 1_000_000, 1_000_000_000_000, Number.MAX_SAFE_INTEGER),
)
const decimal = fc.stringMatching(/^\d{1,6}(\.\d{1,6})?$/)
const name = fc.constantFrom('chain.token-CHN', 'usdt.ext-USDT', 'demo.trader', 'mm.alpha', '')
const trade = fc.record({
  global_seq: id,
  tx_id: fc.stringMatching(/^[0-9a-f]{64}$/),
  pool_id: fc.constantFrom(0, 1, 2, 1000),
  base_coin: name,
  quote_coin: name,
  base_quantity: decimal,
  quote_quantity: decimal,
  price: decimal,
  timestamp: fc.oneof(
    fc.integer({ min: 1_699_999_000, max: 1_700_001_000 }),
    fc.constantFrom(1_700_000_000, 1_699_999_999.5),
  ),
  taker: name,
  taker_fee: decimal,
  taker_is_bid: fc.boolean(),
  taker_order_id: id,
  taker_order_cid: fc.constantFrom('cid-1', ''),
  taker_permission: fc.constant('active'),
  maker: name,
  maker_fee: decimal,
  maker_order_id: id,
  maker_order_cid: fc.constantFrom('cid-2', ''),
  maker_permission: fc.constant('active'),
})
const level = fc.tuple(decimal, decimal)
const depth = fc.record({
  asks: fc.array(level, { maxLength: 6 }),
  bids: fc.array(level, { maxLength: 6 }),
  pool_id: fc.constantFrom(0, 3, 1000),
  precision: fc.constantFrom('0.0001', '1'),
  timestamp: fc.constantFrom(1_700_000_000_000, 1_700_000_000_123),
})
const envelope = <T>(data: fc.Arbitrary<T>) =>
  fc.record(
    {
      code: fc.constant(0),
      message: fc.constantFrom('', 'OK'),
      data,
      meta: fc.record({ total: fc.oneof(fc.nat(), fc.constantFrom(1000, 2 ** 53)) }),
    },
    { requiredKeys: ['code', 'message', 'data'] },
  )
const howToWrite = fc.tuple(
  fc.array(fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, fc.integer({ min: 1, max: 4 })), {
    minLength: 1,
    maxLength: 30,
  }),
  fc.boolean(),
  fc.boolean(),
)

/** A trade record as the venue writes it, with `overrides`. */
function plainRecord(overrides: Record<string, unknown>): Record<string, unknown> {
  return {
    global_seq: 5,
    tx_id: 'ab'.repeat(32),
    pool_id: 1,
    base_coin: 'chain.token-CHN',
    quote_coin: 'usdt.ext-USDT',
    base_quantity: '1.5',
    quote_quantity: '3',
    price: '2',
    timestamp: 1_700_000_000,
    taker: 'demo.trader',
    taker_fee: '0.01',
    taker_is_bid: true,
    taker_order_id: 31,
    taker_order_cid: '',
    taker_permission: 'active',
    maker: 'mm.alpha',
    maker_fee: '0.01',
    maker_order_id: 7,
    maker_order_cid: '',
    maker_permission: 'active',
    ...overrides,
  }
}

describe('interpretResponse reading with JSON.parse alone', () => {
  it('agrees with the careful path on trades pages written any way', () => {
    fc.assert(
      fc.property(
        envelope(fc.array(trade, { maxLength: 8 })),
        howToWrite,
        (answer, [spellings, spaces, escapes]) => {
          agree(write(answer, spellings, spaces, escapes), 'trades')
        },
      ),
      params(300),
    )
  })

  it('agrees with the careful path on depth answers written any way', () => {
    fc.assert(
      fc.property(envelope(depth), howToWrite, (answer, [spellings, spaces, escapes]) => {
        agree(write(answer, spellings, spaces, escapes), 'depth')
      }),
      params(300),
    )
  })

  it('catches a rounded id even when shorter round numbers make the lengths add up', () => {
    const record = plainRecord({ global_seq: 1_000_000_000_000, maker_order_id: 1000 })
    const canonical = JSON.stringify({ code: 0, message: '', data: [record] })
    // 9 + 6 + 1 characters saved by exponents, 17 added by the id a double rounds to 31.
    const body = canonical
      .replace('"global_seq":1000000000000', '"global_seq":1e12')
      .replace('"timestamp":1700000000', '"timestamp":17e8')
      .replace('"maker_order_id":1000', '"maker_order_id":1e3')
      .replace('"taker_order_id":31', '"taker_order_id":31.0000000000000001')
    expect(JSON.parse(body).data[0].taker_order_id).toBe(31)
    // By length alone the body looks like the canonical one, within a character.
    expect(Math.abs(body.length - canonical.length)).toBeLessThanOrEqual(1)
    const tally = new JsonTally()
    expect(fastTrades(JSON.parse(body).data, tally)).toBeDefined()
    tally.string('code')
    tally.string('message')
    tally.string('data')
    tally.value(0)
    tally.value('')
    tally.objectFrame(3)
    expect(tally.length).toBe(canonical.length)
    // The round numbers are not written in full: their savings count, and the proof fails.
    expect(tally.provesExact(body)).toBe(false)
    // The careful path keeps the id's digits, which are no unsigned integer: an error.
    expect(outcome(body, 'trades', true)).toMatchObject({ error: 'schema' })
    agree(body, 'trades')
  })

  it('catches a rounded id when the round number written in full is extra text', () => {
    const record = plainRecord({ base_coin: 'x', quote_coin: 'y' })
    const body = JSON.stringify({ code: 0, message: '', data: [record] })
      .replace('"timestamp":1700000000', '"timestamp":17e8')
      .replace('"taker_order_id":31', '"taker_order_id":31.0000000000000001')
      .replace(
        '"maker_permission":"active"}',
        '"maker_permission":"active","x":{"timestamp":1700000000}}',
      )
    expect(outcome(body, 'trades', true)).toMatchObject({ error: 'schema' })
    agree(body, 'trades')
  })

  it('counts a plain depth answer exactly, with the last answer known or not', () => {
    fc.assert(
      fc.property(envelope(depth), fc.boolean(), (answer, withKnown) => {
        const body = JSON.stringify(answer)
        const json = JSON.parse(body) as Record<string, unknown>
        const known = withKnown ? fastDepth(JSON.parse(body).data) : undefined
        const tally = new JsonTally()
        expect(fastDepth(json['data'], known, tally)).toBeDefined()
        let keys = 0
        for (const key of Object.keys(json)) {
          keys += 1
          tally.string(key)
          if (key !== 'data') tally.value(json[key], key)
        }
        tally.objectFrame(keys)
        if (tally.measurable) {
          expect(tally.length).toBe(body.length)
          expect(tally.provesExact(body)).toBe(true)
        }
      }),
      params(300),
    )
  })

  it('takes the canonical page by its length, without the scan', () => {
    // Pages as a venue writes them: ids and times that are seldom round numbers.
    const venueTrade = trade.chain((record) =>
      fc
        .record({
          global_seq: fc.integer({ min: 1, max: 9_999_999 }),
          taker_order_id: fc.integer({ min: 1, max: 9_999_999 }),
          maker_order_id: fc.integer({ min: 1, max: 9_999_999 }),
          pool_id: fc.integer({ min: 0, max: 9 }),
          timestamp: fc.integer({ min: 1_700_000_001, max: 1_700_000_999 }),
        })
        .map((numbers) => ({ ...record, ...numbers })),
    )
    const page = fc.sample(envelope(fc.array(venueTrade, { minLength: 1, maxLength: 5 })), {
      numRuns: 20,
      seed: 3,
    })
    let proven = 0
    for (const answer of page) {
      const body = JSON.stringify(answer)
      const json = JSON.parse(body) as Record<string, unknown>
      const tally = new JsonTally()
      expect(fastTrades(json['data'], tally)).toBeDefined()
      let keys = 0
      for (const key of Object.keys(json)) {
        keys += 1
        tally.string(key)
        if (key !== 'data') tally.value(json[key])
      }
      tally.objectFrame(keys)
      // A total of 2^53 is beyond the proof: such a page goes to the scan.
      if (tally.measurable) expect(tally.length).toBe(body.length)
      if (tally.provesExact(body)) proven += 1
      agree(body, 'trades')
    }
    // Round numbers (1000, 1700000000) leave some pages to the scan, never most.
    expect(proven).toBeGreaterThan(page.length / 2)
  })
})
