/**
 * The known word closest to a misspelt one, for a usage error's "did you mean": by edit
 * distance (a letter added, dropped or changed, or two neighbours swapped, each counting
 * 1), at most a third of the word's length away (at least 1), ignoring case; the first of
 * a tie, `undefined` when none is that close.
 *
 * @example
 * ```ts
 * closestWord('pol', ['pool', 'poll-ms', 'seed']) // 'pool'
 * closestWord('wacth', ['demo', 'watch', 'export']) // 'watch'
 * closestWord('bogus', ['pool', 'seed']) // undefined
 * ```
 */
export function closestWord(word: string, known: Iterable<string>): string | undefined {
  const most = Math.max(1, Math.round(word.length / 3))
  let best: string | undefined
  let bestDistance = most + 1
  for (const candidate of known) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase())
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  return best
}

/**
 * ` (did you mean --pool?)` for `word` = `pol` among `known` = `['pool', ...]`
 * (`prefix` = `--`), or `''` when no known word is close.
 */
export function didYouMean(word: string, known: Iterable<string>, prefix = ''): string {
  const closest = closestWord(word, known)
  return closest === undefined ? '' : ` (did you mean ${prefix}${closest}?)`
}

/** Optimal string alignment distance: Levenshtein's, plus a swap of two neighbours as 1. */
function editDistance(a: string, b: string): number {
  // rows[i][j]: the distance between a's first i letters and b's first j.
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)]
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i]
    for (let j = 1; j <= b.length; j += 1) {
      const same = a[i - 1] === b[j - 1] ? 0 : 1
      let d = Math.min(
        (rows[i - 1]?.[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (rows[i - 1]?.[j - 1] ?? 0) + same,
      )
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, (rows[i - 2]?.[j - 2] ?? 0) + 1)
      }
      row.push(d)
    }
    rows.push(row)
  }
  return rows[a.length]?.[b.length] ?? 0
}
