/**
 * A spread alert: the order book of pool 0 on the embedded simulator, turned into its
 * spread in basis points (`spread`), with an alert each time the spread widens past a
 * level (`threshold`, re-armed only once the spread has narrowed again by the hysteresis).
 * Stops after three alerts or 60 books, whichever comes first.
 *
 *   npx tsx examples/spread-alert.ts
 */
import { count, lastValueFrom, take, tap } from 'rxjs'
import { createVenue } from 'venue-rx'
import { spread, threshold } from 'venue-rx/signals'
import { startSimulator } from 'venue-rx/simulator'

const LEVEL_BPS = 4 // alert when the spread goes above 4 bps...
const HYSTERESIS_BPS = 1 // ...and again only after it came back to 3 bps or less
const MAX_ALERTS = 3
const MAX_BOOKS = 60

const sim = await startSimulator({ seed: 1, tickMs: 25 }) // a market that moves every 25 ms
const venue = createVenue({
  baseUrl: sim.url,
  apiKey: sim.apiKey,
  pollIntervalMs: 25,
  maxRequestsPerSecond: 100, // the default budget is 10 requests a second
})
try {
  let books = 0
  const alerts = await lastValueFrom(
    venue.watchOrderBook(0).pipe(
      take(MAX_BOOKS),
      tap(() => {
        books += 1
      }),
      spread({ unit: 'bps', places: 2 }), // emits only when the spread changed
      tap((bps) => console.log(`spread ${bps} bps`)),
      threshold({ above: LEVEL_BPS, hysteresis: HYSTERESIS_BPS }),
      tap((alert) => console.log(`ALERT: spread ${alert.value} bps > ${alert.level} bps`)),
      take(MAX_ALERTS),
      count(),
    ),
  )
  console.log(`${alerts} alerts in ${books} books`)
} finally {
  await venue.close()
  await sim.close()
}
