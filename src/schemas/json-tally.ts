/**
 * Proof, from lengths alone, that `JSON.parse` read every number of an answer exactly, so
 * that the common answer needs no scan of its text for numbers a double cannot hold.
 *
 * While a fast path reads a parsed value, it counts the fewest characters that value can
 * have been written with: no whitespace, no escapes, each number as JavaScript writes it.
 * Any other writing of the same value is longer, except that a number ending in three or
 * more zeros can be written shorter with an exponent (`1e3` for `1000`). Such a number,
 * when it is the value of a key, is looked for in the text as `"key":1000`: found (once
 * per such member), it is written in full; not found, its possible saving is counted as
 * `slack`. (An occurrence that is not the member's own writing is text the count does not
 * have: it makes the text longer by more than the saving it could hide.)
 *
 * A number `JSON.parse` did not read exactly (the exact-number parse would have kept it as
 * text) has at least 16 significant digits and a point or an exponent, or an exponent
 * that underflows: it is always at least 2 characters longer than the number JavaScript
 * writes for its double, provided that number has at most 15 characters and no exponent,
 * which {@link JsonTally.number} requires. So if the text is longer than the count by
 * less than `2 - slack`, no such number is in it.
 */
export class JsonTally {
  /** Characters counted so far. */
  length = 0
  /** How many characters fewer the numbers counted could have been written with. */
  slack = 0
  /**
   * Members `"key":digits` of round numbers, each to be found written in full, with the
   * key as written (`"key"`).
   */
  readonly #round: { readonly key: string; readonly member: string; readonly saving: number }[] = []
  /** False once a value was counted that the proof cannot cover. */
  measurable = true

  /** Counts a string value or an object key. */
  string(text: string): void {
    this.length += text.length + 2
  }

  /** Counts `true` or `false`. */
  boolean(value: boolean): void {
    this.length += value ? 4 : 5
  }

  /** Counts a number as `JSON.parse` returned it; `key`, the member it is the value of. */
  number(value: number, key?: string): void {
    if (!Number.isFinite(value)) {
      this.measurable = false
      return
    }
    if (Number.isInteger(value)) {
      // Beyond 2^53 the exact-number parse keeps the digits as text: not for this proof.
      if (!Number.isSafeInteger(value)) this.measurable = false
      else if (value % 1000 === 0 && value !== 0) this.integer(String(value), key)
      else {
        // Not round (fewer than three trailing zeros): only its length counts, found
        // without writing it (most numbers of a page are such ids).
        const length = integerLength(value)
        if (length > 15) this.measurable = false
        else this.length += length
      }
      return
    }
    const text = String(value)
    // A fraction below 1 may be shorter with an exponent (`1e-3`); an exponent in
    // JavaScript's own writing, or more than 15 characters, is beyond the proof.
    if (Math.abs(value) < 1 || text.length > 15 || text.includes('e')) {
      this.measurable = false
      return
    }
    this.length += text.length
  }

  /**
   * Counts an integer number already written as JavaScript writes it (`String(value)`),
   * as the fast paths do for the ids they hand on as text; `key`, the member it is the
   * value of.
   */
  integer(text: string, key?: string): void {
    if (text.length > 15) {
      this.measurable = false
      return
    }
    this.length += text.length
    const saving = exponentSaving(text)
    if (saving === 0) return
    if (key === undefined) this.slack += saving
    else {
      const quoted = JSON.stringify(key)
      this.#round.push({ key: quoted, member: `${quoted}:${text}`, saving })
    }
  }

  /** Counts any parsed JSON value (objects and arrays walked); `key`, the member it is the value of. */
  value(value: unknown, key?: string): void {
    switch (typeof value) {
      case 'string':
        this.string(value)
        return
      case 'number':
        this.number(value, key)
        return
      case 'boolean':
        this.boolean(value)
        return
      case 'object':
        if (value === null) {
          this.length += 4
        } else if (Array.isArray(value)) {
          this.arrayFrame(value.length)
          for (const item of value) this.value(item)
        } else {
          let keys = 0
          for (const key in value) {
            keys += 1
            this.string(key)
            this.value((value as Record<string, unknown>)[key], key)
          }
          this.objectFrame(keys)
        }
        return
      default:
        this.measurable = false
    }
  }

  /** Counts the brackets and commas of an array of `items` values. */
  arrayFrame(items: number): void {
    this.length += items === 0 ? 2 : items + 1
  }

  /** Counts the braces, colons and commas of an object of `keys` members (not the keys). */
  objectFrame(keys: number): void {
    this.length += keys === 0 ? 2 : 2 * keys + 1
  }

  /**
   * Whether `text`, which `JSON.parse` turned into the values counted (all of them,
   * nothing left out), holds only numbers it read exactly. Whitespace at the end of the
   * text is allowed.
   */
  provesExact(text: string): boolean {
    if (!this.measurable) return false
    let end = text.length
    while (end > 0 && isJsonSpace(text.charCodeAt(end - 1))) end -= 1
    const excess = end - this.length
    if (excess < 0) return false
    let slack = this.slack
    if (this.#round.length > 0) {
      // Each member found at a place of its own (two equal members need two places). The
      // members of one key were counted in the order they are written (the records of a
      // list in turn): each search starts where the last member of its key was found, so
      // a page of many round numbers is read about once per key, not once per number.
      // Only when that fails (a key counted out of its written order, as in a nested
      // record) is the text searched from the start for a place not yet taken. (A member
      // not found counts as written short: a miss only costs the proof.)
      const after = new Map<string, number>()
      const taken = new Set<number>()
      for (const { key, member, saving } of this.#round) {
        const start = after.get(key) ?? 0
        let at = findMember(text, member, start, taken)
        if (at === -1 && start > 0) at = findMember(text, member, 0, taken)
        if (at === -1) slack += saving
        else {
          taken.add(at)
          after.set(key, at + member.length)
        }
      }
    }
    return excess + slack < 2
  }
}

/**
 * Where `member` is written in full (followed by what may follow a value) from `start`, at
 * a place not `taken`, or -1.
 */
function findMember(text: string, member: string, start: number, taken: Set<number>): number {
  for (let at = text.indexOf(member, start); at !== -1; at = text.indexOf(member, at + 1)) {
    if (taken.has(at)) continue
    const next = text.charCodeAt(at + member.length)
    if (next === 44 || next === 125 || next === 93 || isJsonSpace(next)) return at
  }
  return -1
}

/** The length of `String(value)` for a safe integer (`-0` is `'0'`). */
function integerLength(value: number): number {
  let rest = value < 0 ? -value : value
  let length = value < 0 ? 2 : 1
  while (rest >= 10) {
    rest = (rest - (rest % 10)) / 10
    length += 1
  }
  return length
}

/**
 * How much shorter the integer written as `digits` is with an exponent: `12000` (5) is
 * `12e3` (4), one character; fewer than three trailing zeros save nothing.
 */
function exponentSaving(digits: string): number {
  let zeros = 0
  for (let i = digits.length - 1; i > 0 && digits.charCodeAt(i) === 48; i -= 1) zeros += 1
  if (zeros < 3) return 0
  // `m` + `e` + the exponent's digits, against `m` + the zeros.
  return zeros - 1 - String(zeros).length
}

function isJsonSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9
}
