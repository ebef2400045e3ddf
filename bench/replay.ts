/**
 * Replay's speed and memory: records a 30 s live session of four streams on the
 * simulator, replays it at 'max' (its time beside the session's length), then records one
 * as long polling ten times as often (ten times the answers and ticks in its journal) and
 * compares the heap growth of the two replays: the journal is read as a stream, so it
 * should stay flat.
 *
 *   npx tsx --expose-gc bench/replay.ts          the figures
 *   npx tsx bench/replay.ts --json               bench-summary lines only
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { lastValueFrom, merge, type Observable } from 'rxjs'
import { createVenue, type Venue } from '../src/index.js'
import { openJournalReader } from '../src/replay/journal.js'
import { startSimulator } from '../src/simulator/index.js'
import { SUMMARY_ONLY, summaryLine } from './support/measure.js'

const SESSION_MS = Number(process.env['REPLAY_SESSION_MS'] ?? 30_000)
const LONGER = 10
const OPTIONS = { pollIntervalMs: 500, lingerMs: 1, maxRequestsPerSecond: 20 }
/** Ten times the polls: ten times the journal. */
const DENSER = { pollIntervalMs: 50, lingerMs: 1, maxRequestsPerSecond: 200 }
const streams = (venue: Venue): Observable<unknown>[] => [
  venue.watchDepth(0),
  venue.watchDepth(1),
  venue.watchBalances(),
  venue.watchPool(0),
]
const dir = mkdtempSync(join(tmpdir(), 'venue-rx-bench-replay-'))
const log = (line: string) => {
  if (!SUMMARY_ONLY) console.log(line)
}

async function record(file: string, options: typeof OPTIONS): Promise<void> {
  const sim = await startSimulator({ seed: 3, tickMs: 10, bursts: {} })
  const venue = createVenue({ baseUrl: sim.url, apiKey: sim.apiKey, record: { file }, ...options })
  const subscription = merge(...streams(venue)).subscribe()
  await new Promise((resolve) => setTimeout(resolve, SESSION_MS))
  subscription.unsubscribe()
  await venue.close()
  await sim.close()
}

/** The answers a journal holds. */
async function answersOf(file: string): Promise<number> {
  const reader = await openJournalReader(file)
  let count = 0
  for await (const _ of reader) count += 1
  await reader.close()
  return count
}

/** Replays `file` at 'max' until every stream ended: real time taken and peak heap growth. */
async function replay(
  file: string,
  options: typeof OPTIONS,
): Promise<{ ms: number; heapGrowth: number }> {
  global.gc?.()
  const base = process.memoryUsage().heapUsed
  let peak = base
  // What the replay holds, not garbage yet to collect: collected before each sample.
  const sampler = setInterval(() => {
    global.gc?.()
    peak = Math.max(peak, process.memoryUsage().heapUsed)
  }, 20)
  const started = performance.now()
  const venue = createVenue({ replay: { file, speed: 'max' }, ...options })
  await lastValueFrom(merge(...streams(venue)), { defaultValue: undefined })
  const ms = performance.now() - started
  await venue.close()
  clearInterval(sampler)
  peak = Math.max(peak, process.memoryUsage().heapUsed)
  return { ms, heapGrowth: peak - base }
}

const session = join(dir, 'session.journal')
log(`recording ${SESSION_MS / 1000} s of 4 streams on the simulator ...`)
await record(session, OPTIONS)
const once = await replay(session, OPTIONS)
log(`replay at 'max': ${once.ms.toFixed(0)} ms for a ${SESSION_MS / 1000} s session`)
console.log(
  summaryLine({
    figure: `replay at 'max' of a ${SESSION_MS / 1000} s session (4 streams)`,
    value: once.ms,
    unit: 'ms',
    target: '<= 2000 ms',
    met: once.ms <= 2_000,
  }),
)
const long = join(dir, 'denser.journal')
log(`recording ${SESSION_MS / 1000} s again, polling ${LONGER}x as often ...`)
await record(long, DENSER)
const [sessionAnswers, answers] = [await answersOf(session), await answersOf(long)]
const tenfold = await replay(long, DENSER)
log(
  `heap growth: ${(once.heapGrowth / 1e6).toFixed(1)} MB replaying the session (${sessionAnswers} answers), ${(tenfold.heapGrowth / 1e6).toFixed(1)} MB replaying one ${(answers / sessionAnswers).toFixed(1)}x longer (${answers} answers, ${tenfold.ms.toFixed(0)} ms)`,
)
console.log(
  summaryLine({
    figure: `replay heap growth, a journal ${(answers / sessionAnswers).toFixed(1)}x longer vs the session`,
    value: tenfold.heapGrowth / 1e6,
    unit: `MB (the session's: ${(once.heapGrowth / 1e6).toFixed(1)} MB)`,
    target: "<= 2x the session's, or 1 MB more (flat)",
    met: tenfold.heapGrowth <= Math.max(2 * once.heapGrowth, once.heapGrowth + 1e6),
  }),
)
