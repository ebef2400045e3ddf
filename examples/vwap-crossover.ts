/**
 * A VWAP crossover: the public trades of pool 0 on the embedded simulator, through a fast
 * (10 s) and a slow (40 s) volume-weighted average price, paired trade by trade with `zip`
 * into `[fast, slow]` for `crossover()`, which reports each time the fast VWAP goes to the
 * other side of the slow one. Once the first trades are in, the simulator's manual clock is
 * moved on 4 simulated seconds every 50 ms, so a minute of trading passes in under a second.
 * Stops after four crosses or ten simulated minutes.
 *
 * Both windows follow the trades' own timestamps, not the wall clock, and the market is
 * seeded: the crosses are the same on every run, unless a poll came so late that more
 * than 100 trades happened since the previous one (then a `gap` line is printed first).
 *
 *   npx tsx examples/vwap-crossover.ts
 */
import { count, lastValueFrom, Subject, share, take, takeUntil, tap, zip } from 'rxjs'
import { createVenue } from 'venue-rx'
import { crossover, vwap } from 'venue-rx/signals'
import { startSimulator } from 'venue-rx/simulator'

const MAX_CROSSES = 4
/** Ten simulated minutes after the start: the run stops there (by market time, not wall time). */
const LAST_TICK = 160 + 2_400
const timeUp = new Subject<void>()

const sim = await startSimulator({ seed: 1, clock: 'manual' }) // 250 simulated ms per tick
sim.advance(160) // 40 s of trading, so the slow window starts full
// The clock starts once the first window of trades is in (4 simulated seconds every 50 ms):
// the crosses are then the same however late that first poll comes.
let clock: ReturnType<typeof setInterval> | undefined
const venue = createVenue({
  baseUrl: sim.url,
  apiKey: sim.apiKey,
  pollIntervalMs: 50,
  maxRequestsPerSecond: 100, // the default budget is 10 requests a second
})
try {
  // One poller for both windows. vwap skips `gap` events (trades missed); they are shown.
  const trades = venue.watchTrades(0).pipe(
    tap((event) => {
      clock ??= setInterval(() => {
        sim.advance(16)
        if (sim.market.ticks() >= LAST_TICK) timeUp.next()
      }, 50)
      if (event.type === 'gap')
        console.log(`gap: trades missed between ${event.since} and ${event.until}`)
    }),
    share(),
  )
  const fast = trades.pipe(vwap(10_000, { places: 6 }))
  const slow = trades.pipe(vwap(40_000, { places: 6 }))
  const crosses = await lastValueFrom(
    zip(fast, slow).pipe(
      crossover(),
      tap(({ type, fast, slow }) => console.log(`${type}: fast VWAP ${fast}, slow VWAP ${slow}`)),
      take(MAX_CROSSES),
      takeUntil(timeUp),
      count(),
    ),
  )
  console.log(`${crosses} crosses`)
} finally {
  if (clock !== undefined) clearInterval(clock)
  await venue.close()
  await sim.close()
}
