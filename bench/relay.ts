/**
 * The relay (startRelay, read with `createVenue({ relay })`): the latency it adds, and the
 * venue requests it saves, against bots that poll the venue themselves, all measured in
 * this run: the simulator (manual clock), the relay and the consumers in this process, a
 * real redis-server (test/helpers/redis-server.ts) on a free port.
 *
 *   npx tsx bench/relay.ts            about a minute
 *   npx tsx bench/relay.ts --json     the same, plus the `bench-summary` lines
 *
 * 1. Latency, pollIntervalMs 50, streams depth:0 and my-trades. The relay, consumer
 *    venues reading through it and a direct venue (no relay, same pollIntervalMs: a bot
 *    polling by itself) watch the same streams, in five runs: 1 consumer with the default
 *    `relay.readIntervalMs` and with 10, then 2 consumers, then 50 with 10 and with the
 *    default (all 50 in this process, each a venue of its own). 100 times, after a random
 *    pause (so the change lands at a random phase of the polls), the market moves one tick
 *    and the demo account sends a market order (a new own trade and a changed book); each
 *    change's book is waited for, its trades (which come after the feed's settle window,
 *    a second) at the end of the run. The relay's and the direct venue's requests go
 *    through an undici dispatcher that notes when each answer's last byte arrived, with
 *    its body (parsed after the run). Figures, per stream, one sample per consumer and
 *    change:
 *    - poll answer → event: from the answer that first carried the change (the depth
 *      `timestamp`, the trade's `global_seq`) being in the poller's hands to the event.
 *      Through the relay, to the consumer's event: the relay's parse and diff, its publish
 *      (one EVALSHA per poll: lease check and XADD of its events in order, pipelined), the
 *      consumer's wake (a blocking XREAD) and read, and decode; for depth, this is the
 *      latency the relay adds. Directly, to the direct venue's own event: the parse and
 *      diff every poller pays anyway. (A new own trade is held for the feed's settle
 *      window after the answer that first carried it, relayed or not: about a second.)
 *    - consumer event − direct event: the same change seen through the relay and by the
 *      bot polling itself. The two pollers keep phases of their own (apart by up to one
 *      interval, or nearly together), so this spreads over up to ± one interval; its
 *      median is the added latency again, more noisily.
 *    - market change → event, relayed and direct: the staleness either one sees.
 *    - relay's event → consumer's event: from the relay's own venue emitting the event
 *      (what it publishes, when it has it) to the consumer's; for own trades, the latency
 *      the relay adds (the settle window is behind both).
 *    A table then gives, per run, the added latency: depth's from the poll answer, own
 *    trades' from the relay's event.
 *    And the Redis round trip alone (median of 200 PINGs through ioredis), for scale.
 * 2. Venue requests per poll interval, pollIntervalMs 100, streams depth:0, my-trades and
 *    balances, over a 3 s window with the market moving (and one own trade) every 100 ms,
 *    counted per path at the simulator: one relay with 1 consumer venue, then the same
 *    relay with 50 (each subscribed to the three streams through it), then, as the
 *    baseline, 50 direct venues polling the three streams themselves (~50 times as many).
 *    A poller waits pollIntervalMs after each answer, so one makes a little under one
 *    request per interval. Counting starts 1 s after the streams are running (the start
 *    of a cursor feed, backfill then hand-over to its tail, polls a little more).
 *
 * With `--json` (npm run bench) it also prints, as `bench-summary` lines, the relayed
 * requests per interval with 50 consumers against 1 (target at most 1.1x), the median
 * added latency of depth with 1 consumer (target under one poll interval), and the
 * median and p95 added latency of depth with 50 consumers at the default readIntervalMs
 * (target: p95 under 10 ms).
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { Redis } from 'ioredis'
import type { Subscription } from 'rxjs'
import { type Dispatcher, Pool } from 'undici'
import { createVenue, type Venue } from '../src/index.js'
import { startRelay } from '../src/relay.js'
import { type Simulator, startSimulator } from '../src/simulator/index.js'
import { startRedisServer } from '../test/helpers/redis-server.js'
import { printColumns, SUMMARY_ONLY, summaryLine } from './support/measure.js'

const LATENCY_POLL_MS = 50
/** The consumer's `relay.readIntervalMs`: the default, then a short one. */
const READ_INTERVALS = [100, 10] as const
const CHANGES = 100
const LOAD_POLL_MS = 100
const WINDOW_MS = 3_000
const CONSUMERS = 50
/**
 * Wait before counting: a cursor feed's start (its backfill, then the hand-over to its
 * shared tail) polls a little more than once per interval for a while.
 */
const SETTLE_MS = 1_000
const PINGS = 200

const DEPTH_PATH = '/api/v1/depth/v2'
const TRADES_PATH = '/api/v1/trades'
/** The simulator path each relayed stream polls. */
const PATHS = {
  'depth:0': DEPTH_PATH,
  'my-trades': TRADES_PATH,
  balances: '/api/v1/balances',
} as const
type StreamName = keyof typeof PATHS
const STREAMS = Object.keys(PATHS) as StreamName[]

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-')

/** The value at quantile `q` (nearest rank) of `values`; NaN when there are none. */
function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0
}

async function until(condition: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = performance.now() + ms
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`relay bench: timed out waiting for ${what}`)
    await sleep(5)
  }
}

/** One answer of the venue: when its last byte arrived, its path and its body. */
interface Answer {
  readonly path: string
  readonly at: number
  readonly chunks: readonly Buffer[]
}

/**
 * An undici pool whose answers to the paths starting with one of `paths` are noted in
 * `answers` (time and body) the moment their last byte arrives, before the venue sees them.
 */
function timedPool(
  origin: string,
  paths: readonly string[],
  answers: Answer[],
): { readonly dispatcher: Dispatcher; close(): Promise<void> } {
  const pool = new Pool(origin, { connections: 8 })
  const dispatcher = pool.compose((dispatch) => (options, handler) => {
    const path = options.path
    if (!paths.some((prefix) => path.startsWith(prefix))) return dispatch(options, handler)
    const chunks: Buffer[] = []
    return dispatch(options, {
      onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
      onRequestUpgrade: (controller, status, headers, socket) =>
        handler.onRequestUpgrade?.(controller, status, headers, socket),
      onResponseStart: (controller, status, headers, message) =>
        handler.onResponseStart?.(controller, status, headers, message),
      onResponseData: (controller, chunk) => {
        chunks.push(chunk)
        handler.onResponseData?.(controller, chunk)
      },
      onResponseEnd: (controller, trailers) => {
        answers.push({ path, at: performance.now(), chunks })
        handler.onResponseEnd?.(controller, trailers)
      },
      onResponseError: (controller, error) => handler.onResponseError?.(controller, error),
    })
  })
  return { dispatcher, close: () => pool.close() }
}

/**
 * When each depth timestamp and each trade's `global_seq` first arrived in `answers`
 * (bodies parsed now, after the run).
 */
function firstAnswers(answers: readonly Answer[]): Seen {
  const depth = new Map<number, number>()
  const trades = new Map<string, number>()
  for (const answer of answers) {
    const body = JSON.parse(Buffer.concat(answer.chunks).toString('utf8')) as { data?: unknown }
    if (answer.path.startsWith(DEPTH_PATH)) {
      const timestamp = (body.data as { timestamp?: number } | undefined)?.timestamp
      if (typeof timestamp === 'number' && !depth.has(timestamp)) depth.set(timestamp, answer.at)
    } else if (Array.isArray(body.data)) {
      for (const trade of body.data as { global_seq: unknown }[]) {
        const seq = String(trade.global_seq)
        if (!trades.has(seq)) trades.set(seq, answer.at)
      }
    }
  }
  return { depth, trades }
}

/** When a venue's `watchDepth(0)` first showed each timestamp, its `watchMyTrades()` each trade. */
interface Seen {
  readonly depth: Map<number, number>
  readonly trades: Map<string, number>
}

function watchSeen(venue: Venue): { seen: Seen; subscriptions: Subscription[] } {
  const seen: Seen = { depth: new Map(), trades: new Map() }
  const subscriptions = [
    venue.watchDepth(0).subscribe((event) => {
      if (!seen.depth.has(event.timestamp)) seen.depth.set(event.timestamp, performance.now())
    }),
    venue.watchMyTrades().subscribe((trade) => {
      if (!seen.trades.has(trade.global_seq)) seen.trades.set(trade.global_seq, performance.now())
    }),
  ]
  return { seen, subscriptions }
}

const ownTrades = (sim: Simulator) =>
  (sim.market.account(sim.apiKey)?.trades() ?? []).map((trade) => String(trade.global_seq))

/** Moves the market one tick and sends one market order of the demo account. */
async function moveMarket(sim: Simulator, i: number): Promise<void> {
  sim.advance(1)
  await sim.placeOrder({
    poolId: 0,
    side: i % 2 === 0 ? 'buy' : 'sell',
    type: 'market',
    amount: '10',
  })
}

/** One market change: when, the book's new timestamp, the own trades it made. */
interface Change {
  readonly at: number
  readonly timestamp: number
  readonly seqs: readonly string[]
}

/** The latency figures, in the order of their samples in `latency`. */
const FIGURES = [
  "relay's poll answer → consumer's event (added)",
  "direct poll answer → direct venue's event",
  "consumer's event − direct venue's event",
  "market change → consumer's event",
  "market change → direct venue's event",
  "relay's event → consumer's event",
] as const

interface LatencyRow {
  readonly stream: string
  readonly figure: string
  readonly samples: readonly number[]
}

// 1. Latency.

/** One latency run: the consumers' `relay.readIntervalMs` (undefined: the default), how many. */
interface LatencyRun {
  readonly readIntervalMs: number | undefined
  readonly consumers: number
}

async function latency(
  redisUrl: string,
  { readIntervalMs, consumers: count }: LatencyRun,
): Promise<{ rows: LatencyRow[]; missed: number }> {
  const sim = await startSimulator({ seed: 7, clock: 'manual' })
  sim.advance(150)
  const relayAnswers: Answer[] = []
  const directAnswers: Answer[] = []
  const relayPool = timedPool(sim.url, [DEPTH_PATH, TRADES_PATH], relayAnswers)
  const directPool = timedPool(sim.url, [DEPTH_PATH, TRADES_PATH], directAnswers)
  const common = {
    baseUrl: sim.url,
    apiKey: sim.apiKey,
    pollIntervalMs: LATENCY_POLL_MS,
    // Measured per poll interval: each stream every pollIntervalMs.
    pacing: 'interval' as const,
    maxRequestsPerSecond: 1_000,
  }
  const prefix = `bench-latency-${readIntervalMs ?? 'default'}-${count}`
  const relay = await startRelay({
    ...common,
    dispatcher: relayPool.dispatcher,
    redis: redisUrl,
    prefix,
    streams: ['depth:0', 'my-trades'],
  })
  const direct = createVenue({ ...common, dispatcher: directPool.dispatcher })
  const consumers = Array.from({ length: count }, () =>
    createVenue({
      baseUrl: sim.url,
      apiKey: sim.apiKey,
      relay: {
        redis: redisUrl,
        prefix,
        ...(readIntervalMs === undefined ? {} : { readIntervalMs }),
      },
    }),
  )
  const viaDirect = watchSeen(direct)
  const viaRelays = consumers.map(watchSeen)
  // The relay's own venue: its events are what it publishes, when it has them.
  const atRelay = watchSeen(relay.venue)
  const changes: Change[] = []
  let missed = 0
  try {
    const history = ownTrades(sim)
    const caughtUp = (seen: Seen) =>
      seen.depth.size > 0 && history.every((seq) => seen.trades.has(seq))
    await until(
      () => caughtUp(viaDirect.seen) && viaRelays.every((via) => caughtUp(via.seen)),
      'the streams to start',
    )
    const seenBoth = (check: (seen: Seen) => boolean) =>
      check(viaDirect.seen) && viaRelays.every((via) => check(via.seen))
    for (let i = 0; i < CHANGES; i += 1) {
      await sleep(Math.random() * LATENCY_POLL_MS)
      const before = ownTrades(sim).length
      const at = performance.now()
      await moveMarket(sim, i)
      const timestamp = sim.market.now()
      const seqs = ownTrades(sim).slice(before)
      changes.push({ at, timestamp, seqs })
      // A tick that leaves the book as it was makes no depth event: not waited for long.
      // The new trades come after the feed's settle window (a second): waited for at the end.
      await until(
        () => seenBoth((seen) => seen.depth.has(timestamp)),
        'the new book',
        LATENCY_POLL_MS * 6,
      ).catch(() => {
        missed += 1
      })
    }
    const seqs = changes.flatMap((change) => change.seqs)
    await until(
      () => seenBoth((seen) => seqs.every((seq) => seen.trades.has(seq))),
      'the new trades',
    )
  } finally {
    for (const via of [viaDirect, atRelay, ...viaRelays]) {
      for (const subscription of via.subscriptions) subscription.unsubscribe()
    }
    await Promise.all(consumers.map((consumer) => consumer.close()))
    await direct.close()
    await relay.close()
    await relayPool.close()
    await directPool.close()
    await sim.close()
  }

  const relayed = firstAnswers(relayAnswers)
  const directly = firstAnswers(directAnswers)
  /** The samples of each of FIGURES for one stream; `ids` names what each change brought. */
  const rowsOf = <K>(
    stream: string,
    ids: (change: Change) => readonly K[],
    pick: (seen: Seen) => ReadonlyMap<K, number>,
  ): LatencyRow[] => {
    const lists: number[][] = FIGURES.map(() => [])
    for (const change of changes) {
      for (const id of ids(change)) {
        const directAt = pick(viaDirect.seen).get(id)
        // The figures of the consumers: one sample per consumer; the direct ones once.
        viaRelays.forEach((via, n) => {
          const relayedAt = pick(via.seen).get(id)
          const pairs = [
            [relayedAt, pick(relayed).get(id)],
            n === 0 ? [directAt, pick(directly).get(id)] : [undefined, undefined],
            [relayedAt, directAt],
            [relayedAt, change.at],
            n === 0 ? [directAt, change.at] : [undefined, undefined],
            [relayedAt, pick(atRelay.seen).get(id)],
          ]
          pairs.forEach(([later, earlier], i) => {
            if (later !== undefined && earlier !== undefined) lists[i]?.push(later - earlier)
          })
        })
      }
    }
    return FIGURES.map((figure, i) => ({ stream, figure, samples: lists[i] ?? [] }))
  }
  const rows = [
    ...rowsOf(
      'depth:0',
      (change) => [change.timestamp],
      (seen) => seen.depth,
    ),
    ...rowsOf(
      'my-trades',
      (change) => change.seqs,
      (seen) => seen.trades,
    ),
  ]
  return { rows, missed }
}

/** Median round trip of a PING through ioredis, ms. */
async function pingMs(redisUrl: string): Promise<number> {
  const client = new Redis(redisUrl)
  try {
    for (let i = 0; i < 50; i += 1) await client.ping()
    const times: number[] = []
    for (let i = 0; i < PINGS; i += 1) {
      const started = performance.now()
      await client.ping()
      times.push(performance.now() - started)
    }
    return quantile(times, 0.5)
  } finally {
    await client.quit()
  }
}

// 2. Venue requests.

type Counts = Record<StreamName, number> & { other: number }

interface Window {
  /** Requests per poll interval, per stream and for the other paths. */
  readonly perInterval: Counts
  readonly intervals: number
}

async function requests(redisUrl: string): Promise<Record<string, Window>> {
  const sim = await startSimulator({ seed: 7, clock: 'manual' })
  sim.advance(150)
  let hits = new Map<string, number>()
  const decide = sim.faults.decide.bind(sim.faults)
  sim.faults.decide = (pathname: string) => {
    hits.set(pathname, (hits.get(pathname) ?? 0) + 1)
    return decide(pathname)
  }
  let moves = 0
  /** Counts requests over WINDOW_MS, the market moving every poll interval. */
  const window = async (): Promise<Window> => {
    hits = new Map()
    const started = performance.now()
    while (performance.now() - started < WINDOW_MS) {
      await moveMarket(sim, moves)
      moves += 1
      await sleep(LOAD_POLL_MS)
    }
    const intervals = (performance.now() - started) / LOAD_POLL_MS
    const counted = new Map(hits)
    const perInterval = { other: 0 } as Counts
    for (const stream of STREAMS) {
      perInterval[stream] = (counted.get(PATHS[stream]) ?? 0) / intervals
      counted.delete(PATHS[stream])
    }
    perInterval.other = [...counted.values()].reduce((a, b) => a + b, 0) / intervals
    return { perInterval, intervals }
  }
  const common = {
    baseUrl: sim.url,
    apiKey: sim.apiKey,
    pollIntervalMs: LOAD_POLL_MS,
    // Measured per poll interval: each stream every pollIntervalMs.
    pacing: 'interval' as const,
    maxRequestsPerSecond: 1_000,
  }
  /** Subscribes to the three streams; resolves once each has delivered. */
  const subscribeAll = (venue: Venue) => {
    const got = { depth: false, trades: false, balances: false }
    const subscriptions = [
      venue.watchDepth(0).subscribe(() => (got.depth = true)),
      venue.watchMyTrades().subscribe(() => (got.trades = true)),
      venue.watchBalances().subscribe(() => (got.balances = true)),
    ]
    return { subscriptions, ready: () => got.depth && got.trades && got.balances }
  }
  const results: Record<string, Window> = {}
  const venues: Venue[] = []
  const subscriptions: Subscription[] = []
  const closeVenues = async () => {
    for (const subscription of subscriptions.splice(0)) subscription.unsubscribe()
    await Promise.all(venues.splice(0).map((venue) => venue.close()))
  }
  try {
    const prefix = 'bench-requests'
    const relay = await startRelay({ ...common, redis: redisUrl, prefix, streams: STREAMS })
    try {
      const readers: (() => boolean)[] = []
      const addConsumers = async (n: number) => {
        for (let i = 0; i < n; i += 1) {
          const venue = createVenue({
            baseUrl: sim.url,
            apiKey: sim.apiKey,
            relay: { redis: redisUrl, prefix },
          })
          venues.push(venue)
          const { subscriptions: own, ready } = subscribeAll(venue)
          subscriptions.push(...own)
          readers.push(ready)
        }
        await until(() => readers.every((ready) => ready()), 'the consumers to read')
      }
      await addConsumers(1)
      await sleep(SETTLE_MS)
      results['relayed, 1 consumer'] = await window()
      await addConsumers(CONSUMERS - 1)
      results[`relayed, ${CONSUMERS} consumers`] = await window()
    } finally {
      await closeVenues()
      await relay.close()
    }
    // The baseline: every bot polls for itself.
    const readers: (() => boolean)[] = []
    for (let i = 0; i < CONSUMERS; i += 1) {
      const venue = createVenue(common)
      venues.push(venue)
      const { subscriptions: own, ready } = subscribeAll(venue)
      subscriptions.push(...own)
      readers.push(ready)
    }
    await until(() => readers.every((ready) => ready()), 'the direct venues to poll')
    await sleep(SETTLE_MS)
    results[`direct, ${CONSUMERS} venues`] = await window()
  } finally {
    await closeVenues()
    await sim.close()
  }
  return results
}

/**
 * The latency runs: one consumer with the default read interval and a short one, then 2
 * and 50 (with a short one too, and the default: the figure of the summary, last).
 */
const LATENCY_RUNS: readonly LatencyRun[] = [
  ...READ_INTERVALS.map((readIntervalMs) => ({ readIntervalMs, consumers: 1 })),
  { readIntervalMs: undefined, consumers: 2 },
  { readIntervalMs: 10, consumers: CONSUMERS },
  { readIntervalMs: undefined, consumers: CONSUMERS },
]

/**
 * The added latency of a run: depth's from the relay's poll answer to the consumer's event;
 * own trades' from the relay's event to the consumer's (a new own trade waits for the
 * feed's settle window after the answer that first carried it, relayed or not).
 */
const addedOf = (rows: readonly LatencyRow[]) => ({
  depth: rows.find((row) => row.stream === 'depth:0' && row.figure === FIGURES[0])?.samples ?? [],
  trades:
    rows.find((row) => row.stream === 'my-trades' && row.figure === FIGURES[5])?.samples ?? [],
})

const redis = await startRedisServer()
try {
  const ping = await pingMs(redis.url)
  let rows: LatencyRow[] = []
  const added: { run: LatencyRun; samples: ReturnType<typeof addedOf> }[] = []
  for (const run of LATENCY_RUNS) {
    const measured = await latency(redis.url, run)
    if (run === LATENCY_RUNS[0]) rows = measured.rows
    added.push({ run, samples: addedOf(measured.rows) })
    const every = run.readIntervalMs === undefined ? 'default' : String(run.readIntervalMs)
    console.log(
      `1. Latency through the relay, pollIntervalMs ${LATENCY_POLL_MS}, ${run.consumers} consumer venue${run.consumers === 1 ? '' : 's'} (readIntervalMs ${every}), ${CHANGES} market changes (a tick and an own market order each), ms`,
    )
    console.log(
      "   added: from the last byte of the venue's answer that carried the change, at the relay's",
    )
    console.log(
      "   dispatcher, to the consumer's event (the relay's parse, publish, the consumer's read);",
    )
    console.log('   with several consumers, one sample per consumer and change\n')
    printColumns(
      ['figure', 'stream', 'median', 'p95', 'samples'],
      measured.rows.map((row) => [
        row.figure,
        row.stream,
        fmt(quantile(row.samples, 0.5), 2),
        fmt(quantile(row.samples, 0.95), 2),
        String(row.samples.length),
      ]),
    )
    if (measured.missed > 0) {
      console.log(`(${measured.missed} changes left the book as it was: no depth event)`)
    }
    console.log('')
  }
  console.log(
    "Added latency, ms: depth:0 from the relay's poll answer, my-trades from the relay's event, to the consumer's event\n",
  )
  printColumns(
    ['consumers', 'readIntervalMs', 'depth median', 'depth p95', 'trades median', 'trades p95'],
    added.map(({ run, samples }) => [
      String(run.consumers),
      run.readIntervalMs === undefined ? 'default' : String(run.readIntervalMs),
      fmt(quantile(samples.depth, 0.5), 2),
      fmt(quantile(samples.depth, 0.95), 2),
      fmt(quantile(samples.trades, 0.5), 2),
      fmt(quantile(samples.trades, 0.95), 2),
    ]),
  )
  console.log(`\nRedis round trip alone (ioredis PING, median of ${PINGS}): ${fmt(ping, 3)} ms`)
  const addedDepth = quantile(
    rows.find((row) => row.stream === 'depth:0' && row.figure === FIGURES[0])?.samples ?? [],
    0.5,
  )
  const fleet = added.at(-1)?.samples.depth ?? []

  const windows = await requests(redis.url)
  const [one, many, direct] = Object.values(windows) as [Window, Window, Window]
  console.log(
    `\n2. Venue requests per poll interval, pollIntervalMs ${LOAD_POLL_MS}, window ${WINDOW_MS} ms, market moving every interval\n`,
  )
  const names = Object.keys(windows)
  const total = (w: Window) => STREAMS.reduce((sum, stream) => sum + w.perInterval[stream], 0)
  printColumns(
    ['stream', ...names, `relayed ${CONSUMERS}/1`, `direct/relayed ${CONSUMERS}`],
    [
      ...STREAMS.map((stream) => [
        stream,
        ...Object.values(windows).map((w) => fmt(w.perInterval[stream], 2)),
        `${fmt(many.perInterval[stream] / one.perInterval[stream], 2)}x`,
        `${fmt(direct.perInterval[stream] / many.perInterval[stream], 1)}x`,
      ]),
      [
        'all three',
        ...Object.values(windows).map((w) => fmt(total(w), 2)),
        `${fmt(total(many) / total(one), 2)}x`,
        `${fmt(total(direct) / total(many), 1)}x`,
      ],
      ['(other paths)', ...Object.values(windows).map((w) => fmt(w.perInterval.other, 2)), '', ''],
    ],
  )
  const ratio = total(many) / total(one)
  if (SUMMARY_ONLY) {
    console.log(
      summaryLine({
        figure: `relay: venue requests per interval, ${CONSUMERS} consumers vs 1`,
        value: ratio,
        unit: 'x',
        target: '<= 1.1x',
        met: ratio <= 1.1,
      }),
    )
    console.log(
      summaryLine({
        figure: 'relay: added latency, depth, median',
        value: addedDepth,
        unit: 'ms',
        target: `< 1 poll interval (${LATENCY_POLL_MS} ms)`,
        met: addedDepth < LATENCY_POLL_MS,
      }),
    )
    const p95 = quantile(fleet, 0.95)
    for (const [name, value] of [
      ['median', quantile(fleet, 0.5)],
      ['p95', p95],
    ] as const) {
      console.log(
        summaryLine({
          figure: `relay: added latency, depth, ${CONSUMERS} consumers, ${name}`,
          value,
          unit: 'ms',
          target: 'p95 < 10 ms',
          met: p95 < 10,
        }),
      )
    }
  }
} finally {
  await redis.close()
}
