import { createLogUpdate } from 'log-update'
import type { CliOutput } from './io.js'

/**
 * Progress of `venue-rx export` on stderr. On a terminal one line redrawn in place through
 * log-update (at most 10 times a second): a bar, the percentage and an ETA when the total
 * is known, items and rate otherwise. Elsewhere (a pipe, a file) a plain line at most once
 * a second, without the bar. `done` prints the final line either way.
 */

/** What one progress line shows. */
export interface ProgressState {
  /** Items appended so far in this run. */
  readonly items: number
  /** Items this run is known to have to fetch in all; `undefined` when not known exactly. */
  readonly total?: number | undefined
  /** Time since the run started, ms. */
  readonly elapsedMs: number
  /** A word on the phase, e.g. `caught up`. */
  readonly note?: string | undefined
}

/** Width of the bar, in cells, brackets excluded. */
export const BAR_WIDTH = 20

/** Items per second, 0 before any time has passed. */
export function itemRate(items: number, elapsedMs: number): number {
  return elapsedMs > 0 ? (items * 1000) / elapsedMs : 0
}

/** `[████████░░░░]` for `done` of `total` (clamped to 0..1), `width` cells inside. */
export function progressBar(done: number, total: number, width = BAR_WIDTH): string {
  const fraction = total > 0 ? Math.min(1, Math.max(0, done / total)) : 1
  const full = Math.floor(fraction * width)
  return `[${'█'.repeat(full)}${'░'.repeat(width - full)}]`
}

/** A remaining time: `7s`, `2m 05s`, `1h 02m`; `--` when it cannot be told. */
export function formatEta(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '--'
  const s = Math.ceil(seconds)
  const two = (n: number) => String(n).padStart(2, '0')
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m ${two(s % 60)}s`
  return `${Math.floor(s / 3600)}h ${two(Math.floor(s / 60) % 60)}m`
}

/** No ETA before this much time has passed, ms: the rate of the first moment says little. */
export const ETA_AFTER_MS = 1000

/**
 * The time left at the present rate, seconds; `undefined` while it cannot be told (nothing
 * came yet, or less than {@link ETA_AFTER_MS} passed).
 */
export function etaSeconds(items: number, total: number, elapsedMs: number): number | undefined {
  if (items >= total) return 0
  const rate = itemRate(items, elapsedMs)
  if (rate <= 0 || elapsedMs < ETA_AFTER_MS) return undefined
  return (total - items) / rate
}

const plural = (n: number) => `${n} item${n === 1 ? '' : 's'}`

/**
 * One progress line. With a total: `[bar] 45% 450/1000 items, 120/s, ETA 5s` (the bar only
 * with `bar`); the total shown is at least `items` (items that came after the count was
 * taken). Without: `450 items, 120/s, 3.8 s`. Then `, note` when given.
 */
export function progressText(state: ProgressState, options: { bar?: boolean } = {}): string {
  const { items, total, elapsedMs, note } = state
  const rate = Math.round(itemRate(items, elapsedMs))
  const tail = note ? `, ${note}` : ''
  if (total === undefined) {
    return `${plural(items)}, ${rate}/s, ${(elapsedMs / 1000).toFixed(1)} s${tail}`
  }
  const whole = Math.max(total, items)
  const percent = whole > 0 ? Math.floor((items / whole) * 100) : 100
  const eta = etaSeconds(items, whole, elapsedMs)
  const bar = options.bar === true ? `${progressBar(items, whole)} ` : ''
  return `${bar}${percent}% ${items}/${whole} items, ${rate}/s, ETA ${eta === undefined ? '--' : formatEta(eta)}${tail}`
}

/** The stream progress is written to: the command's stderr. */
export type ProgressStream = CliOutput

/**
 * The progress of a run on `stream` (the command's stderr), timed by `now` (ms; default
 * `performance.now`). `setTotal` gives the number of items to fetch once known (or
 * `undefined` again, e.g. when following after the catch-up).
 */
export function progressLine(stream: ProgressStream, now: () => number = () => performance.now()) {
  const tty = stream.isTTY === true
  // log-update hides the cursor and restores it on exit or a signal (the process's
  // untilSignal keeps the command's own handlers installed, so the first Ctrl-C still ends
  // the export cleanly). A terminal is a process's stderr.
  const redraw = tty ? createLogUpdate(stream as NodeJS.WriteStream) : undefined
  let started = now()
  let total: number | undefined
  // The first line comes one interval after the start: a rate of the first moment (the
  // connection, the count) would say little, and a quick run shows its final line only.
  let lastShown = started
  const state = (items: number, note: string): ProgressState => ({
    items,
    total,
    elapsedMs: now() - started,
    note,
  })
  return {
    /** Starts the clock again (when the feed starts): rate, ETA and time count from here. */
    begin(): void {
      started = now()
      lastShown = started
    },
    setTotal(value: number | undefined): void {
      total = value
    },
    update(items: number, note = ''): void {
      const at = now()
      if (at - lastShown < (tty ? 100 : 1000)) return
      lastShown = at
      if (redraw !== undefined) redraw(progressText(state(items, note), { bar: true }))
      else stream.write(`${progressText(state(items, note))}\n`)
    },
    /** Clears the line shown in place, before another line is written to the stream. */
    clear(): void {
      redraw?.clear()
    },
    /** The final line: items, rate, elapsed time and `note`, shown whatever the total. */
    done(items: number, note = ''): void {
      const text = progressText({ ...state(items, note), total: undefined })
      if (redraw === undefined) {
        stream.write(`${text}\n`)
        return
      }
      redraw.persist(text)
      redraw.done()
    },
  }
}

/** What {@link progressLine} returns. */
export type ProgressLine = ReturnType<typeof progressLine>
