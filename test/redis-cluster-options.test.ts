/**
 * A Redis Cluster as venue-rx takes it (`{ cluster: [URL, ...], ...ioredis cluster
 * options }`, or URLs separated by commas in `--redis` / `VENUE_RX_REDIS`): checked with
 * a `VenueInputError` naming the option, never quoting a password; described by its nodes'
 * `host:port`; its passwords known as secrets; startRelay, createVenue's `relay` and
 * `sharedBudget` refuse a wrong one at the call. The keys' hash tags put an account's
 * streams in one slot, each pool's in one, and the other public streams in one.
 */
import { describe, expect, it } from 'vitest'
import { UsageError } from '../src/cli/args.js'
import { relayCommand } from '../src/cli/relay-command.js'
import { createVenue, VenueInputError } from '../src/index.js'
import {
  checkRedis,
  describeRedis,
  hashTag,
  type RelayScope,
  redisFromText,
  redisSecrets,
  relayError,
  relayKeys,
} from '../src/redis/redis.js'
import { parseRelayStream } from '../src/redis/stream-names.js'
import { startRelay } from '../src/relay.js'
import { cliEnv, testIo } from './helpers/cli.js'

const A = 'redis://10.0.0.5:6379'
const B = 'redis://10.0.0.6:6380'

/** The error `run` throws (or undefined). */
function thrown(run: () => unknown): Error | undefined {
  try {
    run()
  } catch (error) {
    return error as Error
  }
  return undefined
}

describe('checkRedis: a cluster', () => {
  it('takes node URLs and ioredis cluster options, as given', () => {
    const cluster = {
      cluster: [A, B],
      redisOptions: { password: 'pw', tls: {} },
      scaleReads: 'master' as const,
      slotsRefreshInterval: 10_000,
    }
    expect(checkRedis('redis', cluster)).toBe(cluster)
    expect(checkRedis('redis', { cluster: ['rediss://u:pw@h:1/0', 'rediss://u:pw@g:2'] })).toEqual({
      cluster: ['rediss://u:pw@h:1/0', 'rediss://u:pw@g:2'],
    })
  })

  it.each([
    [{ cluster: [] }, 'redis.cluster', /must list 1 to 1000 node URLs/],
    [{ cluster: 'redis://h:1' }, 'redis.cluster', /must list 1 to 1000 node URLs/],
    [{ cluster: [A, 7] }, 'redis.cluster[1]', /must be a redis:\/\/ URL/],
    [
      { cluster: [A, 'http://h:1'] },
      'redis.cluster[1]',
      /redis:\/\/ or rediss:\/\/ URL with a host/,
    ],
    [{ cluster: ['redis://h:1/3'] }, 'redis.cluster[0]', /must not name a database/],
    [{ cluster: [A, 'redis://:other-pw@h:1'] }, 'redis.cluster', /same scheme, user and password/],
    [{ cluster: [A, 'rediss://10.0.0.6:6380'] }, 'redis.cluster', /same scheme, user and password/],
    [{ cluster: [A], host: 'h' }, 'redis.host', /not taken with redis.cluster/],
    [{ cluster: [A], db: 1 }, 'redis.db', /not taken with redis.cluster/],
    [{ cluster: [A], redisOptions: 'pw' }, 'redis.redisOptions', /must be ioredis options/],
    [{ cluster: [A], redisOptions: { db: 2 } }, 'redis.redisOptions.db', /must be 0/],
  ])('refuses %j, naming %s', (value, argument, message) => {
    const error = thrown(() => checkRedis('redis', value))
    expect(error).toBeInstanceOf(VenueInputError)
    expect((error as VenueInputError).argument).toBe(argument)
    expect(error?.message).toMatch(message)
  })

  it('never quotes a password of a node URL it refuses', () => {
    for (const value of [
      { cluster: ['redis://:n0de-s3cret@h:1', 'redis://:other-s3cret@h:2'] },
      { cluster: ['redis://:n0de-s3cret@h:1/9'] },
      { cluster: ['redis://:n0de-s3cret@[bad'] },
    ]) {
      const error = thrown(() => checkRedis('relay.redis', value))
      expect(error).toBeInstanceOf(VenueInputError)
      expect(`${error?.message} ${(error as VenueInputError).argument}`).not.toMatch(/s3cret/)
    }
  })

  it("is refused at the call by startRelay, createVenue's relay and sharedBudget, naming the option", async () => {
    const bad = { cluster: ['redis://:n0de-s3cret@h:1/9'] }
    await expect(
      startRelay({ baseUrl: 'http://127.0.0.1:1', redis: bad, streams: ['pools'] }),
    ).rejects.toMatchObject({ argument: 'redis.cluster[0]' })
    for (const [options, argument] of [
      [{ relay: { redis: bad } }, 'relay.redis.cluster[0]'],
      [{ sharedBudget: { redis: bad } }, 'sharedBudget.redis.cluster[0]'],
    ] as const) {
      const error = thrown(() => createVenue({ baseUrl: 'http://127.0.0.1:1', ...options }))
      expect(error).toBeInstanceOf(VenueInputError)
      expect((error as VenueInputError).argument).toBe(argument)
      expect(error?.message).not.toContain('s3cret')
    }
  })
})

describe('describeRedis and redisSecrets: a cluster', () => {
  it("describes a cluster by its nodes' host:port, never their credentials", () => {
    expect(describeRedis({ cluster: ['redis://u:pw@10.0.0.5:6379', 'rediss://u:pw@h'] })).toBe(
      '10.0.0.5:6379,h:6379',
    )
  })

  it("knows the passwords of the node URLs and of redisOptions (and TLS's passphrase)", () => {
    const secrets = redisSecrets({
      cluster: ['redis://u:p%40ss@h:1', 'redis://u:p%40ss@g:2'],
      redisOptions: { password: 'node-pw', tls: { passphrase: 'tls-pw' } },
    })
    expect(new Set(secrets)).toEqual(new Set(['p%40ss', 'p@ss', 'node-pw', 'tls-pw']))
    expect(redisSecrets({ cluster: [7, 'not a url'], redisOptions: null })).toEqual([])
  })

  it('says how to give a cluster when a single server client meets MOVED', () => {
    const error = relayError('Redis at h:1', new Error('MOVED 1234 10.0.0.6:6379'))
    expect(error.message).toMatch(/this Redis is a cluster: give its nodes as \{ cluster/)
  })
})

describe('--redis and VENUE_RX_REDIS: one URL or a cluster', () => {
  it('reads one URL as one server, URLs separated by commas as a cluster', () => {
    expect(redisFromText('--redis', A)).toBe(A)
    expect(redisFromText('--redis', ` ${A} , ${B} `)).toEqual({ cluster: [A, B] })
  })

  it.each([
    [`${A},`, /URLs separated by commas, none empty/],
    [`${A},http://h:1`, /--redis\[1\] must be a redis:\/\/ or rediss:\/\/ URL/],
    [`redis://:pw-one@h:1,redis://:pw-two@h:2`, /same scheme, user and password/],
  ])('refuses %s, naming the option', (text, message) => {
    const error = thrown(() => redisFromText('--redis', text))
    expect(error).toBeInstanceOf(VenueInputError)
    expect((error as VenueInputError).argument).toBe('--redis')
    expect(error?.message).toMatch(message)
    expect(error?.message).not.toMatch(/pw-one|pw-two/)
  })

  it('the CLI refuses a wrong cluster in VENUE_RX_REDIS with a usage error that quotes none of it', async () => {
    const env = { ...cliEnv(), VENUE_RX_REDIS: 'redis://:env-s3cret@h:1,redis://:env-s3cret@h:2/4' }
    const running = relayCommand(['--streams', 'depth:0'], testIo(env).io)
    const error = await running.then(
      () => undefined,
      (e: unknown) => e as Error,
    )
    expect(error).toBeInstanceOf(UsageError)
    expect(error?.message).toMatch(/^VENUE_RX_REDIS must be a URL .* or a cluster's node URLs/)
    expect(error?.message).not.toContain('s3cret')
  })
})

describe('relayKeys: hash tags', () => {
  const scope: RelayScope = {
    prefix: 'venue-rx',
    baseUrl: 'http://127.0.0.1:8787',
    marketData: 'v2',
    apiKey: 'k-1',
  }
  const tagOf = (name: string, over: Partial<RelayScope> = {}) =>
    hashTag(relayKeys({ ...scope, ...over }, parseRelayStream(name)).stream)

  it("puts an account's streams in one slot, each pool's in one, the other public streams in one", () => {
    const account = ['my-trades', 'fills', 'transfers', 'balances', 'open-orders', 'account']
    expect(new Set(account.map((name) => tagOf(name))).size).toBe(1)
    const pool1 = ['depth:1', 'trades:1', 'klines:1:5m', 'klines:1:1m', 'pool:1']
    expect(new Set(pool1.map((name) => tagOf(name))).size).toBe(1)
    expect(tagOf('depth:1')).toMatch(/^[0-9a-f]{16}:pool:1$/)
    expect(new Set(['pools', 'tokens', 'system-info'].map((name) => tagOf(name))).size).toBe(1)
    const all = new Set([tagOf('fills'), tagOf('depth:1'), tagOf('depth:2'), tagOf('pools')])
    expect(all.size).toBe(4)
    // Another account, another slot group; the key itself is never in it.
    expect(tagOf('fills', { apiKey: 'k-2' })).not.toBe(tagOf('fills'))
    expect(relayKeys(scope, { kind: 'fills' }).stream).not.toContain('k-1')
  })

  it("names a stream's five keys after the tag and the stream: <prefix>:{<tag>}:<name>:<key>", () => {
    const keys = relayKeys(scope, { kind: 'depth', poolId: 1 })
    const tag = hashTag(keys.stream)
    expect(keys).toEqual({
      stream: `venue-rx:{${tag}}:depth:1:stream`,
      state: `venue-rx:{${tag}}:depth:1:state`,
      lease: `venue-rx:{${tag}}:depth:1:lease`,
      floor: `venue-rx:{${tag}}:depth:1:floor`,
      fence: `venue-rx:{${tag}}:depth:1:fence`,
    })
  })

  it("reads a key's hash tag as Redis does", () => {
    expect(hashTag('a{b}c')).toBe('b')
    expect(hashTag('a{}c{d}')).toBe('a{}c{d}')
    expect(hashTag('a{b')).toBe('a{b')
    expect(hashTag('{x}{y}')).toBe('x')
  })
})
