/**
 * `venue-rx/relay`: one poller for a fleet. `startRelay` polls the venue once and
 * publishes its streams to Redis Streams; every bot reads them with
 * `createVenue({ ..., relay: { redis } })` from `venue-rx`.
 *
 * @packageDocumentation
 */

export type { RelayRedis, RelayRedisCluster } from './redis/redis.js'
export {
  parseRelayStream,
  type RelayStream,
  type RelayStreamKind,
  relayStreamName,
} from './redis/stream-names.js'
export type {
  RelayStreamState,
  RelayStreamStatus,
} from './relay-publisher/session-publisher.js'
export { type Relay, type RelayOptions, startRelay } from './relay-publisher/start-relay.js'
