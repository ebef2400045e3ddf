/**
 * The schemas' fast paths (src/schemas/fast-paths.ts) against their zod schemas: on any
 * input a fast path gives `undefined` or exactly the schema's output, never accepts what
 * the schema refuses, and does take the plain form the venue sends (else it would be no
 * faster). Sizes: `FUZZ_RUNS`, `FUZZ_SEED` (test/fuzz/config.ts).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isDecimal } from '../src/decimal.js'
import { depthSchema } from '../src/schemas/depth.js'
import { envelopeSchema } from '../src/schemas/envelope.js'
import { fastDepth, fastEnvelope } from '../src/schemas/fast-paths.js'
import { params } from './fuzz/config.js'

/** What the schema makes of `input`: its output, or `undefined` when it refuses it. */
function schemaOutput(schema: typeof depthSchema | typeof envelopeSchema, input: unknown): unknown {
  const parsed = schema.safeParse(input)
  return parsed.success ? parsed.data : undefined
}

/** Text that is often a decimal and often nearly one. */
const decimalLike = fc.oneof(
  fc.stringMatching(/^-?\d{1,6}(\.\d{1,6})?$/),
  fc.constantFrom(
    '',
    '-',
    '.',
    '1.',
    '.5',
    '-0',
    '--1',
    '1e5',
    ' 1',
    '1 ',
    '0x10',
    '١',
    '1.2.3',
    '+1',
  ),
  fc.string({ unit: fc.constantFrom('0', '1', '9', '.', '-', 'e', ' ') }),
)

/** A level: usually `[price, quantity]` strings, sometimes numbers, extras or junk. */
const level = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(decimalLike, decimalLike) },
  { weight: 1, arbitrary: fc.tuple(decimalLike, fc.double({ noNaN: false })) },
  { weight: 1, arbitrary: fc.tuple(decimalLike, decimalLike, fc.anything()) },
  { weight: 1, arbitrary: fc.array(decimalLike, { maxLength: 1 }) },
  { weight: 1, arbitrary: fc.anything() },
)

const depthLike = fc.record(
  {
    asks: fc.oneof({ weight: 8, arbitrary: fc.array(level, { maxLength: 6 }) }, fc.anything()),
    bids: fc.oneof({ weight: 8, arbitrary: fc.array(level, { maxLength: 6 }) }, fc.anything()),
    pool_id: fc.oneof(
      fc.integer({ min: -2, max: 1_000 }),
      fc.constantFrom('3', 1.5, 2 ** 60, null),
    ),
    precision: decimalLike,
    timestamp: fc.oneof(
      fc.integer({ min: 0, max: 2_000_000_000_000 }),
      fc.constantFrom('2026-11-23T16:00:00Z', '1700000000000', -5, 1.5, null),
    ),
    extra: fc.anything(),
  },
  { requiredKeys: [] },
)

/** A depth answer as the venue sends it: decimal strings, ordered sides. */
const plainDepth = fc.record({
  asks: fc.array(
    fc.tuple(fc.stringMatching(/^\d{1,4}\.\d{4}$/), fc.stringMatching(/^\d{1,6}\.\d{2}$/)),
    { maxLength: 8 },
  ),
  bids: fc.array(
    fc.tuple(fc.stringMatching(/^\d{1,4}\.\d{4}$/), fc.stringMatching(/^\d{1,6}\.\d{2}$/)),
    { maxLength: 8 },
  ),
  pool_id: fc.nat({ max: 1_000 }),
  precision: fc.constantFrom('0.0001', '0.01', '1'),
  timestamp: fc.integer({ min: 1_600_000_000_000, max: 1_900_000_000_000 }),
})

describe('schema fast paths', () => {
  it('isDecimal is the schemas decimal pattern', () => {
    fc.assert(
      fc.property(decimalLike, (text) => {
        expect(isDecimal(text)).toBe(/^-?\d+(\.\d+)?$/.test(text))
      }),
      params(2_000),
    )
  })

  it('fastDepth: undefined or exactly depthSchema.parse, on any input', () => {
    fc.assert(
      fc.property(depthLike, (input) => {
        const fast = fastDepth(input)
        if (fast !== undefined) expect(fast).toStrictEqual(schemaOutput(depthSchema, input))
      }),
      params(600),
    )
  })

  it('fastDepth takes every plain depth answer', () => {
    fc.assert(
      fc.property(plainDepth, (input) => {
        const fast = fastDepth(JSON.parse(JSON.stringify(input)))
        expect(fast).toBeDefined()
        expect(fast).toStrictEqual(schemaOutput(depthSchema, input))
      }),
      params(200),
    )
  })

  it('fastDepth with the last answer known: the same output as without, on any change', () => {
    // A next answer made from a known one: levels kept, requoted, replaced by junk,
    // dropped or added, so the walk meets every kind of alignment.
    const edit = fc.constantFrom(
      'keep',
      'keep',
      'keep',
      'junk-price',
      'junk-quantity',
      'drop',
      'add',
      'number',
    )
    fc.assert(
      fc.property(plainDepth, fc.array(edit, { minLength: 16, maxLength: 16 }), (known, edits) => {
        const knownOutput = fastDepth(JSON.parse(JSON.stringify(known)))
        expect(knownOutput).toBeDefined()
        const change = (levels: readonly (readonly [string, string])[]) =>
          levels.flatMap((level, k): unknown[] => {
            switch (edits[k % edits.length]) {
              case 'junk-price':
                return [[`${level[0]}x`, level[1]]]
              case 'junk-quantity':
                return [[level[0], '1e5']]
              case 'drop':
                return []
              case 'add':
                return [level, [`${level[0]}1`, '7']]
              case 'number':
                return [[level[0], Number(level[1])]]
              default:
                return [[level[0], level[1]]]
            }
          })
        const next = JSON.parse(
          JSON.stringify({ ...known, bids: change(known.bids), asks: change(known.asks) }),
        )
        const withKnown = fastDepth(next, knownOutput)
        const without = fastDepth(JSON.parse(JSON.stringify(next)))
        expect(withKnown).toStrictEqual(without)
        if (withKnown !== undefined)
          expect(withKnown).toStrictEqual(schemaOutput(depthSchema, next))
      }),
      params(300),
    )
  })

  it('fastDepth with the last answer known keeps its level objects where the text is the same', () => {
    const known = fastDepth(
      JSON.parse(
        '{"asks":[["1.02","5"],["1.03","6"],["1.04","7"]],"bids":[["1.01","4"],["1.00","3"]],"pool_id":1,"precision":"0.01","timestamp":1700000000000}',
      ),
    )
    if (known === undefined) throw new Error('the known answer is plain')
    // 1.03 changed its quantity, 1.025 is new, 1.00 was written differently (same value).
    const next = fastDepth(
      JSON.parse(
        '{"asks":[["1.02","5"],["1.025","1"],["1.03","9"],["1.04","7"]],"bids":[["1.01","4"],["1.00","3.0"]],"pool_id":1,"precision":"0.01","timestamp":1700000001000}',
      ),
      known,
    )
    expect(next?.asks).toStrictEqual([
      ['1.02', '5'],
      ['1.025', '1'],
      ['1.03', '9'],
      ['1.04', '7'],
    ])
    expect(next?.asks[0]).toBe(known.asks[0])
    expect(next?.asks[3]).toBe(known.asks[2])
    expect(next?.bids[0]).toBe(known.bids[0])
    for (const fresh of [next?.asks[1], next?.asks[2], next?.bids[1]]) {
      expect([...known.asks, ...known.bids]).not.toContain(fresh)
    }
    expect(next?.bids[1]).toStrictEqual(['1.00', '3.0'])
  })

  it('fastEnvelope: undefined or exactly envelopeSchema.parse; takes the plain envelope', () => {
    const envelopeLike = fc.record(
      {
        code: fc.oneof(fc.integer(), fc.constantFrom(1.5, '0', 2 ** 60, null)),
        message: fc.oneof(fc.string(), fc.constantFrom(null, 3)),
        data: fc.anything(),
        meta: fc.oneof(
          fc.dictionary(fc.string(), fc.anything()),
          fc.constantFrom(null, [], 'x', JSON.parse('{"__proto__":{"total":1}}')),
        ),
      },
      { requiredKeys: [] },
    )
    fc.assert(
      fc.property(envelopeLike, (input) => {
        const fast = fastEnvelope(input)
        if (fast !== undefined) expect(fast).toStrictEqual(schemaOutput(envelopeSchema, input))
      }),
      params(500),
    )
    const plain = { code: 0, message: 'OK', data: [1], meta: { total: 3 } }
    expect(fastEnvelope(plain)).toStrictEqual(envelopeSchema.parse(plain))
    expect(fastEnvelope({ code: 0, message: 'OK', data: null })).toStrictEqual(
      envelopeSchema.parse({ code: 0, message: 'OK', data: null }),
    )
  })
})
