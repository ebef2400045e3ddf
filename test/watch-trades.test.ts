import type { Subscription } from 'rxjs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { HealthReport, PublicTradeEvent, Venue, VenueOptions } from '../src/index.js'
import { createVenue, VenueInputError } from '../src/index.js'
import { publicTrade, T } from './helpers/fixtures.js'
import { ok, type RecordingServer, startRecordingServer } from './helpers/recording-server.js'
import { WAIT_MS } from './helpers/wait-for.js'

/** A wire trade `seconds` after T; `price` tells trades of one second apart. */
function wireTrade(seconds: number, price = '1.0455', side: 'buy' | 'sell' = 'buy') {
  return { ...publicTrade, traded_at: T + seconds, price, side }
}

type WireTrade = ReturnType<typeof wireTrade>

/** Epoch ms of a wire trade, as the parsed trade carries it. */
const ms = (trade: WireTrade) => trade.traded_at * 1000

/** What the events say, in a form easy to compare: `gap since..until` or `t@price`. */
function describeEvent(event: PublicTradeEvent): string {
  return event.type === 'gap'
    ? `gap ${event.poolId} ${event.since}..${event.until}`
    : `${event.trade.traded_at}@${event.trade.price}/${event.trade.side}`
}

const described = (trade: WireTrade) => `${ms(trade)}@${trade.price}/${trade.side}`

/** Oldest first in, newest first out (as the venue serves the window). */
const newestFirst = (oldestFirst: readonly WireTrade[]) => [...oldestFirst].reverse()

const V2_PATH = '/api/v1/latest-trades/v2'
const V1_PATH = '/api/v1/latest-trades'

describe('venue.watchTrades', () => {
  let server: RecordingServer | undefined
  let venue: Venue | undefined
  const subscriptions: Subscription[] = []
  /** The window the server serves now, oldest first. */
  let window: WireTrade[] = []

  afterEach(async () => {
    for (const subscription of subscriptions.splice(0)) subscription.unsubscribe()
    await venue?.close()
    await server?.close()
    venue = undefined
    server = undefined
    window = []
  })

  async function start(options: Partial<VenueOptions> = {}): Promise<Venue> {
    server = await startRecordingServer((request) =>
      request.pathname === V2_PATH || request.pathname === V1_PATH
        ? ok(newestFirst(window))
        : ok(null),
    )
    venue = createVenue({ baseUrl: server.url, pollIntervalMs: 20, lingerMs: 1, ...options })
    return venue
  }

  /** Requests the server received for `path`. */
  function hits(path: string): number {
    return server?.requests.filter((r) => r.pathname === path).length ?? 0
  }

  /** Subscribes and records the events, described. */
  function record(
    v: Venue,
    poolId: number,
    options?: Parameters<Venue['watchTrades']>[1],
  ): string[] {
    const events: string[] = []
    subscriptions.push(
      v.watchTrades(poolId, options).subscribe((e) => events.push(describeEvent(e))),
    )
    return events
  }

  /** Waits until `path` was asked `n` more times than now: every answer before the last was processed. */
  async function pollsLater(path: string, n: number): Promise<void> {
    const target = hits(path) + n
    await vi.waitFor(() => expect(hits(path)).toBeGreaterThanOrEqual(target), { timeout: WAIT_MS })
  }

  it('emits the current window oldest first on the first poll', async () => {
    window = [wireTrade(1, '1.01'), wireTrade(2, '1.02'), wireTrade(3, '1.03', 'sell')]
    const v = await start()
    const events = record(v, 1)
    await vi.waitFor(() => expect(events).toHaveLength(3), { timeout: WAIT_MS })
    expect(events).toEqual(window.map(described))
    expect(server?.last().query).toEqual({ pool_id: '1', limit: '100' })
  })

  it('emits only the new trades of later polls, oldest first, two identical fills in one second as two events', async () => {
    const first = [wireTrade(1, '1.01'), wireTrade(2, '1.02'), wireTrade(3, '1.03')]
    window = first
    const v = await start()
    const events = record(v, 1)
    await vi.waitFor(() => expect(events).toHaveLength(3), { timeout: WAIT_MS })

    const fill = wireTrade(4, '1.04', 'sell')
    const later = [wireTrade(4, '1.035'), { ...fill }, { ...fill }, wireTrade(5, '1.05')]
    window = [...first, ...later]
    await vi.waitFor(() => expect(events).toHaveLength(7), { timeout: WAIT_MS })
    // Two more polls of the same window add nothing.
    await pollsLater(V2_PATH, 2)
    expect(events).toEqual([...first, ...later].map(described))

    // The window slides: the oldest trades leave it, one more arrives.
    const next = wireTrade(6, '1.06')
    window = [...first.slice(2), ...later, next]
    await vi.waitFor(() => expect(events).toHaveLength(8), { timeout: WAIT_MS })
    await pollsLater(V2_PATH, 2)
    expect(events.slice(7)).toEqual([described(next)])
  })

  it('emits a gap event (since/until) before the trades of a window that does not overlap, and health shows gap until the next poll', async () => {
    const older = Array.from({ length: 100 }, (_, i) => wireTrade(i, `1.${1000 + i}`))
    window = older
    const v = await start()
    const key = 'watchTrades(1,{"source":"v2"})'
    const states: string[] = []
    let latest: HealthReport = {}
    subscriptions.push(
      v.health.subscribe((report) => {
        latest = report
        const state = report[key]?.state
        if (state !== undefined && state !== states.at(-1)) states.push(state)
      }),
    )
    let healthAtGap: unknown
    const events: string[] = []
    subscriptions.push(
      v.watchTrades(1).subscribe((event) => {
        if (event.type === 'gap') healthAtGap = latest[key]
        events.push(describeEvent(event))
      }),
    )
    await vi.waitFor(() => expect(events).toHaveLength(100), { timeout: WAIT_MS })

    // 150 trades happened between two polls: the window of 100 no longer overlaps.
    const newer = Array.from({ length: 150 }, (_, i) => wireTrade(200 + i, `2.${1000 + i}`))
    window = newer.slice(50)
    await vi.waitFor(() => expect(events).toHaveLength(201), { timeout: WAIT_MS })
    const since = ms(older[99] as WireTrade)
    const until = ms(newer[50] as WireTrade)
    expect(events[100]).toBe(`gap 1 ${since}..${until}`)
    expect(events.slice(101)).toEqual(newer.slice(50).map(described))
    expect(healthAtGap).toEqual({ state: 'gap', since, until })

    // The next poll (same window, nothing new) brings the stream back to ok.
    await vi.waitFor(() => expect(latest[key]).toEqual({ state: 'ok' }), { timeout: WAIT_MS })
    expect(states).toEqual(['ok', 'gap', 'ok'])
    expect(events).toHaveLength(201)
  })

  it("reads /api/v1/latest-trades with source: 'v1'", async () => {
    window = [wireTrade(1), wireTrade(2, '1.02')]
    const v = await start()
    const events = record(v, 7, { source: 'v1' })
    await vi.waitFor(() => expect(events).toHaveLength(2), { timeout: WAIT_MS })
    expect(hits(V1_PATH)).toBeGreaterThan(0)
    expect(hits(V2_PATH)).toBe(0)
    expect(server?.last().query).toEqual({ pool_id: '7', limit: '100' })
  })

  it("reads /api/v1/latest-trades by default on a venue with marketData: 'v1'", async () => {
    window = [wireTrade(1)]
    const v = await start({ marketData: 'v1' })
    const events = record(v, 1)
    await vi.waitFor(() => expect(events).toHaveLength(1), { timeout: WAIT_MS })
    expect(hits(V2_PATH)).toBe(0)
  })

  it.each([
    ['a negative pool id', -1],
    ['a fractional pool id', 1.5],
    ['a string pool id', '1'],
    ['NaN', Number.NaN],
  ])('throws VenueInputError synchronously for %s, before any request', async (_, poolId) => {
    const v = await start()
    expect(() => v.watchTrades(poolId as number)).toThrow(VenueInputError)
    expect(server?.requests).toHaveLength(0)
  })

  it('throws VenueInputError synchronously for an unknown source', async () => {
    const v = await start()
    expect(() => v.watchTrades(1, { source: 'v3' as 'v2' })).toThrow(VenueInputError)
  })

  it('shares one poller between two subscribers, and replays the latest window to a late one', async () => {
    window = [wireTrade(1), wireTrade(2, '1.02'), wireTrade(3, '1.03')]
    // A long fixed interval: every request seen here is a first poll.
    const v = await start({ pollIntervalMs: 60_000, pacing: 'interval' })
    const a = record(v, 1)
    const b = record(v, 1)
    await vi.waitFor(
      () => {
        expect(a).toHaveLength(3)
        expect(b).toHaveLength(3)
      },
      { timeout: WAIT_MS },
    )
    expect(hits(V2_PATH)).toBe(1)

    const late = record(v, 1)
    expect(late).toEqual(a)
    expect(hits(V2_PATH)).toBe(1)
  })
})
