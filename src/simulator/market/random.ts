/**
 * The simulator's only source of randomness: a small seeded generator (mulberry32) and
 * pure hash-derived identifiers. Nothing here reads the clock or `Math.random`, so the
 * same seed always yields the same market.
 *
 * @packageDocumentation
 */

/**
 * A seeded pseudo-random stream (mulberry32, 32-bit state). Floats it returns only pick
 * among choices; they never enter amounts, which stay exact BigInt.
 *
 * @example
 * ```ts
 * const random = new Random(42)
 * random.int(1, 6) // the same die roll on every run with seed 42
 * ```
 */
export class Random {
  #state: number

  constructor(seed: number) {
    this.#state = seed >>> 0
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0
    let t = this.#state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  /** A BigInt in [min, max], both inclusive (ranges up to 2^53 wide). */
  bigint(min: bigint, max: bigint): bigint {
    const span = Number(max - min) + 1
    return min + BigInt(Math.floor(this.next() * span))
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)]
    if (item === undefined) throw new RangeError('pick from an empty list')
    return item
  }
}

/** FNV-1a over the text of `parts`, mixed with `seed`: a 32-bit hash. */
export function hashSeed(seed: number, ...parts: (string | number)[]): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0
  for (const char of parts.join('\u0000')) {
    hash ^= char.charCodeAt(0)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash
}

const HEX = '0123456789abcdef'
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/**
 * A deterministic string of `length` characters from `alphabet`, derived from the seed and
 * a label, independent of the main random stream.
 */
export function derivedString(
  seed: number,
  label: string,
  length: number,
  alphabet: string = HEX,
): string {
  const random = new Random(hashSeed(seed, label))
  let text = ''
  for (let i = 0; i < length; i++)
    text += alphabet.charAt(Math.floor(random.next() * alphabet.length))
  return text
}

/** A 64-character hex transaction id for `label`. */
export function txId(seed: number, label: string): string {
  return derivedString(seed, `tx:${label}`, 64)
}

/** An API key of the venue's form: `k-` and 36 letters and digits. */
export function apiKeyFor(seed: number, index: number): string {
  return `k-${derivedString(seed, `api-key:${index}`, 36, ALPHANUMERIC)}`
}
