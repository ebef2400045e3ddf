/** Timing and printing shared by the benchmarks. */

import type { BookDelta, BookSnapshot, Level } from '../../src/book/book-event.js'

/** `n` as a decimal with `decimals` fixed decimals: `fixed(10450, 4)` is `'1.0450'`. */
export function fixed(n: number, decimals: number): string {
  const digits = String(n).padStart(decimals + 1, '0')
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`
}

/** Settings of {@link medianMicros}. */
export interface MeasureOptions {
  /** Batches of each run (interleaved); default 15. */
  readonly batches?: number
  /** Length of a batch, ms; default 20. */
  readonly batchMs?: number
  /**
   * Time each run is called first, unmeasured, ms; default 300: the JIT has compiled the
   * code by then, so the figures are those of a long-running process.
   */
  readonly warmupMs?: number
  /** Called before each batch of the run named, outside the clock. */
  readonly beforeBatch?: (run: string) => void
}

/**
 * Median time of one call of each run, in µs, after a warm-up: the runs take turns in
 * batches of about `batchMs`, so that a slow moment of the machine hits them all alike.
 */
export function medianMicros(
  runs: Record<string, () => void>,
  options: MeasureOptions = {},
): Record<string, number> {
  const { batches = 15, batchMs = 20, warmupMs = 300, beforeBatch } = options
  for (const [name, run] of Object.entries(runs)) {
    beforeBatch?.(name)
    const started = performance.now()
    while (performance.now() - started < warmupMs) run()
  }
  const samples: Record<string, number[]> = {}
  for (const name of Object.keys(runs)) samples[name] = []
  for (let batch = 0; batch < batches; batch += 1) {
    for (const [name, run] of Object.entries(runs)) {
      beforeBatch?.(name)
      let count = 0
      const started = performance.now()
      let elapsed = 0
      while (elapsed < batchMs) {
        run()
        count += 1
        elapsed = performance.now() - started
      }
      samples[name]?.push((elapsed * 1000) / count)
    }
  }
  const medians: Record<string, number> = {}
  for (const [name, list] of Object.entries(samples)) {
    const sorted = [...list].sort((a, b) => a - b)
    medians[name] = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
  }
  return medians
}

/** One figure of a benchmark against its target, for `npm run bench`'s table. */
export interface Summary {
  readonly figure: string
  readonly value: number
  /** e.g. `'x JSON.parse'`, `'x faster'`, `'of bare'`. */
  readonly unit: string
  readonly target: string
  readonly met: boolean
}

/** The line a benchmark prints per figure with `--json`: `bench-summary {...}`. */
export function summaryLine(summary: Summary): string {
  return `bench-summary ${JSON.stringify(summary)}`
}

/** Prints rows as right-aligned columns under a header row and a rule. */
export function printTable(rows: readonly (readonly string[])[]): void {
  const widths = (rows[0] ?? []).map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)))
  for (const [r, row] of rows.entries()) {
    console.log(row.map((cell, c) => cell.padStart(widths[c] ?? 0)).join('  '))
    if (r === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  }
}

/** Whether the benchmark was asked for its `bench-summary` lines only (`--json`). */
export const SUMMARY_ONLY = process.argv.includes('--json')

/** The positional arguments of a benchmark (flags such as `--json` left out). */
export function positionalArgs(): string[] {
  return process.argv.slice(2).filter((arg) => !arg.startsWith('--'))
}

/**
 * Prints rows under a header as columns, the first left-aligned and the others right-
 * aligned, with a rule under the header.
 */
export function printColumns(
  header: readonly string[],
  rows: readonly (readonly string[])[],
): void {
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((cells) => (cells[i] ?? '').length)),
  )
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ')
  console.log(line(header))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const cells of rows) console.log(line(cells))
}

/** The price ticks of a book `levels` deep a side around `mid`: one level every other tick. */
export interface BookTicks {
  readonly mid: number
  readonly bids: Map<number, number>
  readonly asks: Map<number, number>
}

/**
 * A book of `levels` levels a side around the tick 1,000,000, one level every other tick
 * (so that new ones can appear between them), each with a random size (1 to 5e7).
 */
export function bookTicks(levels: number, random: () => number): BookTicks {
  const mid = 1_000_000
  const bids = new Map<number, number>()
  const asks = new Map<number, number>()
  for (let k = 0; k < levels; k += 1) {
    bids.set(mid - 1 - 2 * k, 1 + Math.floor(random() * 5e7))
    asks.set(mid + 1 + 2 * k, 1 + Math.floor(random() * 5e7))
  }
  return { mid, bids, asks }
}

/** Side-ordered levels of ticks (integers of the last decimal), written as the venue writes them. */
export interface TickLevels {
  /** The snapshot (seq 1) of a book of ticks. */
  snapshot(sides: TickSides): BookSnapshot
  /**
   * The delta after poll `n` (seq `n + 2`) that sets the `touched` levels of each side (a
   * size of 0: the level is gone, quantity `'0'`).
   */
  delta(n: number, touched: TickSides): BookDelta
}

/** The sizes of a book's levels by price tick, a side each. */
export interface TickSides {
  readonly bids: ReadonlyMap<number, number>
  readonly asks: ReadonlyMap<number, number>
}

/** Books of ticks written with `priceDecimals` decimals to a price and 4 to a size. */
export function tickLevels(priceDecimals: number): TickLevels {
  const level = (tick: number, size: number): Level => [
    fixed(tick, priceDecimals),
    size === 0 ? '0' : fixed(size, 4),
  ]
  const side = (name: 'bids' | 'asks', sizes: ReadonlyMap<number, number>): Level[] =>
    [...sizes]
      .sort((a, b) => (name === 'bids' ? b[0] - a[0] : a[0] - b[0]))
      .map(([tick, size]) => level(tick, size))
  return {
    snapshot: (sides) => ({
      type: 'snapshot',
      poolId: 0,
      seq: 1,
      timestamp: 0,
      bids: side('bids', sides.bids),
      asks: side('asks', sides.asks),
      reason: 'initial',
    }),
    delta: (n, touched) => ({
      type: 'delta',
      poolId: 0,
      seq: n + 2,
      prevSeq: n + 1,
      timestamp: n + 1,
      bids: side('bids', touched.bids),
      asks: side('asks', touched.asks),
    }),
  }
}
