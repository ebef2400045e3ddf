/**
 * One clock: every stream kind of a venue, polled and relayed, runs on the venue's
 * `scheduler`, and the library starts no timer of its own. The simulator and a real
 * redis-server answer in real time; the venue, the relay that publishes to Redis and the
 * venue that reads from it all run on one `VirtualTimeScheduler`, moved on by the test.
 * Every `setTimeout` / `setInterval` made meanwhile is caught with the code that made it:
 * none may come from the library (bar the transport's request deadline, which bounds a
 * real socket and so runs in real time) or from an rxjs scheduler on real time.
 */
import { setImmediate as nextTurn } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { type Observable, VirtualTimeScheduler } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import { createVenue, type Venue, type VenueOptions } from '../src/index.js'
import { startRelay } from '../src/relay.js'
import { startSimulator } from '../src/simulator/index.js'
import { onCleanup } from './helpers/cleanups.js'
import { redisForFile } from './helpers/relay-fixture.js'

const server = redisForFile()

const SRC = fileURLToPath(new URL('../src/', import.meta.url))
/** The one timer the library starts on real time: a request's deadline (a real socket). */
const DEADLINE = `${SRC}transport/undici-transport.ts`

interface Made {
  readonly by: string
  readonly stack: string
}

/**
 * Catches the timers made until the returned stop is called: `library` the ones whose
 * nearest caller is in src/ (the simulator aside: it is the venue) or in rxjs (an rxjs
 * scheduler on real time), `deadlines` the transport's request deadlines.
 */
function catchTimers() {
  const library: Made[] = []
  const deadlines: Made[] = []
  const original = { setTimeout: globalThis.setTimeout, setInterval: globalThis.setInterval }
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 50
  const spy = <F extends (...args: never[]) => unknown>(name: string, real: F): F =>
    function (this: unknown, ...args: Parameters<F>) {
      const stack = new Error().stack ?? ''
      // The nearest frame that is not this spy nor Node's own.
      const caller =
        stack
          .split('\n')
          .slice(2)
          .find((line) => !line.includes('node:')) ?? ''
      const made = { by: `${name} ${caller.trim()}`, stack }
      if (caller.includes(DEADLINE)) deadlines.push(made)
      else if (
        (caller.includes(SRC) && !caller.includes(`${SRC}simulator/`)) ||
        caller.includes('/node_modules/rxjs/')
      ) {
        library.push(made)
      }
      return real.apply(this, args)
    } as F
  globalThis.setTimeout = spy('setTimeout', original.setTimeout) as typeof setTimeout
  globalThis.setInterval = spy('setInterval', original.setInterval) as typeof setInterval
  return {
    library,
    deadlines,
    stop: () => {
      globalThis.setTimeout = original.setTimeout
      globalThis.setInterval = original.setInterval
      Error.stackTraceLimit = limit
    },
  }
}

let caught: ReturnType<typeof catchTimers> | undefined
afterEach(() => {
  caught?.stop()
  caught = undefined
})

/** Counts the values of `stream` for the rest of the test. */
function count<T>(stream: Observable<T>): { n: number } {
  const seen = { n: 0 }
  const subscription = stream.subscribe({
    next: () => {
      seen.n += 1
    },
    error: (error: unknown) => {
      throw error
    },
  })
  onCleanup(() => subscription.unsubscribe())
  return seen
}

describe('one clock', () => {
  it('every stream kind, polled and relayed, runs on the venue scheduler: no timer of the library on real time', async () => {
    const sim = await startSimulator({ seed: 5, clock: 'manual' })
    onCleanup(() => sim.close())
    sim.advance(200)
    const scheduler = new VirtualTimeScheduler(undefined, 0)
    const prefix = 'one-clock'
    const options: VenueOptions = {
      baseUrl: sim.url,
      apiKey: sim.apiKey,
      scheduler,
      pollIntervalMs: 1_000,
      settleMs: 0,
      lingerMs: 1_000,
    }
    caught = catchTimers()
    const direct: Venue = createVenue(options)
    onCleanup(() => direct.close())
    const relay = await startRelay({
      ...options,
      redis: server().url,
      prefix,
      leaseMs: 5_000,
      streams: [
        'depth:0',
        'trades:0',
        'klines:0:1m',
        'my-trades',
        'transfers',
        'fills',
        'balances',
        'open-orders',
        'pools',
      ],
    })
    onCleanup(() => relay.close())
    const relayed: Venue = createVenue({ ...options, relay: { redis: server().url, prefix } })
    onCleanup(() => relayed.close())
    const placed = await sim.placeOrder({ poolId: 0, side: 'buy', type: 'market', amount: '5' })
    const resting = await sim.placeOrder({
      poolId: 0,
      side: 'buy',
      type: 'limit',
      price: '0.0001',
      amount: '5',
    })
    expect(resting.id).not.toBe(placed.id)

    const streams = (venue: Venue) => ({
      pools: count(venue.watchPools()),
      depth: count(venue.watchDepth(0)),
      book: count(venue.watchOrderBook(0)),
      trades: count(venue.watchTrades(0)),
      klines: count(venue.watchKlines(0, '1m')),
      myTrades: count(venue.watchMyTrades({ cursor: '0' })),
      transfers: count(venue.watchTransfers({ cursor: '0' })),
      fills: count(venue.watchFills({ cursor: '0' })),
      balances: count(venue.watchBalances()),
      openOrders: count(venue.watchOpenOrders()),
    })
    const counts = {
      ...Object.fromEntries(Object.entries(streams(direct)).map(([k, v]) => [`direct ${k}`, v])),
      ...Object.fromEntries(Object.entries(streams(relayed)).map(([k, v]) => [`relayed ${k}`, v])),
      pool: count(direct.watchPool(0)),
      tokens: count(direct.watchTokens()),
      systemInfo: count(direct.watchSystemInfo()),
      account: count(direct.watchAccount()),
      order: count(direct.watchOrder(placed.id)),
    }
    const silent = () =>
      Object.entries(counts)
        .filter(([, seen]) => seen.n === 0)
        .map(([name]) => name)

    // Virtual time moves on 50 ms at a time, each step after the real answers of the
    // last one came in (a few turns of the event loop), until every stream has spoken and
    // ten seconds of it have passed: polls, relay reads and lease renewals on the clock.
    const deadline = Date.now() + 20_000
    while (silent().length > 0 || scheduler.now() < 10_000) {
      if (Date.now() > deadline) throw new Error(`no value from ${silent().join(', ')}`)
      for (let i = 0; i < 3; i += 1) await nextTurn()
      scheduler.maxFrames = scheduler.frame + 50
      scheduler.flush()
      scheduler.frame = scheduler.maxFrames
    }
    caught.stop()
    expect(caught.library.map((made) => made.by)).toEqual([])
    // The catch sees the library's timers: the request deadlines are there.
    expect(caught.deadlines.length).toBeGreaterThan(10)
  })
})
