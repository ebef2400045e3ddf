/**
 * `watchOrder` on a venue reading from a relay (`createVenue({ relay })`), against a real
 * redis-server, one relay polling the simulator (manual clock) and publishing the account's
 * open orders and fills: the order stream is built on those relayed streams, so it follows
 * an order to `done` without a request of its own to the venue. Requests are counted per
 * client (an undici dispatcher that logs the consumer's requests; the relay's go through
 * its own pool), and every stream is checked against the simulator's ground truth.
 */
import { describe, expect, it } from 'vitest'
import { type OpenOrderEvent, VenueRelayError } from '../src/index.js'
import { collect } from './helpers/observe.js'
import { expectTruth, insideSpread, limit } from './helpers/order-truth.js'
import { relayFixture } from './helpers/relay-fixture.js'
import { waitFor, waitForAsync } from './helpers/wait-for.js'

const { nextPrefix, simulator, relayOn, countedConsumer } = relayFixture('wor')

/**
 * What the relay publishes: the account's streams an order stream follows. A consumer
 * polls nothing: its `pollIntervalMs` sets only how long an order stream gives the relayed
 * list to show an order (two of them) before it asks the venue.
 */
const ORDER_STREAMS = ['open-orders', 'fills']

/** Resolves once the relayed open orders (seen by `open`) show `id` opened. */
function shownOpen(open: { values: OpenOrderEvent[] }, id: string) {
  return waitFor(
    () => open.values.some((event) => event.type === 'opened' && event.order.id === id),
    `order ${id} opened through the relay`,
  )
}

describe('watchOrder through a relay', () => {
  it('follows a resting order to done filled, its fills in order, with no request of the consumer to the venue', async () => {
    const sim = await simulator(20)
    const prefix = nextPrefix()
    await relayOn(sim, prefix, ORDER_STREAMS)
    const { venue, requests } = countedConsumer(sim, prefix, { pollIntervalMs: 2_000 })
    const open = collect(venue.watchOpenOrders())
    const price = insideSpread(sim)
    const placed = await limit(sim, 'sell', price, '0.03')
    await shownOpen(open, placed.id)

    const stream = collect(venue.watchOrder(placed.id))
    const other = sim.apiKeys[1] ?? ''
    for (let piece = 1; piece <= 3; piece += 1) {
      await limit(sim, 'buy', price, '0.01', { account: other })
      await waitFor(
        () => stream.values.filter((e) => e.type === 'fill').length >= piece,
        `fill ${piece}`,
      )
    }
    await stream.done()
    expect(stream.error).toBeUndefined()
    const done = expectTruth(stream.values, sim, placed.id)
    expect(done).toMatchObject({ status: 'filled', reconciled: true, missing: '0' })
    expect(requests).toEqual([])
  })

  it('follows an order canceled after a partial fill, and one by client id placed after the subscription, with no request to the venue', async () => {
    const sim = await simulator(20)
    const prefix = nextPrefix()
    await relayOn(sim, prefix, ORDER_STREAMS)
    const { venue, requests } = countedConsumer(sim, prefix, { pollIntervalMs: 2_000 })
    const open = collect(venue.watchOpenOrders())
    const other = sim.apiKeys[1] ?? ''
    // A resting sell, followed, filled in part, then canceled.
    const price = insideSpread(sim)
    const partial = await limit(sim, 'sell', price, '0.02')
    await shownOpen(open, partial.id)
    const partialStream = collect(venue.watchOrder(partial.id))
    await limit(sim, 'buy', price, '0.01', { account: other })
    await waitFor(() => partialStream.values.some((e) => e.type === 'fill'), 'the partial fill')
    await sim.cancelOrder(partial.id)
    await partialStream.done()
    expect(expectTruth(partialStream.values, sim, partial.id)).toMatchObject({
      status: 'canceled',
      order: { filled: '0.01' },
    })

    // Followed by client id before it is placed (with placedAfter, the venue's clock is
    // not asked for), then filled at once by the other account.
    const byClientId = collect(venue.watchOrder({ clientId: 'relay-1' }, { placedAfter: 0 }))
    const again = insideSpread(sim)
    const placed = await limit(sim, 'sell', again, '0.02', { clientId: 'relay-1' })
    await shownOpen(open, placed.id)
    await limit(sim, 'buy', again, '0.02', { account: other })
    await byClientId.done()
    expect(expectTruth(byClientId.values, sim, placed.id)).toMatchObject({
      status: 'filled',
      reconciled: true,
    })
    for (const stream of [partialStream, byClientId]) expect(stream.error).toBeUndefined()
    expect(requests).toEqual([])
  })

  it('an order that ended before the subscription: the venue is asked for the newest ended orders only, its fills come from the relay', async () => {
    const sim = await simulator(20)
    const prefix = nextPrefix()
    await relayOn(sim, prefix, ORDER_STREAMS)
    const { venue, requests } = countedConsumer(sim, prefix, { pollIntervalMs: 200 })
    const open = collect(venue.watchOpenOrders())
    const fills = collect(venue.watchFills())
    const price = insideSpread(sim)
    const placed = await limit(sim, 'sell', price, '0.02')
    await shownOpen(open, placed.id)
    await limit(sim, 'buy', price, '0.02', { account: sim.apiKeys[1] ?? '' })
    const orderId = placed.id.split('-')[1]
    await waitFor(
      () => open.values.some((e) => e.type === 'closed' && e.order.id === placed.id),
      'the order closed through the relay',
    )
    await waitFor(
      () => fills.values.some((fill) => fill.orderId === orderId && fill.side === 'sell'),
      'its fill through the relay',
    )

    const stream = collect(venue.watchOrder(placed.id))
    await stream.done()
    expect(stream.error).toBeUndefined()
    expect(expectTruth(stream.values, sim, placed.id)).toMatchObject({
      status: 'filled',
      reconciled: true,
    })
    // The relay's list never shows it again: one page of the newest ended orders ends it.
    expect(requests).toEqual(['/api/v1/history-orders'])
  })

  it('follows an order to done from the fills the relay keeps, when its fills stream has been trimmed (a relayed watchFills from the start fails there)', async () => {
    // Enough history that the relay, keeping 100 entries a stream, trims its fills.
    const sim = await simulator(600)
    const prefix = nextPrefix()
    const relay = await relayOn(sim, prefix, ORDER_STREAMS, { maxLen: 100 })
    const account = sim.market.account(sim.apiKey)?.info().chain_account
    const history = sim.truth
      .trades()
      .reduce((n, t) => n + Number(t.maker === account) + Number(t.taker === account), 0)
    expect(history).toBeGreaterThan(100)
    // Every fill of the history published (the first ones trimmed) before anyone reads.
    const published = async () =>
      Number(
        /^venue_rx_relay_events_published_total\{stream="fills"\} (\d+)$/m.exec(
          await relay.metrics(),
        )?.[1] ?? 0,
      )
    await waitForAsync(async () => (await published()) >= history, 'the history published')
    const { venue, requests } = countedConsumer(sim, prefix, { pollIntervalMs: 2_000 })
    const fromStart = collect(venue.watchFills())
    await fromStart.done()
    expect(fromStart.error).toBeInstanceOf(VenueRelayError)
    expect(String((fromStart.error as Error).message)).toMatch(/trimmed/)

    const open = collect(venue.watchOpenOrders())
    const price = insideSpread(sim)
    const placed = await limit(sim, 'sell', price, '0.02')
    await shownOpen(open, placed.id)
    const stream = collect(venue.watchOrder(placed.id))
    await limit(sim, 'buy', price, '0.02', { account: sim.apiKeys[1] ?? '' })
    await stream.done()
    expect(stream.error).toBeUndefined()
    expect(expectTruth(stream.values, sim, placed.id)).toMatchObject({
      status: 'filled',
      reconciled: true,
    })
    expect(requests).toEqual([])
  }, 60_000)
})
