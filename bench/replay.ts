/**
 * Replay's speed and memory: records a 30 s live session of four streams on the
 * simulator, replays it at 'max' (its time beside the session's length), then replays a
 * journal ten times longer (the session's answers again and again, later each time) and
 * compares the heap growth of the two replays: reading streams, so it should stay flat.
 *
 *   npx tsx --expose-gc bench/replay.ts          the figures
 *   npx tsx bench/replay.ts --json               bench-summary lines only
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { lastValueFrom, merge, type Observable } from 'rxjs'
import { createVenue, type Venue } from '../src/index.js'
import { type JournalAnswer, openJournalReader, openJournalWriter } from '../src/replay/journal.js'
import { startSimulator } from '../src/simulator/index.js'
import { SUMMARY_ONLY, summaryLine } from './support/measure.js'

const SESSION_MS = Number(process.env['REPLAY_SESSION_MS'] ?? 30_000)
const LONGER = 10
const OPTIONS = { pollIntervalMs: 500, lingerMs: 1, maxRequestsPerSecond: 20 }
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

async function record(file: string): Promise<void> {
  const sim = await startSimulator({ seed: 3, tickMs: 10, bursts: {} })
  const venue = createVenue({ baseUrl: sim.url, apiKey: sim.apiKey, record: { file }, ...OPTIONS })
  const subscription = merge(...streams(venue)).subscribe()
  await new Promise((resolve) => setTimeout(resolve, SESSION_MS))
  subscription.unsubscribe()
  await venue.close()
  await sim.close()
}

/** The journal `times` over: each round's answers later by the session's span. */
async function longer(file: string, to: string, times: number): Promise<number> {
  const reader = await openJournalReader(file)
  const answers: JournalAnswer[] = []
  for await (const answer of reader) answers.push(answer)
  await reader.close()
  const first = answers[0]?.sentAt ?? 0
  const span = Math.max(...answers.map((a) => a.answeredAt)) - first + 1
  const writer = await openJournalWriter(to, reader.header)
  for (let round = 0; round < times; round += 1) {
    for (const answer of answers) {
      const shift = round * span
      writer.append({
        ...answer,
        sentAt: answer.sentAt + shift,
        answeredAt: answer.answeredAt + shift,
      })
    }
  }
  await writer.close()
  return answers.length * times
}

/** Replays `file` at 'max' until every stream ended: real time taken and peak heap growth. */
async function replay(file: string): Promise<{ ms: number; heapGrowth: number }> {
  global.gc?.()
  const base = process.memoryUsage().heapUsed
  let peak = base
  // What the replay holds, not garbage yet to collect: collected before each sample.
  const sampler = setInterval(() => {
    global.gc?.()
    peak = Math.max(peak, process.memoryUsage().heapUsed)
  }, 20)
  const started = performance.now()
  const venue = createVenue({ replay: { file, speed: 'max' }, ...OPTIONS })
  await lastValueFrom(merge(...streams(venue)), { defaultValue: undefined })
  const ms = performance.now() - started
  await venue.close()
  clearInterval(sampler)
  peak = Math.max(peak, process.memoryUsage().heapUsed)
  return { ms, heapGrowth: peak - base }
}

const session = join(dir, 'session.journal')
log(`recording ${SESSION_MS / 1000} s of 4 streams on the simulator ...`)
await record(session)
const once = await replay(session)
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
const long = join(dir, 'longer.journal')
const answers = await longer(session, long, LONGER)
const tenfold = await replay(long)
log(
  `heap growth: ${(once.heapGrowth / 1e6).toFixed(1)} MB replaying the session, ${(tenfold.heapGrowth / 1e6).toFixed(1)} MB replaying ${LONGER}x longer (${answers} answers, ${tenfold.ms.toFixed(0)} ms)`,
)
console.log(
  summaryLine({
    figure: `replay heap growth, a ${LONGER}x longer journal vs the session`,
    value: tenfold.heapGrowth / 1e6,
    unit: `MB (the session's: ${(once.heapGrowth / 1e6).toFixed(1)} MB)`,
    target: "<= 2x the session's, or 1 MB more (flat)",
    met: tenfold.heapGrowth <= Math.max(2 * once.heapGrowth, once.heapGrowth + 1e6),
  }),
)
