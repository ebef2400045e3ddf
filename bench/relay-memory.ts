/**
 * What a relay costs Redis: memory per stream kind at the default cap (maxLen 10,000),
 * and round trips per published event. The simulator (manual clock), the relay and a real
 * redis-server (test/helpers/redis-server.ts, on a free port) in this run.
 *
 *   npx tsx bench/relay-memory.ts            about 1.5 minutes
 *   npx tsx bench/relay-memory.ts --json     the same, plus the `bench-summary` lines
 *
 * 1. The account feeds at the cap: the simulator's demo account trades for 70,000 ticks
 *    first (about 19,000 own trades, 10,000 transfers); a relay publishes `my-trades`,
 *    `fills` and `transfers`, whose backfills fill each Redis stream up to the cap (it
 *    then holds 10,000 to 11,000 entries: trimmed once a tenth over).
 * 2. The streams of one entry per poll or so: `depth:0`, `trades:0`, `klines:0:1m`,
 *    `balances`, `open-orders`, `pools`, polled every 2 ms while the market moves a few
 *    ticks at a time, for about 40 s; those that did not reach the cap are counted at
 *    the cap from their bytes per entry (marked `~`). Balances are stored as changes; the
 *    earlier form (the whole list and the changes in each entry) is rebuilt from the same
 *    updates and written to a stream beside them, as the baseline.
 * Figures: `MEMORY USAGE <key> SAMPLES 0` (every node counted) of each stream and state key,
 * bytes per entry, MiB at 10,000 entries, the sum per venue and account, and
 * `INFO memory` used_memory before and after.
 * 3. Round trips: EVALSHA/EVAL calls (`INFO commandstats`) against entries added
 *    (`XINFO STREAM` entries-added) over the whole run; and, as the earlier way measured
 *    here, 2,000 own trades published one call per event (each awaited, as the relay did)
 *    against the same published a page of 100 per call: calls and time per event. The
 *    redis-server of test/helpers writes its append-only file with `appendfsync always`,
 *    so a call costs a durable write: the time ratio is that of such a server.
 */
import { Redis } from 'ioredis'
import { startRelay } from '../src/relay.js'
import { PUBLISH, runPublish } from '../src/relay-publisher/scripts.js'
import { balancesDecoder } from '../src/relay-reader/balances-entries.js'
import { startSimulator } from '../src/simulator/index.js'
import { startRedisServer } from '../test/helpers/redis-server.js'
import { printColumns, SUMMARY_ONLY, summaryLine } from './support/measure.js'

const CAP = 10_000
const FEED_TICKS = 70_000
const POLL_MS = 2
const RUN_MS = 40_000
const MIB = 1024 * 1024

const log = (...args: unknown[]) => {
  if (!SUMMARY_ONLY) console.log(...args)
}
const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-')
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function until(check: () => Promise<boolean>, what: string, ms: number): Promise<void> {
  const deadline = performance.now() + ms
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`relay-memory: timed out waiting for ${what}`)
    await sleep(50)
  }
}

const redisServer = await startRedisServer()
const admin = new Redis(redisServer.url)
const sim = await startSimulator({ seed: 3, clock: 'manual' })
const usedMemory = async () =>
  Number(/^used_memory:(\d+)/m.exec(await admin.info('memory'))?.[1] ?? Number.NaN)
const memoryAtStart = await usedMemory()
await admin.config('RESETSTAT')

/** The stream and state keys under `prefix`, by stream name. */
async function keysOf(prefix: string): Promise<Map<string, { stream: string; state: string }>> {
  const keys = await admin.keys(`${prefix}:*:stream`)
  return new Map(
    keys.map((stream) => {
      const name = /\}:(.+):stream$/.exec(stream)?.[1] ?? stream
      return [name, { stream, state: stream.replace(/:stream$/, ':state') }]
    }),
  )
}

const memoryOf = async (key: string) =>
  Number((await admin.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) ?? 0)
const lengthOf = (key: string) => admin.xlen(key)

const base = {
  baseUrl: sim.url,
  apiKey: sim.apiKey,
  redis: redisServer.url,
  pollIntervalMs: POLL_MS,
  settleMs: 0,
  maxRequestsPerSecond: 100_000,
}

// 1. The feeds, backfilled to the cap.
log(`advancing the simulator ${FEED_TICKS} ticks...`)
for (let done = 0; done < FEED_TICKS; done += 5_000) sim.advance(5_000)
const feeds = await startRelay({
  ...base,
  prefix: 'feeds',
  streams: ['my-trades', 'fills', 'transfers'],
})
await until(
  async () => {
    const keys = await keysOf('feeds')
    if (keys.size < 3) return false
    const lengths = await Promise.all([...keys.values()].map(({ stream }) => lengthOf(stream)))
    return lengths.every((n) => n >= CAP)
  },
  'the feeds at the cap',
  120_000,
)
await feeds.close()

// 2. The streams of one entry per poll, while the market moves.
const polled = await startRelay({
  ...base,
  prefix: 'polled',
  streams: ['depth:0', 'trades:0', 'klines:0:1m', 'balances', 'open-orders', 'pools'],
})
const started = performance.now()
let moving = true
const mover = (async () => {
  while (moving) {
    sim.advance(3)
    await sleep(POLL_MS)
  }
})()
await until(
  async () => {
    if (performance.now() - started > RUN_MS) return true
    const keys = await keysOf('polled')
    const balances = keys.get('balances')
    return balances !== undefined && (await lengthOf(balances.stream)) >= CAP
  },
  'the polled streams',
  RUN_MS + 10_000,
)
moving = false
await mover
await polled.close()
const ranMs = performance.now() - started

// The baseline of balances: the earlier entry form, rebuilt from the same updates.
const polledKeys = await keysOf('polled')
const balancesKeys = polledKeys.get('balances')
if (balancesKeys === undefined) throw new Error('relay-memory: no balances stream')
const decode = balancesDecoder()
const earlier = 'baseline:balances-whole-lists'
const entries = await admin.xrange(balancesKeys.stream, '-', '+')
let sawWhole = false
const pipeline = admin.pipeline()
for (const [, fields] of entries) {
  const event = JSON.parse(fields[1] ?? 'null') as { balances?: unknown }
  // Decoding needs a whole list to start from: the stream's first entry holds one.
  if (!sawWhole && event.balances === undefined) continue
  sawWhole = true
  for (const update of decode(event)) {
    pipeline.xadd(
      earlier,
      '*',
      'e',
      JSON.stringify({ balances: update.balances, changes: update.changes }),
    )
  }
}
await pipeline.exec()

const rows: { name: string; entries: number; bytes: number; state: number; capped: boolean }[] = []
for (const keys of [await keysOf('feeds'), polledKeys]) {
  for (const [name, { stream, state }] of keys) {
    const n = await lengthOf(stream)
    rows.push({
      name,
      entries: n,
      bytes: await memoryOf(stream),
      state: await memoryOf(state),
      capped: n >= CAP,
    })
  }
}
const earlierRow = {
  name: 'balances, earlier form',
  entries: await lengthOf(earlier),
  bytes: await memoryOf(earlier),
  state: 0,
  capped: false,
}
rows.push(earlierRow)
const atCap = (row: (typeof rows)[number]) => (row.bytes / Math.max(1, row.entries)) * CAP
log(
  `\nRedis memory per stream (polled streams ran ${fmt(ranMs / 1000)} s; ~ = counted at the cap from bytes per entry)`,
)
printColumns(
  ['stream', 'entries', 'MEMORY USAGE', 'bytes/entry', 'MiB at 10,000', 'state key'],
  rows.map((row) => [
    row.name,
    String(row.entries),
    `${fmt(row.bytes / 1024, 0)} KiB`,
    fmt(row.bytes / Math.max(1, row.entries), 0),
    `${row.capped ? '' : '~'}${fmt(atCap(row) / MIB, 2)}`,
    `${fmt(row.state / 1024, 1)} KiB`,
  ]),
)
const ACCOUNT = ['my-trades', 'fills', 'transfers', 'balances', 'open-orders']
const POOL = ['depth:0', 'trades:0', 'klines:0:1m']
const sum = (names: readonly string[]) =>
  rows
    .filter((row) => names.includes(row.name))
    .reduce((total, row) => total + atCap(row) + row.state, 0)
const account = sum(ACCOUNT)
const pool = sum(POOL)
const balancesRow = rows.find((row) => row.name === 'balances')
const balancesPerEntry = (balancesRow?.bytes ?? 0) / Math.max(1, balancesRow?.entries ?? 1)
const earlierPerEntry = earlierRow.bytes / Math.max(1, earlierRow.entries)
const accountEarlier = account - atCap(balancesRow ?? earlierRow) + atCap(earlierRow)
log(
  `\nper venue and account at the cap (${ACCOUNT.join(', ')}): ${fmt(account / MIB, 1)} MiB` +
    ` (with balances in the earlier form: ${fmt(accountEarlier / MIB, 1)} MiB)`,
)
log(
  `per pool at the cap (${POOL.join(', ')}): ${fmt(pool / MIB, 1)} MiB; pools: ${fmt(sum(['pools']) / MIB, 2)} MiB`,
)
log(
  `balances: ${fmt(balancesPerEntry, 0)} bytes per entry, against ${fmt(earlierPerEntry, 0)} in the earlier form ` +
    `(${fmt(earlierPerEntry / balancesPerEntry, 1)}x)`,
)
log(
  `INFO memory used_memory: ${fmt(memoryAtStart / MIB, 1)} MiB at the start, ${fmt((await usedMemory()) / MIB, 1)} MiB now`,
)

// 3. Round trips.
const stats = await admin.info('commandstats')
const calls = (name: string) =>
  Number(new RegExp(`^cmdstat_${name}:calls=(\\d+)`, 'm').exec(stats)?.[1] ?? 0)
let added = 0
for (const keys of [await keysOf('feeds'), polledKeys]) {
  for (const { stream } of keys.values()) {
    const info = (await admin.call('XINFO', 'STREAM', stream)) as unknown[]
    added += Number(info[info.indexOf('entries-added') + 1] ?? 0)
  }
}
// Lease takes and renewals are EVALs too: counted, so the figure is an upper bound.
const scriptCalls = calls('evalsha') + calls('eval')
log(
  `\nscript calls (EVALSHA + EVAL, leases included) per entry added, whole run: ${scriptCalls} / ${added} = ${fmt(scriptCalls / added, 3)}`,
)

/** Publishes `events` to a fresh stream in calls of `per` events each, one after the other. */
async function publishAll(key: string, events: readonly string[], per: number) {
  const lease = `${key}:lease`
  await admin.set(lease, 'bench')
  await admin.config('RESETSTAT')
  const startedAt = performance.now()
  for (let i = 0; i < events.length; i += per) {
    const args: (string | number)[] = [
      key,
      `${key}:state`,
      lease,
      `${key}:floor`,
      `${key}:fence`,
      'bench',
      CAP,
      'bench',
      // Each call the first of its session: no fence to check.
      1,
    ]
    for (const event of events.slice(i, i + per)) args.push('*', event, '')
    await runPublish(admin, args)
  }
  const ms = performance.now() - startedAt
  const after = await admin.info('commandstats')
  const made = Number(/^cmdstat_evalsha:calls=(\d+)/m.exec(after)?.[1] ?? 0)
  return { ms, calls: made }
}
await admin.script('LOAD', PUBLISH)
const myTrades = (await keysOf('feeds')).get('my-trades')
const sample =
  myTrades === undefined ? [] : await admin.xrange(myTrades.stream, '-', '+', 'COUNT', 2_000)
const texts = sample.map(([, fields]) => fields[1] ?? '')
const oneByOne = await publishAll('bench:one-by-one', texts, 1)
const paged = await publishAll('bench:paged', texts, 100)
log(`\n${texts.length} own trades published`)
printColumns(
  ['way', 'script calls', 'calls/event', 'µs/event'],
  [
    [
      'one call per event (earlier)',
      String(oneByOne.calls),
      fmt(oneByOne.calls / texts.length, 3),
      fmt((oneByOne.ms * 1000) / texts.length, 1),
    ],
    [
      'a page per call (now)',
      String(paged.calls),
      fmt(paged.calls / texts.length, 3),
      fmt((paged.ms * 1000) / texts.length, 1),
    ],
  ],
)
log(
  `round trips: ${fmt(oneByOne.calls / paged.calls, 0)}x fewer; time per event ${fmt(oneByOne.ms / paged.ms, 1)}x less`,
)

if (SUMMARY_ONLY) {
  console.log(
    summaryLine({
      figure: 'relay: Redis MiB per venue and account at maxLen 10,000',
      value: account / MIB,
      unit: 'MiB',
      target: 'less than with whole balances lists',
      met: account < accountEarlier,
    }),
  )
  console.log(
    summaryLine({
      figure: 'relay: script calls per published event, a page of 100',
      value: paged.calls / texts.length,
      unit: 'calls',
      target: '< 0.05 (one per event before)',
      met: paged.calls / texts.length < 0.05,
    }),
  )
}

admin.disconnect()
await sim.close()
await redisServer.close()
