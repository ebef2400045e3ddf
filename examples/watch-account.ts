/**
 * Streams: balances and open orders of the simulator's demo account, with the health
 * board, for ten seconds; faults are switched on halfway to show the retries.
 *
 *   npx tsx examples/watch-account.ts
 */
import { merge, takeUntil, timer } from 'rxjs'
import { createVenue } from 'venue-rx'
import { startSimulator } from 'venue-rx/simulator'

const sim = await startSimulator({ seed: 1, tickMs: 250 })
const venue = createVenue({ baseUrl: sim.url, apiKey: sim.apiKey, pollIntervalMs: 500 })
const stop = timer(10_000)

const balances = venue.watchBalances()
const orders = venue.watchOpenOrders()
const done = merge(
  balances.pipe(takeUntil(stop)),
  orders.pipe(takeUntil(stop)),
  venue.health.pipe(takeUntil(stop)),
)
setTimeout(() => sim.faults.set({ errorRate: 0.4, resetRate: 0.05 }), 4000)
setTimeout(() => sim.faults.clear(), 7000)

balances.pipe(takeUntil(stop)).subscribe(({ changes }) => {
  for (const change of changes) {
    const balance = change.type === 'removed' ? change.previous : change.current
    console.log(
      `balance ${change.type.padEnd(7)} ${balance.coin.padEnd(16)} ${balance.balance} (locked ${balance.locked})`,
    )
  }
})
orders.pipe(takeUntil(stop)).subscribe((event) => {
  console.log(
    `order   ${event.type.padEnd(7)} ${event.order.id.padEnd(8)} filled ${event.order.executed_amount} of ${event.order.order_amount}`,
  )
})
venue.health.pipe(takeUntil(stop)).subscribe((report) => {
  for (const [key, health] of Object.entries(report)) {
    if (health.state !== 'ok') console.log(`health  ${key} ${JSON.stringify(health)}`)
  }
})
done.subscribe({
  complete: async () => {
    await venue.close()
    await sim.close()
  },
})
