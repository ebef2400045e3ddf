/**
 * What a sliding window of records without ids gained since the previous look.
 *
 * Both windows are oldest first. The new records are what follows the longest overlap
 * of the previous window's end with the current window's start, compared record by
 * record, so two identical records in a row count twice (multiset, not set). The
 * longest overlap is taken: identical records that repeat across the boundary are
 * counted as few times as the windows allow, never more.
 *
 * `gap` is true when the windows do not overlap at all although the previous one was
 * not empty: more records arrived than the window holds, and some may be missing.
 *
 * @example
 * ```ts
 * newInWindow(['a', 'b', 'b'], ['b', 'b', 'c', 'c'], (x, y) => x === y)
 * // { added: ['c', 'c'], gap: false }
 * ```
 */
export function newInWindow<T>(
  previous: readonly T[],
  current: readonly T[],
  same: (a: T, b: T) => boolean,
): { readonly added: readonly T[]; readonly gap: boolean } {
  const longest = Math.min(previous.length, current.length)
  for (let overlap = longest; overlap > 0; overlap--) {
    const offset = previous.length - overlap
    let matches = true
    for (let k = 0; k < overlap; k++) {
      if (!same(previous[offset + k] as T, current[k] as T)) {
        matches = false
        break
      }
    }
    if (matches) return { added: current.slice(overlap), gap: false }
  }
  return { added: current, gap: previous.length > 0 && current.length > 0 }
}
