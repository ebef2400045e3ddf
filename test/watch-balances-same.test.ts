/**
 * `sameAnswer`, the change test of a polled balances answer, against `fast-deep-equal`
 * (the default change test it replaces): the same verdict on any two answers of the
 * schema's shape, and that shape is the one it compares. Sizes: `FUZZ_RUNS`, `FUZZ_SEED`.
 */
import fc from 'fast-check'
import equal from 'fast-deep-equal'
import { describe, expect, it } from 'vitest'
import { balanceLockSchema, balanceSchema } from '../src/schemas/balance.js'
import { sameAnswer } from '../src/streams/watch-balances.js'
import { params } from './fuzz/config.js'

const text = fc.constantFrom('0', '1', '1.0', '2.5', 'a', '')
const lock = fc.record(
  {
    balance: text,
    pool_id: fc.integer({ min: 0, max: 3 }),
    pool_symbol: text,
  },
  { noNullPrototype: true },
)
const balance = fc.record(
  {
    coin: text,
    balance: text,
    locked: text,
    locks: fc.array(lock, { maxLength: 2 }),
    stablecoin_price: text,
  },
  { noNullPrototype: true },
)
// Plain objects, as the schema and its fast path give (fast-deep-equal also compares
// prototypes, which no answer differs in).
const answer = fc.array(balance, { maxLength: 4 })

/** `list` with one field of one record (or lock) set to `value`: a near miss of it. */
const nudged = fc
  .tuple(answer, fc.nat(), fc.nat(), fc.nat(), text)
  .map(([list, at, field, lockAt, value]) => {
    const copy = structuredClone(list)
    const record = copy[at % Math.max(copy.length, 1)]
    if (record === undefined) return { list, copy }
    const keys = ['coin', 'balance', 'locked', 'stablecoin_price', 'lock'] as const
    const key = keys[field % keys.length] as (typeof keys)[number]
    const target = record.locks[lockAt % Math.max(record.locks.length, 1)]
    if (key !== 'lock') record[key] = value
    else if (target !== undefined) target.balance = value
    return { list, copy }
  })

describe('sameAnswer', () => {
  it('agrees with fast-deep-equal on any two answers, and on near misses', () => {
    fc.assert(
      fc.property(answer, answer, (a, b) => {
        expect(sameAnswer(a, b)).toBe(equal(a, b))
      }),
      params(200),
    )
    fc.assert(
      fc.property(nudged, ({ list, copy }) => {
        expect(sameAnswer(list, copy)).toBe(equal(list, copy))
      }),
      params(200),
    )
  })

  it('compares every field the schema gives (and the schema gives no other)', () => {
    expect(Object.keys(balanceSchema.shape)).toEqual([
      'coin',
      'balance',
      'locked',
      'locks',
      'stablecoin_price',
    ])
    expect(Object.keys(balanceLockSchema.shape)).toEqual(['balance', 'pool_id', 'pool_symbol'])
    const one = { coin: 'c', balance: '1', locked: '0', locks: [], stablecoin_price: '1' }
    for (const [field, value] of Object.entries({
      coin: 'd',
      balance: '2',
      locked: '1',
      stablecoin_price: '2',
      locks: [{ balance: '1', pool_id: 0, pool_symbol: 'p' }],
    })) {
      expect(sameAnswer([one], [{ ...one, [field]: value }])).toBe(false)
    }
    const locked = { ...one, locks: [{ balance: '1', pool_id: 0, pool_symbol: 'p' }] }
    for (const [field, value] of Object.entries({ balance: '2', pool_id: 1, pool_symbol: 'q' })) {
      const other = { ...locked, locks: [{ ...locked.locks[0], [field]: value }] }
      expect(sameAnswer([locked], [other as typeof locked])).toBe(false)
    }
    expect(sameAnswer([locked], [structuredClone(locked)])).toBe(true)
  })
})
