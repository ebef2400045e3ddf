/**
 * What the relay tests share: one real redis-server for the file (started before its
 * first test, closed after its last), a fresh key prefix per test, the simulator on a
 * manual clock, relays with short leases, and venues reading through them or polling.
 * Everything is closed after the current test.
 */
import { take } from 'rxjs'
import { Agent, type Dispatcher } from 'undici'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { createVenue, type Venue, type VenueOptions } from '../../src/index.js'
import { type Relay, type RelayOptions, startRelay } from '../../src/relay.js'
import { type Simulator, startSimulator } from '../../src/simulator/index.js'
import { onCleanup, runCleanups } from './cleanups.js'
import { type RedisServer, startRedisServer } from './redis-server.js'
import { FAST } from './simulator-venue.js'

/** Short polls, lingers and backoffs (the simulator tests' own). */
export const QUICK: Partial<VenueOptions> = FAST

export interface RelayFixture {
  /** The file's redis-server (started by its first test's hooks). */
  readonly redis: () => RedisServer
  /** A key prefix no other test of the file uses. */
  readonly nextPrefix: () => string
  /** The simulator (seed 3, manual clock) after `ticks` ticks. */
  simulator(ticks?: number): Promise<Simulator>
  /** A relay publishing `streams` under `prefix`, lease 500 ms unless `extra` says. */
  relayOn(
    sim: Simulator,
    prefix: string,
    streams: string[],
    extra?: Partial<RelayOptions>,
  ): Promise<Relay>
  /** A venue reading its streams through the relay under `prefix`. */
  consumer(sim: Simulator, prefix: string): Venue
  /**
   * A consumer whose own requests to the venue (path without query) land in `requests`:
   * an undici dispatcher of its own logs them (the relay's go through the relay's pool).
   */
  countedConsumer(
    sim: Simulator,
    prefix: string,
    extra?: Partial<VenueOptions>,
  ): { venue: Venue; requests: string[] }
  /** A venue polling the simulator itself. */
  direct(sim: Simulator): Venue
}

/**
 * Registers the file's hooks: one redis-server for the file, and the cleanups after each
 * test. Returns the server (started before the file's first test).
 */
export function redisForFile(): () => RedisServer {
  let redis: RedisServer | undefined
  beforeAll(async () => {
    redis = await startRedisServer()
  })
  afterAll(async () => {
    await redis?.close()
  })
  afterEach(runCleanups)
  return () => {
    if (redis === undefined) throw new Error('the redis-server is not started')
    return redis
  }
}

/** Registers the file's hooks; `tag` starts each test's key prefix. */
export function relayFixture(tag: string): RelayFixture {
  const server = redisForFile()
  let prefixes = 0
  const venue = (options: VenueOptions) => {
    const created = createVenue(options)
    onCleanup(() => created.close())
    return created
  }
  return {
    redis: server,
    nextPrefix: () => `${tag}${++prefixes}`,
    simulator: async (ticks = 0) => {
      const sim = await startSimulator({ seed: 3, clock: 'manual' })
      sim.advance(ticks)
      onCleanup(() => sim.close())
      return sim
    },
    relayOn: async (sim, prefix, streams, extra = {}) => {
      const relay = await startRelay({
        baseUrl: sim.url,
        apiKey: sim.apiKey,
        ...QUICK,
        redis: server().url,
        prefix,
        streams,
        leaseMs: 500,
        ...extra,
      })
      onCleanup(() => relay.close())
      return relay
    },
    consumer: (sim, prefix) =>
      venue({
        baseUrl: sim.url,
        apiKey: sim.apiKey,
        ...QUICK,
        relay: { redis: server().url, prefix },
      }),
    countedConsumer: (sim, prefix, extra = {}) => {
      const requests: string[] = []
      const agent = new Agent()
      const counting = agent.compose(
        (dispatch: Dispatcher['dispatch']) =>
          (options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) => {
            requests.push(String(options.path).split('?')[0] ?? '')
            return dispatch(options, handler)
          },
      )
      onCleanup(() => agent.close())
      const counted = venue({
        baseUrl: sim.url,
        apiKey: sim.apiKey,
        ...QUICK,
        ...extra,
        dispatcher: counting,
        relay: { redis: server().url, prefix },
      })
      return { venue: counted, requests }
    },
    direct: (sim) => venue({ baseUrl: sim.url, apiKey: sim.apiKey, ...QUICK }),
  }
}

/** The current health state of `key` in `venue`'s report. */
export function healthOf(venue: Venue, key: string): string | undefined {
  let state: string | undefined
  venue.health.pipe(take(1)).subscribe((report) => {
    state = report[key]?.state
  })
  return state
}
