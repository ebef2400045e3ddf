import { compareValidDecimals } from '../decimal.js'
import type { BookSide, Level } from './book-event.js'
import { isZeroQuantity, levelProblem, orderProblem } from './book-side.js'

/**
 * One side of an order book as a persistent sequence of chunks: the levels in side order,
 * cut into arrays of 1 to `2 × CHUNK` levels. Applying a delta copies the list of chunks
 * (about `n / CHUNK` references) and only the chunks the delta touches, so a delta of k
 * levels to a side of n costs O(n / CHUNK + k × CHUNK) and never rewrites the untouched
 * levels; the book before the delta stays as it was. Chunks are never changed once a
 * book holds them.
 */
export type Chunks = readonly (readonly Level[])[]

/**
 * Levels per chunk, nominal (a chunk splits when it passes twice this): 32 balances a
 * short delta (fewer chunk references to copy) against a long one (shorter chunks to
 * copy); bench/book-apply.ts measures it.
 */
const CHUNK = 32

/** The chunks of levels already in side order. */
export function toChunks(levels: readonly Level[]): Chunks {
  const chunks: Level[][] = []
  for (let i = 0; i < levels.length; i += CHUNK) chunks.push(levels.slice(i, i + CHUNK))
  return chunks
}

/** All levels in order, as one new array. */
export function flatten(chunks: Chunks): Level[] {
  if (chunks.length === 1) return (chunks[0] as Level[]).slice()
  return ([] as Level[]).concat(...chunks)
}

/** The first `count` levels, in O(count). */
export function firstLevels(chunks: Chunks, count: number): Level[] {
  const out: Level[] = []
  for (const chunk of chunks) {
    for (const level of chunk) {
      if (out.length >= count) return out
      out.push(level)
    }
  }
  return out
}

/**
 * `chunks` with `changes` applied: a change replaces the level of its price or adds it; a
 * change with quantity zero removes the level (and is ignored when there is none). The
 * changes must be `[price, quantity]` pairs of decimal strings, no quantity below zero, in
 * side order with no price twice, else a `RangeError` naming the first change at fault
 * (applied as given, such a delta would leave a book out of order or holding a level no
 * book can have).
 * Returns `chunks` itself when nothing changes.
 */
export function applyChanges(side: BookSide, chunks: Chunks, changes: readonly Level[]): Chunks {
  if (changes.length === 0) return chunks
  const out = chunks.slice() as Level[][]
  // Chunks this call made, which it may change in place. The changes go forward, so only
  // the latest copy (and the upper half of its split) can be met again.
  let own: Level[] | undefined
  let ownUpper: Level[] | undefined
  let from = 0
  let previous: string | undefined
  for (let c = 0; c < changes.length; c += 1) {
    const change = changes[c] as Level
    // Checked before the change is used: the searches below compare valid decimals only.
    const problem =
      levelProblem('delta', side, change) ??
      (previous === undefined ? undefined : orderProblem('delta', side, previous, change[0]))
    if (problem !== undefined) throw new RangeError(problem)
    const price = change[0]
    previous = price
    const zero = isZeroQuantity(change[1])
    const target = new Target(price, side === 'bids')
    // The first chunk from `from` on whose last price is not before the change's price:
    // galloping from `from` (the changes go forward, often into a near chunk), then a
    // binary search in the last step.
    let low = from
    let high = out.length
    for (let step = 1; low + step - 1 < high; step *= 2) {
      const probe = low + step - 1
      const chunk = out[probe] as Level[]
      if (target.after((chunk[chunk.length - 1] as Level)[0]) < 0) {
        low = probe + 1
      } else {
        high = probe
        break
      }
    }
    while (low < high) {
      const middle = (low + high) >>> 1
      const chunk = out[middle] as Level[]
      if (target.after((chunk[chunk.length - 1] as Level)[0]) < 0) low = middle + 1
      else high = middle
    }
    let k = low
    if (k === out.length) {
      // After every level: onto the last chunk, or a new one.
      if (zero) continue
      const last = out[k - 1]
      if (last === undefined || last.length >= 2 * CHUNK) {
        const fresh = [change]
        out.push(fresh)
        own = fresh
        from = k
        continue
      }
      k -= 1
    }
    from = k
    let chunk = out[k] as Level[]
    low = 0
    high = chunk.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (target.after((chunk[middle] as Level)[0]) < 0) low = middle + 1
      else high = middle
    }
    const same = low < chunk.length && target.after((chunk[low] as Level)[0]) === 0
    if (!same && zero) continue
    if (chunk !== own && chunk !== ownUpper) {
      chunk = chunk.slice()
      out[k] = chunk
      own = chunk
    }
    if (!same) chunk.splice(low, 0, change)
    else if (zero) chunk.splice(low, 1)
    else chunk[low] = change
    if (chunk.length === 0) {
      out.splice(k, 1)
    } else if (chunk.length > 2 * CHUNK) {
      const upper = chunk.splice(CHUNK)
      out.splice(k + 1, 0, upper)
      own = chunk
      ownUpper = upper
    }
  }
  return out
}

/**
 * A price searched for in a side: `after(level)` orders a level's price against it in
 * side order (negative: the level comes first), exactly. Prices of one venue precision
 * (as long, the point at the same place, no sign) order like their text, checked here
 * from the searched price's shape, known once, instead of per compare.
 */
class Target {
  readonly #price: string
  readonly #bids: boolean
  readonly #length: number
  /** Index of the point, or -1 for an integer; -2 when the shape is not plain (a sign). */
  readonly #point: number

  constructor(price: string, bids: boolean) {
    this.#price = price
    this.#bids = bids
    this.#length = price.length
    this.#point = price.charCodeAt(0) === 45 /* - */ ? -2 : price.indexOf('.')
  }

  after(level: string): number {
    const price = this.#price
    if (level === price) return 0
    let order: number
    const point = this.#point
    if (
      level.length === this.#length &&
      point !== -2 &&
      level.charCodeAt(0) !== 45 &&
      (point === -1 ? level.indexOf('.') === -1 : level.charCodeAt(point) === 46)
    ) {
      order = level < price ? -1 : 1
    } else {
      order = compareValidDecimals(level, price)
    }
    return this.#bids ? -order : order
  }
}
