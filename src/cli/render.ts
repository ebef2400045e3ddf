/** Plain-text table helpers for the terminal views (no dependencies, no colours needed). */
import { stripVTControlCharacters } from 'node:util'

/** Pads or cuts `text` to `width`; numbers-like columns align right. */
export function cell(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const cut = text.length > width ? `${text.slice(0, width - 1)}…` : text
  return align === 'right' ? cut.padStart(width) : cut.padEnd(width)
}

/** Renders rows under a header, each column `[title, width, align]`. */
export function table(
  columns: readonly (readonly [title: string, width: number, align?: 'left' | 'right'])[],
  rows: readonly (readonly string[])[],
): string[] {
  const line = (values: readonly string[]) =>
    columns
      .map(([, width, align], i) => cell(values[i] ?? '', width, align))
      .join('  ')
      .trimEnd()
  return [line(columns.map(([title]) => title)), ...rows.map(line)]
}

/** `chain.token-CHN` → `CHN`: the symbol part of a `contract-SYMBOL` coin. */
export function coinSymbol(coin: string): string {
  const dash = coin.lastIndexOf('-')
  return dash === -1 ? coin : coin.slice(dash + 1)
}

/** HH:MM:SS.mmm of an epoch-ms time, UTC. */
export function clock(ms: number): string {
  return new Date(ms).toISOString().slice(11, 23)
}

/** How many columns `text` takes on a terminal: its length without colour codes. */
export function visibleWidth(text: string): number {
  return stripVTControlCharacters(text).length
}

/**
 * Two columns of lines side by side: each left line padded (by its visible width, colour
 * codes aside) to `leftWidth`, then `gap` spaces, then the right line.
 */
export function sideBySide(
  left: readonly string[],
  right: readonly string[],
  leftWidth: number,
  gap = 2,
): string[] {
  const rows = Math.max(left.length, right.length)
  const out: string[] = []
  for (let i = 0; i < rows; i += 1) {
    const l = left[i] ?? ''
    const r = right[i] ?? ''
    out.push(r === '' ? l : `${l}${' '.repeat(Math.max(0, leftWidth - visibleWidth(l)) + gap)}${r}`)
  }
  return out
}

/**
 * `title` and `entries` on as many lines of `width` columns as they need, two spaces
 * between entries, an entry never split; the lines after the first are indented by two.
 */
export function wrapEntries(title: string, entries: readonly string[], width: number): string[] {
  const lines: string[] = []
  let line = title
  for (const entry of entries) {
    const next = `${line}  ${entry}`
    if (visibleWidth(next) <= width || visibleWidth(line.trim()) === 0) line = next
    else {
      lines.push(line)
      line = `  ${entry}`
    }
  }
  lines.push(line)
  return lines
}
