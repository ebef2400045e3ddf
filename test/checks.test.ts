/**
 * The number checks every argument and option goes through, and the input error of a
 * failed one.
 */
import { describe, expect, it } from 'vitest'
import { failCheck, isNumberIn, isPositiveNumber, isWholeNumber } from '../src/checks.js'
import { VenueInputError } from '../src/errors/venue-input-error.js'

describe('number checks', () => {
  it('a whole number is a safe integer within its bounds (both included)', () => {
    expect([0, 5, -3, Number.MAX_SAFE_INTEGER].map((n) => isWholeNumber(n))).toEqual([
      true,
      true,
      true,
      true,
    ])
    expect(
      [2.5, 2 ** 53, Number.NaN, Infinity, '5', null, undefined].map((n) => isWholeNumber(n)),
    ).toEqual([false, false, false, false, false, false, false])
    expect([4, 5, 10_000, 10_001].map((n) => isWholeNumber(n, 5, 10_000))).toEqual([
      false,
      true,
      true,
      false,
    ])
    expect(isWholeNumber(-1, 0)).toBe(false)
  })

  it('a positive number is finite and above 0', () => {
    expect([0.001, 1, 2 ** 60].map(isPositiveNumber)).toEqual([true, true, true])
    expect([0, -1, Number.NaN, Infinity, '5', null].map(isPositiveNumber)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ])
  })

  it('a number in a range is finite and within it (both ends included)', () => {
    expect([0.001, 1_000_000].map((n) => isNumberIn(n, 0.001, 1_000_000))).toEqual([true, true])
    expect([0.0009, 1_000_001, Number.NaN, '1'].map((n) => isNumberIn(n, 0.001, 1e6))).toEqual([
      false,
      false,
      false,
      false,
    ])
  })
})

describe('failCheck', () => {
  it('throws a VenueInputError naming the argument: method: argument rule (got value)', () => {
    const thrown = (run: () => never) => {
      try {
        run()
      } catch (error) {
        return error
      }
      return undefined
    }
    const error = thrown(() =>
      failCheck('watchOrder', 'fillGraceMs', 'must be a whole number of ms, 0 or more', -1),
    )
    expect(error).toBeInstanceOf(VenueInputError)
    expect(error).toMatchObject({
      argument: 'fillGraceMs',
      message: 'watchOrder: fillGraceMs must be a whole number of ms, 0 or more (got -1)',
    })
    const long = 'x'.repeat(50)
    expect(thrown(() => failCheck('m', 'a', 'must be short', long))).toMatchObject({
      message: `m: a must be short (got "${'x'.repeat(40)}…")`,
    })
    expect(thrown(() => failCheck('m', 'a', 'must be short', long, { whole: true }))).toMatchObject(
      { message: `m: a must be short (got "${long}")` },
    )
  })
})
