import { compareIds } from '../decimal.js'

/**
 * Orders Redis stream entry ids `<ms>-<seq>` as pairs of unsigned integers (exact, of any
 * length): what the relay's readers and the waker that wakes them compare.
 *
 * @example
 * ```ts
 * compareEntryIds('1700000000000-2', '1700000000000-10') // < 0
 * compareEntryIds('5-0', '5') // 0: a missing part is 0
 * ```
 */
export function compareEntryIds(x: string, y: string): number {
  const [a1 = '0', a2 = '0'] = x.split('-')
  const [b1 = '0', b2 = '0'] = y.split('-')
  return compareIds(a1, b1) || compareIds(a2, b2)
}
