import { compareValidDecimals } from '../decimal.js'
import type { BookSide, Level } from './book-event.js'

/**
 * Pure, linear operations on one sorted side of a book. Prices and quantities are
 * compared as exact decimals, so `"1.10"` and `"1.1"` are one level and a quantity that
 * changes only its text is no change.
 */

/** Negative when price `a` comes before price `b` on `side` (bids high to low, asks low to high). */
export function sideOrder(side: BookSide, a: string, b: string): number {
  return side === 'bids' ? compareValidDecimals(b, a) : compareValidDecimals(a, b)
}

/** True when the quantity is zero (`"0"`, `"0.000"`). */
export function isZeroQuantity(quantity: string): boolean {
  for (let i = 0; i < quantity.length; i++) {
    const c = quantity.charCodeAt(i)
    if (c >= 49 && c <= 57) return false
  }
  return true
}

/**
 * The levels that turn `previous` into `next` (one side of two polls, `previous` in side
 * order): a new or changed level as it is in `next`, a vanished one with quantity `'0'`.
 * One merge walk, which checks `next`'s order on the way. Most levels of a poll are the
 * previous poll's, the same strings, and for those a string compare replaces the decimal
 * compares (two levels that matched the previous, in-order side one after the other are
 * in order too). `undefined` when `next` is not strictly in side order.
 */
export function diffPolls(
  side: BookSide,
  previous: readonly Level[],
  next: readonly Level[],
): Level[] | undefined {
  const changes: Level[] = []
  let i = 0
  let j = 0
  // Whether next[j - 1] matched previous[i - 1].
  let matched = false
  while (i < previous.length || j < next.length) {
    const before = previous[i]
    const after = next[j]
    if (before !== undefined && after !== undefined && before[0] === after[0]) {
      if (j > 0 && !matched && sideOrder(side, (next[j - 1] as Level)[0], after[0]) >= 0) {
        return undefined
      }
      if (before[1] !== after[1] && compareValidDecimals(before[1], after[1]) !== 0) {
        changes.push(after)
      }
      i += 1
      j += 1
      matched = true
      continue
    }
    if (after !== undefined && j > 0 && sideOrder(side, (next[j - 1] as Level)[0], after[0]) >= 0) {
      return undefined
    }
    if (before === undefined) {
      changes.push(after as Level)
      j += 1
      matched = false
      continue
    }
    if (after === undefined) {
      changes.push([before[0], '0'])
      i += 1
      continue
    }
    const order = sideOrder(side, before[0], after[0])
    if (order < 0) {
      changes.push([before[0], '0'])
      i += 1
      // next[j - 1] stays unchecked against next[j]: it is checked when next[j] is taken.
      matched = false
    } else if (order > 0) {
      changes.push(after)
      j += 1
      matched = false
    } else {
      if (compareValidDecimals(before[1], after[1]) !== 0) changes.push(after)
      i += 1
      j += 1
      matched = false
    }
  }
  return changes
}

/** `levels` without zero-quantity levels (a level served with quantity 0 is no level). */
export function withoutEmptyLevels(levels: readonly Level[]): readonly Level[] {
  // A plain loop: `some` over a frozen array takes a slow path (about 20 ns a level).
  for (let k = 0; k < levels.length; k++) {
    if (isZeroQuantity((levels[k] as Level)[1])) {
      return Object.freeze(levels.filter((level) => !isZeroQuantity(level[1])))
    }
  }
  return levels
}

/** True when every price comes strictly after the previous one in side order. */
export function isOrdered(side: BookSide, levels: readonly Level[]): boolean {
  for (let k = 1; k < levels.length; k++) {
    if (sideOrder(side, (levels[k - 1] as Level)[0], (levels[k] as Level)[0]) >= 0) return false
  }
  return true
}

/** Sorts a side into side order, keeping the last level of a repeated price (for resyncs only). */
export function sortSide(side: BookSide, levels: readonly Level[]): readonly Level[] {
  const sorted = [...levels].sort((a, b) => sideOrder(side, a[0], b[0]))
  const unique: Level[] = []
  for (const level of sorted) {
    const last = unique.at(-1)
    if (last !== undefined && sideOrder(side, last[0], level[0]) === 0)
      unique[unique.length - 1] = level
    else unique.push(level)
  }
  return Object.freeze(unique)
}
