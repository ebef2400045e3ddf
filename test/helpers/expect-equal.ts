/**
 * `toEqual` for large values compared many times (property runs, long histories): node's
 * `isDeepStrictEqual` decides first, some five times quicker than vitest's comparison, and
 * values it finds equal are equal for `toEqual` too (strict deep equality is the stricter
 * rule). Only when it finds them unequal does vitest compare, with its own looser rules
 * (an undefined property, a class) and its diff.
 */
import { isDeepStrictEqual } from 'node:util'
import { expect } from 'vitest'

/** `expect(actual).toEqual(expected)`, quicker when they are strictly equal. */
export function expectEqual(actual: unknown, expected: unknown, message?: string): void {
  if (isDeepStrictEqual(actual, expected)) return
  expect(actual, message).toEqual(expected)
}
