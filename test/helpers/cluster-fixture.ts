/**
 * What the Redis Cluster tests share: one cluster of 3 masters for the file (started
 * before its first test, closed after its last), a fresh key prefix per test, the
 * simulator on a manual clock at an address whose account, pool 0 and other public
 * streams hash to three different masters, relays and venues on the cluster.
 */
import { afterAll, afterEach, beforeAll } from 'vitest'
import { createVenue, type Venue, type VenueOptions } from '../../src/index.js'
import { type RelayScope, relayKeys } from '../../src/redis/redis.js'
import { type Relay, type RelayOptions, startRelay } from '../../src/relay.js'
import { type Simulator, startSimulator } from '../../src/simulator/index.js'
import { onCleanup, runCleanups } from './cleanups.js'
import { type RedisCluster, startRedisCluster } from './redis-cluster.js'
import { FAST } from './simulator-venue.js'

/** A stream of each slot group a venue's streams fall in. */
const ONE_OF_EACH_TAG = [{ kind: 'my-trades' }, { kind: 'depth', poolId: 0 }, { kind: 'pools' }]

export interface ClusterFixture {
  readonly cluster: () => RedisCluster
  readonly nextPrefix: () => string
  /**
   * The simulator (seed 3, manual clock) after `ticks` ticks, at an address whose account
   * streams, pool 0's streams and the other public streams are served by three masters.
   */
  simulator(ticks?: number): Promise<Simulator>
  /** The master serving `stream`'s keys under `prefix` for `sim`'s venue. */
  ownerOf(sim: Simulator, prefix: string, stream: Parameters<typeof relayKeys>[1]): Promise<number>
  relayOn(
    sim: Simulator,
    prefix: string,
    streams: readonly string[],
    extra?: Partial<RelayOptions>,
  ): Promise<Relay>
  /** A venue reading through the relay on the cluster. */
  bot(sim: Simulator, prefix: string, extra?: Partial<VenueOptions>): Venue
  /** A venue polling the simulator. */
  direct(sim: Simulator): Venue
}

export function clusterFixture(tag: string): ClusterFixture {
  let cluster: RedisCluster | undefined
  beforeAll(async () => {
    cluster = await startRedisCluster()
  }, 30_000)
  afterAll(async () => {
    await cluster?.close()
  })
  afterEach(runCleanups)
  const the = () => {
    if (cluster === undefined) throw new Error('the cluster is not started')
    return cluster
  }
  let prefixes = 0
  const venue = (options: VenueOptions) => {
    const created = createVenue(options)
    onCleanup(() => created.close())
    return created
  }
  const scopeOf = (sim: Simulator, prefix: string): RelayScope => ({
    prefix,
    baseUrl: sim.url,
    marketData: 'v2',
    apiKey: sim.apiKey,
  })
  const ownerOf: ClusterFixture['ownerOf'] = (sim, prefix, stream) =>
    the().ownerOf(relayKeys(scopeOf(sim, prefix), stream).stream)
  return {
    cluster: the,
    nextPrefix: () => `${tag}${++prefixes}`,
    ownerOf,
    simulator: async (ticks = 0) => {
      for (let attempt = 1; ; attempt += 1) {
        const sim = await startSimulator({ seed: 3, clock: 'manual' })
        const owners = await Promise.all(
          ONE_OF_EACH_TAG.map((stream) => ownerOf(sim, 'any', stream as never)),
        )
        if (new Set(owners).size === 3 || attempt >= 100) {
          sim.advance(ticks)
          onCleanup(() => sim.close())
          return sim
        }
        await sim.close()
      }
    },
    relayOn: async (sim, prefix, streams, extra = {}) => {
      const relay = await startRelay({
        baseUrl: sim.url,
        apiKey: sim.apiKey,
        ...FAST,
        redis: the().redis,
        prefix,
        streams,
        leaseMs: 500,
        ...extra,
      })
      onCleanup(() => relay.close())
      return relay
    },
    bot: (sim, prefix, extra = {}) =>
      venue({
        baseUrl: sim.url,
        apiKey: sim.apiKey,
        ...FAST,
        relay: { redis: the().redis, prefix },
        ...extra,
      }),
    direct: (sim) => venue({ baseUrl: sim.url, apiKey: sim.apiKey, ...FAST }),
  }
}

/** A relay stream's state, whatever `relay.status()` holds for it (a state or `{ state }`). */
export function stateOf(status: unknown): string | undefined {
  if (typeof status === 'string') return status
  return (status as { state?: string } | undefined)?.state
}
