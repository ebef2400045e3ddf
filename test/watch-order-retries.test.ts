/**
 * `watchOrder` retries what every stream retries: the venue's 500 `service internal error`
 * of a list or account endpoint (/trades, /history-orders, /open-orders, /info, /ping) is
 * transport trouble, retried with the venue's backoff and reported `retrying`; only an
 * order's own look-up (/orders/{id}, /orders/client-id/{cid}) reads it as "not shown".
 * Each stream is checked against the simulator's ground truth once the faults are gone.
 */
import type { Subscription } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import type { HealthReport, OrderEvent } from '../src/index.js'
import { onCleanup, runCleanups } from './helpers/cleanups.js'
import { collect } from './helpers/observe.js'
import { expectTruth, insideSpread, limit } from './helpers/order-truth.js'
import { FAST, type Hit, startSimulatorVenue } from './helpers/simulator-venue.js'
import { waitFor } from './helpers/wait-for.js'

afterEach(() => runCleanups())

const API = '/api/v1'
/** The list and account routes an order stream reads besides its order's look-up. */
const LIST_ROUTES = ['/trades', '/history-orders', '/info', '/ping'].map((path) => API + path)
const OPEN_ORDERS = `${API}/open-orders`

/** 500 `service internal error` on every request of a route. */
const ALWAYS_500 = { errorRate: 1, errorStatus: 500 }

/** Injected 500s answered on `path` so far. */
const errors500 = (hits: readonly Hit[], path: string) =>
  hits.filter((hit) => hit.path === path && hit.action === 'error').length

describe('watchOrder retries a list endpoint’s 500 as every stream does', () => {
  it('the cheap start’s scans (/trades, /history-orders) and an order’s trade pages: retried and reported retrying, then every stream done as the truth says', async () => {
    // An order's record lists at most 100 trades: one of 101 fills is completed from /trades.
    const { sim, venue, hits } = await startSimulatorVenue(FAST)
    sim.quirks.set({ orderTradesLimit: 100 })
    const other = sim.apiKeys[1] ?? ''
    const price = insideSpread(sim)
    // Young and resting, no fill: its start scans the account's trades of the last minute.
    const resting = await limit(sim, 'sell', '9.0000', '0.01')
    // Ended before the subscription: found in the pages of ended orders.
    const canceled = await limit(sim, 'sell', '9.0000', '0.01')
    await sim.cancelOrder(canceled.id)
    // Ended with 101 fills: found there, looked up, its first fill read from /trades.
    const filled = await limit(sim, 'sell', price, '1.01')
    for (let i = 0; i < 101; i += 1) await limit(sim, 'buy', price, '0.01', { account: other })

    // Keys of the order streams ever reported retrying a 500 `service internal error`.
    const retried = new Set<string>()
    let latest: HealthReport = {}
    const watching: Subscription = venue.health.subscribe((report: HealthReport) => {
      latest = report
      for (const [key, entry] of Object.entries(report)) {
        if (
          key.startsWith('watchOrder(') &&
          entry.state === 'retrying' &&
          entry.lastErrorCode === 'VENUE_SERVER' &&
          entry.lastErrorMessage.includes('HTTP 500')
        ) {
          retried.add(key)
        }
      }
    })
    onCleanup(() => watching.unsubscribe())

    // The streams wait for a poll of the open orders newer than them: held back (a 500 the
    // shared poll retries) until the fills tail has started, so that their start meets the
    // faults below.
    sim.faults.set(ALWAYS_500, OPEN_ORDERS)
    const orders = [resting, canceled, filled]
    const streams = orders.map((order) => collect(venue.watchOrder(order.id)))
    await waitFor(() => errors500(hits, OPEN_ORDERS) >= 2, 'the open orders retried')
    await waitFor(
      () => hits.some((hit) => hit.path === `${API}/trades` && hit.action === 'answer'),
      'the fills tail started',
    )
    for (const route of LIST_ROUTES) sim.faults.set(ALWAYS_500, route)
    sim.faults.clear(OPEN_ORDERS)
    await waitFor(
      () => retried.size >= orders.length || streams.some((s) => s.error !== undefined),
      'every order stream retrying a 500',
    )
    for (const stream of streams) expect(stream.error).toBeUndefined()
    expect(errors500(hits, `${API}/trades`)).toBeGreaterThan(0)
    expect(errors500(hits, `${API}/history-orders`)).toBeGreaterThan(0)

    sim.faults.clear()
    const [restingStream, ...ended] = streams
    for (const stream of ended) await stream.done(10_000)
    // The resting order's start went through too: its stream reports ok again.
    const stateOf = (id: string) =>
      Object.entries(latest).find(([key]) => key.includes(id))?.[1].state
    await waitFor(() => stateOf(resting.id) === 'ok', 'the resting order’s stream ok')
    for (const [i, stream] of streams.entries()) {
      expect(stream.error, orders[i]?.id).toBeUndefined()
    }
    const status = (events: readonly OrderEvent[], id: string) =>
      expectTruth(events, sim, id).status
    expect(status(streams[1]?.values ?? [], canceled.id)).toBe('canceled')
    expect(status(streams[2]?.values ?? [], filled.id)).toBe('filled')
    expect(streams[2]?.values.filter((e) => e.type === 'fill')).toHaveLength(101)
    // The resting order is followed on: no event, no end.
    expect(restingStream?.values).toEqual([])
    expect(restingStream?.completed).toBe(false)
  })
})
