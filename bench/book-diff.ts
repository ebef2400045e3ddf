/**
 * Cost of turning one depth poll into a BookEvent, as a ratio to JSON.parse of the same
 * depth payload, measured in one run; and the cost of applying one delta.
 *
 *   npx tsx bench/book-diff.ts
 *
 * For books of 100, 1,000 and 5,000 levels a side (prices and quantities written like the
 * venue: fixed decimals), each poll changes 1% of the levels' quantities and makes 0.5% of
 * the levels vanish and as many appear elsewhere. Columns:
 *
 * - diff: `diffSide` of both sides (the merge walk alone);
 * - poll: everything `toBookEvents` does per changed poll (drop empty levels, order check,
 *   both diffs, apply, self-check) through the real operator;
 * - JSON.parse: of the depth payload's JSON text (the body the client parses anyway);
 * - apply: `applyBookEvent` of one delta to an OrderBook.
 *
 * Batches of each measure are interleaved and the median batch is kept.
 */
import { Subject } from 'rxjs'
import { applyBookEvent } from '../src/book/apply-book-event.js'
import type { BookDelta, Level } from '../src/book/book-event.js'
import { diffSide } from '../src/book/book-side.js'
import type { OrderBook } from '../src/book/order-book.js'
import type { Depth } from '../src/schemas/depth.js'
import { type DepthPoll, toBookEvents } from '../src/streams/to-book-events.js'
// The same seeded generator as the tests: every run uses the same books.
import { mulberry32 } from '../test/helpers/random.js'

const SIZES = [100, 1_000, 5_000] as const
/** Results are added up here, so that no measured call is dead code. */
let sink = 0
/** Consecutive polls per size: the measures cycle through them. */
const POLLS = 32
const BATCHES = 15
const BATCH_MS = 20

function fixed(n: number, decimals: number): string {
  const digits = String(n).padStart(decimals + 1, '0')
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`
}

interface Model {
  readonly bids: Map<number, number>
  readonly asks: Map<number, number>
}

function quantity(random: () => number): number {
  return 1 + Math.floor(random() * 50_000_000)
}

function depthOf(model: Model, timestamp: number): Depth {
  const side = (levels: Map<number, number>, descending: boolean): Level[] =>
    [...levels.entries()]
      .sort((a, b) => (descending ? b[0] - a[0] : a[0] - b[0]))
      .map(([tick, size]) => [fixed(tick, 4), fixed(size, 4)])
  return {
    pool_id: 0,
    precision: '0.0001',
    timestamp,
    bids: side(model.bids, true),
    asks: side(model.asks, false),
  }
}

/** A sequence of polls of a book with `levels` levels a side. */
function polls(levels: number, random: () => number): Depth[] {
  const mid = 1_000_000
  const model: Model = { bids: new Map(), asks: new Map() }
  // Levels on every other tick, so that new ones can appear in between.
  for (let k = 0; k < levels; k++) {
    model.bids.set(mid - 1 - 2 * k, quantity(random))
    model.asks.set(mid + 1 + 2 * k, quantity(random))
  }
  const out: Depth[] = []
  for (let n = 0; n < POLLS; n++) {
    out.push(depthOf(model, 1_700_000_000_000 + n))
    for (const side of [model.bids, model.asks]) {
      const ticks = [...side.keys()]
      const pick = () => ticks[Math.floor(random() * ticks.length)] as number
      const changed = Math.max(1, Math.round(levels * 0.01))
      const moved = Math.max(1, Math.round(levels * 0.005))
      for (let k = 0; k < changed; k++) side.set(pick(), quantity(random))
      for (let k = 0; k < moved; k++) {
        const gone = pick()
        side.delete(gone)
        // A new level one tick away, on the same side of the mid.
        side.set(gone + (gone < mid ? -1 : 1), quantity(random))
      }
    }
  }
  return out
}

/** Median time per operation of `run` over interleaved batches, in µs. */
function measure(runs: Record<string, () => void>): Record<string, number> {
  const samples: Record<string, number[]> = {}
  for (const name of Object.keys(runs)) samples[name] = []
  for (let batch = 0; batch < BATCHES; batch++) {
    for (const [name, run] of Object.entries(runs)) {
      let count = 0
      const started = performance.now()
      let elapsed = 0
      while (elapsed < BATCH_MS) {
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

interface Row {
  readonly levels: number
  readonly bytes: number
  readonly changes: number
  readonly diff: number
  readonly poll: number
  readonly parse: number
  readonly apply: number
}

function bench(levels: number): Row {
  const random = mulberry32(levels)
  const depths = polls(levels, random)
  const texts = depths.map((depth) => JSON.stringify(depth))

  // The deltas and books the apply measure cycles through, from the real operator.
  const books: OrderBook[] = []
  const deltas: BookDelta[] = []
  let book: OrderBook | undefined
  const source = new Subject<DepthPoll>()
  source.pipe(toBookEvents(0)).subscribe((event) => {
    if (event.type === 'delta' && book !== undefined) {
      books.push(book)
      deltas.push(event)
    }
    book = applyBookEvent(book, event)
  })
  for (const depth of depths) source.next({ depth, afterRecovery: false })
  if (deltas.length !== POLLS - 1) throw new Error(`expected a delta per poll at ${levels} levels`)
  const changes =
    deltas.reduce((sum, delta) => sum + delta.bids.length + delta.asks.length, 0) / deltas.length

  let i = 0
  let j = 0
  let k = 0
  // The full per-poll path: a subscriber that has the previous poll, fed the next one.
  let operator = new Subject<DepthPoll>()
  let fed = 0
  const restart = () => {
    operator.complete()
    operator = new Subject<DepthPoll>()
    operator.pipe(toBookEvents(0)).subscribe(() => {
      sink += 1
    })
    operator.next({ depth: depths[0] as Depth, afterRecovery: false })
    fed = 1
  }
  restart()
  const timings = measure({
    diff: () => {
      const previous = depths[i] as Depth
      const next = depths[i + 1] as Depth
      sink += diffSide('bids', previous.bids, next.bids)?.length ?? 0
      sink += diffSide('asks', previous.asks, next.asks)?.length ?? 0
      i = (i + 1) % (POLLS - 1)
    },
    poll: () => {
      if (fed === POLLS) restart()
      operator.next({ depth: depths[fed] as Depth, afterRecovery: false })
      fed += 1
    },
    parse: () => {
      sink += (JSON.parse(texts[j] as string) as Depth).bids.length
      j = (j + 1) % POLLS
    },
    apply: () => {
      sink += applyBookEvent(books[k] as OrderBook, deltas[k] as BookDelta).seq
      k = (k + 1) % deltas.length
    },
  })
  return {
    levels,
    bytes: Math.round(texts.reduce((sum, text) => sum + text.length, 0) / texts.length),
    changes,
    diff: timings['diff'] ?? Number.NaN,
    poll: timings['poll'] ?? Number.NaN,
    parse: timings['parse'] ?? Number.NaN,
    apply: timings['apply'] ?? Number.NaN,
  }
}

const started = performance.now()
const rows = SIZES.map(bench)
const us = (n: number) => `${n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : n.toFixed(0)} µs`
const table = [
  [
    'levels/side',
    'payload',
    'changes/delta',
    'diff (both sides)',
    'JSON.parse',
    'diff / parse',
    'poll (toBookEvents)',
    'poll / parse',
    'apply delta',
  ],
  ...rows.map((row) => [
    row.levels.toLocaleString('en-US'),
    `${(row.bytes / 1024).toFixed(1)} KiB`,
    row.changes.toFixed(1),
    us(row.diff),
    us(row.parse),
    (row.diff / row.parse).toFixed(2),
    us(row.poll),
    (row.poll / row.parse).toFixed(2),
    us(row.apply),
  ]),
]
const widths = (table[0] ?? []).map((_, c) => Math.max(...table.map((r) => (r[c] ?? '').length)))
console.log('book diff: one changed poll, 1% quantities changed + 0.5% levels moved a side')
for (const [r, row] of table.entries()) {
  console.log(row.map((cell, c) => cell.padStart(widths[c] ?? 0)).join('  '))
  if (r === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '))
}
console.log(
  `(median of ${BATCHES} interleaved batches of ${BATCH_MS} ms; poll includes a fresh subscription every ${POLLS - 1} polls; ${((performance.now() - started) / 1000).toFixed(1)} s${sink < 0 ? '' : ''})`,
)
