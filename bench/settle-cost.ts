/**
 * What the settle window of the cursor feeds costs: `watchFills` tailing the demo account
 * of a simulator that trades every tick, with `settleMs` 0 (off), 250 and 1,000, polls
 * every 50 ms: `/trades` requests per poll interval (counted at the simulator), the fills
 * held per page on average (they ride along in every page until delivered: what each
 * answer carries more), and how long after the simulator made a trade its fill is
 * delivered (median).
 *
 *   npx tsx bench/settle-cost.ts [seconds per setting, default 4]
 */
import { firstValueFrom, timer } from 'rxjs'
import { createVenue } from '../src/index.js'
import { startSimulator } from '../src/simulator/index.js'
import { recordRequests } from '../test/helpers/simulator-venue.js'
import { positionalArgs, printColumns, SUMMARY_ONLY } from './support/measure.js'

const [secondsArg] = positionalArgs()
const SECONDS = Number(secondsArg ?? 4)
const INTERVAL_MS = 50
const TICK_MS = 50

interface Outcome {
  readonly settleMs: number
  readonly requestsPerInterval: number
  readonly heldPerPage: number
  readonly fills: number
  readonly medianLagMs: number
}

async function run(settleMs: number): Promise<Outcome> {
  const sim = await startSimulator({ seed: 2, clock: 'manual', tickMs: TICK_MS })
  sim.advance(200)
  const hits = recordRequests(sim)
  // When each trade was made (the simulator's clock is moved by hand: real time here).
  const madeAt = new Map<string, number>()
  const noteTrades = () => {
    const now = performance.now()
    for (const trade of sim.truth.trades()) {
      const seq = String(trade.global_seq)
      if (!madeAt.has(seq)) madeAt.set(seq, now)
    }
  }
  noteTrades()
  const venue = createVenue({
    baseUrl: sim.url,
    apiKey: sim.apiKey,
    pollIntervalMs: INTERVAL_MS,
    // Measured per poll interval: each stream every pollIntervalMs.
    pacing: 'interval' as const,
    settleMs,
    maxRequestsPerSecond: 100_000,
  })
  const lags: number[] = []
  const held: number[] = []
  const start = String(sim.truth.trades().at(-1)?.global_seq ?? 0)
  const onProgress = (progress: { readonly held: number }) => held.push(progress.held)
  const subscription = venue.watchFills({ cursor: start, onProgress }).subscribe((fill) => {
    const made = madeAt.get(fill.globalSeq)
    if (made !== undefined) lags.push(performance.now() - made)
  })
  const from = hits.length
  const began = performance.now()
  const ticker = setInterval(() => {
    sim.advance(1)
    noteTrades()
  }, TICK_MS)
  await firstValueFrom(timer(SECONDS * 1000))
  clearInterval(ticker)
  const elapsed = performance.now() - began
  subscription.unsubscribe()
  const trades = hits.slice(from).filter((hit) => hit.path === '/api/v1/trades')
  await venue.close()
  await sim.close()
  lags.sort((a, b) => a - b)
  return {
    settleMs,
    requestsPerInterval: trades.length / (elapsed / INTERVAL_MS),
    heldPerPage: held.reduce((a, b) => a + b, 0) / Math.max(1, held.length),
    fills: lags.length,
    medianLagMs: lags[Math.floor(lags.length / 2)] ?? Number.NaN,
  }
}

const outcomes: Outcome[] = []
for (const settleMs of [0, 250, 1_000]) outcomes.push(await run(settleMs))
if (!SUMMARY_ONLY) {
  console.log(
    `settle window cost: watchFills tail, polls every ${INTERVAL_MS} ms, a tick every ${TICK_MS} ms, ${SECONDS} s per setting`,
  )
  printColumns(
    ['settleMs', 'requests/interval', 'held per page', 'fills', 'median delay ms'],
    outcomes.map((o) => [
      String(o.settleMs),
      o.requestsPerInterval.toFixed(2),
      o.heldPerPage.toFixed(1),
      String(o.fills),
      o.medianLagMs.toFixed(0),
    ]),
  )
}
