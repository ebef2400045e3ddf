/**
 * A backtest: an EMA crossover (5 against 20) on the mid of pool 0's book, run on a
 * recording instead of the venue. It records two seconds of the embedded simulator
 * (`record`), then replays the journal as fast as it goes (`replay`, speed 'max') through
 * the same stream and signal: the crosses come out the same on every replay, and the
 * stream completes where the recording ends.
 *
 *   npx tsx examples/backtest-ema.ts
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { lastValueFrom, type Observable, toArray } from 'rxjs'
import { createVenue, type Venue } from 'venue-rx'
import { type CrossEvent, crossover, ema, mid } from 'venue-rx/signals'
import { startSimulator } from 'venue-rx/simulator'

const file = join(mkdtempSync(join(tmpdir(), 'backtest-')), 'session.journal')
const options = { pollIntervalMs: 50, maxRequestsPerSecond: 40, lingerMs: 1 }
const strategy = (venue: Venue): Observable<CrossEvent> =>
  venue.watchOrderBook(0).pipe(mid(), crossover(ema(5), ema(20)))

// Two seconds of a busy market, recorded.
const sim = await startSimulator({ seed: 5, tickMs: 10, bursts: { quietMs: [100, 300] } })
const live = createVenue({ baseUrl: sim.url, record: { file }, ...options })
const watching = strategy(live).subscribe()
await new Promise((resolve) => setTimeout(resolve, 2_000))
watching.unsubscribe()
await live.close()
await sim.close()

// The backtest: the recording replayed, twice, at full speed.
for (const run of [1, 2]) {
  const venue = createVenue({ replay: { file, speed: 'max' }, ...options })
  const crosses = await lastValueFrom(strategy(venue).pipe(toArray()))
  await venue.close()
  console.log(
    `replay ${run}: ${crosses.length} crosses`,
    crosses.map((c) => `${c.type} at ${Number(c.fast).toFixed(4)}`).join(', '),
  )
}
