/**
 * Backfill throughput of `watchMyTrades` (no checkpoint, a memoryCheckpoint, a
 * fileCheckpoint) against the simulator, as a ratio to a bare undici loop over the same
 * pages (`request` + `JSON.parse`, following the `global_seq` cursor), all measured in
 * this run against the same simulator (its own process, manual clock, no faults).
 *
 *   npx tsx bench/feed-backfill.ts [rounds, default 3] [ticks of history, default 40000]
 *                                  [repeats per round, default 5] [--latency-ms=N] [--json]
 *
 * `--latency-ms=N` makes the simulator answer every request N ms late, as a venue across
 * a network does: the feed asks for the next page while it delivers the current one, a
 * bare loop cannot.
 *
 * One backfill takes about 0.1 s, so a single run says little: every mode is warmed up
 * first, then each round runs every mode `repeats` times, interleaved (bare, rest, feed,
 * feed + memory, feed + file, bare, ...), so that drift of the machine hits every mode
 * alike. The young generation is collected before every run, so no run pays for the
 * garbage of the one before. A mode's ratio is the median of its runs' ratios to the bare run just before
 * them (paired, so a slow moment of the machine slows both), shown with the spread (25th
 * to 75th percentile).
 * With `--json` (npm run bench) it also prints the `watchMyTrades` figures against the
 * target (at least 0.9 of the bare loop) as `bench-summary` lines.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import type { Checkpoint } from '../src/index.js'
import { fileCheckpoint, memoryCheckpoint } from '../src/index.js'
import { bareTradePages } from './support/bare-trades.js'
import { type ChildServer, startChildServer, stopChildServer } from './support/child-server.js'
import {
  positionalArgs,
  printColumns,
  SUMMARY_ONLY,
  type Summary,
  summaryLine,
} from './support/measure.js'
import { runToTail, withBenchVenue } from './support/run-to-tail.js'

const [rounds, ticks, repeats] = positionalArgs()
const ROUNDS = Number(rounds ?? 3)
const TICKS = Number(ticks ?? 40_000)
/** `--latency-ms=N`: the simulator answers every request N ms late (default 0). */
const LATENCY_MS = Number(
  process.argv.find((arg) => arg.startsWith('--latency-ms='))?.slice('--latency-ms='.length) ?? 0,
)
/** The fileCheckpoint figure's target: at least half the bare loop's rate. */
const FILE_TARGET = 0.5
const REPEATS = Number(repeats ?? 5)
/** The figure `npm run bench` checks: watchMyTrades' rate as a share of the bare loop's. */
const TARGET = 0.9
const WARMUP = 3
const PAGE = 100

// `global.gc` without a command-line flag. A scavenge before each run keeps the garbage of
// the run before (a backfill allocates some 15-20 MB) out of its time. Not a full
// collection: forced before every run, that slowed the library's modes (by about 10%) much
// more than the bare loop, a cost no real backfill pays.
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void
const collect = () => gc({ type: 'minor' })

type Server = ChildServer<{ url: string; apiKey: string; trades: number }>

function startServer(): Promise<Server> {
  return startChildServer(join(import.meta.dirname, 'support', 'feed-backfill-server.ts'), [
    String(TICKS),
    String(LATENCY_MS),
  ])
}

const stopServer = stopChildServer

/** One backfill: items delivered and the seconds it took. */
interface Run {
  readonly items: number
  readonly seconds: number
}

/** The baseline: a bare loop of undici requests and JSON.parse, following the cursor. */
async function bare(server: Server): Promise<Run> {
  const start = performance.now()
  let items = 0
  await bareTradePages(server.url, server.apiKey, PAGE, (trades) => {
    items += trades.length
  })
  return { items, seconds: (performance.now() - start) / 1000 }
}

/**
 * The library's REST client alone over the same pages (transport, envelope and zod
 * validation, no stream): separates the cost of validation from that of the feed.
 */
async function restLoop(server: Server): Promise<Run> {
  return withBenchVenue(server, async (venue) => {
    await venue.rest.ping()
    const start = performance.now()
    let cursor = '0'
    let items = 0
    for (;;) {
      const page = await venue.rest.trades({ afterSeq: cursor, sort: 'asc', limit: PAGE })
      items += page.length
      const last = page.at(-1)
      if (last !== undefined) cursor = last.global_seq
      if (page.length < PAGE) break
    }
    return { items, seconds: (performance.now() - start) / 1000 }
  })
}

/** `watchMyTrades` from the start until its first `tail` progress. */
async function feed(server: Server, checkpoint?: Checkpoint<string>): Promise<Run> {
  return withBenchVenue(server, async (venue) => {
    await venue.rest.ping() // a warm socket, as the bare loop's dispatcher has
    const start = performance.now()
    const items = await runToTail(venue, checkpoint === undefined ? {} : { checkpoint })
    return { items, seconds: (performance.now() - start) / 1000 }
  })
}

/** The `q` quantile (0..1) of `values`, by linear interpolation. */
const quantile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (sorted.length - 1) * q
  const low = Math.floor(at)
  const high = Math.ceil(at)
  const lowValue = sorted[low] ?? Number.NaN
  return lowValue + ((sorted[high] ?? lowValue) - lowValue) * (at - low)
}
const median = (values: readonly number[]): number => quantile(values, 0.5)

const directory = await mkdtemp(join(tmpdir(), 'venue-rx-bench-'))
const server = await startServer()
let files = 0
interface Mode {
  readonly name: string
  readonly run: () => Promise<Run>
}
const modes: readonly Mode[] = [
  { name: 'bare undici loop + JSON.parse', run: () => bare(server) },
  { name: 'venue.rest.trades loop (no stream)', run: () => restLoop(server) },
  { name: 'watchMyTrades, no checkpoint', run: () => feed(server) },
  { name: 'watchMyTrades, memoryCheckpoint', run: () => feed(server, memoryCheckpoint<string>()) },
  {
    name: 'watchMyTrades, fileCheckpoint',
    run: () => feed(server, fileCheckpoint<string>(join(directory, `cursor-${++files}.json`))),
  },
]

/** One measured run of `mode`: its seconds, after a collection; checks the item count. */
async function measure(mode: Mode): Promise<number> {
  collect()
  const { items, seconds } = await mode.run()
  if (items !== server.trades) {
    throw new Error(`${mode.name}: ${items} items, the simulator holds ${server.trades}`)
  }
  return seconds
}

try {
  // Warm up the JIT and the sockets.
  for (let i = 0; i < WARMUP; i++) for (const mode of modes) await measure(mode)
  const seconds = new Map<Mode, number[]>(modes.map((mode) => [mode, []]))
  const ratios = new Map<Mode, number[]>(modes.map((mode) => [mode, []]))
  const [bareMode] = modes as [Mode]
  for (let round = 0; round < ROUNDS; round++) {
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      let bareSeconds = Number.NaN
      for (const mode of modes) {
        const s = await measure(mode)
        if (mode === bareMode) bareSeconds = s
        seconds.get(mode)?.push(s)
        ratios.get(mode)?.push(bareSeconds / s)
      }
    }
  }

  const rows = modes.map((mode) => {
    const own = ratios.get(mode) ?? []
    return {
      name: mode.name,
      runs: own.length,
      seconds: median(seconds.get(mode) ?? []),
      ratio: median(own),
      spread: `${quantile(own, 0.25).toFixed(2)}-${quantile(own, 0.75).toFixed(2)}`,
    }
  })
  console.log(
    `feed backfill: ${server.trades} trades of the demo account (seed 1, ${TICKS} ticks), ` +
      `pages of ${PAGE}, simulator in its own process; ${ROUNDS} rounds of ${REPEATS} ` +
      `interleaved runs after ${WARMUP} warm-up runs; ` +
      `median seconds, median ratio of each run to the bare run before it (p25-p75)\n`,
  )
  const header = ['mode', 'items', 'runs', 'seconds', 'items/s', 'ratio to bare', 'p25-p75']
  const table = rows.map((row) => [
    row.name,
    String(server.trades),
    String(row.runs),
    row.seconds.toFixed(3),
    Math.round(server.trades / row.seconds).toLocaleString('en-US'),
    row.ratio.toFixed(2),
    row.spread,
  ])
  printColumns(header, table)
  if (SUMMARY_ONLY) {
    const targets: Record<string, number> = {
      'watchMyTrades, no checkpoint': TARGET,
      'watchMyTrades, memoryCheckpoint': TARGET,
      'watchMyTrades, fileCheckpoint': FILE_TARGET,
    }
    for (const row of rows) {
      const target = targets[row.name]
      if (target === undefined) continue
      const summary: Summary = {
        figure: `${row.name} backfill vs a bare undici loop${LATENCY_MS > 0 ? ` (${LATENCY_MS} ms latency)` : ''}`,
        value: row.ratio,
        unit: 'of bare',
        target: `>= ${target}`,
        met: row.ratio >= target,
      }
      console.log(summaryLine(summary))
    }
  }
} finally {
  await stopServer(server)
  await rm(directory, { recursive: true, force: true })
}
