import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  createVenue,
  type RestClient,
  type RestMethodName,
  type Venue,
  VenueAbortError,
  VenueApiError,
  VenueAuthError,
  VenueError,
  VenueNetworkError,
  VenueNotFoundError,
  VenueRateLimitError,
  VenueRejectedError,
  VenueResponseError,
  VenueServerError,
  VenueTimeoutError,
} from '../src/index.js'
import { ENDPOINTS } from '../src/rest/endpoints.js'
import * as fixtures from './helpers/fixtures.js'
import {
  fail,
  ok,
  type RecordingServer,
  type Reply,
  startRecordingServer,
} from './helpers/recording-server.js'
import { rejectionOf } from './helpers/rejection.js'
import { startRestVenue, TEST_KEY } from './helpers/rest-venue.js'

const KEY = TEST_KEY

let server: RecordingServer
let venue: Venue
let close: () => Promise<void>

beforeEach(async () => {
  ;({ server, venue, close } = await startRestVenue({ requestTimeoutMs: 5_000 }))
})

afterEach(() => close())

/** Answers every request with `reply`. */
function answer(reply: Reply): void {
  server.handle(() => reply)
}

/** One valid call per REST method. */
const CALLS: Record<RestMethodName, (rest: RestClient) => Promise<unknown>> = {
  depth: (rest) => rest.depth({ poolId: 1 }),
  klines: (rest) => rest.klines({ poolId: 1, interval: '1m' }),
  latestTrades: (rest) => rest.latestTrades({ poolId: 1 }),
  accountInfo: (rest) => rest.accountInfo(),
  balances: (rest) => rest.balances(),
  historyOrders: (rest) => rest.historyOrders(),
  openOrders: (rest) => rest.openOrders(),
  order: (rest) => rest.order('1-7-0'),
  orderByClientId: (rest) => rest.orderByClientId('cid-7'),
  trades: (rest) => rest.trades(),
  transfers: (rest) => rest.transfers(),
  ping: (rest) => rest.ping(),
  systemInfo: (rest) => rest.systemInfo(),
  pools: (rest) => rest.pools(),
  pool: (rest) => rest.pool(1),
  tokens: (rest) => rest.tokens(),
  token: (rest) => rest.token('USDT'),
}

const METHODS = Object.keys(ENDPOINTS) as RestMethodName[]

/** A bare HTTP server for replies the recording server cannot make (stalled bodies, close events). */
interface RawServer {
  readonly url: string
  /** Responses whose `close` event fired (the client went away or the reply ended). */
  readonly closedResponses: number
  /** Sockets that carried a request and have closed since. */
  readonly closedRequestSockets: number
  close(): Promise<void>
}

async function startRawServer(
  onRequest: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<RawServer> {
  const sockets = new Set<Socket>()
  let closedResponses = 0
  let closedRequestSockets = 0
  const http = createServer((req, res) => {
    res.on('close', () => {
      closedResponses += 1
    })
    req.socket.once('close', () => {
      closedRequestSockets += 1
    })
    onRequest(req, res)
  })
  http.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  const { port } = http.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    get closedResponses() {
      return closedResponses
    },
    get closedRequestSockets() {
      return closedRequestSockets
    },
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve, reject) => http.close((e) => (e ? reject(e) : resolve())))
    },
  }
}

describe('auth failures', () => {
  it.each([
    ['missing API key', 'missing-key'],
    ['invalid API key', 'invalid-key'],
  ] as const)(
    'HTTP 400 code 0 "%s" is a VenueAuthError with reason %s',
    async (message, reason) => {
      answer(fail(400, 0, message))
      const error = await rejectionOf(venue.rest.balances())
      expect(error).toBeInstanceOf(VenueAuthError)
      expect(error).toBeInstanceOf(VenueError)
      expect(error).toMatchObject({
        name: 'VenueAuthError',
        code: 'VENUE_AUTH',
        reason,
        status: 400,
        venueMessage: message,
        retryable: false,
        endpoint: 'balances',
      })
      expect(server.requests).toHaveLength(1)
    },
  )

  it.each([
    [401, 'unauthorized'],
    [403, 'forbidden'],
  ] as const)('HTTP %i is a VenueAuthError with reason %s', async (status, reason) => {
    answer(fail(status, status, 'nope'))
    const error = await rejectionOf(venue.rest.accountInfo())
    expect(error).toBeInstanceOf(VenueAuthError)
    expect(error).toMatchObject({
      code: 'VENUE_AUTH',
      reason,
      status,
      venueMessage: 'nope',
      retryable: false,
      endpoint: 'accountInfo',
    })
  })
})

describe('not found', () => {
  it('HTTP 404 is a VenueNotFoundError', async () => {
    answer(fail(404, 404, 'not found'))
    const error = await rejectionOf(venue.rest.token('NOPE'))
    expect(error).toBeInstanceOf(VenueNotFoundError)
    expect(error).toMatchObject({
      code: 'VENUE_NOT_FOUND',
      status: 404,
      venueMessage: 'not found',
      retryable: false,
      endpoint: 'token',
    })
  })

  it('pool(99) answered with HTTP 200 and the all-zero record is a VenueNotFoundError', async () => {
    answer(ok(fixtures.zeroPool))
    const error = await rejectionOf(venue.rest.pool(99))
    expect(server.last().pathname).toBe('/api/v1/pools/99')
    expect(error).toBeInstanceOf(VenueNotFoundError)
    expect(error).toMatchObject({
      code: 'VENUE_NOT_FOUND',
      status: 200,
      retryable: false,
      endpoint: 'pool',
    })
    expect((error as Error).message).toContain('99')
  })

  it('a real pool record is not mistaken for the all-zero record', async () => {
    answer(ok(fixtures.poolDetail))
    const pool = await venue.rest.pool(1)
    expect(pool.symbol).toBe(fixtures.poolDetail.symbol)
  })
})

describe('rejected requests', () => {
  it('HTTP 400 "invalid parameter" is a VenueRejectedError carrying the venue code and message', async () => {
    answer(fail(400, 400, 'invalid parameter'))
    const error = await rejectionOf(venue.rest.depth({ poolId: 1 }))
    expect(error).toBeInstanceOf(VenueRejectedError)
    expect(error).not.toBeInstanceOf(VenueAuthError)
    expect(error).toMatchObject({
      code: 'VENUE_REJECTED',
      status: 400,
      venueCode: 400,
      venueMessage: 'invalid parameter',
      retryable: false,
      endpoint: 'depth',
    })
    expect((error as Error).message).toContain('invalid parameter')
  })

  it('another 4xx (HTTP 422) is a VenueRejectedError too', async () => {
    answer(fail(422, 422, 'unprocessable'))
    const error = await rejectionOf(venue.rest.pools())
    expect(error).toBeInstanceOf(VenueRejectedError)
    expect(error).toMatchObject({ status: 422, venueCode: 422, retryable: false })
  })
})

describe('rate limiting', () => {
  it('HTTP 429 with Retry-After: 3 is a retryable VenueRateLimitError with retryAfterMs 3000', async () => {
    answer(fail(429, 429, 'too many requests', { 'retry-after': '3' }))
    const error = await rejectionOf(venue.rest.ping())
    expect(error).toBeInstanceOf(VenueRateLimitError)
    expect(error).toMatchObject({
      code: 'VENUE_RATE_LIMITED',
      status: 429,
      retryAfterMs: 3000,
      retryable: true,
      endpoint: 'ping',
    })
  })

  it('HTTP 429 with an HTTP-date Retry-After 10 s ahead gives retryAfterMs of about 10 s', async () => {
    const at = new Date(Date.now() + 10_000).toUTCString()
    answer(fail(429, 429, 'too many requests', { 'retry-after': at }))
    const error = await rejectionOf(venue.rest.ping())
    expect(error).toBeInstanceOf(VenueRateLimitError)
    const { retryAfterMs } = error as VenueRateLimitError
    // HTTP dates have whole seconds: up to 1 s is lost to truncation, a little more to latency.
    expect(retryAfterMs).toBeGreaterThan(7_000)
    expect(retryAfterMs).toBeLessThanOrEqual(10_000)
  })

  it('HTTP 429 with an HTTP-date Retry-After in the past gives retryAfterMs 0, never negative', async () => {
    answer(fail(429, 429, 'slow down', { 'retry-after': new Date(0).toUTCString() }))
    const error = await rejectionOf(venue.rest.ping())
    expect(error).toMatchObject({ retryAfterMs: 0 })
  })

  it('HTTP 429 without Retry-After leaves retryAfterMs undefined', async () => {
    answer(fail(429, 429, 'too many requests'))
    const error = await rejectionOf(venue.rest.ping())
    expect(error).toBeInstanceOf(VenueRateLimitError)
    expect((error as VenueRateLimitError).retryAfterMs).toBeUndefined()
    expect((error as VenueRateLimitError).retryable).toBe(true)
  })
})

describe('server errors', () => {
  it('HTTP 500 "service internal error" is a retryable VenueServerError marked ambiguous', async () => {
    answer(fail(500, 500, 'service internal error'))
    const error = await rejectionOf(venue.rest.order('1-7-0'))
    expect(error).toBeInstanceOf(VenueServerError)
    expect(error).toMatchObject({
      code: 'VENUE_SERVER',
      status: 500,
      venueCode: 500,
      venueMessage: 'service internal error',
      ambiguous: true,
      retryable: true,
      endpoint: 'order',
    })
  })

  it.each<[string, Reply]>([
    ['HTTP 502 with another message', fail(502, 502, 'bad gateway')],
    ['HTTP 500 with another message', fail(500, 500, 'database on fire')],
    [
      'HTTP 503 with a non-JSON body',
      { status: 503, headers: { 'content-type': 'text/plain' }, raw: 'Service Unavailable' },
    ],
  ])('%s is a retryable VenueServerError that is not ambiguous', async (_, reply) => {
    answer(reply)
    const error = await rejectionOf(venue.rest.pools())
    expect(error).toBeInstanceOf(VenueServerError)
    expect(error).toMatchObject({
      code: 'VENUE_SERVER',
      status: reply.status,
      ambiguous: false,
      retryable: true,
      endpoint: 'pools',
    })
  })

  it('a non-JSON 5xx body leaves venueCode and venueMessage undefined', async () => {
    answer({ status: 503, raw: '<html>busy</html>' })
    const error = (await rejectionOf(venue.rest.pools())) as VenueServerError
    expect(error).toBeInstanceOf(VenueServerError)
    expect(error.venueCode).toBeUndefined()
    expect(error.venueMessage).toBeUndefined()
  })
})

describe('network failures', () => {
  it('a socket reset by the server is a retryable VenueNetworkError with a cause code', async () => {
    answer({ destroy: true })
    const error = await rejectionOf(venue.rest.ping())
    expect(error).toBeInstanceOf(VenueNetworkError)
    expect(error).toMatchObject({ code: 'VENUE_NETWORK', retryable: true, endpoint: 'ping' })
    const { causeCode, cause } = error as VenueNetworkError
    expect(typeof causeCode).toBe('string')
    expect(causeCode).not.toBe('')
    expect(cause).toBeInstanceOf(Error)
  })

  it('a closed port is a VenueNetworkError (ECONNREFUSED)', async () => {
    const gone = await startRecordingServer()
    const url = gone.url
    await gone.close()
    const closedVenue = createVenue({ baseUrl: url, apiKey: KEY, requestTimeoutMs: 5_000 })
    try {
      const error = await rejectionOf(closedVenue.rest.systemInfo())
      expect(error).toBeInstanceOf(VenueNetworkError)
      expect(error).toMatchObject({
        code: 'VENUE_NETWORK',
        retryable: true,
        causeCode: 'ECONNREFUSED',
        endpoint: 'systemInfo',
      })
    } finally {
      await closedVenue.close()
    }
  })
})

describe('timeouts', () => {
  it('a server that never answers gives a VenueTimeoutError after requestTimeoutMs', async () => {
    const quick = createVenue({ baseUrl: server.url, requestTimeoutMs: 150 })
    answer({ hang: true })
    try {
      const started = performance.now()
      const error = await rejectionOf(quick.rest.ping())
      const elapsed = performance.now() - started
      expect(error).toBeInstanceOf(VenueTimeoutError)
      expect(error).toMatchObject({
        code: 'VENUE_TIMEOUT',
        timeoutMs: 150,
        retryable: true,
        endpoint: 'ping',
      })
      expect(elapsed).toBeGreaterThanOrEqual(140)
      expect(elapsed).toBeLessThan(2_000)
    } finally {
      await quick.close()
    }
  })

  it('a body that starts and then stalls is a VenueTimeoutError too (the timeout covers the body)', async () => {
    const raw = await startRawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('{"code":0,"message":"","data":{"timest')
    })
    const quick = createVenue({ baseUrl: raw.url, requestTimeoutMs: 150 })
    try {
      const started = performance.now()
      const error = await rejectionOf(quick.rest.ping())
      expect(performance.now() - started).toBeLessThan(2_000)
      expect(error).toBeInstanceOf(VenueTimeoutError)
      expect(error).toMatchObject({ code: 'VENUE_TIMEOUT', timeoutMs: 150, retryable: true })
    } finally {
      await raw.close()
      await quick.close()
    }
  })
})

describe('abort', () => {
  it('aborting while the server hangs rejects quickly with a VenueAbortError whose cause is the reason', async () => {
    answer({ hang: true })
    const controller = new AbortController()
    const reason = new Error('the user navigated away')
    const pending = rejectionOf(venue.rest.ping({ signal: controller.signal }))
    await vi.waitFor(() => expect(server.requests).toHaveLength(1))
    const started = performance.now()
    controller.abort(reason)
    const error = await pending
    expect(performance.now() - started).toBeLessThan(2_000)
    expect(error).toBeInstanceOf(VenueAbortError)
    expect(error).toMatchObject({ code: 'VENUE_ABORTED', retryable: false, endpoint: 'ping' })
    expect((error as VenueAbortError).cause).toBe(reason)
  })

  it('abort() without a reason keeps the default AbortError reason as the cause', async () => {
    answer({ hang: true })
    const controller = new AbortController()
    const pending = rejectionOf(venue.rest.balances({ signal: controller.signal }))
    await vi.waitFor(() => expect(server.requests).toHaveLength(1))
    controller.abort()
    const error = (await pending) as VenueAbortError
    expect(error).toBeInstanceOf(VenueAbortError)
    expect(error.cause).toBe(controller.signal.reason)
    expect((error.cause as Error).name).toBe('AbortError')
  })

  it('an already-aborted signal rejects with VenueAbortError and sends no request', async () => {
    const reason = new Error('too late')
    const error = await rejectionOf(
      venue.rest.depth({ poolId: 1 }, { signal: AbortSignal.abort(reason) }),
    )
    expect(error).toBeInstanceOf(VenueAbortError)
    expect(error).toMatchObject({ code: 'VENUE_ABORTED', retryable: false, endpoint: 'depth' })
    expect((error as VenueAbortError).cause).toBe(reason)
    expect(server.requests).toHaveLength(0)
  })

  it('after an abort the server sees the request closed and the connection released', async () => {
    let received = 0
    const raw = await startRawServer(() => {
      received += 1
    })
    const abortable = createVenue({ baseUrl: raw.url, requestTimeoutMs: 10_000 })
    try {
      const controller = new AbortController()
      const pending = rejectionOf(abortable.rest.ping({ signal: controller.signal }))
      await vi.waitFor(() => expect(received).toBe(1))
      expect(raw.closedResponses).toBe(0)
      expect(raw.closedRequestSockets).toBe(0)
      controller.abort()
      expect(await pending).toBeInstanceOf(VenueAbortError)
      // undici may open a fresh idle connection afterwards; the one that carried the request closes.
      await vi.waitFor(
        () => {
          expect(raw.closedResponses).toBe(1)
          expect(raw.closedRequestSockets).toBe(1)
        },
        { timeout: 2_000 },
      )
    } finally {
      await raw.close()
      await abortable.close()
    }
  })

  it('a signal that is never aborted does not disturb a normal answer', async () => {
    const controller = new AbortController()
    const ping = await venue.rest.ping({ signal: controller.signal })
    expect(ping.timestamp).toBe(fixtures.T * 1000)
  })
})

describe('unusable 200 answers', () => {
  it('a truncated body is a retryable VenueResponseError with problem "json"', async () => {
    answer({ status: 200, raw: '{"code":0,"data":{"po' })
    const error = await rejectionOf(venue.rest.pools())
    expect(error).toBeInstanceOf(VenueResponseError)
    expect(error).toMatchObject({
      code: 'VENUE_RESPONSE',
      problem: 'json',
      status: 200,
      retryable: true,
      issues: [],
      endpoint: 'pools',
    })
  })

  it('JSON that is not an envelope ([1,2]) is a retryable VenueResponseError with problem "envelope"', async () => {
    answer({ status: 200, raw: '[1,2]' })
    const error = await rejectionOf(venue.rest.pools())
    expect(error).toBeInstanceOf(VenueResponseError)
    expect(error).toMatchObject({
      code: 'VENUE_RESPONSE',
      problem: 'envelope',
      status: 200,
      retryable: true,
      endpoint: 'pools',
    })
  })

  it('data of the wrong shape is a VenueResponseError "schema", not retryable, naming the path', async () => {
    const bad = { ...fixtures.depth, bids: [['1.0452', 'abc']] }
    answer(ok(bad))
    const error = (await rejectionOf(venue.rest.depth({ poolId: 1 }))) as VenueResponseError
    expect(error).toBeInstanceOf(VenueResponseError)
    expect(error).toMatchObject({
      code: 'VENUE_RESPONSE',
      problem: 'schema',
      status: 200,
      retryable: false,
      endpoint: 'depth',
    })
    expect(error.issues.length).toBeGreaterThan(0)
    expect(error.issues[0]?.path).toEqual(['bids', 0, 1])
    expect(error.message).toContain('data["bids"][0][1]')
  })

  it('a drifted real pool record names the failing field, like any other endpoint', async () => {
    answer(ok({ ...fixtures.poolDetail, min_amount: 'abc' }))
    const error = (await rejectionOf(venue.rest.pool(1))) as VenueResponseError
    expect(error).toBeInstanceOf(VenueResponseError)
    expect(error).toMatchObject({ problem: 'schema', retryable: false, endpoint: 'pool' })
    expect(error.issues[0]?.path).toEqual(['min_amount'])
    expect(error.message).toContain('data["min_amount"]')
  })

  it('an envelope with code 10001 "pool closed" is a VenueApiError, not retryable', async () => {
    answer({ status: 200, body: { code: 10001, message: 'pool closed', data: null } })
    const error = await rejectionOf(venue.rest.depth({ poolId: 1 }))
    expect(error).toBeInstanceOf(VenueApiError)
    expect(error).toMatchObject({
      code: 'VENUE_API',
      status: 200,
      venueCode: 10001,
      venueMessage: 'pool closed',
      retryable: false,
      endpoint: 'depth',
    })
    expect((error as Error).message).toContain('pool closed')
  })

  it('an envelope with code 503 is a retryable VenueApiError', async () => {
    answer({ status: 200, body: { code: 503, message: 'busy', data: null } })
    const error = await rejectionOf(venue.rest.depth({ poolId: 1 }))
    expect(error).toBeInstanceOf(VenueApiError)
    expect(error).toMatchObject({ code: 'VENUE_API', venueCode: 503, retryable: true })
  })
})

describe('unknown extra fields', () => {
  it('extra fields in the envelope, the data, nested objects and level tuples do not break parsing', async () => {
    const expected = await venue.rest.depth({ poolId: 1 })
    answer({
      status: 200,
      body: {
        code: 0,
        message: '',
        data: {
          ...fixtures.depth,
          bids: fixtures.depth.bids.map((level) => [...level, 'extra element']),
          mystery: { nested: [1, 2, 3] },
        },
        meta: { trace_id: 'abc' },
        server_time: 1,
      },
    })
    const depth = await venue.rest.depth({ poolId: 1 })
    expect(depth).toStrictEqual(expected)
    expect(depth).not.toHaveProperty('mystery')
  })

  it('extra fields deep inside list items (balance locks, order trades) are dropped', async () => {
    const balances = await venue.rest.balances()
    const order = await venue.rest.order('1-7-0')
    answer(
      ok([
        {
          ...fixtures.balance,
          new_field: true,
          locks: fixtures.balance.locks.map((lock) => ({ ...lock, since: 5 })),
        },
      ]),
    )
    expect(await venue.rest.balances()).toStrictEqual(balances)
    answer(
      ok({
        ...fixtures.orderWithTrades,
        rebate: '0',
        trades: [{ ...fixtures.tradeDetail, venue_flag: { a: 1 } }],
      }),
    )
    expect(await venue.rest.order('1-7-0')).toStrictEqual(order)
  })
})

describe('endpoint names', () => {
  it.each(METHODS)('an error of rest.%s names that method in `endpoint`', async (method) => {
    answer(fail(503, 503, 'unavailable'))
    const error = await rejectionOf(CALLS[method](venue.rest))
    expect(error).toBeInstanceOf(VenueServerError)
    expect((error as VenueServerError).endpoint).toBe(method)
    expect((error as Error).message.startsWith(`${method}: `)).toBe(true)
  })
})
