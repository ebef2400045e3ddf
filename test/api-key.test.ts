import { inspect } from 'node:util'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import {
  createVenue,
  type RestClient,
  type RestMethodName,
  type Venue,
  VenueInputError,
  VenueNetworkError,
  type VenueResponseError,
} from '../src/index.js'
import { ENDPOINTS } from '../src/rest/endpoints.js'
import * as fixtures from './helpers/fixtures.js'
import { fail, ok, type RecordedRequest, type Reply } from './helpers/recording-server.js'
import { rejectionOf } from './helpers/rejection.js'
import { REST_CALLS } from './helpers/rest-calls.js'
import { expectVenueError, type VenueErrorCode } from './helpers/rest-errors.js'
import { restVenuePerTest, TEST_KEY } from './helpers/rest-venue.js'
import { WAIT_MS } from './helpers/wait-for.js'

const KEY = TEST_KEY

// The library's request deadline: every answer here comes, however busy the machine. The
// one case of a server that never answers has a venue of its own with a short deadline.
const current = restVenuePerTest()

/** `JSON.stringify`, or `''` when the value cannot be serialised at all (cycles, BigInt). */
function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? ''
  } catch {
    return ''
  }
}

/** Every way a value is commonly turned into text: by logs, by `console.log`, by JSON. */
function renderings(label: string, value: unknown): Record<string, string> {
  const out: Record<string, string> = {
    [`String(${label})`]: String(value),
    [`inspect(${label})`]: inspect(value, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
    [`JSON.stringify(${label})`]: json(value),
  }
  if (value instanceof Error) {
    out[`${label}.message`] = value.message
    out[`${label}.stack`] = value.stack ?? ''
  }
  return out
}

/** Names of the renderings of `error` and of its `cause` that contain `secret`. */
function leaksOf(error: unknown, secret = KEY): string[] {
  const all = { ...renderings('error', error) }
  if (error instanceof Error) Object.assign(all, renderings('error.cause', error.cause))
  return Object.entries(all)
    .filter(([, text]) => text.includes(secret))
    .map(([name]) => name)
}

/** The key as the venue received it, for handlers that echo it back. */
function sentKey(request: RecordedRequest): string {
  const header = request.headers.authorization
  return typeof header === 'string' ? header : KEY
}

/** Echoes the received key inside the envelope message of an error status. */
function echo(status: number, code: number, text: string) {
  return (request: RecordedRequest): Reply =>
    fail(status, code, `${text}: ${sentKey(request)}`, status === 429 ? { 'retry-after': '1' } : {})
}

interface Case {
  readonly name: string
  readonly handler: (request: RecordedRequest) => Reply
  readonly call: (venue: Venue, signal: AbortSignal) => Promise<unknown>
  /** The stable code of the error the call rejects with. */
  readonly expected: VenueErrorCode
  /** Runs once the request reached the server (e.g. to abort it). */
  readonly whileWaiting?: (controller: AbortController) => void
  /** A request deadline of its own (for a server that never answers). */
  readonly requestTimeoutMs?: number
}

const CASES: readonly Case[] = [
  {
    name: 'auth (HTTP 400 "invalid API key" echoing the key)',
    handler: echo(400, 0, 'invalid API key'),
    call: (v) => v.rest.balances(),
    expected: 'VENUE_AUTH',
  },
  {
    name: 'auth (HTTP 401 echoing the key)',
    handler: echo(401, 401, 'unauthorized'),
    call: (v) => v.rest.accountInfo(),
    expected: 'VENUE_AUTH',
  },
  {
    name: 'rejected (HTTP 400 "invalid parameter" echoing the key)',
    handler: echo(400, 400, 'invalid parameter'),
    call: (v) => v.rest.trades({ limit: 5 }),
    expected: 'VENUE_REJECTED',
  },
  {
    name: 'not found (HTTP 404 echoing the key)',
    handler: echo(404, 404, 'no such order for'),
    call: (v) => v.rest.orderByClientId('cid-404'),
    expected: 'VENUE_NOT_FOUND',
  },
  {
    name: 'rate limited (HTTP 429 echoing the key)',
    handler: echo(429, 429, 'too many requests for'),
    call: (v) => v.rest.openOrders(),
    expected: 'VENUE_RATE_LIMITED',
  },
  {
    name: 'server (HTTP 500 echoing the key)',
    handler: echo(500, 500, 'service internal error while serving'),
    call: (v) => v.rest.order('1-7-0'),
    expected: 'VENUE_SERVER',
  },
  {
    name: 'api (HTTP 200, envelope code 10001 echoing the key)',
    handler: (request) => ({
      status: 200,
      body: { code: 10001, message: `key ${sentKey(request)} is frozen`, data: null },
    }),
    call: (v) => v.rest.transfers(),
    expected: 'VENUE_API',
  },
  {
    name: 'network (socket reset)',
    handler: () => ({ destroy: true }),
    call: (v) => v.rest.balances(),
    expected: 'VENUE_NETWORK',
  },
  {
    name: 'timeout (server hangs)',
    handler: () => ({ hang: true }),
    call: (v) => v.rest.historyOrders(),
    expected: 'VENUE_TIMEOUT',
    requestTimeoutMs: 150,
  },
  {
    name: 'abort (caller aborts while the server hangs)',
    handler: () => ({ hang: true }),
    call: (v, signal) => v.rest.balances({ signal }),
    expected: 'VENUE_ABORTED',
    whileWaiting: (controller) => controller.abort(),
  },
  {
    name: 'response json (truncated body)',
    handler: () => ({ status: 200, raw: '{"code":0,"data":[{"coin":"usdt.ext-USDT","bal' }),
    call: (v) => v.rest.balances(),
    expected: 'VENUE_RESPONSE',
  },
  {
    name: 'response schema (a field of the wrong type)',
    handler: () => ok([{ ...fixtures.balance, locked: 'lots' }]),
    call: (v) => v.rest.balances(),
    expected: 'VENUE_RESPONSE',
  },
]

describe('errors built from real responses never contain the API key', () => {
  it.each(CASES)('$name', async ({ handler, call, expected, whileWaiting, requestTimeoutMs }) => {
    current.server.handle(handler)
    const controller = new AbortController()
    let venue = current.venue
    if (requestTimeoutMs !== undefined) {
      const own = createVenue({ baseUrl: current.server.url, apiKey: KEY, requestTimeoutMs })
      onTestFinished(() => own.close())
      venue = own
    }
    const pending = rejectionOf(call(venue, controller.signal))
    if (whileWaiting) {
      await vi.waitFor(() => expect(current.server.requests).toHaveLength(1), { timeout: WAIT_MS })
      whileWaiting(controller)
    }
    const error = await pending
    expectVenueError(error, expected)
    expect(current.server.last().headers.authorization).toBe(KEY)
    expect(leaksOf(error)).toEqual([])
  })

  it('the echoed key is replaced by a marker in venueMessage, the rest of the message is kept', async () => {
    current.server.handle(echo(400, 400, 'invalid parameter'))
    const error = expectVenueError(
      await rejectionOf(current.venue.rest.balances()),
      'VENUE_REJECTED',
    )
    expect(error.venueMessage).toMatch(/^invalid parameter: \S+$/)
    expect(error.venueMessage).not.toContain(KEY)
    expect(error.message).toContain('invalid parameter')
  })

  it('the leak check itself detects a key in a nested cause (guards the helper)', () => {
    const planted = new VenueNetworkError('ping: network error', {
      cause: new Error(`connect failed for ${KEY}`),
    })
    expect(leaksOf(planted)).toContain('inspect(error)')
    expect(leaksOf(planted)).toContain('error.cause.message')
  })
})

describe('errors whose trigger contains the key text never repeat it', () => {
  it('a body that fails the envelope check with the key in a field', async () => {
    current.server.handle(() => ({ status: 200, body: { code: KEY, message: 'x', data: null } }))
    const error = await rejectionOf(current.venue.rest.balances())
    expect(error).toMatchObject({ code: 'VENUE_RESPONSE', problem: 'envelope' })
    expect(leaksOf(error)).toEqual([])
  })

  it('data that fails the schema with the key text in a field (shape drift echoing the caller)', async () => {
    current.server.handle(() => ok([{ ...fixtures.balance, balance: KEY }]))
    const error = await rejectionOf(current.venue.rest.balances())
    expect(error).toMatchObject({ code: 'VENUE_RESPONSE', problem: 'schema' })
    expect(leaksOf(error)).toEqual([])
  })

  it('an input error whose bad argument is the key text', async () => {
    const error = await rejectionOf(current.venue.rest.depth({ poolId: KEY as unknown as number }))
    expectVenueError(error, 'VENUE_INPUT')
    expect(leaksOf(error)).toEqual([])
    expect(current.server.requests).toHaveLength(0)
  })
})

describe('input errors never contain the API key', () => {
  it.each<[string, (rest: RestClient) => Promise<unknown>]>([
    ['latestTrades limit out of range', (rest) => rest.latestTrades({ limit: 500 })],
    ['order id of the wrong form', (rest) => rest.order('1-7-2')],
    ['unknown argument', (rest) => rest.trades({ poolid: 1 } as never)],
    ['signal that is not an AbortSignal', (rest) => rest.balances({ signal: {} as AbortSignal })],
  ])('%s', async (_, call) => {
    const error = await rejectionOf(call(current.venue.rest))
    expectVenueError(error, 'VENUE_INPUT')
    expect(leaksOf(error)).toEqual([])
    expect(current.server.requests).toHaveLength(0)
  })

  it('a createVenue option error', () => {
    let error: unknown
    try {
      createVenue({ baseUrl: 'ftp://example.invalid', apiKey: KEY })
    } catch (thrown) {
      error = thrown
    }
    expectVenueError(error, 'VENUE_INPUT')
    expect(leaksOf(error)).toEqual([])
  })

  it('an apiKey option error does not repeat the rejected key', () => {
    const withControl = `${KEY}\n`
    let error: unknown
    try {
      createVenue({ baseUrl: current.server.url, apiKey: withControl })
    } catch (thrown) {
      error = thrown
    }
    expect(error).toMatchObject({ code: 'VENUE_INPUT', argument: 'apiKey' })
    expect(leaksOf(error)).toEqual([])
  })
})

describe('the venue object never shows the API key', () => {
  function venueRenderings(v: Venue): Record<string, string> {
    const { settings } = v
    return {
      'inspect(venue)': inspect(v, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
      'inspect(venue) without custom inspect': inspect(v, {
        depth: Number.POSITIVE_INFINITY,
        showHidden: true,
        customInspect: false,
      }),
      'JSON.stringify(venue)': json(v),
      'String(venue)': String(v),
      'inspect(venue.rest)': inspect(v.rest, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
      'String(settings)': String(settings),
      'JSON.stringify(settings)': json(settings),
      'inspect(settings)': inspect(settings, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
      'Object.values(settings)': Object.values(settings)
        .map((value) => `${String(value)} ${json(value)} ${inspect(value, { showHidden: true })}`)
        .join('\n'),
    }
  }

  function leaksOfVenue(v: Venue, secret = KEY): string[] {
    return Object.entries(venueRenderings(v))
      .filter(([, text]) => text.includes(secret))
      .map(([name]) => name)
  }

  it('inspect, JSON and String of the venue and its settings leave the key out', () => {
    expect(leaksOfVenue(current.venue)).toEqual([])
    expect(current.venue.settings.hasApiKey).toBe(true)
    expect(current.venue.settings).not.toHaveProperty('apiKey')
  })

  it('the settings still show the other options (the check is not vacuous)', () => {
    const texts = venueRenderings(current.venue)
    expect(texts['JSON.stringify(settings)']).toContain(current.server.url)
    expect(texts['inspect(venue)']).toContain(current.server.url)
    expect(texts['JSON.stringify(venue)']).toContain(current.server.url)
  })

  it('a key with leading and trailing spaces is sent trimmed and never shown', async () => {
    const padded = createVenue({
      baseUrl: current.server.url,
      apiKey: `  ${KEY} `,
    })
    try {
      await padded.rest.balances()
      expect(current.server.last().headers.authorization).toBe(KEY)
      expect(leaksOfVenue(padded)).toEqual([])
      expect(leaksOfVenue(padded, `${KEY} `)).toEqual([])

      current.server.handle(echo(400, 400, 'invalid parameter'))
      const error = await rejectionOf(padded.rest.balances())
      expectVenueError(error, 'VENUE_REJECTED')
      expect(leaksOf(error)).toEqual([])
    } finally {
      await padded.close()
    }
  })
})

describe('the authorization header', () => {
  const methods = Object.keys(ENDPOINTS) as RestMethodName[]

  it('only account endpoints are marked auth', () => {
    const withAuth = methods.filter((method) => ENDPOINTS[method].auth)
    expect(withAuth.length).toBeGreaterThan(0)
    for (const method of methods) {
      expect(ENDPOINTS[method].auth, method).toBe(ENDPOINTS[method].group === 'account')
    }
  })

  it.each(methods)(
    'rest.%s sends the key exactly when the endpoint is an account endpoint',
    async (method) => {
      const endpoint = ENDPOINTS[method]
      await REST_CALLS[method](current.venue.rest)
      expect(current.server.requests).toHaveLength(1)
      const request = current.server.last()
      const template = endpoint.path.replace('{id}', '')
      expect(
        request.pathname === endpoint.v2Path || request.pathname.startsWith(template),
        `${method} requested ${request.pathname}`,
      ).toBe(true)
      if (endpoint.group === 'account') {
        expect(request.headers.authorization).toBe(KEY)
      } else {
        expect(request.headers.authorization).toBeUndefined()
        expect(JSON.stringify(request)).not.toContain(KEY)
      }
    },
  )
})

/** Every rendering of `error` and of each `cause` below it, by name. */
function chainRenderings(error: unknown): Record<string, string> {
  const all: Record<string, string> = {}
  let current: unknown = error
  for (let depth = 0; current !== undefined && depth < 10; depth += 1) {
    Object.assign(all, renderings(`error${'.cause'.repeat(depth)}`, current))
    if (current instanceof VenueInputError) all[`argument@${depth}`] = current.argument
    current = current instanceof Error ? current.cause : undefined
  }
  return all
}

function leakedIn(error: unknown, secret: string): string[] {
  return Object.entries(chainRenderings(error))
    .filter(([, text]) => text.includes(secret))
    .map(([name]) => name)
}

function thrownAt(call: () => unknown): unknown {
  try {
    call()
  } catch (error) {
    return error
  }
  throw new Error('expected the call to throw')
}

describe('redaction holds at every entry point, for any key length', () => {
  const LONG_KEY = `k-${'Zq7Lm2Pw9X'.repeat(8)}`

  it('a watch method quoting the key as its bad argument', () => {
    const error = thrownAt(() => current.venue.watchPool(`${KEY}/..`.replace('/..', '\n')))
    expectVenueError(error, 'VENUE_INPUT')
    expect(leakedIn(error, KEY)).toEqual([])
    expect((error as Error).message).toContain('[redacted]')
  })

  it('a key over 40 characters is never shown in part, however the quote is cut', async () => {
    const long = createVenue({ baseUrl: current.server.url, apiKey: LONG_KEY })
    try {
      for (const value of [LONG_KEY, `x${LONG_KEY}`, `${LONG_KEY}\u0000`]) {
        const error = await rejectionOf(long.rest.klines({ poolId: 1, interval: value as never }))
        expectVenueError(error, 'VENUE_INPUT')
        expect(leakedIn(error, LONG_KEY.slice(0, 20))).toEqual([])
        const watchError = thrownAt(() => long.watchMyTrades({ cursor: value }))
        expect(leakedIn(watchError, LONG_KEY.slice(0, 20))).toEqual([])
      }
      expect(current.server.requests).toHaveLength(0)
    } finally {
      await long.close()
    }
  })

  it('the key used as an argument name is redacted in the message and in error.argument', async () => {
    const error = await rejectionOf(current.venue.rest.trades({ [KEY]: 1 } as never))
    expectVenueError(error, 'VENUE_INPUT', { argument: '[redacted]' })
    expect(leakedIn(error, KEY)).toEqual([])
    const watchError = thrownAt(() => current.venue.watchMyTrades({ [KEY]: 1 } as never))
    expectVenueError(watchError, 'VENUE_INPUT', { argument: '[redacted]' })
    expect(leakedIn(watchError, KEY)).toEqual([])
  })

  it("undici's parser error, which keeps the raw bytes the venue sent, never carries the key", async () => {
    const { createServer } = await import('node:net')
    const raw = createServer((socket) => {
      socket.once('data', (request) => {
        const header = /authorization: ([^\r\n]*)/i.exec(request.toString('latin1'))?.[1] ?? KEY
        // A broken header line that echoes the key: the HTTP parser keeps these bytes.
        socket.end(`HTTP/1.1 200 OK\r\nx-echo\u0001: ${header}\r\ncontent-length: 2\r\n\r\n{}`)
      })
    })
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve))
    const { port } = raw.address() as { port: number }
    const broken = createVenue({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY })
    try {
      const error = expectVenueError(await rejectionOf(broken.rest.balances()), 'VENUE_NETWORK')
      expect(leakedIn(error, KEY)).toEqual([])
      expect(error.cause).toBeDefined()
    } finally {
      await broken.close()
      await new Promise<void>((resolve) => raw.close(() => resolve()))
    }
  })

  it("a key found in the library's own words of a schema issue (its message, its path) is redacted there too", async () => {
    // An order answer with none of its fields: among the issues, `side` and `type` say
    // "expected one of 0|1", and one has the path ['pool_symbol'].
    current.server.handle(() => ok({}))
    for (const [key, marked] of [
      ['|', (issue: { message: string }) => issue.message.includes('0[redacted]1')],
      ['pool_symbol', (issue: { path: readonly PropertyKey[] }) => issue.path[0] === '[redacted]'],
    ] as const) {
      const odd = createVenue({ baseUrl: current.server.url, apiKey: key })
      try {
        const error = expectVenueError(
          await rejectionOf(odd.rest.order('1-7-0')),
          'VENUE_RESPONSE',
        ) as VenueResponseError
        expect(leakedIn(error, key)).toEqual([])
        expect(error.issues.some(marked), key).toBe(true)
        // Rendered again, not emptied: one issue per field of an order.
        expect(error.issues.length).toBeGreaterThan(10)
      } finally {
        await odd.close()
      }
    }
  })

  it('the key used as a call option name is redacted', async () => {
    const error = await rejectionOf(current.venue.rest.ping({ [KEY]: 1 } as never))
    expectVenueError(error, 'VENUE_INPUT', { argument: '[redacted]' })
    expect(leakedIn(error, KEY)).toEqual([])
  })

  it('the key used as a pool symbol does not show in the health report', async () => {
    current.server.handle(() => fail(503, 503, 'unavailable'))
    const { filter, firstValueFrom } = await import('rxjs')
    const subscription = current.venue.watchPool(KEY).subscribe({ error: () => undefined })
    try {
      const report = await firstValueFrom(
        current.venue.health.pipe(filter((r) => Object.keys(r).length > 0)),
      )
      expect(Object.keys(report)).toEqual(['watchPool("[redacted]")'])
      expect(JSON.stringify(report)).not.toContain(KEY)
    } finally {
      subscription.unsubscribe()
    }
  })

  it('a one-character key does not mangle the messages', async () => {
    const plain = createVenue({ baseUrl: current.server.url })
    const short = createVenue({ baseUrl: current.server.url, apiKey: 'e' })
    try {
      const expected = await rejectionOf(plain.rest.latestTrades({ limit: 500 }))
      const actual = await rejectionOf(short.rest.latestTrades({ limit: 500 }))
      expect((actual as Error).message).toBe((expected as Error).message)
      expect((actual as Error).message).toContain('latestTrades: limit must be')
      const unknown = thrownAt(() => short.watchDepth(1, { lmit: 5 } as never))
      expect((unknown as Error).message).toBe(
        'watchDepth: unknown argument "lmit" (allowed: limit, precision, source, priority)',
      )
    } finally {
      await plain.close()
      await short.close()
    }
  })

  it('a watch stream error (the venue echoing the key) reaches the subscriber redacted', async () => {
    current.server.handle(echo(400, 0, 'invalid API key'))
    const { firstValueFrom } = await import('rxjs')
    const error = await rejectionOf(firstValueFrom(current.venue.watchBalances()))
    expectVenueError(error, 'VENUE_AUTH')
    expect(leakedIn(error, KEY)).toEqual([])
  })
})
