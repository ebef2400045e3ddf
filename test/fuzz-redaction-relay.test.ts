/**
 * Property-based: no error of `startRelay`, and no Redis error of a relay, a reader or the
 * shared budget, shows the API key or Redis's password, in any rendering of the error or
 * of a `cause` below it (test/fuzz/renderings.ts: message, stack, String, inspect, JSON,
 * `argument`).
 *
 * The key and the password (realistic ones, and short ones of `~^|` that venue-rx's own
 * words never contain) are pasted, with text around them, into every option of
 * `startRelay`: stream names, prefix, relay id, the numbers, an option's name, the Redis
 * URL's path, host, query and ioredis options; the password rides in the Redis URL (or
 * options) all along. Then Redis refusing the password, and Redis out of reach, with the
 * password in the URL, its query and in ioredis options.
 *
 * Sizes: `FUZZ_RUNS` (runs per property) and `FUZZ_SEED`; see test/fuzz/config.ts.
 */
import fc from 'fast-check'
import { Redis } from 'ioredis'
import { describe, expect, it } from 'vitest'
import { createVenue, VenueInputError, VenueRelayError } from '../src/index.js'
import { connectRedis, type RelayRedis } from '../src/redis/redis.js'
import { type RelayOptions, startRelay } from '../src/relay.js'
import { describeError } from './fuzz/calls.js'
import { check, type PropertySize, timeoutFor } from './fuzz/config.js'
import { decorate, decoration, realisticKey, shortKey } from './fuzz/keys.js'
import { leaksIn } from './fuzz/renderings.js'
import { freePort } from './helpers/redis-server.js'
import { redisForFile } from './helpers/relay-fixture.js'

const redis = redisForFile()

const SIZE = {
  option: { runs: 60, perRunMs: 20 },
  connect: { runs: 6, perRunMs: 300 },
} as const satisfies Record<string, PropertySize>

const SECRETS = [
  { name: 'realistic secrets', secret: realisticKey },
  { name: 'short secrets of ~^|', secret: shortKey },
] as const

/** `password` as it goes in a URL. */
const inUrl = (password: string) => encodeURIComponent(password)

/**
 * Where a text (the key or the password, decorated) goes in `startRelay`'s options, given
 * a Redis URL and ioredis options that hold the password.
 */
const PLACEMENTS: readonly ((
  text: string,
  url: string,
  options: { host: string; port: number; password: string },
) => Record<string, unknown>)[] = [
  (text) => ({ streams: [text] }),
  (text) => ({ streams: [`depth:${text}`] }),
  (text) => ({ streams: ['depth:1', `klines:1:${text}`] }),
  (text) => ({ streams: ['depth:1', text, 'depth:1'] }),
  (text) => ({ prefix: text }),
  (text) => ({ relayId: text }),
  (text) => ({ leaseMs: text }),
  (text) => ({ maxLen: text }),
  (text) => ({ [text]: 1 }),
  (text) => ({ relay: text }),
  (text) => ({ pollIntervalMs: text }),
  (text) => ({ maxRequestsPerSecond: text }),
  (text) => ({ baseUrl: text }),
  (text) => ({ baseUrl: `ftp://${text}` }),
  (text) => ({ apiKey: `${text}\u0000` }),
  (text, url) => ({ redis: `${url}/${inUrl(text)}` }),
  (text, url) => ({ redis: `${url}/${text}` }),
  (text) => ({ redis: `redis://${text}` }),
  (text) => ({ redis: text }),
  (text, url) => ({ redis: `${url}/x?password=${inUrl(text)}` }),
  (text, _, options) => ({ redis: { ...options, port: text } }),
  (text, _, options) => ({ redis: { ...options, db: text } }),
  (text, _, options) => ({ redis: { ...options, host: 7, [text]: text } }),
  (text, _, options) => ({ redis: { ...options, tls: { passphrase: text }, port: 0 } }),
  (text) => ({ sharedBudget: { redis: text } }),
  (text) => ({ sharedBudget: { redis: 'redis://127.0.0.1:1', [text]: 1 } }),
  (text, url) => ({ sharedBudget: { redis: url }, streams: [text] }),
  (text, url) => ({ sharedBudget: { redis: url, prefix: text } }),
]

/** The renderings of `error` holding the key or the password (either way it is written). */
function leaks(error: unknown, key: string, password: string): string[] {
  return [key, password, inUrl(password)].flatMap((secret) =>
    leaksIn(error, secret).map((where) => `${where} (${secret === key ? 'key' : 'password'})`),
  )
}

for (const { name, secret } of SECRETS) {
  describe(`startRelay never shows the API key or Redis's password (${name})`, () => {
    it(
      'pasted into every option, with the password in the Redis URL or options',
      async () => {
        await check(
          fc.asyncProperty(
            secret,
            secret,
            fc.boolean(),
            decoration,
            fc.nat({ max: PLACEMENTS.length - 1 }),
            fc.boolean(),
            async (key, password, pasteKey, decorated, at, asOptions) => {
              fc.pre(!key.includes(password) && !password.includes(key))
              const port = await freePort()
              const url = `redis://user:${inUrl(password)}@127.0.0.1:${port}`
              const ioredis = { host: '127.0.0.1', port, password }
              const text = decorate(pasteKey ? key : password, decorated)
              const placement = PLACEMENTS[at] ?? (() => ({}))
              const options = {
                baseUrl: 'http://127.0.0.1:1',
                apiKey: key,
                redis: asOptions ? ioredis : url,
                streams: ['depth:1', 'my-trades'],
                ...placement(text, url, ioredis),
              }
              const outcome = await startRelay(options as RelayOptions).then(
                async (relay) => {
                  await relay.close()
                  return undefined
                },
                (error: unknown) => error,
              )
              if (outcome === undefined) return
              expect(outcome, describeError(outcome)).toBeInstanceOf(VenueInputError)
              expect(leaks(outcome, key, password), describeError(outcome)).toEqual([])
            },
          ),
          SIZE.option,
        )
      },
      timeoutFor(SIZE.option),
    )
  })

  describe(`Redis errors never show its password (${name})`, () => {
    it(
      'Redis out of reach or refusing the password: connect errors of the relay, the reader and the budget',
      async () => {
        const server = redis()
        const admin = new Redis(server.url)
        await admin.config('SET', 'requirepass', 'the-right-one')
        try {
          await check(
            fc.asyncProperty(
              secret,
              fc.boolean(),
              fc.nat({ max: 2 }),
              async (password, up, how) => {
                const port = up ? server.port : await freePort()
                const where: RelayRedis = [
                  `redis://:${inUrl(password)}@127.0.0.1:${port}`,
                  `redis://127.0.0.1:${port}/0?password=${inUrl(password)}`,
                  { host: '127.0.0.1', port, password, sentinelPassword: password },
                ][how] as RelayRedis
                const error = await connectRedis(where, 'fuzz').then(
                  (client) => {
                    client.disconnect()
                    return new Error('connected with a wrong password')
                  },
                  (rejected: unknown) => rejected,
                )
                expect(error, describeError(error)).toBeInstanceOf(VenueRelayError)
                expect(leaks(error, password, password), describeError(error)).toEqual([])
                // The same through a venue's shared budget: a request fails with it.
                const venue = createVenue({
                  baseUrl: 'http://127.0.0.1:1',
                  sharedBudget: { redis: where },
                })
                const failed = await venue.rest.ping().then(
                  () => undefined,
                  (rejected: unknown) => rejected,
                )
                await venue.close()
                expect(failed, describeError(failed)).toBeInstanceOf(VenueRelayError)
                expect(leaks(failed, password, password), describeError(failed)).toEqual([])
              },
            ),
            SIZE.connect,
          )
        } finally {
          await admin.config('SET', 'requirepass', '')
          admin.disconnect()
        }
      },
      timeoutFor(SIZE.connect),
    )
  })
}
