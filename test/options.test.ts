import { inspect } from 'node:util'
import { Agent } from 'undici'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Venue, VenueOptions } from '../src/index.js'
import { createVenue, DEFAULT_PARAM_NAMES, VenueAbortError, VenueInputError } from '../src/index.js'
import { eachCase } from './helpers/each-case.js'
import { dataFor, T } from './helpers/fixtures.js'
import { ok, type RecordingServer, startRecordingServer } from './helpers/recording-server.js'

const KEY = 'k-DLTahpw5CKSZgov4BJRYfnu3AHQXemt29GPW'
/** Never contacted: creating a venue opens no connection. */
const BASE = 'http://127.0.0.1:8787'

const opened: Venue[] = []

/** Creates a venue that is closed after the test. */
function open(options: VenueOptions): Venue {
  const venue = createVenue(options)
  opened.push(venue)
  return venue
}

/** The error `createVenue` throws synchronously for `options` (typed loosely on purpose). */
function creationError(options: unknown): unknown {
  let venue: Venue
  try {
    venue = createVenue(options as VenueOptions)
  } catch (error) {
    return error
  }
  opened.push(venue)
  throw new Error('createVenue accepted the options')
}

/** Asserts that `createVenue(options)` throws VenueInputError naming `argument`. */
function expectOptionError(options: unknown, argument: string): VenueInputError {
  const error = creationError(options)
  expect(error).toBeInstanceOf(VenueInputError)
  const inputError = error as VenueInputError
  expect(inputError.argument).toBe(argument)
  expect(inputError.message.startsWith('createVenue: ')).toBe(true)
  return inputError
}

/** One test per row: `createVenue` rejects the row's value as option `name`. */
function rejectsEachAs(name: string, rows: readonly { title: string; value: unknown }[]): void {
  eachCase(
    rows,
    (r) => `rejects ${r.title} as ${name}`,
    ({ value }) => {
      expectOptionError({ baseUrl: BASE, [name]: value }, name)
    },
  )
}

/** A paramNames row mapping `group.argument` to `wire`: the error names that argument. */
function paramNamesRow(title: string, group: string, argument: string, wire: unknown) {
  return {
    title,
    paramNames: { [group]: { [argument]: wire } },
    argument: `paramNames.${group}.${argument}`,
  }
}

/** Runs `body` with a caller-supplied undici Agent, closed afterwards. */
async function withAgent(body: (agent: Agent) => Promise<void>): Promise<void> {
  const agent = new Agent()
  try {
    await body(agent)
  } finally {
    await agent.close()
  }
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((venue) => venue.close()))
})

describe('createVenue rejects invalid options synchronously', () => {
  it('rejects options that are not an object', () => {
    expectOptionError(null, 'options')
    expectOptionError('http://127.0.0.1', 'options')
  })

  rejectsEachAs('baseUrl', [
    { title: 'a missing baseUrl', value: undefined },
    { title: 'a numeric baseUrl', value: 8787 },
    { title: 'a URL object as baseUrl', value: new URL(BASE) },
    { title: 'an ftp URL', value: 'ftp://x' },
    { title: 'a ws URL', value: 'ws://127.0.0.1:8787' },
    { title: 'a URL with a query', value: 'http://h/?a=1' },
    { title: 'a URL with an empty query', value: 'http://h/?' },
    { title: 'a URL with a fragment', value: 'http://h/#top' },
    { title: 'a URL with an empty fragment', value: 'http://h/#' },
    { title: 'text that is not a URL', value: 'venue.example' },
    { title: 'an empty string', value: '' },
  ])

  it('names the rejected protocol', () => {
    expect(expectOptionError({ baseUrl: 'ftp://x' }, 'baseUrl').message).toContain('ftp:')
  })

  it('quotes the whole baseUrl given, not the scheme the URL parser made of it', () => {
    // new URL('localhost:8787') has the protocol 'localhost:'.
    expect(expectOptionError({ baseUrl: 'localhost:8787' }, 'baseUrl').message).toBe(
      'createVenue: baseUrl must be an http(s) URL (got "localhost:8787"; did you mean "http://localhost:8787"?)',
    )
    expect(expectOptionError({ baseUrl: 'ws://127.0.0.1:8787' }, 'baseUrl').message).toBe(
      'createVenue: baseUrl must be an http(s) URL (got "ws://127.0.0.1:8787")',
    )
    expect(expectOptionError({ baseUrl: 'venue.example' }, 'baseUrl').message).toBe(
      'createVenue: baseUrl is not a valid URL (got "venue.example"; did you mean "http://venue.example"?)',
    )
    // Long values too: an option is shown whole, never cut after 40 characters.
    const long = `localhost:8787/${'api/'.repeat(12)}`
    expect(expectOptionError({ baseUrl: long }, 'baseUrl').message).toContain(`(got "${long}";`)
    const pacing = `adaptive-${'x'.repeat(40)}`
    expect(expectOptionError({ baseUrl: BASE, pacing }, 'pacing').message).toContain(
      `(got "${pacing}")`,
    )
    const timeout = `${'1'.repeat(41)} ms`
    expect(
      expectOptionError({ baseUrl: BASE, requestTimeoutMs: timeout }, 'requestTimeoutMs').message,
    ).toContain(`(got "${timeout}")`)
  })

  it('does not quote a scheme-less baseUrl that may hold a password', () => {
    // 'user:pass@host' parses with the scheme 'user:' and no credentials.
    const error = expectOptionError({ baseUrl: 'user:s3cret@host:8787' }, 'baseUrl')
    expect(error.message).toBe(
      'createVenue: baseUrl must be an http(s) URL (the value is not shown: it has an "@" and may hold a password)',
    )
    expect(JSON.stringify(error)).not.toContain('s3cret')
  })

  it.each(['http://user:pass@host', 'https://user:pass@host:8443/api', 'http://:pass@host'])(
    'rejects credentials in %s without echoing them',
    (baseUrl) => {
      const error = expectOptionError({ baseUrl }, 'baseUrl')
      expect(error.message).not.toContain('pass')
      expect(error.message).not.toContain('user')
      expect(error.message).toContain('credentials')
      expect(JSON.stringify(error)).not.toContain('pass')
    },
  )

  it('takes pacing adaptive, even or interval, and nothing else', () => {
    for (const pacing of ['adaptive', 'even', 'interval'] as const) {
      expect(open({ baseUrl: BASE, pacing }).settings.pacing).toBe(pacing)
    }
    for (const value of ['fixed', '', 1, null]) {
      const error = expectOptionError({ baseUrl: BASE, pacing: value }, 'pacing')
      expect(error.message).toContain("pacing must be 'adaptive', 'even' or 'interval'")
    }
  })

  it('takes pollsPerSecond up to maxRequestsPerSecond, 97% of it by default', () => {
    expect(open({ baseUrl: BASE, maxRequestsPerSecond: 40 }).settings.pollsPerSecond).toBeCloseTo(
      38.8,
    )
    expect(
      open({ baseUrl: BASE, maxRequestsPerSecond: 40, pollsPerSecond: 30 }).settings.pollsPerSecond,
    ).toBe(30)
    const over = expectOptionError(
      { baseUrl: BASE, maxRequestsPerSecond: 40, pollsPerSecond: 41 },
      'pollsPerSecond',
    )
    expect(over.message).toContain('pollsPerSecond must be from 0.001 to maxRequestsPerSecond (40)')
    for (const value of [0, -1, Number.NaN, '5']) {
      expectOptionError({ baseUrl: BASE, pollsPerSecond: value }, 'pollsPerSecond')
    }
  })

  it.each(['pollIntervalMs', 'requestTimeoutMs', 'maxRequestsPerSecond'])(
    'rejects 0, -1, NaN, Infinity and the string "100" as %s',
    (name) => {
      for (const value of [
        0,
        -1,
        Number.NaN,
        Number.POSITIVE_INFINITY,
        Number.NEGATIVE_INFINITY,
        '100',
      ]) {
        const error = expectOptionError({ baseUrl: BASE, [name]: value }, name)
        expect(error.message).toContain(`${name} must be a positive finite number`)
      }
    },
  )

  it.each([1.5, 0, -2, '8'])('rejects connections %s', (connections) => {
    expectOptionError({ baseUrl: BASE, connections }, 'connections')
  })

  it.each(['settleMs', 'fillGraceMs'])(
    'takes 0 as %s (off) and rejects -1, NaN and "5"',
    (name) => {
      expect(open({ baseUrl: BASE, [name]: 0 }).settings).toMatchObject({ [name]: 0 })
      for (const value of [-1, Number.NaN, '5', 3e9]) {
        expectOptionError({ baseUrl: BASE, [name]: value }, name)
      }
    },
  )

  it.each([0, 1.5, -1, '5'])('rejects orderLookups %s (a whole number from 1)', (orderLookups) => {
    expectOptionError({ baseUrl: BASE, orderLookups }, 'orderLookups')
  })

  it.each([0, 4, 10_001, 2.5, '100', null])(
    'rejects relay.readIntervalMs %s (a whole number of ms from 5 to 10000)',
    (readIntervalMs) => {
      const relay = { redis: 'redis://127.0.0.1:6379', readIntervalMs }
      expectOptionError({ baseUrl: BASE, relay } as never, 'relay.readIntervalMs')
    },
  )

  it('shows relay.readIntervalMs in the settings: 100 by default, or the one given', () => {
    const redis = 'redis://127.0.0.1:6379'
    const given = createVenue({ baseUrl: BASE, relay: { redis, readIntervalMs: 10 } })
    const plain = createVenue({ baseUrl: BASE, relay: { redis } })
    expect(given.settings.relay).toEqual({
      redis: '127.0.0.1:6379',
      prefix: 'venue-rx',
      readIntervalMs: 10,
    })
    expect(plain.settings.relay?.readIntervalMs).toBe(100)
    // The shared budget takes no read interval.
    expectOptionError(
      { baseUrl: BASE, sharedBudget: { redis, readIntervalMs: 10 } } as never,
      'sharedBudget.readIntervalMs',
    )
    void given.close()
    void plain.close()
  })

  it('refuses null where an option is expected: only undefined means "not given"', () => {
    expectOptionError({ baseUrl: BASE, backoff: { jitter: null } } as never, 'backoff.jitter')
    const redis = 'redis://127.0.0.1:6379'
    expectOptionError({ baseUrl: BASE, relay: { redis, prefix: null } } as never, 'relay.prefix')
    expectOptionError(
      { baseUrl: BASE, sharedBudget: { redis, prefix: null } } as never,
      'sharedBudget.prefix',
    )
    for (const name of ['pollIntervalMs', 'settleMs', 'orderLookups', 'fillGraceMs']) {
      expectOptionError({ baseUrl: BASE, [name]: null } as never, name)
    }
  })

  it('rejects backoff.factor 0.5', () => {
    const error = expectOptionError({ baseUrl: BASE, backoff: { factor: 0.5 } }, 'backoff.factor')
    expect(error.message).toContain('>= 1')
  })

  it('rejects backoff.maxMs below backoff.initialMs', () => {
    const error = expectOptionError(
      { baseUrl: BASE, backoff: { initialMs: 1000, maxMs: 999 } },
      'backoff.maxMs',
    )
    expect(error.message).toContain('backoff.initialMs')
  })

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('rejects backoff.initialMs %s', (ms) => {
    expectOptionError({ baseUrl: BASE, backoff: { initialMs: ms } }, 'backoff.initialMs')
  })

  it("rejects backoff.jitter 'yes'", () => {
    expectOptionError({ baseUrl: BASE, backoff: { jitter: 'yes' } }, 'backoff.jitter')
  })

  it.each(['v3', 'V2', 2, null])('rejects marketData %s', (marketData) => {
    expectOptionError({ baseUrl: BASE, marketData }, 'marketData')
  })

  eachCase(
    [
      { title: 'an empty apiKey', apiKey: '' },
      { title: 'a blank apiKey', apiKey: '   ' },
      { title: 'a numeric apiKey', apiKey: 12345 },
      { title: 'an apiKey with a trailing newline', apiKey: `${KEY}\n` },
      { title: 'an apiKey carrying an injected header', apiKey: `${KEY}\r\nX-Injected: 1` },
      { title: 'an apiKey with a NUL character', apiKey: `${KEY}\u0000` },
      // Characters a header cannot carry: every account request would fail as a network error.
      { title: 'an apiKey with a non-ASCII letter', apiKey: `${KEY}é` },
      { title: 'an apiKey with an emoji', apiKey: `k-\u{1F511}${KEY}` },
      { title: 'an apiKey with a DEL character', apiKey: `${KEY}\u007f` },
      { title: 'an apiKey with a line separator', apiKey: `${KEY}\u2028` },
    ],
    (r) => `rejects ${r.title} without showing the key`,
    ({ apiKey }) => {
      const error = expectOptionError({ baseUrl: BASE, apiKey }, 'apiKey')
      expect(error.message).not.toContain(KEY)
      expect(JSON.stringify(error)).not.toContain(KEY)
      expect(inspect(error)).not.toContain(KEY)
    },
  )

  it('rejects the misspelt option apikey, naming it and not showing its value', () => {
    const error = expectOptionError({ baseUrl: BASE, apikey: KEY }, 'apikey')
    expect(error.message).toContain('"apikey"')
    expect(error.message).not.toContain(KEY)
  })

  eachCase(
    [
      // The error names the unknown group, not the argument inside it.
      {
        title: 'an unknown group',
        paramNames: { order: { poolId: 'pool' } },
        argument: 'paramNames.order',
      },
      paramNamesRow('an unknown argument', 'trades', 'afterseq', 'seq_gt'),
      paramNamesRow("another group's argument", 'transfers', 'afterSeq', 'seq_gt'),
      paramNamesRow('an empty wire name', 'trades', 'afterSeq', ''),
      paramNamesRow('a wire name with a space', 'transfers', 'afterId', 'sid gt'),
      paramNamesRow('a wire name with & and =', 'orders', 'status', 'status&x=1'),
      paramNamesRow('a wire name that is not a string', 'trades', 'limit', 5),
      { title: 'a non-object paramNames', paramNames: 'seq_gt', argument: 'paramNames' },
    ],
    (r) => `rejects paramNames with ${r.title}`,
    ({ paramNames, argument }) => {
      expectOptionError({ baseUrl: BASE, paramNames }, argument)
    },
  )

  rejectsEachAs('dispatcher', [
    { title: 'a plain object', value: {} },
    { title: 'a string', value: 'agent' },
    { title: 'an object whose dispatch is not a function', value: { dispatch: true } },
    { title: 'null', value: null },
  ])

  rejectsEachAs('scheduler', [
    { title: 'a plain object', value: {} },
    { title: 'a function', value: () => 0 },
    { title: 'an object without schedule', value: { now: () => 0 } },
    { title: 'null', value: null },
  ])
})

describe('venue.settings', () => {
  it('fills in the documented defaults', () => {
    const venue = open({ baseUrl: BASE })
    expect(venue.settings).toEqual({
      baseUrl: BASE,
      marketData: 'v2',
      pollIntervalMs: 1000,
      pacing: 'adaptive',
      pollsPerSecond: 9.7,
      requestTimeoutMs: 10_000,
      maxRequestsPerSecond: 10,
      lingerMs: 1000,
      settleMs: 1000,
      orderLookups: 5,
      fillGraceMs: 10_000,
      maxResponseBytes: 8 * 1024 * 1024,
      connections: 8,
      backoff: { initialMs: 500, maxMs: 30_000, factor: 2, jitter: true },
      paramNames: DEFAULT_PARAM_NAMES,
      hasApiKey: false,
      customDispatcher: false,
      customScheduler: false,
    })
  })

  it('shows the given options', () => {
    // Every value differs from its default, so each one shown was taken from the options.
    const given = {
      baseUrl: `${BASE}/api`,
      marketData: 'v1',
      pollIntervalMs: 250,
      pacing: 'even',
      pollsPerSecond: 2,
      requestTimeoutMs: 2000,
      maxRequestsPerSecond: 2.5,
      lingerMs: 50,
      settleMs: 0,
      orderLookups: 2,
      fillGraceMs: 500,
      maxResponseBytes: 1000,
      connections: 2,
      backoff: { initialMs: 100, maxMs: 100, factor: 1, jitter: false },
    } as const
    const venue = open({ ...given, apiKey: KEY, paramNames: { trades: { afterSeq: 'seq_gt' } } })
    expect(venue.settings).toEqual({
      ...given,
      paramNames: {
        ...DEFAULT_PARAM_NAMES,
        trades: { ...DEFAULT_PARAM_NAMES.trades, afterSeq: 'seq_gt' },
      },
      hasApiKey: true,
      customDispatcher: false,
      customScheduler: false,
    })
  })

  it('keeps backoff defaults for the fields not given', () => {
    const venue = open({ baseUrl: BASE, backoff: { maxMs: 60_000 } })
    expect(venue.settings.backoff).toEqual({
      initialMs: 500,
      maxMs: 60_000,
      factor: 2,
      jitter: true,
    })
  })

  it.each([
    ['http://venue.example/', 'http://venue.example'],
    ['http://venue.example/api/', 'http://venue.example/api'],
    ['https://venue.example:8443/a/b//', 'https://venue.example:8443/a/b'],
    ['http://venue.example', 'http://venue.example'],
  ])('turns baseUrl %s into %s (trailing slashes stripped)', (baseUrl, expected) => {
    expect(open({ baseUrl }).settings.baseUrl).toBe(expected)
  })

  it('reports hasApiKey true with a key and never shows the key', () => {
    const venue = open({ baseUrl: BASE, apiKey: KEY })
    expect(venue.settings.hasApiKey).toBe(true)
    expect(venue.settings).not.toHaveProperty('apiKey')
    expect(JSON.stringify(venue.settings)).not.toContain(KEY)
    expect(JSON.stringify(venue)).not.toContain(KEY)
    expect(inspect(venue, { depth: 10 })).not.toContain(KEY)
  })

  it('reports hasApiKey false without a key, or with apiKey: undefined', () => {
    expect(open({ baseUrl: BASE }).settings.hasApiKey).toBe(false)
    expect(open({ baseUrl: BASE, apiKey: undefined }).settings.hasApiKey).toBe(false)
  })

  it('is frozen, backoff included', () => {
    const venue = open({ baseUrl: BASE })
    const { settings } = venue
    expect(Object.isFrozen(settings)).toBe(true)
    expect(Object.isFrozen(settings.backoff)).toBe(true)
    expect(() => {
      ;(settings as { pollIntervalMs: number }).pollIntervalMs = 1
    }).toThrow(TypeError)
    expect(() => {
      ;(settings.backoff as { maxMs: number }).maxMs = 1
    }).toThrow(TypeError)
    expect(settings.pollIntervalMs).toBe(1000)
    expect(Object.isFrozen(venue)).toBe(true)
  })
})

describe('connections', () => {
  let server: RecordingServer

  beforeAll(async () => {
    server = await startRecordingServer((r) => ok(dataFor(r.pathname)))
  })

  beforeEach(() => {
    server.requests.length = 0
  })

  afterAll(async () => {
    await server?.close()
  })

  it('sends requests through a caller-supplied undici Agent', () =>
    withAgent(async (agent) => {
      const dispatch = vi.spyOn(agent, 'dispatch')
      const venue = open({ baseUrl: server.url, dispatcher: agent })
      expect(venue.settings.customDispatcher).toBe(true)
      await expect(venue.rest.ping()).resolves.toEqual({ timestamp: T * 1000 })
      expect(dispatch).toHaveBeenCalledTimes(1)
      expect(server.requests.map((r) => r.pathname)).toEqual(['/api/v1/ping'])
    }))

  it("venue.close() leaves the caller's Agent open for a second venue", () =>
    withAgent(async (agent) => {
      const first = createVenue({ baseUrl: server.url, dispatcher: agent })
      await first.rest.ping()
      await first.close()
      expect(agent.closed).toBe(false)
      expect(agent.destroyed).toBe(false)

      const second = open({ baseUrl: server.url, dispatcher: agent })
      await expect(second.rest.systemInfo()).resolves.toMatchObject({ version: '2.1.0' })
      expect(server.requests.map((r) => r.pathname)).toEqual([
        '/api/v1/ping',
        '/api/v1/system-info',
      ])
    }))

  it('after venue.close(), a call rejects with VenueAbortError and sends nothing', async () => {
    const venue = createVenue({ baseUrl: server.url, apiKey: KEY })
    await venue.rest.ping()
    await venue.close()
    await expect(venue.rest.ping()).rejects.toBeInstanceOf(VenueAbortError)
    await expect(venue.rest.balances()).rejects.toBeInstanceOf(VenueAbortError)
    expect(server.requests).toHaveLength(1)
  })

  it('after venue.close() on a caller-supplied Agent, a call rejects with VenueAbortError', () =>
    withAgent(async (agent) => {
      const venue = createVenue({ baseUrl: server.url, dispatcher: agent })
      await venue.close()
      await expect(venue.rest.ping()).rejects.toBeInstanceOf(VenueAbortError)
      expect(server.requests).toHaveLength(0)
    }))

  it('close() can be called twice', async () => {
    const venue = createVenue({ baseUrl: server.url })
    await Promise.all([venue.close(), venue.close()])
    await expect(venue.close()).resolves.toBeUndefined()
  })
})

describe('createVenue guards shared state and secrets', () => {
  it('refuses paramNames keys that only exist on Object.prototype', () => {
    expectOptionError(
      { baseUrl: BASE, paramNames: { trades: { toString: 'x' } } },
      'paramNames.trades.toString',
    )
    expectOptionError(
      { baseUrl: BASE, paramNames: { constructor: { keys: 'x' } } },
      'paramNames.constructor',
    )
    expect(typeof Object.keys).toBe('function')
  })

  it('never writes through __proto__ in paramNames', () => {
    const hostile = JSON.parse('{"__proto__":{"toString":"x"}}') as unknown
    expectOptionError({ baseUrl: BASE, paramNames: hostile }, 'paramNames.__proto__')
    expect(typeof Object.prototype.toString).toBe('function')
    expect(String({})).toBe('[object Object]')
  })

  it('freezes the resolved and the default filter-name tables', () => {
    const venue = open({ baseUrl: BASE, paramNames: { trades: { afterSeq: 'seq' } } })
    expect(Object.isFrozen(venue.settings.paramNames)).toBe(true)
    expect(Object.isFrozen(venue.settings.paramNames.trades)).toBe(true)
    expect(Object.isFrozen(DEFAULT_PARAM_NAMES.trades)).toBe(true)
    expect(() => {
      ;(DEFAULT_PARAM_NAMES.trades as { afterSeq: string }).afterSeq = 'x'
    }).toThrow(TypeError)
    expect(DEFAULT_PARAM_NAMES.trades.afterSeq).toBe('global_seq')
  })

  it('rejects delays longer than a Node timer can hold', () => {
    expectOptionError({ baseUrl: BASE, requestTimeoutMs: 2 ** 31 }, 'requestTimeoutMs')
    expectOptionError({ baseUrl: BASE, pollIntervalMs: 3e9 }, 'pollIntervalMs')
    expectOptionError({ baseUrl: BASE, backoff: { maxMs: 2 ** 31 } }, 'backoff.maxMs')
    expect(open({ baseUrl: BASE, requestTimeoutMs: 2 ** 31 - 1 }).settings.requestTimeoutMs).toBe(
      2 ** 31 - 1,
    )
  })

  it('rejects a backoff that is not an object, and unknown backoff keys', () => {
    expectOptionError({ baseUrl: BASE, backoff: 'fast' }, 'backoff')
    expectOptionError({ baseUrl: BASE, backoff: 5 }, 'backoff')
    expectOptionError({ baseUrl: BASE, backoff: null }, 'backoff')
    expectOptionError({ baseUrl: BASE, backoff: { initalMs: 5 } }, 'backoff.initalMs')
  })

  it('keeps a password in an unparsable baseUrl out of the error and its cause', () => {
    const error = expectOptionError({ baseUrl: 'http://user:s3cret@bad host' }, 'baseUrl')
    expect(error.cause).toBeUndefined()
    expect(inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true })).not.toContain(
      's3cret',
    )
    expect(JSON.stringify(error)).not.toContain('s3cret')
  })

  it('redacts the key when it is pasted into another option', () => {
    const error = expectOptionError(
      { baseUrl: BASE, apiKey: KEY, requestTimeoutMs: KEY },
      'requestTimeoutMs',
    )
    expect(error.message).not.toContain(KEY)
    expect(error.stack).not.toContain(KEY)
    // baseUrl is quoted whole, the suggested http:// URL too: the key is redacted in both.
    const url = expectOptionError({ baseUrl: `${KEY}:8787`, apiKey: KEY }, 'baseUrl')
    expect(url.message).toBe(
      'createVenue: baseUrl must be an http(s) URL (got "[redacted]:8787"; did you mean "http://[redacted]:8787"?)',
    )
    expect(inspect(url)).not.toContain(KEY)
  })
})
