import { integerFrom, noExtraArguments, optionsObject, placesOption } from './checks.js'
import { addUnits, shiftUnits, subtractUnits, type Units } from './scaled.js'

/** An entry of a {@link PairWindow}: two amounts at their own scales. */
interface PairEntry {
  readonly at: number
  readonly first: Units
  readonly firstScale: number
  readonly second: Units
  readonly secondScale: number
}

/** Entries a {@link PairWindow} lets pass before it drops the ones it is done with. */
const COMPACT_AFTER = 1024

/**
 * Running exact sums of two amounts over a window of trade time, as scaled integers: an
 * entry at `at` counts while `at > latest - windowMs`, `latest` being the newest time
 * added (so the window is `(latest - windowMs, latest]`, on the trades' own clock, never
 * the wall clock); a late one counts while it is inside the window. Each sum is at the
 * finest scale of the amounts added so far. The entries are kept in time order, so the ones that leave are those at the front:
 * a step costs O(1) for trades in time order (O(log n) plus a move of the later entries
 * for one out of order), not a pass over the window.
 */
export class PairWindow {
  readonly #windowMs: number
  /** In time order from `#head` (before it: entries gone, dropped now and then). */
  #entries: PairEntry[] = []
  #head = 0
  #latest = Number.NEGATIVE_INFINITY
  /** Sum of the first amounts, in units of 10^-firstScale. */
  first: Units = 0
  firstScale = 0
  /** Sum of the second amounts, in units of 10^-secondScale. */
  second: Units = 0
  secondScale = 0

  constructor(windowMs: number) {
    this.#windowMs = windowMs
  }

  /** Adds an entry (`first` in units of 10^-firstScale, ...), then drops what left. */
  add(at: number, first: Units, firstScale: number, second: Units, secondScale: number): void {
    if (at > this.#latest) this.#latest = at
    const cutoff = this.#latest - this.#windowMs
    const entries = this.#entries
    if (at > cutoff) {
      const entry: PairEntry = { at, first, firstScale, second, secondScale }
      const last = entries.at(-1)
      if (last === undefined || last.at <= at) {
        entries.push(entry)
      } else {
        // After the last entry of its time or before.
        let low = this.#head
        let high = entries.length
        while (low < high) {
          const middle = (low + high) >>> 1
          if ((entries[middle] as PairEntry).at <= at) low = middle + 1
          else high = middle
        }
        entries.splice(low, 0, entry)
      }
      if (firstScale > this.firstScale) {
        this.first = shiftUnits(this.first, firstScale - this.firstScale)
        this.firstScale = firstScale
      }
      if (secondScale > this.secondScale) {
        this.second = shiftUnits(this.second, secondScale - this.secondScale)
        this.secondScale = secondScale
      }
      this.first = addUnits(this.first, shiftUnits(first, this.firstScale - firstScale))
      this.second = addUnits(this.second, shiftUnits(second, this.secondScale - secondScale))
    }
    let head = this.#head
    while (head < entries.length && (entries[head] as PairEntry).at <= cutoff) {
      const gone = entries[head] as PairEntry
      this.first = subtractUnits(
        this.first,
        shiftUnits(gone.first, this.firstScale - gone.firstScale),
      )
      this.second = subtractUnits(
        this.second,
        shiftUnits(gone.second, this.secondScale - gone.secondScale),
      )
      head += 1
    }
    // Memory stays within twice the window (and COMPACT_AFTER entries).
    if (head > COMPACT_AFTER && head * 2 > entries.length) {
      this.#entries = entries.slice(head)
      head = 0
    }
    this.#head = head
  }
}

/**
 * The checks of the arguments of a signal over a window of trade time, at the call:
 * `windowMs` (an integer >= 1), `options` (`places`) and that no argument follows them
 * (`extra`). Returns the window and the places.
 */
export function windowArguments(
  method: string,
  [windowMs, options, extra]: readonly [unknown, unknown, readonly unknown[]],
): { readonly span: number; readonly places: number } {
  noExtraArguments(method, ['windowMs', 'options'], extra)
  const span = integerFrom(method, 'windowMs', windowMs, 1)
  const places = placesOption(method, optionsObject(method, options, ['places']))
  return { span, places }
}
