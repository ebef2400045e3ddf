/**
 * A fill tracker: places an order on the embedded simulator and follows it with
 * `watchOrder` (each fill once, then how it ended), while another account trades into it.
 *
 *   npx tsx examples/fill-tracker.ts
 */
import { createVenue } from 'venue-rx'
import { startSimulator } from 'venue-rx/simulator'

const sim = await startSimulator({ seed: 1, clock: 'manual' })
const venue = createVenue({ baseUrl: sim.url, apiKey: sim.apiKey, pollIntervalMs: 100 })
try {
  // A sell of 0.03 CHN resting just above the best bid: the best ask of pool 0.
  const bid = sim.truth.engineBook(0).bids[0]?.[0] ?? '1'
  const price = (Number(bid) + 0.0001).toFixed(4)
  const order = await sim.placeOrder({
    poolId: 0,
    side: 'sell',
    type: 'limit',
    price,
    amount: '0.03',
  })
  console.log(`placed ${order.id} (${order.clientId}): sell 0.03 at ${price}`)

  const done = new Promise<void>((resolve, reject) => {
    venue.watchOrder(order.id).subscribe({
      next: (event) => {
        if (event.type === 'fill') {
          const { quantity, price: at, role, fee } = event.fill
          console.log(
            `fill: ${quantity} at ${at} as ${role}, fee ${fee}; filled ${event.order.filled}`,
          )
        } else if (event.type === 'done') {
          console.log(
            `done: ${event.status}, filled ${event.order.filled} at ${event.order.avgPrice}`,
          )
        }
      },
      error: reject,
      complete: resolve,
    })
  })
  // The other account buys into the order in three pieces.
  const other = sim.apiKeys[1] ?? sim.apiKey
  for (let piece = 0; piece < 3; piece += 1) {
    await new Promise((resolve) => setTimeout(resolve, 300))
    await sim.placeOrder({
      account: other,
      poolId: 0,
      side: 'buy',
      type: 'limit',
      price,
      amount: '0.01',
    })
  }
  await done
} finally {
  await venue.close()
  await sim.close()
}
