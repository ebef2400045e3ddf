/**
 * What following many orders costs: 200 concurrent `watchOrder` streams against the
 * simulator, counting the requests it receives, compared in the same run with the naive
 * way (each order asked for by id every interval).
 *
 *   npx tsx bench/watch-order-cost.ts [orders] [intervals]
 *
 * The demo account rests `orders` limit buys far below the market (they stay open), the
 * streams start (one look-up each), then `intervals` poll intervals are counted with the
 * market still (requests per interval, by route). Then every order is canceled and the
 * look-ups at the end are counted until every stream has emitted `done`.
 */
import { filter, firstValueFrom, type Subscription, take, timer } from 'rxjs'
import { createVenue, type Venue } from '../src/index.js'
import { startSimulator } from '../src/simulator/index.js'
import { recordRequests } from '../test/helpers/simulator-venue.js'

const ORDERS = Number(process.argv[2] ?? 200)
const INTERVALS = Number(process.argv[3] ?? 20)
const INTERVAL_MS = 100

// No tick yet: the demo account has no order of its own, so the open set is exactly ours.
const sim = await startSimulator({ seed: 1, clock: 'manual' })
const hits = recordRequests(sim)
const bestBid = sim.truth.engineBook(0).bids[0]?.[0] ?? '1'
const price = (Number(bestBid) / 2).toFixed(4)
const ids: string[] = []
for (let i = 0; i < ORDERS; i += 1) {
  const placed = await sim.placeOrder({
    poolId: 0,
    side: 'buy',
    type: 'limit',
    price,
    amount: '0.01',
  })
  ids.push(placed.id)
}

const openOrders = sim.market.account(sim.apiKey)?.openOrders().length ?? 0

const venue: Venue = createVenue({
  baseUrl: sim.url,
  apiKey: sim.apiKey,
  pollIntervalMs: INTERVAL_MS,
  maxRequestsPerSecond: 100_000,
})

const byRoute = (from: number, to = hits.length) => {
  const counts: Record<string, number> = {}
  for (const hit of hits.slice(from, to)) {
    const route = hit.path.startsWith('/api/v1/orders/') ? '/api/v1/orders/{id}' : hit.path
    counts[route] = (counts[route] ?? 0) + 1
  }
  return counts
}
const until = async (done: () => boolean) => {
  while (!done()) await firstValueFrom(timer(5))
}

// Shared: 200 watchOrder streams.
const startAt = hits.length
const ended = new Set<string>()
const subscriptions: Subscription[] = ids.map((id) =>
  venue.watchOrder(id).subscribe((event) => {
    if (event.type === 'done') ended.add(id)
  }),
)
await until(() => (byRoute(startAt)['/api/v1/orders/{id}'] ?? 0) >= ORDERS)
const lookupsAtStart = byRoute(startAt)['/api/v1/orders/{id}'] ?? 0
const accountInfoAtStart = byRoute(startAt)['/api/v1/info'] ?? 0
const windowFrom = hits.length
const windowStart = performance.now()
await firstValueFrom(timer(INTERVALS * INTERVAL_MS))
const windowMs = performance.now() - windowStart
const window = byRoute(windowFrom)
const sharedPerInterval =
  Object.values(window).reduce((a, b) => a + b, 0) / (windowMs / INTERVAL_MS)

const cancelFrom = hits.length
for (const id of ids) await sim.cancelOrder(id)
await until(() => ended.size === ORDERS)
const lookupsAtEnd = byRoute(cancelFrom)['/api/v1/orders/{id}'] ?? 0
for (const subscription of subscriptions) subscription.unsubscribe()

// Naive: every order asked for by id every interval, as a bot without the library would.
const naiveFrom = hits.length
const naiveStart = performance.now()
const naive = ids.map((id) =>
  timer(0, INTERVAL_MS)
    .pipe(take(INTERVALS))
    .subscribe(() => void venue.rest.order(id).catch(() => undefined)),
)
await firstValueFrom(timer(INTERVALS * INTERVAL_MS).pipe(filter(() => true)))
const naiveMs = performance.now() - naiveStart
for (const subscription of naive) subscription.unsubscribe()
const naivePerInterval = (hits.length - naiveFrom) / (naiveMs / INTERVAL_MS)

console.log(
  `${ORDERS} orders (${openOrders} open orders on the account), ${INTERVALS} intervals of ${INTERVAL_MS} ms`,
)
console.log(`account info requests at the start: ${accountInfoAtStart}`)
console.log(
  `look-ups at the start: ${lookupsAtStart} (${(lookupsAtStart / ORDERS).toFixed(2)} per order)`,
)
console.log(`requests in the window by route: ${JSON.stringify(window)}`)
console.log(`requests per interval, shared watchOrder: ${sharedPerInterval.toFixed(2)}`)
console.log(
  `look-ups at the end: ${lookupsAtEnd} (${(lookupsAtEnd / ORDERS).toFixed(2)} per order)`,
)
console.log(`requests per interval, naive polling by id: ${naivePerInterval.toFixed(2)}`)
console.log(`ratio shared / naive: ${(sharedPerInterval / naivePerInterval).toFixed(4)}`)
await venue.close()
await sim.close()
