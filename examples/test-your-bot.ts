/**
 * Testing a bot offline: a simulated venue moved tick by tick, then the same reads
 * under faults.
 *
 *   npx tsx examples/test-your-bot.ts
 */
import { createVenue, VenueError } from 'venue-rx'
import { startSimulator } from 'venue-rx/simulator'

const sim = await startSimulator({ seed: 1, clock: 'manual' })
const venue = createVenue({
  baseUrl: sim.url,
  apiKey: sim.apiKey,
  maxRequestsPerSecond: 200, // the default budget is 10 requests a second
})
try {
  sim.advance(300) // 300 ticks of simulated trading
  const open = await venue.rest.openOrders()
  const trades = await venue.rest.trades({ sort: 'asc', limit: 100 })
  console.log(`${open.length} open orders, first page of ${trades.length} own trades`)

  sim.faults.set({ errorRate: 0.3, resetRate: 0.05 }) // 30% 5xx, 5% connection resets
  const outcomes = new Map<string, number>()
  for (let i = 0; i < 50; i++) {
    const outcome = await venue.rest.balances().then(
      () => 'ok',
      (error: unknown) =>
        error instanceof VenueError ? `${error.code} (retryable: ${error.retryable})` : 'other',
    )
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1)
  }
  console.log('50 balance reads under faults:', Object.fromEntries(outcomes))
  console.log('faults injected:', sim.faults.stats())
} finally {
  await venue.close()
  await sim.close()
}
