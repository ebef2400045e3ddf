/**
 * A relay's Prometheus metrics (`metricsPort`, `relay.metrics()`) against a real
 * redis-server and the simulator: scraped over HTTP, the counters match the ground truth
 * (events published = the stream's XLEN, venue requests = the requests the simulator
 * received on the stream's endpoint), lease changes follow the lease in Redis, Redis
 * going away is counted, bad ports are refused at the call and the port closes on close.
 * No sleeps: each step waits for a condition.
 */
import { connect } from 'node:net'
import type { Redis } from 'ioredis'
import { describe, expect, it } from 'vitest'
import { VenueInputError } from '../src/index.js'
import { type Relay, startRelay } from '../src/relay.js'
import { onCleanup } from './helpers/cleanups.js'
import { heldPort } from './helpers/ports.js'
import { startRedisServer } from './helpers/redis-server.js'
import { QUICK, relayFixture } from './helpers/relay-fixture.js'
import { count, recordRequests } from './helpers/simulator-venue.js'
import { waitFor, waitForAsync } from './helpers/wait-for.js'

const { redis: server, nextPrefix, simulator, relayOn } = relayFixture('m')

/** One sample per metric name and label set, e.g. `events_published_total{stream="pools"}`. */
type Samples = ReadonlyMap<string, number>

/** The samples of a Prometheus text exposition, the `venue_rx_relay_` prefix cut off. */
function parse(text: string): Samples {
  const samples = new Map<string, number>()
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue
    const at = line.lastIndexOf(' ')
    samples.set(line.slice(0, at).replace(/^venue_rx_relay_/, ''), Number(line.slice(at + 1)))
  }
  return samples
}

/** The value of `metric` for `stream` (and `extra` labels), undefined without the series. */
const value = (samples: Samples, metric: string, stream: string, extra = '') =>
  samples.get(`${metric}{stream="${stream}"${extra}}`)

/** Scrapes `relay`'s metrics over HTTP. */
async function scrape(relay: Relay): Promise<Samples> {
  const response = await fetch(relay.metricsUrl as string)
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
  return parse(await response.text())
}

async function admin(url: string): Promise<Redis> {
  const { Redis } = await import('ioredis')
  const client = new Redis(url)
  onCleanup(() => client.disconnect())
  return client
}

/** The Redis key of `stream` under `prefix` (`stream`, `lease`), once it is there. */
async function keyOf(redis: Redis, prefix: string, stream: string, kind: string) {
  let key: string | undefined
  await waitForAsync(async () => {
    ;[key] = await redis.keys(`${prefix}:*}:${stream}:${kind}`)
    return key !== undefined
  }, `the ${kind} key of ${stream}`)
  return key as string
}

/** Whether a new TCP connection to `url`'s host and port is refused. */
function refused(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname)
    socket.once('connect', () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'))
  })
}

describe('relay metrics', () => {
  it('serves per-stream counters over HTTP that match Redis and the simulator; the port closes on close', async () => {
    const sim = await simulator(200)
    const hits = recordRequests(sim)
    const prefix = nextPrefix()
    // Each of these streams polls one endpoint of its own.
    const endpoints: Record<string, string> = {
      'depth:1': '/api/v1/depth/v2',
      'trades:1': '/api/v1/latest-trades/v2',
      pools: '/api/v1/pools',
      balances: '/api/v1/balances',
    }
    const streams = Object.keys(endpoints)
    const before = Date.now() / 1000
    // A lease that cannot lapse and a request deadline no hang reaches during the test: the
    // requests below are counted by the test alone.
    const relay = await relayOn(sim, prefix, streams, {
      metricsPort: 0,
      leaseMs: 30_000,
      requestTimeoutMs: 60_000,
    })
    expect(relay.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/)
    const url = relay.metricsUrl as string
    await waitFor(
      () => streams.every((s) => relay.status()[s]?.state === 'active'),
      'every stream active',
    )
    const redis = await admin(server().url)
    const keys = await Promise.all(streams.map((s) => keyOf(redis, prefix, s, 'stream')))
    const lengths = () => Promise.all(keys.map((key) => redis.xlen(key)))
    // The market moves on once: more depth and trades to publish, then no more.
    sim.advance(30)
    const received = (s: string) => count(hits, endpoints[s] as string)
    await waitFor(() => streams.every((s) => received(s) >= 3), 'three polls of every stream')
    // Then the streams go quiet: every request from now on hangs, and a stream's poller
    // sends no other while one is unanswered. Once each endpoint has a hanging request,
    // no request is in flight that the simulator has not received, and none is to come.
    sim.faults.set({ hangRate: 1 })
    const hanging = (s: string) => hits.some((h) => h.path === endpoints[s] && h.action === 'hang')
    await waitFor(() => streams.every(hanging), 'a hanging request of every stream')
    // The requests counted per stream are those the simulator received, none uncounted.
    let samples = await scrape(relay)
    expect(streams.map((s) => value(samples, 'venue_requests_total', s))).toEqual(
      streams.map(received),
    )
    expect(streams.reduce((sum, s) => sum + received(s), 0)).toBe(hits.length)
    // Events published: the length of each Redis stream (maxLen is far away).
    await waitForAsync(async () => {
      const xlen = await lengths()
      samples = await scrape(relay)
      return streams.every(
        (s, i) => (xlen[i] ?? 0) > 0 && value(samples, 'events_published_total', s) === xlen[i],
      )
    }, 'the events published per stream to be the XLEN of its Redis stream')
    expect(Math.min(...(await lengths()))).toBeGreaterThan(0)
    for (const s of streams) {
      expect(value(samples, 'active', s)).toBe(1)
      // Taken once, never lost.
      expect(value(samples, 'lease_changes_total', s, ',change="acquired"')).toBe(1)
      expect(value(samples, 'lease_changes_total', s, ',change="lost"')).toBe(0)
      expect(value(samples, 'redis_errors_total', s)).toBe(0)
      const last = value(samples, 'last_publish_timestamp_seconds', s) ?? 0
      expect(last).toBeGreaterThanOrEqual(before)
      expect(last).toBeLessThanOrEqual(Date.now() / 1000)
      expect(value(samples, 'seconds_since_last_publish', s)).toBeGreaterThanOrEqual(0)
    }
    // The same registry programmatically; anything but /metrics is 404.
    expect(
      parse(await relay.metrics()).get('venue_requests_total{stream="pools"}'),
    ).toBeGreaterThan(0)
    expect((await fetch(url.replace(/metrics$/, 'other'))).status).toBe(404)
    expect(await refused(url)).toBe(false)
    await relay.close()
    expect(await refused(url)).toBe(true)
    // Closed, every publish has landed: the counts are exact.
    const after = parse(await relay.metrics())
    const xlen = await lengths()
    expect(streams.map((s) => after.get(`events_published_total{stream="${s}"}`))).toEqual(xlen)
    expect(after.get('active{stream="pools"}')).toBe(0)
    // Given up on close: not counted lost.
    expect(after.get('lease_changes_total{stream="pools",change="lost"}')).toBe(
      samples.get('lease_changes_total{stream="pools",change="lost"}'),
    )
  })

  it('counts the lease lost to another relay and taken back; keeps each relay in its own registry', async () => {
    const sim = await simulator(20)
    const prefix = nextPrefix()
    // A lease of 3 s (renewed every 750 ms, taken by a standby 300 ms after it is free): no
    // lapse of the test's own making on a busy machine.
    const leaseMs = 3_000
    const first = await relayOn(sim, prefix, ['pools'], {
      metricsPort: 0,
      relayId: 'first',
      leaseMs,
    })
    await waitFor(() => first.status()['pools']?.state === 'active', 'the first relay active')
    const second = await relayOn(sim, prefix, ['pools'], { relayId: 'second', leaseMs })
    expect(second.metricsUrl).toBeUndefined()
    const redis = await admin(server().url)
    const lease = await keyOf(redis, prefix, 'pools', 'lease')
    // Someone else holds the lease until the first relay has seen it (at its next renewal)
    // and stopped publishing.
    await redis.set(lease, 'intruder')
    await waitForAsync(
      async () =>
        value(await scrape(first), 'lease_changes_total', 'pools', ',change="lost"') === 1,
      'the lease counted lost',
    )
    await redis.del(lease)
    // Free again: one of the two relays takes it.
    await waitFor(
      () =>
        first.status()['pools']?.state === 'active' || second.status()['pools']?.state === 'active',
      'a relay active again',
    )
    const samples = await scrape(first)
    const own = parse(await second.metrics())
    const acquired = (s: Samples) => value(s, 'lease_changes_total', 'pools', ',change="acquired"')
    // The first took it once before, and one of them once more now.
    expect((acquired(samples) ?? 0) + (acquired(own) ?? 0)).toBeGreaterThanOrEqual(2)
    expect(acquired(samples)).toBe(first.status()['pools']?.state === 'active' ? 2 : 1)
    expect(acquired(own)).toBe(second.status()['pools']?.state === 'active' ? 1 : 0)
    expect(value(own, 'lease_changes_total', 'pools', ',change="lost"')).toBe(0)
    expect(value(samples, 'redis_errors_total', 'pools')).toBe(0)
  })

  it('counts Redis going away as Redis errors of each stream', async () => {
    const sim = await simulator(20)
    const own = await startRedisServer()
    onCleanup(() => own.close())
    const relay = await startRelay({
      baseUrl: sim.url,
      ...QUICK,
      redis: own.url,
      prefix: nextPrefix(),
      streams: ['pools', 'depth:1'],
      leaseMs: 500,
      metricsPort: 0,
    })
    onCleanup(() => relay.close())
    await waitFor(() => relay.status()['pools']?.state === 'active', 'pools active')
    await own.stop()
    await waitForAsync(async () => {
      const samples = await scrape(relay)
      return ['pools', 'depth:1'].every((s) => (value(samples, 'redis_errors_total', s) ?? 0) > 0)
    }, 'Redis errors counted')
    // Redis is away: each stream says so, with the reason.
    for (const stream of ['pools', 'depth:1']) {
      expect(relay.status()[stream]).toEqual({ state: 'retrying', reason: expect.any(String) })
    }
    await own.start()
    await waitFor(() => relay.status()['pools']?.state === 'active', 'pools active again')
  })

  it('refuses bad ports and hosts at the call, and a port in use, starting nothing', async () => {
    const sim = await simulator()
    const base = {
      baseUrl: sim.url,
      redis: server().url,
      prefix: nextPrefix(),
      streams: ['pools'],
    }
    for (const metricsPort of [-1, 65_536, 1.5, Number.NaN, '9464', null]) {
      const error = await startRelay({ ...base, metricsPort: metricsPort as number }).catch(
        (caught: unknown) => caught,
      )
      expect(error).toBeInstanceOf(VenueInputError)
      expect((error as VenueInputError).message).toMatch(
        /metricsPort must be an integer from 0 to 65535/,
      )
    }
    for (const metricsHost of ['', ' ', 'a b', 7]) {
      await expect(
        startRelay({ ...base, metricsPort: 0, metricsHost: metricsHost as string }),
      ).rejects.toThrow(/metricsHost must be a host name or IP address/)
    }
    await expect(startRelay({ ...base, metricsHost: '127.0.0.1' })).rejects.toThrow(
      /metricsHost needs metricsPort/,
    )
    // A port someone listens on already.
    const taken = await heldPort()
    onCleanup(() => taken.release())
    const port = taken.port
    const error = await startRelay({ ...base, metricsPort: port }).catch(
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(VenueInputError)
    expect(String(error)).toMatch(
      new RegExp(`cannot serve metrics on 127\\.0\\.0\\.1:${port}: EADDRINUSE`),
    )
    // Nothing was started: no lease was ever taken.
    const redis = await admin(server().url)
    expect(await redis.keys(`${base.prefix}:*`)).toEqual([])
  })
})
