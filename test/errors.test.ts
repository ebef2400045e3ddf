import { describe, expect, it } from 'vitest'
import {
  VenueAbortError,
  VenueApiError,
  VenueAuthError,
  VenueError,
  VenueInputError,
  VenueJournalError,
  VenueNetworkError,
  VenueNotFoundError,
  VenueRateLimitError,
  VenueRejectedError,
  VenueRelayError,
  VenueResponseError,
  VenueServerError,
  VenueTimeoutError,
} from '../src/index.js'
import { type ErrorClass, exportedErrorClasses } from './helpers/rest-errors.js'

const MARKER = Symbol.for('venue-rx.error.code')

interface Sample {
  readonly name: string
  readonly Class: ErrorClass
  readonly make: () => VenueError
}

function sample(Class: Sample['Class'], make: Sample['make']): Sample {
  return { name: Class.name, Class, make }
}

/** One instance of each concrete error class, built as the library builds them. */
const SAMPLES: readonly Sample[] = [
  sample(VenueInputError, () => new VenueInputError('limit', 'latestTrades: limit out of range')),
  sample(
    VenueAuthError,
    () => new VenueAuthError('invalid-key', 'balances: refused', { status: 400, endpoint: 'x' }),
  ),
  sample(VenueNotFoundError, () => new VenueNotFoundError('token: HTTP 404', { status: 404 })),
  sample(
    VenueRejectedError,
    () => new VenueRejectedError('depth: HTTP 400', { status: 400, venueCode: 400 }),
  ),
  sample(
    VenueRateLimitError,
    () => new VenueRateLimitError('ping: rate limited', { status: 429, retryAfterMs: 1000 }),
  ),
  sample(VenueServerError, () => new VenueServerError('pools: HTTP 502', { status: 502 })),
  sample(VenueNetworkError, () => new VenueNetworkError('ping: network error', { causeCode: 'X' })),
  sample(VenueRelayError, () => new VenueRelayError('cannot reach Redis at 127.0.0.1:6379')),
  sample(
    VenueJournalError,
    () =>
      new VenueJournalError('journal session.journal: line 3 is malformed (not JSON)', {
        problem: 'malformed',
        file: 'session.journal',
        line: 3,
      }),
  ),
  sample(VenueTimeoutError, () => new VenueTimeoutError('ping: timeout', { timeoutMs: 150 })),
  sample(VenueAbortError, () => new VenueAbortError('ping: aborted by the caller')),
  sample(
    VenueResponseError,
    () => new VenueResponseError('json', 'pools: bad JSON', { status: 200 }),
  ),
  sample(
    VenueApiError,
    () => new VenueApiError('depth: code 10001', { status: 200, venueCode: 10001 }),
  ),
]

const STABLE_CODES: Record<string, string> = {
  VenueInputError: 'VENUE_INPUT',
  VenueAuthError: 'VENUE_AUTH',
  VenueNotFoundError: 'VENUE_NOT_FOUND',
  VenueRejectedError: 'VENUE_REJECTED',
  VenueRelayError: 'VENUE_RELAY',
  VenueJournalError: 'VENUE_JOURNAL',
  VenueRateLimitError: 'VENUE_RATE_LIMITED',
  VenueServerError: 'VENUE_SERVER',
  VenueNetworkError: 'VENUE_NETWORK',
  VenueTimeoutError: 'VENUE_TIMEOUT',
  VenueAbortError: 'VENUE_ABORTED',
  VenueResponseError: 'VENUE_RESPONSE',
  VenueApiError: 'VENUE_API',
}

/** An object made by some other class (e.g. a second copy of venue-rx) carrying the marker. */
function foreignError(code: unknown): Error {
  class OtherCopyError extends Error {
    constructor() {
      super('from another copy of the package')
      Object.defineProperty(this, MARKER, { value: code })
    }
  }
  return new OtherCopyError()
}

describe('instanceof across copies of the package', () => {
  it('an instance of another class carrying the VENUE_SERVER marker is a VenueServerError and a VenueError', () => {
    const foreign = foreignError('VENUE_SERVER')
    expect(foreign instanceof VenueServerError).toBe(true)
    expect(foreign instanceof VenueError).toBe(true)
    expect(foreign instanceof VenueAuthError).toBe(false)
    expect(foreign instanceof VenueNetworkError).toBe(false)
  })

  it('a plain object carrying the marker matches its class only', () => {
    const plain = {}
    Object.defineProperty(plain, MARKER, { value: 'VENUE_RATE_LIMITED' })
    expect(plain instanceof VenueRateLimitError).toBe(true)
    expect(plain instanceof VenueError).toBe(true)
    expect(plain instanceof VenueServerError).toBe(false)
  })

  it.each<[string, unknown]>([
    ['a plain Error', new Error('x')],
    ['an object with a non-string marker', foreignError(42)],
    ['an object with a code property but no marker', { code: 'VENUE_SERVER' }],
    ['null', null],
    ['a string', 'VENUE_SERVER'],
    ['undefined', undefined],
  ])('%s is not a VenueError', (_, value) => {
    expect(value instanceof VenueError).toBe(false)
    expect(value instanceof VenueServerError).toBe(false)
  })

  it.each(SAMPLES)(
    'a real $name is an instance of its class, VenueError and Error, and of no other class',
    ({ Class, make }) => {
      const error = make()
      expect(error instanceof Class).toBe(true)
      expect(error instanceof VenueError).toBe(true)
      expect(error instanceof Error).toBe(true)
      for (const { Class: Other } of SAMPLES) {
        if (Other !== Class) expect(error instanceof Other, Other.name).toBe(false)
      }
    },
  )
})

describe('codes, names and causes', () => {
  it('the package exports exactly the known error classes', () => {
    const exported = exportedErrorClasses().map(([name]) => name)
    expect(exported.sort()).toEqual(Object.keys(STABLE_CODES).sort())
    expect(SAMPLES.map(({ Class }) => Class.name).sort()).toEqual(Object.keys(STABLE_CODES).sort())
  })

  it('every error class has a distinct static code', () => {
    const codes = SAMPLES.map(({ Class }) => Class.code)
    expect(new Set(codes).size).toBe(SAMPLES.length)
    expect(codes).not.toContain(VenueError.code)
  })

  it.each(SAMPLES)(
    '$name has its stable static code, equal to the code of its instances',
    ({ Class, make }) => {
      expect(Class.code).toBe(STABLE_CODES[Class.name])
      const error = make()
      expect(error.code).toBe(Class.code)
      expect((error as unknown as Record<symbol, unknown>)[MARKER]).toBe(Class.code)
    },
  )

  it.each(SAMPLES)('$name instances are named after the class', ({ Class, make }) => {
    const error = make()
    expect(error.name).toBe(Class.name)
    expect(String(error)).toBe(`${Class.name}: ${error.message}`)
    expect(error.stack?.startsWith(`${Class.name}: `)).toBe(true)
  })

  it('the cause is kept as the standard `cause`', () => {
    const cause = new Error('ECONNRESET')
    const error = new VenueNetworkError('ping: network error', { cause, causeCode: 'ECONNRESET' })
    expect(error.cause).toBe(cause)
    const reason = { why: 'user left' }
    expect(new VenueAbortError('ping: aborted', { cause: reason }).cause).toBe(reason)
  })

  it('without a cause the error has no `cause` property at all', () => {
    const error = new VenueServerError('pools: HTTP 502', { status: 502 })
    expect('cause' in error).toBe(false)
  })

  it('the endpoint given at construction is kept', () => {
    expect(new VenueTimeoutError('t', { timeoutMs: 1, endpoint: 'ping' }).endpoint).toBe('ping')
    expect(new VenueInputError('limit', 'x').endpoint).toBeUndefined()
  })
})

describe('toJSON', () => {
  it('gives name, code, message, retryable and the own fields, but no stack or cause', () => {
    const error = new VenueRateLimitError('ping: rate limited (HTTP 429, retry after 3000 ms)', {
      status: 429,
      retryAfterMs: 3000,
      venueMessage: 'slow down',
      venueCode: 429,
      endpoint: 'ping',
      cause: new Error('inner'),
    })
    const json = error.toJSON()
    expect(json).toEqual({
      name: 'VenueRateLimitError',
      code: 'VENUE_RATE_LIMITED',
      message: 'ping: rate limited (HTTP 429, retry after 3000 ms)',
      retryable: true,
      endpoint: 'ping',
      status: 429,
      retryAfterMs: 3000,
      venueMessage: 'slow down',
    })
    expect(json).not.toHaveProperty('stack')
    expect(json).not.toHaveProperty('cause')
  })

  it('JSON.stringify of an error uses it', () => {
    const error = new VenueResponseError('schema', 'depth: response does not match', {
      status: 200,
      endpoint: 'depth',
      issues: [{ path: ['bids', 0, 1], message: 'Expected a decimal', code: 'custom' }],
    })
    const parsed = JSON.parse(JSON.stringify(error)) as Record<string, unknown>
    expect(parsed).toEqual({
      name: 'VenueResponseError',
      code: 'VENUE_RESPONSE',
      message: 'depth: response does not match',
      retryable: false,
      endpoint: 'depth',
      problem: 'schema',
      status: 200,
      issues: [{ path: ['bids', 0, 1], message: 'Expected a decimal', code: 'custom' }],
    })
    expect(Object.keys(parsed)).not.toContain('stack')
  })

  it.each(SAMPLES)(
    '$name.toJSON() carries name, code, message and retryable',
    ({ Class, make }) => {
      const error = make()
      const json = error.toJSON()
      expect(json).toMatchObject({
        name: Class.name,
        code: Class.code,
        message: error.message,
        retryable: error.retryable,
      })
      expect(json).not.toHaveProperty('stack')
    },
  )
})

describe('retryable', () => {
  const response = { status: 200 }
  it.each<[string, boolean, VenueError]>([
    ['VenueInputError', false, new VenueInputError('limit', 'm')],
    ['VenueAuthError (missing-key)', false, new VenueAuthError('missing-key', 'm')],
    ['VenueAuthError (forbidden)', false, new VenueAuthError('forbidden', 'm', { status: 403 })],
    ['VenueNotFoundError', false, new VenueNotFoundError('m', { status: 404 })],
    ['VenueRejectedError', false, new VenueRejectedError('m', { status: 400 })],
    ['VenueRateLimitError', true, new VenueRateLimitError('m', { status: 429 })],
    ['VenueServerError (502)', true, new VenueServerError('m', { status: 502 })],
    [
      'VenueServerError (ambiguous 500)',
      true,
      new VenueServerError('m', { status: 500, venueMessage: 'service internal error' }),
    ],
    ['VenueNetworkError', true, new VenueNetworkError('m', {})],
    ['VenueTimeoutError', true, new VenueTimeoutError('m', { timeoutMs: 1 })],
    ['VenueAbortError', false, new VenueAbortError('m')],
    ['VenueResponseError json', true, new VenueResponseError('json', 'm', response)],
    ['VenueResponseError envelope', true, new VenueResponseError('envelope', 'm', response)],
    ['VenueResponseError schema', false, new VenueResponseError('schema', 'm', response)],
    ['VenueApiError venueCode 429', true, new VenueApiError('m', { ...response, venueCode: 429 })],
    ['VenueApiError venueCode 500', true, new VenueApiError('m', { ...response, venueCode: 500 })],
    ['VenueApiError venueCode 503', true, new VenueApiError('m', { ...response, venueCode: 503 })],
    ['VenueApiError venueCode 400', false, new VenueApiError('m', { ...response, venueCode: 400 })],
    ['VenueApiError venueCode 1', false, new VenueApiError('m', { ...response, venueCode: 1 })],
    [
      'VenueApiError venueCode 10001 (a venue business code, not an HTTP status)',
      false,
      new VenueApiError('m', { ...response, venueCode: 10001 }),
    ],
  ])('%s: retryable is %s', (_, retryable, error) => {
    expect(error.retryable).toBe(retryable)
  })

  it('VenueServerError is ambiguous only for HTTP 500 "service internal error"', () => {
    expect(
      new VenueServerError('m', { status: 500, venueMessage: 'service internal error' }).ambiguous,
    ).toBe(true)
    expect(new VenueServerError('m', { status: 500, venueMessage: 'other' }).ambiguous).toBe(false)
    expect(
      new VenueServerError('m', { status: 503, venueMessage: 'service internal error' }).ambiguous,
    ).toBe(false)
  })

  it('VenueResponseError keeps its issues and defaults them to an empty list', () => {
    expect(new VenueResponseError('json', 'm', response).issues).toEqual([])
    const issues = [{ path: ['a'], message: 'bad' }]
    expect(new VenueResponseError('schema', 'm', { ...response, issues }).issues).toEqual(issues)
  })
})
