/**
 * The demo strategy's words against what the venue then reports: an order it calls
 * crossed is filled as taker, one it says rests is not filled at placement. Run on a
 * simulator on a manual clock, so that nothing but the strategy trades while it places.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { type Placement, startDemoStrategy } from '../src/cli/demo-strategy.js'
import { compareDecimal, createVenue, type OrderEvent } from '../src/index.js'
import { startSimulator } from '../src/simulator/index.js'
import { onCleanup, runCleanups } from './helpers/cleanups.js'
import { waitFor } from './helpers/wait-for.js'

afterEach(() => runCleanups())

describe('the demo strategy', () => {
  it('prices from the engine book and labels each order by what happened to it', async () => {
    const sim = await startSimulator({ seed: 1, clock: 'manual' })
    onCleanup(() => sim.close())
    sim.advance(40)
    const venue = createVenue({ baseUrl: sim.url, apiKey: sim.apiKey, pollIntervalMs: 50 })
    onCleanup(() => venue.close())
    const placed = new Map<string, Placement>()
    const events: OrderEvent[] = []
    const errors: string[] = []
    const stop = startDemoStrategy(
      sim,
      venue,
      {
        placed: (id, placement) => placed.set(id, placement),
        event: (event) => events.push(event),
        error: (text) => errors.push(text),
      },
      { poolId: 0, minAmount: '0.01', everyMs: 50, cancelAfterMs: 60_000 },
    )
    onCleanup(stop)
    await waitFor(() => placed.size >= 4, 'four orders placed')
    const orders = [...placed].slice(0, 4)
    // One of each kind, in the plan's order: buy at the bid, sell at the bid, sell at the
    // ask, buy at the ask.
    expect(orders.map(([, p]) => `${p.side} ${p.level}`)).toEqual([
      'buy bid',
      'sell bid',
      'sell ask',
      'buy ask',
    ])
    for (const [id, placement] of orders) {
      const crossing = placement.side === (placement.level === 'bid' ? 'sell' : 'buy')
      const executed = placement.record?.executed ?? '0'
      // At placement: a crossing order took some of the level, a resting one nothing.
      expect({ id, filledAtOnce: compareDecimal(executed, '0') > 0 }).toEqual({
        id,
        filledAtOnce: crossing,
      })
      if (!crossing) continue
      // What watchOrder then reports for it: its first fill as taker.
      await waitFor(
        () => events.some((e) => e.type === 'fill' && e.order.id === id),
        `a fill of ${id}`,
      )
      const first = events.find((e) => e.type === 'fill' && e.order.id === id)
      expect(first?.type === 'fill' ? first.fill.role : undefined).toBe('taker')
    }
    stop()
    expect(errors).toEqual([])
  })
})
