/**
 * `watchPool` on a venue reading from a relay (`createVenue({ relay })`), against a real
 * redis-server and one relay polling the simulator (manual clock) and publishing `pools`
 * and `pool:1`: by id it reads `pool:1`; by symbol it finds the id in the relayed pool
 * list first. Either emits the detail a polling venue emits and follows its changes
 * without a request of its own to the venue (an undici dispatcher logs the consumer's
 * requests; the relay's go through its own pool, and the simulator logs every request).
 */
import { isDeepStrictEqual } from 'node:util'
import { firstValueFrom } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { VenueInputError, VenueNotFoundError } from '../src/index.js'
import type { Simulator } from '../src/simulator/index.js'
import { collect } from './helpers/observe.js'
import { relayFixture } from './helpers/relay-fixture.js'
import { count, recordRequests } from './helpers/simulator-venue.js'
import { waitFor } from './helpers/wait-for.js'

const { nextPrefix, simulator, relayOn, direct, countedConsumer } = relayFixture('wpr')

/** The symbol of pool `id`, as the venue lists it. */
async function symbolOf(sim: Simulator, id: number): Promise<string> {
  const pool = (await direct(sim).rest.pools()).find((each) => each.pool_id === id)
  if (pool === undefined) throw new Error(`no pool ${id} on the simulator`)
  return pool.symbol
}

describe('watchPool through a relay', () => {
  it('by id and by symbol: the detail a polling venue emits, then its change, with no request of the consumer to the venue', async () => {
    const sim = await simulator(20)
    const hits = recordRequests(sim)
    const symbol = await symbolOf(sim, 1)
    const prefix = nextPrefix()
    await relayOn(sim, prefix, ['pools', 'pool:1'])
    const { venue, requests } = countedConsumer(sim, prefix)
    const polled = direct(sim)

    const byId = collect(venue.watchPool(1))
    const bySymbol = collect(venue.watchPool(symbol))
    const before = await firstValueFrom(polled.watchPool(1))
    await byId.nth(1)
    await bySymbol.nth(1)
    expect(byId.values).toEqual([before])
    expect(bySymbol.values).toEqual([before])

    // Trades move the pool's stats: the relay's poll sees the change, and both follow it.
    // (20 ticks at a time until the detail changed: not every stretch of the market does.)
    let after = before
    for (let steps = 0; steps < 50 && isDeepStrictEqual(after, before); steps += 1) {
      sim.advance(20)
      after = await polled.rest.pool(1)
    }
    expect(after).not.toEqual(before)
    await byId.nth(2)
    await bySymbol.nth(2)
    expect(byId.values).toEqual([before, after])
    expect(bySymbol.values).toEqual([before, after])
    expect(byId.error).toBeUndefined()
    expect(bySymbol.error).toBeUndefined()

    // Both read the one relayed stream, by id (the pool list, read once for the symbol,
    // may have lingered out already); nothing is polled, nobody asked the venue by symbol.
    const report = await firstValueFrom(venue.health)
    expect(report['relay pool:1']?.state).toBe('ok')
    expect(Object.keys(report).filter((key) => !/^relay (pools|pool:1)$/.test(key))).toEqual([])
    expect(requests).toEqual([])
    expect(count(hits, '/api/v1/pools/1')).toBeGreaterThan(0)
    expect(count(hits, `/api/v1/pools/${encodeURIComponent(symbol)}`)).toBe(0)
  })

  it('an unknown symbol fails with the VenueNotFoundError a polling venue gives, with no request to the venue', async () => {
    const sim = await simulator(20)
    const prefix = nextPrefix()
    await relayOn(sim, prefix, ['pools'])
    const { venue, requests } = countedConsumer(sim, prefix)
    const relayed = collect(venue.watchPool('NO-SUCH-POOL'))
    const polled = collect(direct(sim).watchPool('NO-SUCH-POOL'))
    await waitFor(() => relayed.error !== undefined, 'the relayed stream to fail')
    await waitFor(() => polled.error !== undefined, 'the polled stream to fail')

    for (const { error } of [relayed, polled]) {
      expect(error).toBeInstanceOf(VenueNotFoundError)
      expect(error).toMatchObject({
        code: 'VENUE_NOT_FOUND',
        retryable: false,
        status: 200,
        endpoint: 'pool',
      })
      expect((error as Error).message).toMatch(/^pool: no pool "NO-SUCH-POOL" \(/)
    }
    expect(relayed.values).toEqual([])
    expect(requests).toEqual([])
  })

  it('a string of digits is an id; a bad argument throws the polling venue’s VenueInputError at the call', async () => {
    const sim = await simulator(20)
    const prefix = nextPrefix()
    await relayOn(sim, prefix, ['pool:1'])
    const { venue, requests } = countedConsumer(sim, prefix)
    const polled = direct(sim)

    const byText = collect(venue.watchPool('1'))
    await byText.nth(1)
    expect(byText.values).toEqual([await polled.rest.pool(1)])

    for (const bad of [-1, 1.5, '', '..', null]) {
      const thrown = (call: () => unknown) => {
        try {
          call()
        } catch (error) {
          return error
        }
        return undefined
      }
      const relayedError = thrown(() => venue.watchPool(bad as never))
      const polledError = thrown(() => polled.watchPool(bad as never))
      expect(relayedError).toBeInstanceOf(VenueInputError)
      expect(relayedError).toEqual(polledError)
    }
    expect(requests).toEqual([])
  })
})
