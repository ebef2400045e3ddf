/**
 * Many orders at once cost shared pages, not a request per order: orders filled together
 * end `done` through pages of the newest ended orders (their fills from the fills tail),
 * with no look-up of any; `watchOpenOrders` still closes each with its trades; orders the
 * pages do not show (purged) are still looked up and end `unknown`. Against the simulator
 * (manual clock, no faults: the requests are counted exactly), checked against its truth.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { OpenOrderEvent, VenueOptions } from '../src/index.js'
import type { Simulator } from '../src/simulator/index.js'
import { runCleanups } from './helpers/cleanups.js'
import { collect } from './helpers/observe.js'
import { expectTruth, insideSpread, limit, truthOf } from './helpers/order-truth.js'
import { count, FAST, type Hit, startSimulatorVenue } from './helpers/simulator-venue.js'
import { waitFor } from './helpers/wait-for.js'

afterEach(() => runCleanups())

const OPEN_ORDERS = '/api/v1/open-orders'
const HISTORY = '/api/v1/history-orders'
const lookUps = (hits: readonly Hit[]) =>
  hits.filter((hit) => hit.path.startsWith('/api/v1/orders/')).length

/** Resolves once the open orders have been asked for `n` more times. */
function polls(hits: readonly Hit[], n: number, what: string) {
  const from = count(hits, OPEN_ORDERS)
  return waitFor(() => count(hits, OPEN_ORDERS) >= from + n, what)
}

/**
 * The demo account rests `resting` buys of 0.01: the first `best` inside the spread (one
 * price: a sell there fills them all at once), the rest far below at prices of their own.
 */
async function restingBuys(sim: Simulator, resting: number, best: number) {
  const price = insideSpread(sim)
  const ids: string[] = []
  for (let i = 0; i < resting; i += 1) {
    const at = i < best ? price : (Number(price) / 2 - i / 10_000).toFixed(4)
    ids.push((await limit(sim, 'buy', at, '0.01')).id)
  }
  return { price, ids, best: ids.slice(0, best) }
}

async function setup(options: Partial<VenueOptions> = {}) {
  const { sim, venue, hits } = await startSimulatorVenue({ ...FAST, ...options })
  return { sim, venue, hits, other: sim.apiKeys[1] ?? '' }
}

describe('many orders filled at once', () => {
  it('12 of 30 streams (60 resting) filled by one sell: every one done filled through shared pages, no request to /orders/{id}', async () => {
    const { sim, venue, hits, other } = await setup()
    const { price, ids, best } = await restingBuys(sim, 60, 12)
    // 30 streams: the 12 that fill, and 18 that stay.
    const watched = [...best, ...ids.slice(40)]
    const streams = new Map(watched.map((id) => [id, collect(venue.watchOrder(id))]))
    await polls(hits, 3, 'the streams started')
    expect(lookUps(hits)).toBe(0)
    const historyBefore = count(hits, HISTORY)

    await limit(sim, 'sell', price, '0.12', { account: other })
    for (const id of best) expect(truthOf(sim, id).status).toBe(2)
    await waitFor(
      () => best.every((id) => streams.get(id)?.completed === true),
      'done for every filled order',
      10_000,
    )
    for (const id of best) {
      const stream = streams.get(id)
      expect(stream?.error, id).toBeUndefined()
      const done = expectTruth(stream?.values ?? [], sim, id)
      expect(done, id).toMatchObject({ status: 'filled', reconciled: true, missing: '0' })
    }
    // The ended records came from pages of ended orders: not one look-up of an order.
    expect(lookUps(hits)).toBe(0)
    expect(count(hits, HISTORY)).toBeGreaterThan(historyBefore)
    for (const id of ids.slice(40)) expect(streams.get(id)?.values, id).toEqual([])
  })

  it('with watchOpenOrders beside them: each filled order closed with its final record and trades, every stream done', async () => {
    const { sim, venue, hits, other } = await setup()
    const { price, best } = await restingBuys(sim, 30, 8)
    const open = collect(venue.watchOpenOrders())
    const streams = best.map((id) => collect(venue.watchOrder(id)))
    await polls(hits, 3, 'the streams started')
    await limit(sim, 'sell', price, '0.08', { account: other })
    const closed = () =>
      open.values.filter(
        (e): e is Extract<OpenOrderEvent, { type: 'closed' }> => e.type === 'closed',
      )
    await waitFor(() => closed().length >= best.length, 'closed for every filled order')
    await waitFor(() => streams.every((s) => s.completed), 'done for every filled order')
    for (const event of closed()) {
      const truth = truthOf(sim, event.order.id)
      expect(event.status).toBe('filled')
      if (event.status === 'unknown') continue
      expect(event.final.executed_amount).toBe(truth.executed_amount)
      expect(event.final.trades.map((t) => t.global_seq)).toEqual(
        truth.trades.map((t) => String(t.global_seq)),
      )
    }
    for (const [i, stream] of streams.entries()) {
      expect(expectTruth(stream.values, sim, best[i] ?? '').status).toBe('filled')
    }
    expect(open.error).toBeUndefined()
  })

  it('orders canceled together and purged (the pages do not show them): still looked up, each done unknown after orderLookups misses', async () => {
    const { sim, venue, hits } = await setup({ orderLookups: 3 })
    sim.quirks.set({ purgeCanceledAfterMs: 0, purgeStatus: 500 })
    const { ids } = await restingBuys(sim, 6, 0)
    const streams = ids.map((id) => collect(venue.watchOrder(id)))
    await polls(hits, 3, 'the streams started')
    for (const id of ids) await sim.cancelOrder(id)
    await waitFor(() => streams.every((s) => s.completed), 'done for every order')
    for (const [i, stream] of streams.entries()) {
      expect(stream.error).toBeUndefined()
      expect(stream.values).toEqual([
        expect.objectContaining({
          type: 'done',
          status: 'unknown',
          reconciled: true,
          order: expect.objectContaining({ id: ids[i], filled: '0' }),
        }),
      ])
    }
    // Each was looked up at least orderLookups times: the pages did not show it.
    for (const id of ids) {
      expect(count(hits, `/api/v1/orders/${id}`)).toBeGreaterThanOrEqual(3)
    }
  })
})
