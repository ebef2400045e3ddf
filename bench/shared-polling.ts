/**
 * Shared polling: what a thousand subscribers cost, and what the stream pipeline costs per
 * poll compared with a bare undici request, measured in one run against the simulator
 * (its own process, manual clock, so answers stay the same unless the bench advances it).
 *
 *   npx tsx bench/shared-polling.ts
 *
 * 1. 1,000 subscribers each of watchPools() and watchBalances(): requests counted at the
 *    simulator over a window, against the intervals in that window. A poll waits
 *    pollIntervalMs after the previous answer, so one poller makes a little under one
 *    request per interval, and the smallest gap between two requests of a route is never
 *    under pollIntervalMs; 1,000 unshared pollers would make 1,000 per interval.
 * 2. Time per request of a bare undici request + JSON.parse, of venue.rest.pools()
 *    (dedupe, token bucket, envelope and zod validation, typed errors) and of a watchPools()
 *    stream polling with pollIntervalMs 1 (poll, retryBackoff, distinctUntilDeepChanged,
 *    share), the latter against a bare loop that pauses 1 ms between requests too. Then the
 *    part of it spent in zod: the same body parsed with the endpoint's schemas in a loop.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { createInterface, type Interface } from 'node:readline'
import { setTimeout as sleep } from 'node:timers/promises'
import { filter, firstValueFrom, type Subscription } from 'rxjs'
import { Pool } from 'undici'
import { createVenue, type Venue } from '../src/index.js'
import { ENDPOINTS } from '../src/rest/endpoints.js'
import { envelopeSchema } from '../src/schemas/envelope.js'
import { SUMMARY_ONLY, summaryLine } from './support/measure.js'

interface RouteStats {
  readonly requests: number
  readonly minGapMs: number | null
  readonly meanGapMs: number | null
  readonly maxGapMs: number | null
}

interface SimulatorStats {
  readonly requests: number
  readonly routes: Readonly<Record<string, RouteStats>>
}

/** The simulator process of bench/support/shared-polling-server.ts, driven over stdin. */
class SimulatorProcess {
  readonly url: string
  readonly apiKey: string
  readonly #child: ChildProcessWithoutNullStreams
  readonly #lines: AsyncIterator<string>
  #queue: Promise<unknown> = Promise.resolve()

  private constructor(
    child: ChildProcessWithoutNullStreams,
    lines: Interface,
    ready: { url: string; apiKey: string },
  ) {
    this.#child = child
    this.#lines = lines[Symbol.asyncIterator]()
    this.url = ready.url
    this.apiKey = ready.apiKey
  }

  static async start(): Promise<SimulatorProcess> {
    const script = join(import.meta.dirname, 'support', 'shared-polling-server.ts')
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: 'pipe' })
    child.stderr.pipe(process.stderr)
    const lines = createInterface({ input: child.stdout })
    const [first] = (await once(lines, 'line')) as [string]
    return new SimulatorProcess(child, lines, JSON.parse(first) as { url: string; apiKey: string })
  }

  /** Sends one command and resolves with its JSON answer; commands run one at a time. */
  command<T>(line: string): Promise<T> {
    const answer = this.#queue.then(async () => {
      this.#child.stdin.write(`${line}\n`)
      const next = await this.#lines.next()
      if (next.done === true) throw new Error('the simulator process ended')
      return JSON.parse(next.value) as T
    })
    this.#queue = answer.catch(() => undefined)
    return answer
  }

  async stop(): Promise<void> {
    const exited = once(this.#child, 'exit')
    this.#child.stdin.end()
    await exited
  }
}

const sim = await SimulatorProcess.start()
const fmt = (n: number, digits = 1) => n.toFixed(digits)

// 1. One request per interval, whatever the number of subscribers.

const SUBSCRIBERS = 1_000
const POLL_MS = 100
const WINDOW_MS = 4_000

async function sharedPolling(): Promise<void> {
  const venue = createVenue({
    baseUrl: sim.url,
    apiKey: sim.apiKey,
    pollIntervalMs: POLL_MS,
    // Measured per poll interval: each stream every pollIntervalMs.
    pacing: 'interval' as const,
    lingerMs: 100,
    maxRequestsPerSecond: 1_000,
  })
  const delivered = { pools: 0, balances: 0 }
  const subscriptions: Subscription[] = []
  for (let i = 0; i < SUBSCRIBERS; i += 1) {
    subscriptions.push(venue.watchPools().subscribe(() => (delivered.pools += 1)))
    subscriptions.push(venue.watchBalances().subscribe(() => (delivered.balances += 1)))
  }
  await firstValueFrom(
    venue.health.pipe(
      filter((r) => r['watchPools()']?.state === 'ok' && r['watchBalances()']?.state === 'ok'),
    ),
  )
  while (delivered.pools < SUBSCRIBERS || delivered.balances < SUBSCRIBERS) await sleep(5)
  await sim.command('reset')
  const before = { ...delivered }
  const started = performance.now()
  // The market moves now and then, so that changes fan out to every subscriber.
  let ticks = 0
  while (performance.now() - started < WINDOW_MS) {
    await sleep(500)
    await sim.command('advance 1')
    ticks += 1
  }
  const stats = await sim.command<SimulatorStats>('stats')
  const elapsed = performance.now() - started
  for (const subscription of subscriptions) subscription.unsubscribe()
  await venue.close()

  const intervals = elapsed / POLL_MS
  console.log(
    `1. ${SUBSCRIBERS} subscribers per stream, pollIntervalMs ${POLL_MS}, window ${fmt(elapsed, 0)} ms, ${ticks} market ticks\n`,
  )
  console.log(
    'stream          subscribers  intervals  requests  req/interval  min gap ms  max gap ms  values delivered',
  )
  const rows = [
    ['watchPools()', '/api/v1/pools', delivered.pools - before.pools],
    ['watchBalances()', '/api/v1/balances', delivered.balances - before.balances],
  ] as const
  for (const [name, route, values] of rows) {
    const r = stats.routes[route]
    const requests = r?.requests ?? 0
    console.log(
      [
        name.padEnd(15),
        String(SUBSCRIBERS).padStart(11),
        fmt(intervals).padStart(10),
        String(requests).padStart(9),
        fmt(requests / intervals, 3).padStart(13),
        fmt(r?.minGapMs ?? Number.NaN).padStart(11),
        fmt(r?.maxGapMs ?? Number.NaN).padStart(11),
        String(values).padStart(17),
      ].join(' '),
    )
    if (SUMMARY_ONLY) {
      const perInterval = requests / intervals
      console.log(
        summaryLine({
          figure: `${SUBSCRIBERS} subscribers of ${name}: requests per poll interval`,
          value: perInterval,
          unit: 'req/interval',
          target: '<= 1',
          met: perInterval <= 1,
        }),
      )
    }
  }
  const other =
    stats.requests - rows.reduce((n, [, route]) => n + (stats.routes[route]?.requests ?? 0), 0)
  console.log(
    `(other routes: ${other} requests; unshared, ${SUBSCRIBERS} pollers per stream would make ~${fmt(SUBSCRIBERS * intervals, 0)} each)\n`,
  )
}

// 2. Per-request cost of the pipeline against bare undici.

const PATH = '/api/v1/pools'
const ROUNDS = 3
const RUN_MS = 1_500

/** Requests per `RUN_MS` of `once`, run back to back: µs per request. */
async function loop(once: () => Promise<unknown>): Promise<number> {
  let count = 0
  const started = performance.now()
  while (performance.now() - started < RUN_MS) {
    await once()
    count += 1
  }
  return ((performance.now() - started) * 1000) / count
}

async function bare(pool: Pool): Promise<unknown> {
  const { body } = await pool.request({
    method: 'GET',
    path: PATH,
    headers: { accept: 'application/json' },
  })
  return JSON.parse(await body.text())
}

/** µs per poll of a watchPools() stream with pollIntervalMs 1, polls counted at the simulator. */
async function streamPoll(venue: Venue): Promise<number> {
  const subscription = venue.watchPools().subscribe()
  await firstValueFrom(venue.health.pipe(filter((r) => r['watchPools()']?.state === 'ok')))
  await sim.command('reset')
  const started = performance.now()
  await sleep(RUN_MS)
  const stats = await sim.command<SimulatorStats>('stats')
  const elapsed = performance.now() - started
  subscription.unsubscribe()
  return (elapsed * 1000) / (stats.routes[PATH]?.requests ?? Number.NaN)
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0

async function pipelineCost(): Promise<void> {
  const pool = new Pool(sim.url, { connections: 1 })
  const restVenue = createVenue({
    baseUrl: sim.url,
    maxRequestsPerSecond: 1_000_000,
    connections: 1,
  })
  const streamVenue = createVenue({
    baseUrl: sim.url,
    pollIntervalMs: 1,
    lingerMs: 1,
    maxRequestsPerSecond: 1_000_000,
    connections: 1,
  })
  // Warm up sockets and JIT.
  for (let i = 0; i < 300; i += 1) {
    await bare(pool)
    await restVenue.rest.pools()
  }
  const results = {
    bare: [] as number[],
    rest: [] as number[],
    paused: [] as number[],
    stream: [] as number[],
  }
  for (let round = 0; round < ROUNDS; round += 1) {
    results.bare.push(await loop(() => bare(pool)))
    results.rest.push(await loop(() => restVenue.rest.pools()))
    results.paused.push(
      await loop(async () => {
        await bare(pool)
        await sleep(1)
      }),
    )
    results.stream.push(await streamPoll(streamVenue))
  }
  await pool.close()
  await restVenue.close()
  await streamVenue.close()

  // The validation alone: the same body, parsed and checked as interpretResponse does.
  const { body } = await new Pool(sim.url).request({ method: 'GET', path: PATH })
  const text = await body.text()
  const parseOnly = () => JSON.parse(text) as unknown
  const validate = () => {
    const envelope = envelopeSchema.parse(JSON.parse(text))
    return ENDPOINTS.pools.schema.parse(envelope.data)
  }
  const perCall = (fn: () => unknown) => {
    for (let i = 0; i < 2_000; i += 1) fn()
    const n = 20_000
    const started = performance.now()
    for (let i = 0; i < n; i += 1) fn()
    return ((performance.now() - started) * 1000) / n
  }
  const jsonUs = median([perCall(parseOnly), perCall(parseOnly), perCall(parseOnly)])
  const zodUs = median([perCall(validate), perCall(validate), perCall(validate)]) - jsonUs

  const b = median(results.bare)
  const r = median(results.rest)
  const p = median(results.paused)
  const s = median(results.stream)
  console.log(
    `2. Per request, GET ${PATH} (${text.length} bytes), one socket, manual clock, median of ${ROUNDS} runs of ${RUN_MS} ms\n`,
  )
  console.log('loop                                          µs/request  ratio')
  console.log(`bare undici request + JSON.parse             ${fmt(b).padStart(11)}  1.00`)
  console.log(
    `venue.rest.pools()                           ${fmt(r).padStart(11)}  ${fmt(r / b, 2)} (rest/bare)`,
  )
  console.log(`bare undici + JSON.parse + 1 ms pause        ${fmt(p).padStart(11)}  1.00`)
  console.log(
    `watchPools() stream, pollIntervalMs 1        ${fmt(s).padStart(11)}  ${fmt(s / p, 2)} (stream/bare with the same pause)`,
  )
  console.log('')
  console.log(`overhead of venue.rest over bare:            ${fmt(r - b)} µs per request`)
  console.log(`overhead of the stream over bare + pause:    ${fmt(s - p)} µs per poll`)
  console.log(`JSON.parse of the body alone:                ${fmt(jsonUs, 2)} µs`)
  console.log(
    `zod (envelope + pools schema) per response:  ${fmt(zodUs, 2)} µs = ${fmt((100 * zodUs) / r)}% of a rest call, ${fmt((100 * zodUs) / Math.max(r - b, Number.EPSILON))}% of its overhead`,
  )
}

try {
  await sharedPolling()
  await pipelineCost()
} finally {
  await sim.stop()
}
