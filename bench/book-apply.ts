/**
 * `applyBookEvent` of one poll's delta to a book of 1,000 levels a side, against ccxt 4's
 * `OrderBook` (the one its exchanges keep from websocket deltas) fed the same deltas, in
 * one run.
 *
 *   npx tsx bench/book-apply.ts [--json]
 *
 * Each delta changes exactly 5 or exactly 50 levels (over both sides), prices and
 * quantities as the venue writes them (fixed decimals), in four workloads: `uniform`
 * (60% new quantities, 20% removed levels, 20% new levels between existing ones, anywhere
 * in the book), the same `near the top` (the best 20 levels a side), only `new levels`,
 * and 2,000 uniform deltas in a row timed whole (garbage collection included, the
 * median of five such runs, not of short batches). ccxt's book takes numbers, so
 * its side parses each level's two strings with `parseFloat`, as its exchanges do;
 * venue-rx applies the strings, exactly, and makes a new immutable book per delta (the
 * previous one stays valid). Both apply the same 31 deltas in sequence from the same
 * snapshot; ccxt's books are built from the snapshot before the clock starts, one per
 * pass. Batches are interleaved; the median is kept.
 */
import { applyBookEvent } from '../src/book/apply-book-event.js'
import type { BookDelta, Level } from '../src/book/book-event.js'
import type { OrderBook } from '../src/book/order-book.js'
import { mulberry32 } from '../test/helpers/random.js'
import {
  bookTicks,
  medianMicros,
  printTable,
  type Summary,
  summaryLine,
  tickLevels,
} from './support/measure.js'

const LEVELS = 1_000
const DELTAS = 31

interface CcxtSide {
  store(price: number, size: number): void
}
interface CcxtBook {
  readonly bids: CcxtSide
  readonly asks: CcxtSide
}

/** The part of ccxt this benchmark uses. */
interface Ccxt {
  readonly Exchange: new () => {
    orderBook(snapshot: { bids: number[][]; asks: number[][] }): unknown
  }
}

// Imported by a name held in a variable: the type checker of `npm test` then leaves
// ccxt's 300 declaration files alone (this file needs only the little typed above).
const CCXT = 'ccxt'
const ccxt = ((await import(CCXT)) as { default: Ccxt }).default

/**
 * Where a workload's changes fall: `uniform` anywhere in the book (60% new quantities, 20%
 * removed levels, 20% new levels); `top` the same mix within the best 20 levels a side;
 * `new` only new levels, next to existing ones anywhere (a book filling in).
 */
type Workload = 'uniform' | 'top' | 'new'

/** The snapshot and `count` deltas of exactly `changes` levels each. */
function scenario(
  changes: number,
  workload: Workload = 'uniform',
  count = DELTAS,
): { snapshot: OrderBook; deltas: BookDelta[] } {
  const random = mulberry32(changes)
  const sides = bookTicks(LEVELS, random)
  const write = tickLevels(4)
  let book = applyBookEvent(undefined, write.snapshot(sides))
  const snapshot = book
  const deltas: BookDelta[] = []
  for (let n = 0; n < count; n += 1) {
    const touched = { bids: new Map<number, number>(), asks: new Map<number, number>() }
    for (let c = 0; c < changes; ) {
      const name = c % 2 === 0 ? 'bids' : 'asks'
      const map = sides[name]
      const ticks = [...map.keys()]
      if (workload === 'top') {
        ticks.sort((a, b) => (name === 'bids' ? b - a : a - b))
        ticks.length = Math.min(ticks.length, 20)
      }
      const roll = workload === 'new' ? 0.9 : random()
      let tick = ticks[Math.floor(random() * ticks.length)] as number
      // A new level: the free tick next to an existing one.
      if (roll >= 0.8) while (map.has(tick)) tick += name === 'bids' ? -1 : 1
      // A level changes once per delta.
      if (touched[name].has(tick)) continue
      if (roll < 0.6 || roll >= 0.8) map.set(tick, 1 + Math.floor(random() * 5e7))
      else map.delete(tick)
      touched[name].set(tick, map.get(tick) ?? 0)
      c += 1
    }
    const delta = write.delta(n, touched)
    book = applyBookEvent(book, delta)
    deltas.push(delta)
  }
  return { snapshot, deltas }
}

function bench(changes: number, workload: Workload): { ours: number; ccxt: number } {
  const { snapshot, deltas } = scenario(changes, workload)
  const exchange = new ccxt.Exchange()
  const numeric = (levels: readonly Level[]) => levels.map(([p, q]) => [Number(p), Number(q)])
  const fresh = (): CcxtBook =>
    exchange.orderBook({ bids: numeric(snapshot.bids), asks: numeric(snapshot.asks) }) as CcxtBook
  // Check first that both end at the same book.
  const check = fresh()
  let ours = snapshot
  for (const delta of deltas) {
    ours = applyBookEvent(ours, delta)
    for (const [p, q] of delta.bids) check.bids.store(Number.parseFloat(p), Number.parseFloat(q))
    for (const [p, q] of delta.asks) check.asks.store(Number.parseFloat(p), Number.parseFloat(q))
  }
  const same = JSON.stringify(numeric(ours.bids)) === JSON.stringify(check.bids)
  if (!same) throw new Error('venue-rx and ccxt end at different books')

  const pool: CcxtBook[] = []
  let sink = 0
  const timings = medianMicros(
    {
      ours: () => {
        let book = snapshot
        for (const delta of deltas) book = applyBookEvent(book, delta)
        sink += book.seq
      },
      ccxt: () => {
        const book = pool.pop() ?? fresh()
        for (const delta of deltas) {
          for (const [p, q] of delta.bids)
            book.bids.store(Number.parseFloat(p), Number.parseFloat(q))
          for (const [p, q] of delta.asks)
            book.asks.store(Number.parseFloat(p), Number.parseFloat(q))
        }
      },
    },
    {
      // ccxt's books are built outside the clock: enough for the next batch.
      beforeBatch: (run) => {
        if (run === 'ccxt') while (pool.length < 500) pool.push(fresh())
      },
    },
  )
  if (sink < 0) console.log(sink)
  return { ours: (timings['ours'] ?? 0) / DELTAS, ccxt: (timings['ccxt'] ?? 0) / DELTAS }
}

/** Deltas in one long run, timed whole (garbage collection included, nothing filtered). */
const LONG_RUN = 2_000

/**
 * µs per delta over {@link LONG_RUN} deltas in a row, each side timed over the whole run,
 * runs alternating; the median of five runs.
 */
function longRun(changes: number): { ours: number; ccxt: number } {
  const { snapshot, deltas } = scenario(changes, 'uniform', LONG_RUN)
  const exchange = new ccxt.Exchange()
  const numeric = (levels: readonly Level[]) => levels.map(([p, q]) => [Number(p), Number(q)])
  const ours: number[] = []
  const theirs: number[] = []
  let sink = 0
  for (let run = 0; run < 6; run += 1) {
    const book = exchange.orderBook({
      bids: numeric(snapshot.bids),
      asks: numeric(snapshot.asks),
    }) as CcxtBook
    let started = performance.now()
    let view = snapshot
    for (const delta of deltas) view = applyBookEvent(view, delta)
    const oursMs = performance.now() - started
    sink += view.seq
    started = performance.now()
    for (const delta of deltas) {
      for (const [p, q] of delta.bids) book.bids.store(Number.parseFloat(p), Number.parseFloat(q))
      for (const [p, q] of delta.asks) book.asks.store(Number.parseFloat(p), Number.parseFloat(q))
    }
    const ccxtMs = performance.now() - started
    // The first run warms both up.
    if (run === 0) continue
    ours.push((oursMs * 1000) / LONG_RUN)
    theirs.push((ccxtMs * 1000) / LONG_RUN)
  }
  if (sink < 0) console.log(sink)
  const median = (values: number[]) => values.sort((a, b) => a - b)[2] as number
  return { ours: median(ours), ccxt: median(theirs) }
}

const WORKLOADS: readonly {
  name: string
  run: (changes: number) => { ours: number; ccxt: number }
}[] = [
  { name: 'uniform', run: (changes) => bench(changes, 'uniform') },
  { name: 'near the top', run: (changes) => bench(changes, 'top') },
  { name: 'new levels', run: (changes) => bench(changes, 'new') },
  { name: `${LONG_RUN.toLocaleString('en-US')} in a row, whole run`, run: longRun },
]
const rows = WORKLOADS.flatMap((workload) =>
  [5, 50].map((changes) => ({ workload: workload.name, changes, ...workload.run(changes) })),
)
const summaries: Summary[] = rows.map((row) => ({
  figure: `applyBookEvent vs ccxt OrderBook, 1,000 levels, ${row.changes} changes, ${row.workload}`,
  value: row.ccxt / row.ours,
  unit: 'x faster',
  target: row.changes === 5 ? '>= 1x' : '>= 1.5x',
  met: row.ccxt / row.ours >= (row.changes === 5 ? 1 : 1.5),
}))
if (process.argv.includes('--json')) {
  for (const summary of summaries) console.log(summaryLine(summary))
} else {
  console.log(`book apply: one delta to ${LEVELS.toLocaleString('en-US')} levels a side`)
  printTable([
    [
      'workload',
      'changes/delta',
      'venue-rx applyBookEvent',
      'ccxt OrderBook',
      'venue-rx speed-up',
      'target',
    ],
    ...rows.map((row, i) => [
      row.workload,
      String(row.changes),
      `${row.ours.toFixed(2)} µs`,
      `${row.ccxt.toFixed(2)} µs`,
      `${(row.ccxt / row.ours).toFixed(2)}x`,
      summaries[i]?.target ?? '',
    ]),
  ])
}
