/**
 * What following many orders costs: 200 concurrent `watchOrder` streams against the
 * simulator, counting the requests it receives, against the look-up per order that
 * following by id needs (measured in the same run).
 *
 *   npx tsx bench/watch-order-cost.ts [orders] [intervals]
 *
 * The demo account rests `orders` limit buys far below the market (they stay open).
 * 1. Start: the streams start; the requests until 3 polls of the open orders are counted
 *    by route (an order found in the open list without fills needs no look-up).
 * 2. Following: `intervals` poll intervals with the market still (requests per interval).
 * 3. End: every order is canceled at once; the requests until every stream has emitted
 *    `done` (the endings come from pages of the newest ended orders).
 * 4. The same start and end at the default settings (10 requests a second, polls every
 *    second): the time until every stream has its order and until every stream is done
 *    after a mass cancel, against the time of one look-up per order at that budget (what
 *    starting each stream with a look-up costs before anything else can happen).
 * 5. Many filled at once, at the default settings: `FILL_RESTING` (500) resting buys, a
 *    stream on `FILL_WATCHED` (200) of them; one sell of another account fills
 *    `FILL_FILLED` (50) watched ones at once. The time from the sell to the last `done`,
 *    and the requests meanwhile by route (look-ups of single orders counted apart).
 */
import { firstValueFrom, type Subscription, timer } from 'rxjs'
import { createVenue, type Venue } from '../src/index.js'
import { type Simulator, startSimulator } from '../src/simulator/index.js'
import { type Hit, recordRequests } from '../test/helpers/simulator-venue.js'
import { positionalArgs, SUMMARY_ONLY } from './support/measure.js'

const [ordersArg, intervalsArg] = positionalArgs()
const ORDERS = Number(ordersArg ?? 200)
const INTERVALS = Number(intervalsArg ?? 20)
const INTERVAL_MS = 100
const FILL_RESTING = 500
const FILL_WATCHED = 200
const FILL_FILLED = 50
const AMOUNT = '0.01'

/** A simulator with `ORDERS` resting buys of the demo account (and no other order of it). */
async function market(): Promise<{ sim: Simulator; hits: Hit[]; ids: string[] }> {
  // No tick: the demo account has no order of its own, so the open set is exactly ours.
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
  return { sim, hits, ids }
}

const byRoute = (hits: readonly Hit[], from: number) => {
  const counts: Record<string, number> = {}
  for (const hit of hits.slice(from)) {
    const route = hit.path.startsWith('/api/v1/orders/') ? '/api/v1/orders/{id}' : hit.path
    counts[route] = (counts[route] ?? 0) + 1
  }
  return counts
}
const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0)
const until = async (done: () => boolean) => {
  while (!done()) await firstValueFrom(timer(5))
}

/** Subscribes a `watchOrder` per id; `ended` fills with each id whose stream emitted done. */
function follow(venue: Venue, ids: readonly string[], ended: Set<string>): Subscription[] {
  return ids.map((id) =>
    venue.watchOrder(id).subscribe((event) => {
      if (event.type === 'done') ended.add(id)
    }),
  )
}

// 1-3: requests, at a budget that never waits.
const quick = await market()
const venue = createVenue({
  baseUrl: quick.sim.url,
  apiKey: quick.sim.apiKey,
  pollIntervalMs: INTERVAL_MS,
  // Measured per poll interval: each stream every pollIntervalMs.
  pacing: 'interval' as const,
  maxRequestsPerSecond: 100_000,
})
const { hits } = quick
const startAt = hits.length
const ended = new Set<string>()
const subscriptions = follow(venue, quick.ids, ended)
const polls = () => byRoute(hits, startAt)['/api/v1/open-orders'] ?? 0
await until(() => polls() >= 3)
const start = byRoute(hits, startAt)
const windowFrom = hits.length
const windowStart = performance.now()
await firstValueFrom(timer(INTERVALS * INTERVAL_MS))
const perInterval =
  total(byRoute(hits, windowFrom)) / ((performance.now() - windowStart) / INTERVAL_MS)
const cancelFrom = hits.length
for (const id of quick.ids) await quick.sim.cancelOrder(id)
await until(() => ended.size === ORDERS)
const end = byRoute(hits, cancelFrom)
for (const subscription of subscriptions) subscription.unsubscribe()
await venue.close()
await quick.sim.close()

// 4: time at the default budget.
const slow = await market()
const budgeted = createVenue({ baseUrl: slow.sim.url, apiKey: slow.sim.apiKey })
const slowEnded = new Set<string>()
const began = performance.now()
const slowFrom = slow.hits.length
const slowSubscriptions = follow(budgeted, slow.ids, slowEnded)
// Started: the streams have their orders once a poll of the open list answered after them.
await until(() => (byRoute(slow.hits, slowFrom)['/api/v1/open-orders'] ?? 0) >= 4)
const startedMs = performance.now() - began
for (const id of slow.ids) await slow.sim.cancelOrder(id)
await until(() => slowEnded.size === ORDERS)
const streamsMs = performance.now() - began
for (const subscription of slowSubscriptions) subscription.unsubscribe()
const lookUpsBegan = performance.now()
await Promise.all(slow.ids.map((id) => budgeted.rest.order(id)))
const lookUpsMs = performance.now() - lookUpsBegan
await budgeted.close()
await slow.sim.close()

// 5: many filled at once, at the default budget.
const filling = await startSimulator({ seed: 1, clock: 'manual' })
const fillHits = recordRequests(filling)
const book = filling.truth.engineBook(0)
const bid = Number(book.bids[0]?.[0] ?? '1')
// Inside the spread: the filled orders are the best bids, alone at their price.
const best = (bid + 0.0001).toFixed(4)
const fillIds: string[] = []
for (let i = 0; i < FILL_RESTING; i += 1) {
  const placed = await filling.placeOrder({
    poolId: 0,
    side: 'buy',
    type: 'limit',
    price: i < FILL_FILLED ? best : (bid / 2).toFixed(4),
    amount: AMOUNT,
  })
  fillIds.push(placed.id)
}
const fillVenue = createVenue({ baseUrl: filling.url, apiKey: filling.apiKey })
const fillEnded = new Set<string>()
const fillFrom = fillHits.length
const fillSubscriptions = follow(fillVenue, fillIds.slice(0, FILL_WATCHED), fillEnded)
// Started: three polls of the five pages of open orders after the streams.
await until(() => (byRoute(fillHits, fillFrom)['/api/v1/open-orders'] ?? 0) >= 3 * 5)
const sellFrom = fillHits.length
const sold = performance.now()
await filling.placeOrder({
  account: filling.apiKeys[1] ?? '',
  poolId: 0,
  side: 'sell',
  type: 'limit',
  price: best,
  amount: (FILL_FILLED * Number(AMOUNT)).toFixed(2),
})
await until(() => fillEnded.size === FILL_FILLED)
const filledMs = performance.now() - sold
const filledRoutes = byRoute(fillHits, sellFrom)
for (const subscription of fillSubscriptions) subscription.unsubscribe()
await fillVenue.close()
await filling.close()

const lookUpsAtStart = start['/api/v1/orders/{id}'] ?? 0
const lookUpsAtEnd = end['/api/v1/orders/{id}'] ?? 0
if (!SUMMARY_ONLY) {
  console.log(`${ORDERS} orders resting, intervals of ${INTERVAL_MS} ms`)
  console.log(`start, requests until 3 polls, by route: ${JSON.stringify(start)}`)
  console.log(`look-ups at the start: ${lookUpsAtStart} (${ORDERS} when each stream asks once)`)
  console.log(`requests per interval while following: ${perInterval.toFixed(2)}`)
  console.log(`end, all canceled at once, by route: ${JSON.stringify(end)}`)
  console.log(`look-ups at the end: ${lookUpsAtEnd} (${ORDERS} when each ending is looked up)`)
  console.log(
    `default budget (10/s, polls every 1 s): started after ${(startedMs / 1000).toFixed(1)} s (two polls of the two pages of open orders), all canceled and done after ${(streamsMs / 1000).toFixed(1)} s; one look-up per order alone takes ${(lookUpsMs / 1000).toFixed(1)} s (ratio ${(streamsMs / lookUpsMs).toFixed(2)})`,
  )
  console.log(
    `${FILL_FILLED} of ${FILL_WATCHED} streams (${FILL_RESTING} resting) filled at once, default budget: last done ${(filledMs / 1000).toFixed(1)} s after the fill, ${filledRoutes['/api/v1/orders/{id}'] ?? 0} look-ups of single orders, ${total(filledRoutes)} requests meanwhile: ${JSON.stringify(filledRoutes)}`,
  )
}
