import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { describe, expect, it, vi } from 'vitest'
import { createVenue, type RestMethodName, VenueAuthError, VenueError } from '../src/index.js'
import { ENDPOINTS } from '../src/rest/endpoints.js'
import * as fixtures from './helpers/fixtures.js'
import { fail, ok, type Reply, startRecordingServer } from './helpers/recording-server.js'
import { rejectionOf } from './helpers/rejection.js'
import { REST_CALLS, type RestCall } from './helpers/rest-calls.js'
import { expectVenueError, type VenueErrorCode, type VenueErrorOf } from './helpers/rest-errors.js'
import { restVenuePerTest, TEST_KEY } from './helpers/rest-venue.js'
import { WAIT_MS } from './helpers/wait-for.js'

const KEY = TEST_KEY

const current = restVenuePerTest({ requestTimeoutMs: 5_000 })

/** Answers every request with `reply`. */
function answer(reply: Reply): void {
  current.server.handle(() => reply)
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

/**
 * A test that answers every request with `reply`, then checks that `call` rejects with the
 * error of `code` carrying `fields`; `more` checks anything else about that error.
 */
function itRejects<C extends VenueErrorCode>(
  title: string,
  reply: Reply,
  call: RestCall,
  code: C,
  fields: Parameters<typeof expectVenueError<C>>[2],
  more: (error: VenueErrorOf<C>) => void = () => undefined,
): void {
  it(title, async () => {
    answer(reply)
    more(expectVenueError(await rejectionOf(call(current.venue.rest)), code, fields))
  })
}

describe('auth failures', () => {
  it.each([
    ['missing API key', 'missing-key'],
    ['invalid API key', 'invalid-key'],
  ] as const)(
    'HTTP 400 code 0 "%s" is a VenueAuthError with reason %s',
    async (message, reason) => {
      answer(fail(400, 0, message))
      const error = await rejectionOf(current.venue.rest.balances())
      expect(error).toBeInstanceOf(VenueError)
      expectVenueError(error, 'VENUE_AUTH', {
        name: 'VenueAuthError',
        reason,
        status: 400,
        venueMessage: message,
        retryable: false,
        endpoint: 'balances',
      })
      expect(current.server.requests).toHaveLength(1)
    },
  )

  it.each([
    [401, 'unauthorized'],
    [403, 'forbidden'],
  ] as const)('HTTP %i is a VenueAuthError with reason %s', async (status, reason) => {
    answer(fail(status, status, 'nope'))
    const error = await rejectionOf(current.venue.rest.accountInfo())
    expectVenueError(error, 'VENUE_AUTH', {
      reason,
      status,
      venueMessage: 'nope',
      retryable: false,
      endpoint: 'accountInfo',
    })
  })
})

describe('not found', () => {
  itRejects(
    'HTTP 404 is a VenueNotFoundError',
    fail(404, 404, 'not found'),
    (rest) => rest.token('NOPE'),
    'VENUE_NOT_FOUND',
    { status: 404, venueMessage: 'not found', retryable: false, endpoint: 'token' },
  )

  itRejects(
    'pool(99) answered with HTTP 200 and the all-zero record is a VenueNotFoundError',
    ok(fixtures.zeroPool),
    (rest) => rest.pool(99),
    'VENUE_NOT_FOUND',
    { status: 200, retryable: false, endpoint: 'pool' },
    (error) => {
      expect(current.server.last().pathname).toBe('/api/v1/pools/99')
      expect(error.message).toContain('99')
    },
  )

  it('a real pool record is not mistaken for the all-zero record', async () => {
    answer(ok(fixtures.poolDetail))
    const pool = await current.venue.rest.pool(1)
    expect(pool.symbol).toBe(fixtures.poolDetail.symbol)
  })
})

describe('rejected requests', () => {
  itRejects(
    'HTTP 400 "invalid parameter" is a VenueRejectedError carrying the venue code and message',
    fail(400, 400, 'invalid parameter'),
    (rest) => rest.depth({ poolId: 1 }),
    'VENUE_REJECTED',
    {
      status: 400,
      venueCode: 400,
      venueMessage: 'invalid parameter',
      retryable: false,
      endpoint: 'depth',
    },
    (error) => {
      expect(error).not.toBeInstanceOf(VenueAuthError)
      expect(error.message).toContain('invalid parameter')
    },
  )

  itRejects(
    'another 4xx (HTTP 422) is a VenueRejectedError too',
    fail(422, 422, 'unprocessable'),
    (rest) => rest.pools(),
    'VENUE_REJECTED',
    { status: 422, venueCode: 422, retryable: false },
  )
})

describe('rate limiting', () => {
  itRejects(
    'HTTP 429 with Retry-After: 3 is a retryable VenueRateLimitError with retryAfterMs 3000',
    fail(429, 429, 'too many requests', { 'retry-after': '3' }),
    (rest) => rest.ping(),
    'VENUE_RATE_LIMITED',
    { status: 429, retryAfterMs: 3000, retryable: true, endpoint: 'ping' },
  )

  it('HTTP 429 with an HTTP-date Retry-After 10 s ahead gives retryAfterMs of about 10 s', async () => {
    // The date is taken when the test runs, not when the file is collected.
    const at = new Date(Date.now() + 10_000).toUTCString()
    answer(fail(429, 429, 'too many requests', { 'retry-after': at }))
    const error = await rejectionOf(current.venue.rest.ping())
    const { retryAfterMs } = expectVenueError(error, 'VENUE_RATE_LIMITED')
    // HTTP dates have whole seconds: up to 1 s is lost to truncation, a little more to latency.
    expect(retryAfterMs).toBeGreaterThan(7_000)
    expect(retryAfterMs).toBeLessThanOrEqual(10_000)
  })

  itRejects(
    'HTTP 429 with an HTTP-date Retry-After in the past gives retryAfterMs 0, never negative',
    fail(429, 429, 'slow down', { 'retry-after': new Date(0).toUTCString() }),
    (rest) => rest.ping(),
    'VENUE_RATE_LIMITED',
    { retryAfterMs: 0 },
  )

  itRejects(
    'HTTP 429 without Retry-After leaves retryAfterMs undefined',
    fail(429, 429, 'too many requests'),
    (rest) => rest.ping(),
    'VENUE_RATE_LIMITED',
    { retryable: true },
    (error) => expect(error.retryAfterMs).toBeUndefined(),
  )
})

describe('server errors', () => {
  itRejects(
    'HTTP 500 "service internal error" is a retryable VenueServerError marked ambiguous',
    fail(500, 500, 'service internal error'),
    (rest) => rest.order('1-7-0'),
    'VENUE_SERVER',
    {
      status: 500,
      venueCode: 500,
      venueMessage: 'service internal error',
      ambiguous: true,
      retryable: true,
      endpoint: 'order',
    },
  )

  it.each<[string, Reply]>([
    ['HTTP 502 with another message', fail(502, 502, 'bad gateway')],
    ['HTTP 500 with another message', fail(500, 500, 'database on fire')],
    [
      'HTTP 503 with a non-JSON body',
      { status: 503, headers: { 'content-type': 'text/plain' }, raw: 'Service Unavailable' },
    ],
  ])('%s is a retryable VenueServerError that is not ambiguous', async (_, reply) => {
    answer(reply)
    const error = await rejectionOf(current.venue.rest.pools())
    expectVenueError(error, 'VENUE_SERVER', {
      status: reply.status,
      ambiguous: false,
      retryable: true,
      endpoint: 'pools',
    })
  })

  itRejects(
    'a non-JSON 5xx body leaves venueCode and venueMessage undefined',
    { status: 503, raw: '<html>busy</html>' },
    (rest) => rest.pools(),
    'VENUE_SERVER',
    {},
    (error) => {
      expect(error.venueCode).toBeUndefined()
      expect(error.venueMessage).toBeUndefined()
    },
  )
})

describe('network failures', () => {
  itRejects(
    'a socket reset by the server is a retryable VenueNetworkError with a cause code',
    { destroy: true },
    (rest) => rest.ping(),
    'VENUE_NETWORK',
    { retryable: true, endpoint: 'ping' },
    ({ causeCode, cause }) => {
      expect(typeof causeCode).toBe('string')
      expect(causeCode).not.toBe('')
      expect(cause).toBeInstanceOf(Error)
    },
  )

  it('a closed port is a VenueNetworkError (ECONNREFUSED)', async () => {
    const gone = await startRecordingServer()
    const url = gone.url
    await gone.close()
    const closedVenue = createVenue({ baseUrl: url, apiKey: KEY, requestTimeoutMs: 5_000 })
    try {
      const error = await rejectionOf(closedVenue.rest.systemInfo())
      expectVenueError(error, 'VENUE_NETWORK', {
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
    const quick = createVenue({ baseUrl: current.server.url, requestTimeoutMs: 150 })
    answer({ hang: true })
    try {
      const started = performance.now()
      const error = await rejectionOf(quick.rest.ping())
      // Not sooner than the timeout (a busy machine can only make it later; a hang would
      // run into the test's own timeout).
      expect(performance.now() - started).toBeGreaterThanOrEqual(140)
      expectVenueError(error, 'VENUE_TIMEOUT', {
        timeoutMs: 150,
        retryable: true,
        endpoint: 'ping',
      })
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
      const error = await rejectionOf(quick.rest.ping())
      expectVenueError(error, 'VENUE_TIMEOUT', { timeoutMs: 150, retryable: true })
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
    const pending = rejectionOf(current.venue.rest.ping({ signal: controller.signal }))
    await vi.waitFor(() => expect(current.server.requests).toHaveLength(1), { timeout: WAIT_MS })
    controller.abort(reason)
    const error = await pending
    expectVenueError(error, 'VENUE_ABORTED', { retryable: false, endpoint: 'ping' })
    expect((error as Error).cause).toBe(reason)
  })

  it('abort() without a reason keeps the default AbortError reason as the cause', async () => {
    answer({ hang: true })
    const controller = new AbortController()
    const pending = rejectionOf(current.venue.rest.balances({ signal: controller.signal }))
    await vi.waitFor(() => expect(current.server.requests).toHaveLength(1), { timeout: WAIT_MS })
    controller.abort()
    const error = expectVenueError(await pending, 'VENUE_ABORTED')
    expect(error.cause).toBe(controller.signal.reason)
    expect((error.cause as Error).name).toBe('AbortError')
  })

  it('an already-aborted signal rejects with VenueAbortError and sends no request', async () => {
    const reason = new Error('too late')
    const error = await rejectionOf(
      current.venue.rest.depth({ poolId: 1 }, { signal: AbortSignal.abort(reason) }),
    )
    expectVenueError(error, 'VENUE_ABORTED', { retryable: false, endpoint: 'depth' })
    expect((error as Error).cause).toBe(reason)
    expect(current.server.requests).toHaveLength(0)
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
      await vi.waitFor(() => expect(received).toBe(1), { timeout: WAIT_MS })
      expect(raw.closedResponses).toBe(0)
      expect(raw.closedRequestSockets).toBe(0)
      controller.abort()
      expectVenueError(await pending, 'VENUE_ABORTED')
      // undici may open a fresh idle connection afterwards; the one that carried the request closes.
      await vi.waitFor(
        () => {
          expect(raw.closedResponses).toBe(1)
          expect(raw.closedRequestSockets).toBe(1)
        },
        { timeout: WAIT_MS },
      )
    } finally {
      await raw.close()
      await abortable.close()
    }
  })

  it('a signal that is never aborted does not disturb a normal answer', async () => {
    const controller = new AbortController()
    const ping = await current.venue.rest.ping({ signal: controller.signal })
    expect(ping.timestamp).toBe(fixtures.T * 1000)
  })
})

describe('unusable 200 answers', () => {
  itRejects(
    'a truncated body is a retryable VenueResponseError with problem "json"',
    { status: 200, raw: '{"code":0,"data":{"po' },
    (rest) => rest.pools(),
    'VENUE_RESPONSE',
    { problem: 'json', status: 200, retryable: true, issues: [], endpoint: 'pools' },
  )

  itRejects(
    'JSON that is not an envelope ([1,2]) is a retryable VenueResponseError with problem "envelope"',
    { status: 200, raw: '[1,2]' },
    (rest) => rest.pools(),
    'VENUE_RESPONSE',
    { problem: 'envelope', status: 200, retryable: true, endpoint: 'pools' },
  )

  itRejects(
    'data of the wrong shape is a VenueResponseError "schema", not retryable, naming the path',
    ok({ ...fixtures.depth, bids: [['1.0452', 'abc']] }),
    (rest) => rest.depth({ poolId: 1 }),
    'VENUE_RESPONSE',
    { problem: 'schema', status: 200, retryable: false, endpoint: 'depth' },
    (error) => {
      expect(error.issues.length).toBeGreaterThan(0)
      expect(error.issues[0]?.path).toEqual(['bids', 0, 1])
      expect(error.message).toContain('data["bids"][0][1]')
    },
  )

  itRejects(
    'a drifted real pool record names the failing field, like any other endpoint',
    ok({ ...fixtures.poolDetail, min_amount: 'abc' }),
    (rest) => rest.pool(1),
    'VENUE_RESPONSE',
    { problem: 'schema', retryable: false, endpoint: 'pool' },
    (error) => {
      expect(error.issues[0]?.path).toEqual(['min_amount'])
      expect(error.message).toContain('data["min_amount"]')
    },
  )

  itRejects(
    'an envelope with code 10001 "pool closed" is a VenueApiError, not retryable',
    { status: 200, body: { code: 10001, message: 'pool closed', data: null } },
    (rest) => rest.depth({ poolId: 1 }),
    'VENUE_API',
    {
      status: 200,
      venueCode: 10001,
      venueMessage: 'pool closed',
      retryable: false,
      endpoint: 'depth',
    },
    (error) => expect(error.message).toContain('pool closed'),
  )

  itRejects(
    'an envelope with code 503 is a retryable VenueApiError',
    { status: 200, body: { code: 503, message: 'busy', data: null } },
    (rest) => rest.depth({ poolId: 1 }),
    'VENUE_API',
    { venueCode: 503, retryable: true },
  )
})

describe('unknown extra fields', () => {
  it('extra fields in the envelope, the data, nested objects and level tuples do not break parsing', async () => {
    const expected = await current.venue.rest.depth({ poolId: 1 })
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
    const depth = await current.venue.rest.depth({ poolId: 1 })
    expect(depth).toStrictEqual(expected)
    expect(depth).not.toHaveProperty('mystery')
  })

  it('extra fields deep inside list items (balance locks, order trades) are dropped', async () => {
    const balances = await current.venue.rest.balances()
    const order = await current.venue.rest.order('1-7-0')
    answer(
      ok([
        {
          ...fixtures.balance,
          new_field: true,
          locks: fixtures.balance.locks.map((lock) => ({ ...lock, since: 5 })),
        },
      ]),
    )
    expect(await current.venue.rest.balances()).toStrictEqual(balances)
    answer(
      ok({
        ...fixtures.orderWithTrades,
        rebate: '0',
        trades: [{ ...fixtures.tradeDetail, venue_flag: { a: 1 } }],
      }),
    )
    expect(await current.venue.rest.order('1-7-0')).toStrictEqual(order)
  })
})

describe('endpoint names', () => {
  it.each(METHODS)('an error of rest.%s names that method in `endpoint`', async (method) => {
    answer(fail(503, 503, 'unavailable'))
    const error = await rejectionOf(REST_CALLS[method](current.venue.rest))
    expectVenueError(error, 'VENUE_SERVER', { endpoint: method })
    // An order's errors name the order too: a bot follows many.
    const subject = method === 'order' ? 'order 1-7-0' : method
    expect((error as Error).message.startsWith(`${subject}: `)).toBe(true)
  })
})
