/**
 * `venue-rx/relay`: one poller for a fleet. `startRelay` polls the venue once and
 * publishes its streams to Redis Streams; every bot reads them with
 * `createVenue({ ..., relay: { redis } })` from `venue-rx`.
 *
 * @packageDocumentation
 */
export { type Relay, type RelayOptions, startRelay } from './fleet/start-relay.js'
export type { RelayRedis } from './relay/redis.js'
export {
  parseRelayStream,
  type RelayStream,
  type RelayStreamKind,
  relayStreamName,
} from './relay/stream-names.js'
