import { compareValidDecimals, isDecimal } from '../decimal.js'
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

/** True when the quantity is zero (`"0"`, `"0.000"`, `"-0"`): text of a valid decimal. */
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

/** The event a side belongs to, as the messages of the checks below name it. */
export type EventKind = 'snapshot' | 'delta'

/** Text an error quotes: JSON-quoted, cut after 40 characters (a price may have thousands). */
function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)
}

/**
 * Why `level` cannot be a level of the `side` of a `kind` event, or `undefined` when it
 * can: a `[price, quantity]` pair of plain decimal strings (the order book's exact
 * compares and sums take nothing else), with a quantity above zero in a snapshot and of
 * zero or more in a delta, where zero removes the level. A level of quantity zero in a
 * snapshot would sit in the book as a best price with nothing behind it (a wrong mid and
 * microprice), and a negative quantity is no quantity at all.
 */
export function levelProblem(kind: EventKind, side: BookSide, level: unknown): string | undefined {
  // The common valid level first, in as few steps as possible: deltas check every change.
  if (Array.isArray(level) && level.length === 2) {
    const price: unknown = level[0]
    const quantity: unknown = level[1]
    if (
      typeof price === 'string' &&
      typeof quantity === 'string' &&
      isDecimal(price) &&
      isDecimal(quantity) &&
      quantity.charCodeAt(0) !== 45 /* - */ &&
      (kind === 'delta' || !isZeroQuantity(quantity))
    ) {
      return undefined
    }
  }
  return describeLevelProblem(kind, side, level)
}

/** What is wrong with a level {@link levelProblem} did not take (or `undefined`: `-0`). */
function describeLevelProblem(kind: EventKind, side: BookSide, level: unknown): string | undefined {
  const where = `the ${side} of the ${kind}`
  if (
    !Array.isArray(level) ||
    level.length !== 2 ||
    typeof level[0] !== 'string' ||
    typeof level[1] !== 'string'
  ) {
    return `${where} hold a level that is not a [price, quantity] pair of strings`
  }
  const [price, quantity] = level as [string, string]
  if (!isDecimal(price))
    return `${where} hold a price that is not a decimal number: ${quote(price)}`
  if (!isDecimal(quantity)) {
    return `${where} hold the level ${quote(price)} with a quantity that is not a decimal number: ${quote(quantity)}`
  }
  const zero = isZeroQuantity(quantity)
  if (!zero && quantity.charCodeAt(0) === 45 /* - */) {
    return `${where} hold the level ${quote(price)} with a negative quantity: ${quote(quantity)}`
  }
  if (zero && kind === 'snapshot') {
    return `${where} hold the level ${quote(price)} with quantity ${quote(quantity)} (a snapshot lists levels above zero; zero removes a level in a delta only)`
  }
  return undefined
}

/**
 * Why `price` cannot follow `previous` on the `side` of a `kind` event, or `undefined`
 * when it comes strictly after it in side order. Prices are compared by value, so
 * `"1.10"` after `"1.1"` names one price twice.
 */
export function orderProblem(
  kind: EventKind,
  side: BookSide,
  previous: string,
  price: string,
): string | undefined {
  const order = sideOrder(side, previous, price)
  if (order < 0) return undefined
  if (order === 0) {
    return `the ${side} of the ${kind} name one price twice: ${quote(price)} after ${quote(previous)}`
  }
  return `the ${side} of the ${kind} are not in side order (${side === 'bids' ? 'high to low' : 'low to high'}, each price once): ${quote(price)} after ${quote(previous)}`
}

/**
 * Why `levels` cannot be the whole `side` of a snapshot, or `undefined` when they can:
 * every level valid ({@link levelProblem}) and each price strictly after the one before
 * it in side order ({@link orderProblem}). One pass, linear.
 */
export function snapshotSideProblem(side: BookSide, levels: unknown): string | undefined {
  if (!Array.isArray(levels)) return `the ${side} of the snapshot are not an array of levels`
  let previous: string | undefined
  for (let k = 0; k < levels.length; k += 1) {
    const level: unknown = levels[k]
    const problem = levelProblem('snapshot', side, level)
    if (problem !== undefined) return problem
    const price = (level as Level)[0]
    if (previous !== undefined) {
      const disorder = orderProblem('snapshot', side, previous, price)
      if (disorder !== undefined) return disorder
    }
    previous = price
  }
  return undefined
}
