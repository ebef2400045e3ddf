/**
 * Backfill throughput of `watchMyTrades` (no checkpoint, a memoryCheckpoint, a
 * fileCheckpoint) against the simulator, as a ratio to a bare undici loop over the same
 * pages (`request` + `JSON.parse`, following the `global_seq` cursor), all measured in
 * this run against the same simulator (its own process, manual clock, no faults).
 *
 *   npx tsx bench/feed-backfill.ts [rounds, default 3] [ticks of history, default 40000]
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Checkpoint } from '../src/index.js'
import { fileCheckpoint, memoryCheckpoint } from '../src/index.js'
import { bareTradePages } from './support/bare-trades.js'
import { type ChildServer, startChildServer, stopChildServer } from './support/child-server.js'
import { runToTail, withBenchVenue } from './support/run-to-tail.js'

const ROUNDS = Number(process.argv[2] ?? 3)
const TICKS = Number(process.argv[3] ?? 40_000)
const PAGE = 100

type Server = ChildServer<{ url: string; apiKey: string; trades: number }>

function startServer(): Promise<Server> {
  return startChildServer(join(import.meta.dirname, 'support', 'feed-backfill-server.ts'), [
    String(TICKS),
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

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}

const directory = await mkdtemp(join(tmpdir(), 'venue-rx-bench-'))
const server = await startServer()
let files = 0
const modes: { readonly name: string; readonly run: () => Promise<Run> }[] = [
  { name: 'bare undici loop + JSON.parse', run: () => bare(server) },
  { name: 'venue.rest.trades loop (no stream)', run: () => restLoop(server) },
  { name: 'watchMyTrades, no checkpoint', run: () => feed(server) },
  { name: 'watchMyTrades, memoryCheckpoint', run: () => feed(server, memoryCheckpoint<string>()) },
  {
    name: 'watchMyTrades, fileCheckpoint',
    run: () => feed(server, fileCheckpoint<string>(join(directory, `cursor-${++files}.json`))),
  },
]

try {
  // Warm up the JIT and the sockets once per mode (the file mode is warm after one page).
  for (const mode of modes.slice(0, 4)) await mode.run()
  const seconds = new Map<string, number[]>(modes.map((mode) => [mode.name, []]))
  const counts = new Map<string, number>()
  // Interleaved rounds, so that drift of the machine hits every mode alike.
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of modes) {
      const { items, seconds: s } = await mode.run()
      if (items !== server.trades) {
        throw new Error(`${mode.name}: ${items} items, the simulator holds ${server.trades}`)
      }
      seconds.get(mode.name)?.push(s)
      counts.set(mode.name, items)
    }
  }

  const rows = modes.map((mode) => {
    const s = median(seconds.get(mode.name) ?? [])
    return { name: mode.name, items: counts.get(mode.name) ?? 0, seconds: s }
  })
  const bareRate = (rows[0]?.items ?? 0) / (rows[0]?.seconds ?? 1)
  console.log(
    `feed backfill: ${server.trades} trades of the demo account (seed 1, ${TICKS} ticks), ` +
      `pages of ${PAGE}, simulator in its own process, median of ${ROUNDS} rounds\n`,
  )
  const header = ['mode', 'items', 'seconds', 'items/s', 'ratio to bare']
  const table = rows.map((row) => {
    const rate = row.items / row.seconds
    return [
      row.name,
      String(row.items),
      row.seconds.toFixed(3),
      Math.round(rate).toLocaleString('en-US'),
      (rate / bareRate).toFixed(2),
    ]
  })
  const widths = header.map((title, i) =>
    Math.max(title.length, ...table.map((cells) => (cells[i] ?? '').length)),
  )
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ')
  console.log(line(header))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const cells of table) console.log(line(cells))
} finally {
  await stopServer(server)
  await rm(directory, { recursive: true, force: true })
}
