/**
 * Heap growth over one million trades through `watchMyTrades` with a memoryCheckpoint,
 * and over the same pages through a bare undici loop (the baseline), in one run. The
 * pages come from a synthetic venue in its own process (records generated from the
 * cursor, consecutive global_seq up to 1,000,000). `heapUsed` is sampled after a full GC
 * at 0, 100k, 250k, 500k, 750k and 1M items.
 *
 *   node --expose-gc --import tsx bench/feed-memory.ts [items, default 1000000]
 */
import { join } from 'node:path'
import { memoryCheckpoint } from '../src/index.js'
import { bareTradePages } from './support/bare-trades.js'
import { type ChildServer, startChildServer, stopChildServer } from './support/child-server.js'
import { positionalArgs, SUMMARY_ONLY, summaryLine } from './support/measure.js'
import { runToTail, withBenchVenue } from './support/run-to-tail.js'

const TOTAL = Number(positionalArgs()[0] ?? 1_000_000)
const PAGE = 100
const MILESTONES = [0, 0.1, 0.25, 0.5, 0.75, 1].map((share) => Math.round(share * TOTAL))

const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) {
  console.error('run with: node --expose-gc --import tsx bench/feed-memory.ts')
  process.exit(1)
}

type Server = ChildServer<{ url: string; apiKey: string }>

function startServer(): Promise<Server> {
  return startChildServer(join(import.meta.dirname, 'support', 'feed-memory-server.ts'), [
    String(TOTAL),
  ])
}

const stopServer = stopChildServer

/** heapUsed after a full collection, bytes. */
function heapAfterGc(): number {
  gc?.()
  gc?.()
  return process.memoryUsage().heapUsed
}

/** Samples the heap when `count` reaches the next milestone. */
function sampler(): { readonly samples: number[]; at(count: number): void } {
  const samples: number[] = []
  let next = 0
  return {
    samples,
    at: (count) => {
      while (next < MILESTONES.length && count === MILESTONES[next]) {
        samples.push(heapAfterGc())
        next += 1
      }
    },
  }
}

interface Outcome {
  readonly items: number
  readonly seconds: number
  readonly samples: readonly number[]
}

/** The baseline: undici `request` + JSON.parse, following the cursor, counting items. */
async function bare(server: Server): Promise<Outcome> {
  const heap = sampler()
  heap.at(0)
  const start = performance.now()
  let items = 0
  await bareTradePages(server.url, server.apiKey, PAGE, (trades) => {
    for (const _trade of trades) {
      items += 1
      heap.at(items)
    }
  })
  return { items, seconds: (performance.now() - start) / 1000, samples: heap.samples }
}

/** `watchMyTrades` with a memoryCheckpoint, until its first `tail` progress. */
async function feed(server: Server): Promise<Outcome> {
  return withBenchVenue(
    server,
    async (venue) => {
      const checkpoint = memoryCheckpoint<string>()
      const heap = sampler()
      heap.at(0)
      const start = performance.now()
      const items = await runToTail(venue, { checkpoint }, (count) => heap.at(count))
      const seconds = (performance.now() - start) / 1000
      if (checkpoint.current !== String(TOTAL)) {
        throw new Error(`feed: checkpoint at ${checkpoint.current}, expected ${TOTAL}`)
      }
      return { items, seconds, samples: heap.samples }
      // Every item counted, the newest too: no settle window holding the last seconds back.
    },
    { settleMs: 0 },
  )
}

const mb = (bytes: number) => (bytes / 1_048_576).toFixed(2)
const kb = (bytes: number) => (bytes / 1024).toFixed(1)

function report(name: string, outcome: Outcome): void {
  const { items, seconds, samples } = outcome
  if (items !== TOTAL || samples.length !== MILESTONES.length) {
    throw new Error(`${name}: ${items} items, ${samples.length} samples`)
  }
  const first = samples[0] as number
  const at100k = samples[1] as number
  const last = samples.at(-1) as number
  const per100k = (from: number, fromItems: number) =>
    ((last - from) / ((TOTAL - fromItems) / 100_000)) as number
  console.log(
    `\n${name}: ${items.toLocaleString('en-US')} items in ${seconds.toFixed(1)} s ` +
      `(${Math.round(items / seconds).toLocaleString('en-US')} items/s)`,
  )
  console.log(`  ${'items'.padStart(9)}  ${'heapUsed MB'.padStart(11)}  ${'vs 0 MB'.padStart(8)}`)
  samples.forEach((bytes, i) => {
    console.log(
      `  ${(MILESTONES[i] as number).toLocaleString('en-US').padStart(9)}  ${mb(bytes).padStart(11)}  ${mb(bytes - first).padStart(8)}`,
    )
  })
  console.log(
    `  growth per 100k items: ${kb(per100k(first, 0))} KB from 0, ` +
      `${kb(per100k(at100k, MILESTONES[1] as number))} KB from 100k (warmed up)`,
  )
}

const server = await startServer()
try {
  console.log(
    `feed memory: ${TOTAL.toLocaleString('en-US')} synthetic trades, pages of ${PAGE}, ` +
      `server in its own process; heapUsed after gc()`,
  )
  const baseline = await bare(server)
  const measured = await feed(server)
  report('baseline: bare undici loop + JSON.parse', baseline)
  report('watchMyTrades + memoryCheckpoint', measured)
  const growth = ((measured.samples.at(-1) as number) - (measured.samples[0] as number)) / 2 ** 20
  const summary = {
    figure: `watchMyTrades heap growth over ${TOTAL.toLocaleString('en-US')} trades`,
    value: growth,
    unit: 'MB',
    target: '< 2 MB',
    met: growth < 2,
  }
  if (SUMMARY_ONLY) console.log(summaryLine(summary))
} finally {
  await stopServer(server)
}
