/**
 * A small seeded PRNG (mulberry32) for fault decisions, separate from the market's so that
 * turning faults on does not change the market.
 *
 * @example
 * ```ts
 * const a = createFaultRandom(7)
 * const b = createFaultRandom(7)
 * a() === b() // true: same seed, same sequence; values in [0, 1)
 * ```
 */
export function createFaultRandom(seed: number): () => number {
  // Fold the seed to 32 bits (high and low words) and move it away from the market's stream.
  let state = ((seed >>> 0) ^ Math.floor(seed / 0x1_0000_0000) ^ 0x9e37_79b9) >>> 0
  return () => {
    state = (state + 0x6d2b_79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 0x1_0000_0000
  }
}
