/**
 * A ccxt-style loop: `for await` over venue-rx streams, here on the embedded simulator.
 * Prints five order books and five public trades, then stops (`break` unsubscribes).
 *
 *   npx tsx examples/for-await-loop.ts
 */
import { createVenue, toAsyncIterable } from 'venue-rx'
import { startSimulator } from 'venue-rx/simulator'

const sim = await startSimulator({ seed: 1, tickMs: 100 }) // a market that moves every 100 ms
const venue = createVenue({ baseUrl: sim.url, apiKey: sim.apiKey, pollIntervalMs: 100 })
try {
  let books = 0
  // Books are state: only the newest matters, so a slow loop may drop older ones.
  for await (const book of toAsyncIterable(venue.watchOrderBook(0), { overflow: 'drop-oldest' })) {
    console.log(
      `book ${book.seq}: bid ${book.bestBid?.join(' x ')}  ask ${book.bestAsk?.join(' x ')}`,
    )
    if (++books === 5) break
  }
  let trades = 0
  // Trades are events: the default overflow ('error') never drops one silently.
  for await (const event of toAsyncIterable(venue.watchTrades(0))) {
    if (event.type !== 'trade') continue
    const { side, price, quantity } = event.trade
    console.log(`trade: ${side} ${quantity} at ${price}`)
    if (++trades === 5) break
  }
} finally {
  await venue.close()
  await sim.close()
}
