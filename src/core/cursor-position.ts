/**
 * Where a cursor feed stands: every item at or below `watermark` is delivered or can no
 * longer show at the source, and `above` lists (ascending) the items delivered above it.
 * A restart from a position reads from the watermark and skips what `above` lists: an item
 * the source shows late is still delivered, once.
 *
 * @example
 * ```ts
 * import type { CursorPosition } from 'venue-rx'
 *
 * const position: CursorPosition<string> = { watermark: '5000', above: ['5003', '5005'] }
 * // 5004, should the venue show it now, is delivered (late); 5003 and 5005 are not again
 * ```
 */
export interface CursorPosition<C> {
  /** Nothing new can show at or below it; `undefined`: from the first item. */
  readonly watermark: C | undefined
  /** Cursors of the items delivered above the watermark, ascending. */
  readonly above: readonly C[]
}

/**
 * Whether `value` is a {@link CursorPosition} rather than a plain cursor (what a checkpoint
 * written before positions holds).
 *
 * @example
 * ```ts
 * isCursorPosition({ watermark: '5000', above: [] }) // true
 * isCursorPosition('5000') // false
 * ```
 */
export function isCursorPosition<C>(value: unknown): value is CursorPosition<C> {
  return (
    typeof value === 'object' &&
    value !== null &&
    'above' in value &&
    Array.isArray((value as { above: unknown }).above)
  )
}

/**
 * The cursors delivered above a watermark, kept ascending, with what each caller needs to
 * know of them (`D`: when it was seen, its time). Items come mostly in ascending order, so
 * an insert is mostly an append.
 *
 * @example
 * ```ts
 * const above = new AboveWatermark<string, number>(compareIds, '10')
 * above.add('12', 0)
 * above.has('12') // true
 * above.isBelowOrAt('9') // true: at or below the watermark
 * above.advanceTo('12') // watermark 12, nothing above it
 * ```
 */
export class AboveWatermark<C, D = undefined> {
  readonly #compare: (a: C, b: C) => number
  #watermark: C | undefined
  #cursors: C[] = []
  #data: D[] = []

  constructor(compare: (a: C, b: C) => number, watermark: C | undefined) {
    this.#compare = compare
    this.#watermark = watermark
  }

  get watermark(): C | undefined {
    return this.#watermark
  }

  get size(): number {
    return this.#cursors.length
  }

  /** The greatest cursor delivered (above the watermark), or the watermark. */
  get newest(): C | undefined {
    return this.#cursors.at(-1) ?? this.#watermark
  }

  /** Whether `cursor` is at or below the watermark. */
  isBelowOrAt(cursor: C): boolean {
    return this.#watermark !== undefined && this.#compare(cursor, this.#watermark) <= 0
  }

  /** Whether `cursor` is known: at or below the watermark, or delivered above it. */
  has(cursor: C): boolean {
    if (this.isBelowOrAt(cursor)) return true
    const at = this.#search(cursor)
    return at < this.#cursors.length && this.#compare(this.#cursors[at] as C, cursor) === 0
  }

  /** Records `cursor` (not known yet) as delivered. */
  add(cursor: C, data: D): void {
    const at = this.#search(cursor)
    if (at === this.#cursors.length) {
      this.#cursors.push(cursor)
      this.#data.push(data)
    } else {
      this.#cursors.splice(at, 0, cursor)
      this.#data.splice(at, 0, data)
    }
  }

  /** Moves the watermark up to `cursor` (never down), forgetting what it passes. */
  advanceTo(cursor: C | undefined): void {
    if (cursor === undefined) return
    if (this.#watermark !== undefined && this.#compare(cursor, this.#watermark) <= 0) return
    this.#watermark = cursor
    let drop = 0
    while (drop < this.#cursors.length && this.#compare(this.#cursors[drop] as C, cursor) <= 0) {
      drop += 1
    }
    if (drop > 0) {
      this.#cursors.splice(0, drop)
      this.#data.splice(0, drop)
    }
  }

  /**
   * The greatest cursor above the watermark that `eligible` takes and whose data `settled`
   * accepts; `undefined` when none does.
   */
  lastSettled(settled: (data: D) => boolean, eligible: (cursor: C) => boolean): C | undefined {
    for (let i = this.#cursors.length - 1; i >= 0; i -= 1) {
      const cursor = this.#cursors[i] as C
      if (eligible(cursor) && settled(this.#data[i] as D)) return cursor
    }
    return undefined
  }

  /** Removes the entries at or below `cursor` (the watermark stays); returns their data, ascending. */
  takeUpTo(cursor: C | undefined): D[] {
    if (cursor === undefined) return []
    let end = 0
    while (end < this.#cursors.length && this.#compare(this.#cursors[end] as C, cursor) <= 0) {
      end += 1
    }
    this.#cursors.splice(0, end)
    return this.#data.splice(0, end)
  }

  /** The position: the watermark and a copy of the cursors above it. */
  position(): CursorPosition<C> {
    return { watermark: this.#watermark, above: this.#cursors.slice() }
  }

  /** Whether everything `position` holds is known here. */
  covers(position: CursorPosition<C>): boolean {
    const { watermark } = position
    if (watermark !== undefined && !this.isBelowOrAt(watermark)) return false
    return position.above.every((cursor) => this.has(cursor))
  }

  /** Index of the first cursor not before `cursor`. */
  #search(cursor: C): number {
    const cursors = this.#cursors
    let low = 0
    let high = cursors.length
    // Most cursors come after every one known: checked first.
    if (high > 0 && this.#compare(cursors[high - 1] as C, cursor) < 0) return high
    while (low < high) {
      const middle = (low + high) >>> 1
      if (this.#compare(cursors[middle] as C, cursor) < 0) low = middle + 1
      else high = middle
    }
    return low
  }
}
