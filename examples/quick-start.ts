/**
 * Quick start: read a few endpoints of a venue.
 *
 *   VENUE_URL=http://127.0.0.1:8787 VENUE_API_KEY=k-... npx tsx examples/quick-start.ts
 */
import { createVenue, VenueError } from 'venue-rx'

const baseUrl = process.env['VENUE_URL'] ?? 'http://127.0.0.1:8787'
const apiKey = process.env['VENUE_API_KEY']

const venue = createVenue({ baseUrl, ...(apiKey ? { apiKey } : {}) })
try {
  const { timestamp } = await venue.rest.ping()
  console.log('server time', new Date(timestamp).toISOString())

  const pools = await venue.rest.pools()
  for (const pool of pools) console.log(pool.pool_id, pool.symbol, 'last', pool.last_price)

  const first = pools[0]
  if (first !== undefined) {
    const book = await venue.rest.depth({ poolId: first.pool_id, limit: 5 })
    console.log('best bid', book.bids[0], 'best ask', book.asks[0])
  }
  if (apiKey) console.log(await venue.rest.balances())
} catch (error) {
  if (error instanceof VenueError) console.error(`${error.code}: ${error.message}`)
  else throw error
  process.exitCode = 1
} finally {
  await venue.close()
}
