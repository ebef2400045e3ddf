/**
 * Soak run: subscribe/unsubscribe churn over every stream of the venue (random subsets,
 * random lifetimes of tens of ms, seeded) against the simulator with moderate faults, while
 * the market moves. Proves that a long-lived venue does not grow: the heap after a forced GC
 * is sampled as it runs (least-squares slope in KB per minute), and that nothing is left
 * behind: after `venue.close()` and `sim.close()`, no active handle (timer, socket, ...)
 * remains beyond those present at the start.
 *
 * `node --expose-gc --import tsx test/long/soak.ts --minutes N` (default 1; `--seconds S`
 * for short runs; `--seed N`) prints the figures and exits 1 when handles remain (or a
 * rejection went unhandled); `runSoak` is the same run for tests. The pieces live in `soak/`
 * (faults, streams, handles, heap, the simulator worker, report) and `support/`.
 */
import type { Subscription } from 'rxjs'
import type { Venue } from '../../src/index.js'
import { createVenue } from '../../src/index.js'
import type { FaultStats } from '../../src/simulator/index.js'
import { activeHandles, handlesLeftAfter, nextTurn, total } from './soak/handles.js'
import { garbageCollector, slope } from './soak/heap.js'
import { formatSoakReport, type HeapSample, type SoakReport, soakPassed } from './soak/report.js'
import { startSimulatorWorker } from './soak/simulator-worker.js'
import { type Market, pick, STREAMS } from './soak/streams.js'
import { describeError, runScript, startRun, waitUntil } from './support/run-support.js'

export { activeHandles } from './soak/handles.js'
export { slope } from './soak/heap.js'
export { formatSoakReport, type HeapSample, type SoakReport } from './soak/report.js'

/** Settings of {@link runSoak}. */
export interface SoakOptions {
  /** How long the churn lasts, seconds (or give `subscriptions`). */
  readonly seconds?: number
  /**
   * Instead of a duration: the churn lasts until this many subscriptions were made and
   * every stream was among them, however long that takes (a busy machine makes fewer a
   * second: the short run inside `npm test` counts work, not time).
   */
  readonly subscriptions?: number
  /** Seed of the market, the faults and the churn. */
  readonly seed: number
  /** Share of requests that fail (split across the kinds); default 0.08. */
  readonly faultRate?: number
  /** Heap samples every this many ms; default 5 000, less for runs under 50 s (10 samples). */
  readonly sampleEveryMs?: number
  /** Progress lines. */
  readonly log?: (line: string) => void
}

/** Subscriptions alive at once, at most. */
const MAX_ALIVE = 40
/** A subscription lives this long, ms: uniform in [min, max). */
const LIFETIME_MS = [10, 90] as const
/** New subscriptions are made every this many ms ... */
const CHURN_EVERY_MS = 4
/** ... up to this many at a time. */
const MAX_NEW_PER_TURN = 3

/**
 * Runs the soak: see the file comment. Resolves with the figures (it does not throw when
 * handles remain: `openHandles` says it); rejects only when the run cannot be set up.
 */
export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const { seed, faultRate = 0.08, log = () => {} } = options
  const target = options.subscriptions
  const seconds = options.seconds ?? 0
  if (target === undefined ? !(seconds > 0) : !(target > 0) || options.seconds !== undefined) {
    throw new RangeError('runSoak: give seconds > 0 or subscriptions > 0, not both')
  }
  if (!Number.isSafeInteger(seed)) throw new RangeError('runSoak: seed must be an integer')
  const durationMs = target === undefined ? seconds * 1000 : 1_000
  const sampleEveryMs = options.sampleEveryMs ?? Math.min(5_000, Math.max(100, durationMs / 10))
  const gc = garbageCollector()
  await nextTurn()
  const handlesAtStart = activeHandles()
  const { unhandled, random } = startRun(seed)
  const messages: string[] = []
  const streamErrors: Record<string, number> = {}
  const perStream: Record<string, number> = {}
  const samples: HeapSample[] = []
  let subscriptions = 0
  let values = 0

  const sim = await startSimulatorWorker({ role: 'soak-simulator', seed, faultRate })
  let venue: Venue | undefined
  const alive = new Set<{ subscription: Subscription; timer: NodeJS.Timeout }>()
  let churner: NodeJS.Timeout | undefined
  let faults: FaultStats | undefined
  try {
    const market: Market = { lastSeq: () => sim.lastSeq(), symbols: sim.symbols }
    const client = createVenue({
      baseUrl: sim.url,
      apiKey: sim.apiKey,
      pollIntervalMs: 10,
      requestTimeoutMs: 200,
      lingerMs: 20,
      maxRequestsPerSecond: 5_000,
      backoff: { initialMs: 2, maxMs: 50, factor: 2 },
    })
    venue = client
    log(
      `soak: seed ${seed}, ${target === undefined ? `${seconds} s` : `${target} subscriptions`}, fault rate ${faultRate}, heap sample every ${sampleEveryMs} ms`,
    )

    const subscribe = () => {
      const [name, make] = pick(random, STREAMS)
      const lifetime = LIFETIME_MS[0] + random() * (LIFETIME_MS[1] - LIFETIME_MS[0])
      subscriptions += 1
      perStream[name] = (perStream[name] ?? 0) + 1
      const entry = {
        subscription: make(client, random, market).subscribe({
          next: () => {
            values += 1
          },
          error: (error: unknown) => {
            const code = (error as { code?: unknown }).code
            const key = typeof code === 'string' ? code : 'UNKNOWN'
            streamErrors[key] = (streamErrors[key] ?? 0) + 1
            if (messages.length < 10) messages.push(`${name}: ${describeError(error)}`)
          },
        }),
        timer: setTimeout(() => {
          entry.subscription.unsubscribe()
          alive.delete(entry)
        }, lifetime),
      }
      alive.add(entry)
    }
    churner = setInterval(() => {
      const wanted = 1 + Math.floor(random() * MAX_NEW_PER_TURN)
      for (let i = 0; i < wanted && alive.size < MAX_ALIVE; i += 1) subscribe()
    }, CHURN_EVERY_MS)

    const started = performance.now()
    const sample = () => {
      gc()
      gc()
      samples.push({
        atMs: Math.round(performance.now() - started),
        heapUsed: process.memoryUsage().heapUsed,
      })
    }
    // The first sample after one interval of churn (the code is compiled, the pools warm).
    let nextSample = sampleEveryMs
    let lastLog = 0
    await waitUntil(
      () => {
        const elapsed = performance.now() - started
        if (elapsed >= nextSample) {
          sample()
          nextSample += sampleEveryMs
          if (elapsed - lastLog >= 10_000) {
            lastLog = elapsed
            const heap = samples.at(-1)?.heapUsed ?? 0
            log(
              `  ${Math.round(elapsed / 1000)} s: ${subscriptions} subscriptions, heap ${(heap / 1e6).toFixed(1)} MB`,
            )
          }
        }
        return target === undefined
          ? elapsed >= durationMs
          : subscriptions >= target && Object.keys(perStream).length === STREAMS.length
      },
      durationMs + 60_000,
      2,
    )
    // A run shorter than two sample intervals still reports two samples (the trend needs two).
    while (samples.length < 2) sample()
  } finally {
    if (churner !== undefined) clearInterval(churner)
    for (const entry of alive) {
      clearTimeout(entry.timer)
      entry.subscription.unsubscribe()
    }
    alive.clear()
    await venue?.close()
    faults = await sim.close()
  }
  const handlesLeft = await handlesLeftAfter(handlesAtStart, 3_000)
  unhandled.stop()
  messages.push(...unhandled.messages)

  const first = samples[0]
  const last = samples.at(-1)
  const perMinute = slope(samples.map((s) => ({ x: s.atMs / 60_000, y: s.heapUsed / 1024 })))
  return {
    seconds,
    seed,
    subscriptions,
    perStream,
    values,
    streamErrors,
    faults,
    samples,
    heapSlopeKbPerMinute: perMinute,
    firstHeap: first?.heapUsed ?? 0,
    lastHeap: last?.heapUsed ?? 0,
    handlesAtStart,
    handlesLeft,
    openHandles: total(handlesLeft),
    unhandledRejections: unhandled.rejections(),
    uncaughtExceptions: unhandled.exceptions(),
    messages,
  }
}

runScript(import.meta.url, ['minutes', 'seconds', 'seed', 'fault-rate'], async (flags) => {
  const seconds = flags.has('seconds')
    ? flags.number('seconds', 60)
    : flags.number('minutes', 1) * 60
  if ((globalThis as { gc?: unknown }).gc === undefined) {
    console.log('note: started without --expose-gc; enabling gc at run time')
  }
  const report = await runSoak({
    seconds,
    seed: flags.number('seed', 1),
    faultRate: flags.number('fault-rate', 0.08),
    log: (line) => console.log(line),
  })
  console.log(formatSoakReport(report))
  return soakPassed(report) ? 0 : 1
})
