/**
 * What an HTTP 404 says. A request that names nothing the venue could fail to find (ping,
 * system info, the pool list, tokens, the account endpoints without an id) can only be
 * "not found" when its path is wrong, so its message says what `baseUrl` should be; one
 * with an id in its path (an order, a pool, a token) keeps the plain message, the id being
 * the likely cause. A `baseUrl` ending in `/api/v1` (a natural mistake: venue-rx adds
 * that prefix itself) is named as the cause of any 404. Every test runs against a real
 * local HTTP server that answers 404 for any path it does not know, as the venue does.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ApiKey } from '../src/api-key.js'
import { createVenue, type RestClient, type Venue, VenueNotFoundError } from '../src/index.js'
import { createRestClient, DEFAULT_PARAM_NAMES } from '../src/rest/index.js'
import { createUndiciTransport } from '../src/transport/undici-transport.js'
import { dataFor } from './helpers/fixtures.js'
import { fail, ok, type RecordingServer, startRecordingServer } from './helpers/recording-server.js'
import { rejectionOf } from './helpers/rejection.js'
import { TEST_KEY } from './helpers/rest-venue.js'

const BASE_URL_HINT = "check baseUrl (the venue's root, without /api/v1)"

let server: RecordingServer
const closers: (() => Promise<void>)[] = []

beforeEach(async () => {
  // The venue's own paths answer; anything else is its 404.
  server = await startRecordingServer((request) =>
    request.pathname === '/api/v1/ping'
      ? ok(dataFor(request.pathname))
      : fail(404, 404, 'not found'),
  )
})

afterEach(async () => {
  for (const close of closers.splice(0)) await close()
  await server.close()
})

function venueAt(baseUrl: string): Venue {
  const venue = createVenue({ baseUrl, apiKey: TEST_KEY, maxRequestsPerSecond: 1e6 })
  closers.push(() => venue.close())
  return venue
}

/** A REST client as the venue builds one, with `baseUrl` in its settings. */
function restAt(baseUrl: string, apiKey?: string): RestClient {
  const transport = createUndiciTransport({ baseUrl })
  closers.push(() => transport.close())
  return createRestClient({
    transport,
    options: {
      apiKey: apiKey === undefined ? undefined : new ApiKey(apiKey),
      requestTimeoutMs: 5_000,
      marketData: 'v2',
      paramNames: DEFAULT_PARAM_NAMES,
      baseUrl,
    },
  })
}

async function notFound(call: Promise<unknown>): Promise<VenueNotFoundError> {
  const error = await rejectionOf(call)
  expect(error).toBeInstanceOf(VenueNotFoundError)
  expect(error).toMatchObject({ status: 404, retryable: false })
  return error as VenueNotFoundError
}

describe('a 404 of a request without an id says what baseUrl should be', () => {
  const cases: readonly (readonly [string, (rest: RestClient) => Promise<unknown>])[] = [
    ['systemInfo', (rest) => rest.systemInfo()],
    ['pools', (rest) => rest.pools()],
    ['tokens', (rest) => rest.tokens()],
    ['latestTrades', (rest) => rest.latestTrades()],
    ['accountInfo', (rest) => rest.accountInfo()],
    ['balances', (rest) => rest.balances()],
    ['openOrders', (rest) => rest.openOrders()],
    ['historyOrders', (rest) => rest.historyOrders({ limit: 5 })],
    ['trades', (rest) => rest.trades({ afterSeq: '7' })],
    ['transfers', (rest) => rest.transfers()],
  ]
  it.each(cases)('%s: HTTP 404 "not found": check baseUrl (...)', async (method, call) => {
    const error = await notFound(call(venueAt(server.url).rest))
    expect(error.message).toBe(`${method}: HTTP 404 "not found": ${BASE_URL_HINT}`)
    expect(error.endpoint).toBe(method)
  })

  it.each([
    ['depth', (rest: RestClient) => rest.depth({ poolId: 3 })],
    ['klines', (rest: RestClient) => rest.klines({ poolId: 3, interval: '1h' })],
    ['openOrders', (rest: RestClient) => rest.openOrders({ poolId: 3 })],
    ['trades', (rest: RestClient) => rest.trades({ poolId: 3 })],
  ])('%s naming a pool: the hint names the pool as a cause too', async (method, call) => {
    const error = await notFound(call(venueAt(server.url).rest))
    expect(error.message).toBe(
      `${method}: HTTP 404 "not found": check the pool, or baseUrl (the venue's root, without /api/v1)`,
    )
  })
})

describe('a 404 of a request with an id in its path keeps the plain message', () => {
  it.each([
    ['token', (rest: RestClient) => rest.token('NOPE'), 'token: HTTP 404 "not found"'],
    ['pool', (rest: RestClient) => rest.pool(99), 'pool: HTTP 404 "not found"'],
    ['order', (rest: RestClient) => rest.order('1-42-0'), 'order 1-42-0: HTTP 404 "not found"'],
    [
      'orderByClientId',
      (rest: RestClient) => rest.orderByClientId('bot-7'),
      'orderByClientId: HTTP 404 "not found"',
    ],
  ])('%s', async (_, call, message) => {
    expect((await notFound(call(venueAt(server.url).rest))).message).toBe(message)
  })
})

describe('a baseUrl ending in /api/v1', () => {
  it.each(['/api/v1', '/api/v1/'])(
    'createVenue with baseUrl ending in %s: requests go to /api/v1/api/v1/... and the 404 says check baseUrl',
    async (suffix) => {
      const venue = venueAt(server.url + suffix)
      const error = await notFound(venue.rest.ping())
      expect(server.last().pathname).toBe('/api/v1/api/v1/ping')
      expect(error.message).toBe(
        `ping: HTTP 404 "not found": check baseUrl: it ends in /api/v1, which venue-rx adds to every path itself (this request went to /api/v1/api/v1/ping); give the venue's root`,
      )
      // The root works.
      await expect(venueAt(server.url).rest.ping()).resolves.toBeDefined()
    },
  )

  it.each(['/api/v1', '/api/v1/', '/API/V1'])(
    'a REST client given baseUrl ending in %s says so precisely, naming the path the request went to',
    async (suffix) => {
      const error = await notFound(restAt(server.url + suffix).ping())
      const prefix = suffix.replace(/\/$/, '')
      expect(error.message).toBe(
        `ping: HTTP 404 "not found": check baseUrl: it ends in /api/v1, which venue-rx adds to every path itself (this request went to ${prefix}/api/v1/ping); give the venue's root`,
      )
    },
  )

  it('the precise hint comes for a request with an id too: a baseUrl one level deep is the cause of any 404', async () => {
    const error = await notFound(restAt(`${server.url}/api/v1`).pool(1))
    expect(error.message).toBe(
      `pool: HTTP 404 "not found": check baseUrl: it ends in /api/v1, which venue-rx adds to every path itself (this request went to /api/v1/api/v1/pools/1); give the venue's root`,
    )
  })

  it('the path it names is redacted: a key pasted as an id never shows', async () => {
    const error = await notFound(restAt(`${server.url}/api/v1`, TEST_KEY).token(TEST_KEY))
    expect(error.message).not.toContain(TEST_KEY)
    expect(error.message).toMatch(
      /^token: HTTP 404 "not found": check baseUrl: it ends in \/api\/v1, which venue-rx adds to every path itself \(this request went to \/api\/v1\/api\/v1\/token\/.+\); give the venue's root$/,
    )
  })

  it('a prefix that is not /api/v1 gets the general hint', async () => {
    const error = await notFound(restAt(`${server.url}/venue`).ping())
    expect(server.last().pathname).toBe('/venue/api/v1/ping')
    expect(error.message).toBe(`ping: HTTP 404 "not found": ${BASE_URL_HINT}`)
  })

  it('other statuses get no hint', async () => {
    server.handle(() => fail(400, 400, 'invalid parameter'))
    const error = await rejectionOf(restAt(`${server.url}/api/v1`).ping())
    expect((error as Error).message).toBe('ping: HTTP 400 "invalid parameter"')
  })
})
