/**
 * `watchOrder` on orders placed on the simulator, with transport faults on: fills in
 * pieces, at once, a cancel after a partial fill, a rejection, an order that ended before
 * the subscription and one the venue does not show at first. Every stream is checked
 * against the simulator's ground truth: the fills are the order's trades, in order, each
 * once, adding up to its executed amount, and `done` says how it ended.
 */
import { firstValueFrom, lastValueFrom, toArray } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import type { Venue } from '../src/index.js'
import { compareDecimal, memoryCheckpoint } from '../src/index.js'
import type { AccountView, Simulator } from '../src/simulator/index.js'
import { runCleanups } from './helpers/cleanups.js'
import { collect } from './helpers/observe.js'
import { expectTruth, insideSpread, limit, truthOf } from './helpers/order-truth.js'
import { newestCursor } from './helpers/positions.js'
import { count, FAST, type Hit, startSimulatorVenue } from './helpers/simulator-venue.js'
import { waitFor } from './helpers/wait-for.js'

afterEach(() => runCleanups())

/** Faults on every route: 5xx, resets, truncated bodies, 429s (Retry-After 0). */
const FAULTS = {
  errorRate: 0.15,
  resetRate: 0.05,
  truncateRate: 0.05,
  rateLimitRate: 0.05,
  retryAfterSeconds: 0,
}

interface Setup {
  readonly hits: Hit[]
  readonly sim: Simulator
  readonly venue: Venue
  readonly account: AccountView
  /** The other keyed account, which trades against ours. */
  readonly other: string
}

async function setup(): Promise<Setup> {
  const { sim, venue, hits } = await startSimulatorVenue(FAST)
  sim.faults.set(FAULTS)
  const account = sim.market.account(sim.apiKey)
  if (account === undefined) throw new Error('no demo account')
  return { hits, sim, venue, account, other: sim.apiKeys[1] ?? '' }
}

describe('watchOrder on orders placed on the faulty simulator', () => {
  it('a resting order filled in three pieces: three fills as they happen, then done filled', async () => {
    const { sim, venue, other } = await setup()
    const price = insideSpread(sim)
    const placed = await limit(sim, 'sell', price, '0.03')
    const events = collect(venue.watchOrder(placed.id))
    for (let piece = 1; piece <= 3; piece += 1) {
      await limit(sim, 'buy', price, '0.01', { account: other })
      await waitFor(
        () => events.values.filter((e) => e.type === 'fill').length >= piece,
        `fill ${piece}`,
      )
    }
    await waitFor(() => events.values.at(-1)?.type === 'done', 'done')
    const done = expectTruth(events.values, sim, placed.id)
    expect(done.status).toBe('filled')
    expect(done.order.remaining).toBe('0')
    expect(compareDecimal(done.order.avgPrice, price)).toBe(0)
    expect(events.values.filter((e) => e.type === 'fill')).toHaveLength(3)
  })

  it('an order that filled at once, before the subscription: its fills replayed, then done', async () => {
    const { sim, venue } = await setup()
    const ask = sim.truth.engineBook(0).asks[0]?.[0] ?? '0'
    const placed = await limit(sim, 'buy', ask, '0.01')
    const events = await lastValueFrom(venue.watchOrder(placed.id).pipe(toArray()))
    expect(expectTruth(events, sim, placed.id).status).toBe('filled')
    expect(events.filter((e) => e.type === 'fill').length).toBeGreaterThan(0)
  })

  it('canceled after a partial fill: done canceled with filled > 0 (the venue shows status 1 in history)', async () => {
    const { sim, venue, other } = await setup()
    const price = insideSpread(sim)
    const placed = await limit(sim, 'sell', price, '0.03')
    const events = collect(venue.watchOrder(placed.id))
    await limit(sim, 'buy', price, '0.01', { account: other })
    await waitFor(() => events.values.some((e) => e.type === 'fill'), 'the partial fill')
    await sim.cancelOrder(placed.id)
    await waitFor(() => events.values.at(-1)?.type === 'done', 'done').catch((error: unknown) => {
      throw new Error(
        `${String(error)}; events: ${events.values.map((e) => e.type).join(', ')}; error: ${String(events.error)}`,
      )
    })
    const done = expectTruth(events.values, sim, placed.id)
    expect(done.status).toBe('canceled')
    expect(compareDecimal(done.order.filled, '0')).toBeGreaterThan(0)
    expect(truthOf(sim, placed.id)).toMatchObject({ status: 1, history: true })
  })

  it('a rejected order (more than the balance covers): done rejected, no fill', async () => {
    const { sim, venue } = await setup()
    const price = insideSpread(sim)
    const placed = await limit(sim, 'buy', price, '100000000')
    const events = await lastValueFrom(venue.watchOrder(placed.id).pipe(toArray()))
    expect(expectTruth(events, sim, placed.id).status).toBe('rejected')
    expect(events).toHaveLength(1)
  })

  it('an order the venue does not show at first: asked again until it shows, then followed to its end', async () => {
    const { hits, sim, venue, other } = await setup()
    const price = insideSpread(sim)
    const placed = await limit(sim, 'sell', price, '0.01', { hiddenForTicks: 3 })
    const events = collect(venue.watchOrder(placed.id))
    // The venue answers its 500 for three ticks; the stream keeps asking meanwhile.
    const path = `/api/v1/orders/${placed.id}`
    for (let tick = 0; tick < 3; tick += 1) {
      const asked = count(hits, path)
      await waitFor(() => count(hits, path) >= asked + 2, 'two more look-ups')
      expect(events.values).toEqual([])
      sim.advance(1)
    }
    await limit(sim, 'buy', price, '0.01', { account: other })
    await waitFor(() => events.values.at(-1)?.type === 'done', 'done')
    expect(expectTruth(events.values, sim, placed.id).status).toBe('filled')
    expect(events.error).toBeUndefined()
  })
})

describe('watchFills on a self-trade', () => {
  it('gives two fills of one trade (maker first), and a checkpoint stopped between them resumes with the second', async () => {
    const { sim, venue } = await setup()
    const price = insideSpread(sim)
    const resting = await limit(sim, 'sell', price, '0.01')
    const crossing = await limit(sim, 'buy', price, '0.01')
    const account = sim.market.account(sim.apiKey)
    const trade = account?.trades().at(-1)
    expect([trade?.maker, trade?.taker]).toEqual([
      account?.info().chain_account,
      account?.info().chain_account,
    ])
    const before = String((trade?.global_seq ?? 1) - 1)
    // A consumer that stops after the first fill of the self-trade, with a checkpoint.
    const checkpoint = memoryCheckpoint<string>()
    const first = await firstValueFrom(venue.watchFills({ cursor: before, checkpoint }))
    expect([first.role, first.side, first.orderId]).toEqual([
      'maker',
      'sell',
      resting.id.split('-')[1],
    ])
    expect(newestCursor(await checkpoint.load())).toBe(`${trade?.global_seq}/1`)
    // The restart delivers the taker fill of the same trade, then nothing repeated.
    const second = await firstValueFrom(venue.watchFills({ checkpoint }))
    expect([second.globalSeq, second.role, second.side, second.orderId]).toEqual([
      String(trade?.global_seq),
      'taker',
      'buy',
      crossing.id.split('-')[1],
    ])
    expect(newestCursor(await checkpoint.load())).toBe(String(trade?.global_seq))
    expect([first.fee, second.fee]).toEqual([trade?.maker_fee, trade?.taker_fee])
  })
})
