/**
 * Property-based: the API key never appears in any rendering of any error, whatever the
 * key and wherever it turns up.
 *
 * Keys: realistic (12 to 200 printable ASCII characters) and short (1 to 11 characters of
 * `~^|`, which venue-rx's own messages never contain, so any occurrence is a leak). For
 * every key, the renderings checked are `message`, `stack`, `String()`,
 * `util.inspect(…, { depth: 10 })`, `JSON.stringify()` and `argument`, of the error and of
 * every `cause` below it (test/fuzz/renderings.ts). The key is provoked into errors:
 *
 * - as every string argument of every REST and watch method, with text around it, and as
 *   an argument name (an unknown key), while the venue echoes path and query back;
 * - as option values and option names of `createVenue`;
 * - echoed by the venue: in the envelope message (any error status, 400 "invalid API
 *   key", envelope code != 0), in a data field (schema errors), as an envelope field, in
 *   HTML and truncated bodies, in headers, and in malformed HTTP a raw TCP server writes
 *   (undici's parser errors keep the raw bytes); through REST calls and through streams,
 *   whose `venue.health` reports are checked too;
 * - `util.inspect(venue)`, `JSON.stringify(venue)` and `String(venue.settings)`.
 *
 * Also: the key goes only in the authorization header of account endpoints; and with a
 * key, venue-rx's own words are unchanged (the same messages as without a key).
 *
 * Sizes: `FUZZ_RUNS` (runs per property) and `FUZZ_SEED`; see test/fuzz/config.ts.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import type { Observable } from 'rxjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createVenue,
  fileCheckpoint,
  type HealthReport,
  type RestMethodName,
  type Venue,
  VenueInputError,
  type VenueOptions,
} from '../src/index.js'
import { allPaths, copy, setAt } from './fuzz/answers.js'
import {
  callEveryMethod,
  collect,
  describeError,
  errorOf,
  type FuzzCall,
  REST_METHODS,
  settle,
  textPlacements,
  VALID_REST_ARGS,
  VALID_WATCH_ARGS,
  WATCH_METHODS,
} from './fuzz/calls.js'
import { check, type PropertySize, timeoutFor } from './fuzz/config.js'
import {
  decorate,
  decoration,
  MALFORMED,
  type RawServer,
  realisticKey,
  receivedKey,
  shortKey,
  startRawServer,
} from './fuzz/keys.js'
import { leaksIn, valueRenderings } from './fuzz/renderings.js'
import { decodedPathname, isAccountMethod, runPrefix, validData } from './fuzz/wire.js'
import {
  fail,
  ok,
  type RecordedRequest,
  type RecordingServer,
  type Reply,
  startRecordingServer,
} from './helpers/recording-server.js'

/** Each property's default runs and about how long one run takes. */
const SIZE = {
  placement: { runs: 5, perRunMs: 800 },
  option: { runs: 30, perRunMs: 20 },
  echo: { runs: 20, perRunMs: 100 },
  checkpoint: { runs: 10, perRunMs: 200 },
  malformed: { runs: 20, perRunMs: 50 },
  venue: { runs: 20, perRunMs: 30 },
  ownWords: { runs: 5, perRunMs: 500 },
} as const satisfies Record<string, PropertySize>

let server: RecordingServer
let raw: RawServer
let run = 0
/** What the recording server answers, per run prefix. */
const handlers = new Map<string, (request: RecordedRequest) => Reply>()

const KEYS = [
  { name: 'realistic keys', key: realisticKey },
  { name: 'short keys of ~^|', key: shortKey },
] as const

beforeAll(async () => {
  server = await startRecordingServer((request) => {
    const handler = handlers.get(runPrefix(request))
    return handler === undefined ? ok(validData(request)) : handler(request)
  })
  raw = await startRawServer()
})

afterAll(async () => {
  await server?.close()
  await raw?.close()
})

/** A venue with `key` on its own path prefix, answered by `handler`; closed after `use`. */
async function withVenue<T>(
  key: string,
  handler: ((request: RecordedRequest) => Reply) | undefined,
  use: (venue: Venue, prefix: string) => Promise<T>,
): Promise<T> {
  const prefix = `/r${++run}`
  // Earlier runs' requests are told apart by their prefix; dropped to keep the list short.
  server.requests.length = 0
  if (handler !== undefined) handlers.set(prefix, handler)
  const venue = createVenue({
    baseUrl: server.url + prefix,
    apiKey: key,
    pollIntervalMs: 2,
    // Two polls of settle window (the default second would outlast each run's wait).
    settleMs: 4,
    lingerMs: 1,
    requestTimeoutMs: 1_000,
    maxRequestsPerSecond: 1_000_000,
    backoff: { initialMs: 1, maxMs: 3 },
  })
  try {
    return await use(venue, prefix)
  } finally {
    await venue.close()
    handlers.delete(prefix)
  }
}

/** Fails with the names of the renderings of `error` that hold `key`. */
function expectNoLeak(error: unknown, key: string, what: string): void {
  if (error === undefined) return
  const leaks = leaksIn(error, key)
  if (leaks.length > 0) {
    expect.fail(`${what}: ${describeError(error)} shows the key in ${leaks.join(', ')}`)
  }
}

/** A short label of a call for failure messages: the method and its arguments' shapes. */
function label(call: FuzzCall): string {
  const shape = (arg: unknown): string => {
    if (typeof arg === 'string') return 'text'
    if (typeof arg !== 'object' || arg === null) return String(arg)
    const keys = Object.keys(arg).map((k) => (k.includes('\n') || k.length > 12 ? '<text>' : k))
    return `{ ${keys.join(', ')} }`
  }
  return `${call.method}(${call.args.map(shape).join(', ')})`
}

/** The venue echoes the decoded path and query of every request in a 404 message. */
function echoRequest(request: RecordedRequest): Reply {
  return fail(
    404,
    404,
    `no such resource: ${decodedPathname(request)} ${JSON.stringify(request.query)}`,
  )
}

for (const { name, key: keyArbitrary } of KEYS) {
  describe(`the API key never shows in an error (${name})`, () => {
    it(
      'pasted as every string argument and argument name of every REST and watch method',
      async () => {
        await check(
          fc.asyncProperty(keyArbitrary, decoration, async (key, decorated) => {
            const text = decorate(key, decorated)
            await withVenue(key, echoRequest, async (venue, prefix) => {
              // Every leaking call is listed, not only the first one.
              const leaking: string[] = []
              const results = await callEveryMethod(venue, textPlacements(text), 200)
              for (const { call, outcome } of results) {
                const error = errorOf(outcome)
                const leaks = error === undefined ? [] : leaksIn(error, key)
                if (leaks.length > 0) {
                  leaking.push(`${label(call)}: ${describeError(error)} [${leaks.join(', ')}]`)
                }
              }
              expect(leaking, 'calls whose error shows the key').toEqual([])
              for (const request of server.requests.filter((r) => r.rawPath.startsWith(prefix))) {
                const account = request.rawPath.slice(prefix.length).match(ACCOUNT_PATHS)
                if (account === null) expect(request.headers.authorization).toBeUndefined()
              }
            })
          }),
          SIZE.placement,
        )
      },
      timeoutFor(SIZE.placement),
    )

    it(
      'in createVenue options: as values and as option names',
      async () => {
        await check(
          fc.asyncProperty(
            keyArbitrary,
            decoration,
            fc.nat({ max: OPTION_PLACEMENTS.length - 1 }),
            async (key, decorated, at) => {
              const text = decorate(key, decorated)
              const [placement, mustThrow] = OPTION_PLACEMENTS[at] as OptionPlacement
              const options = { baseUrl: server.url, apiKey: key, ...placement(text, server.url) }
              let venue: Venue | undefined
              try {
                venue = createVenue(options as VenueOptions)
              } catch (error) {
                expect(error, describeError(error)).toBeInstanceOf(VenueInputError)
                expectNoLeak(error, key, 'createVenue')
                return
              }
              await venue.close()
              expect(mustThrow, 'createVenue accepted an invalid option').toBe(false)
            },
          ),
          SIZE.option,
        )
      },
      timeoutFor(SIZE.option),
    )

    it(
      'echoed by the venue (messages, data, envelope, HTML, headers) to REST calls and streams, and in venue.health',
      async () => {
        await check(
          fc.asyncProperty(
            keyArbitrary,
            decoration,
            fc.constantFrom(...ECHO_SCENARIOS),
            fc.constantFrom<RestMethodName | (typeof WATCH_METHODS)[number]>(
              ...REST_METHODS,
              ...WATCH_METHODS,
            ),
            fc.nat(),
            async (key, decorated, scenario, method, at) => {
              const around = (echo: string) => decorate(echo, decorated).replace(/\n/g, ' ')
              const handler = (request: RecordedRequest) =>
                scenario.reply(around(request.headers.authorization ?? key), request, at)
              await withVenue(key, handler, async (venue) => {
                const reports: HealthReport[] = []
                const health = venue.health.subscribe((report) => reports.push(report))
                const call: FuzzCall = {
                  method,
                  args: (WATCH_METHODS as readonly string[]).includes(method)
                    ? VALID_WATCH_ARGS[method as (typeof WATCH_METHODS)[number]]
                    : VALID_REST_ARGS[method as RestMethodName],
                }
                const outcome = await settle(venue, call, 60)
                health.unsubscribe()
                expectNoLeak(errorOf(outcome), key, `${scenario.name}, ${method}`)
                for (const [where, text] of Object.entries(valueRenderings('health', reports))) {
                  expect(text.includes(key), `${where} shows the key`).toBe(false)
                }
              })
            },
          ),
          SIZE.echo,
        )
      },
      timeoutFor(SIZE.echo),
    )

    it(
      'in the errors of checkpoints: file checkpoints whose path holds the key, stores and callbacks that throw it',
      async () => {
        // A path is made of the key itself (no "/" in it): nothing is written outside `dir`.
        const pathSafe = keyArbitrary.filter((key) => !key.includes('/') && !key.includes('\\'))
        await check(
          fc.asyncProperty(pathSafe, async (key) => {
            const dir = await mkdtemp(join(tmpdir(), 'venue-rx-fuzz-'))
            try {
              await withVenue(key, undefined, async (venue) => {
                const leaking: string[] = []
                for (const [what, options] of await checkpointOptions(dir, key)) {
                  for (const method of ['watchMyTrades', 'watchTransfers'] as const) {
                    const stream = venue[method](options as never) as Observable<unknown>
                    const result = await collect(stream, 300)
                    const leaks = result.error === undefined ? [] : leaksIn(result.error, key)
                    if (leaks.length > 0) {
                      leaking.push(
                        `${method}, ${what}: ${describeError(result.error)} [${leaks.join(', ')}]`,
                      )
                    }
                  }
                }
                expect(leaking, 'stream errors that show the key').toEqual([])
              })
            } finally {
              await rm(dir, { recursive: true, force: true })
            }
          }),
          SIZE.checkpoint,
        )
      },
      timeoutFor(SIZE.checkpoint),
    )

    it(
      'in malformed HTTP answers (undici parser errors keep the raw bytes)',
      async () => {
        await check(
          fc.asyncProperty(
            keyArbitrary,
            fc.constantFrom(...Object.keys(MALFORMED)),
            fc.constantFrom(...REST_METHODS),
            async (key, mode, method) => {
              const write = MALFORMED[mode] as (echo: string) => string
              raw.respond = (request) => write(receivedKey(request, key))
              const venue = createVenue({
                baseUrl: raw.url,
                apiKey: key,
                requestTimeoutMs: 1_000,
                maxRequestsPerSecond: 1_000_000,
              })
              try {
                const outcome = await settle(venue, { method, args: VALID_REST_ARGS[method] })
                expectNoLeak(errorOf(outcome), key, `${mode}, ${method}`)
              } finally {
                await venue.close()
              }
            },
          ),
          SIZE.malformed,
        )
      },
      timeoutFor(SIZE.malformed),
    )
  })

  describe(`the venue object and its requests never show the API key (${name})`, () => {
    it(
      'inspect(venue), JSON.stringify(venue), String(venue.settings); the key only on account endpoints',
      async () => {
        await check(
          fc.asyncProperty(
            keyArbitrary,
            fc.constantFrom('', ' ', '  '),
            fc.constantFrom(...REST_METHODS),
            async (key, padding, method) => {
              await withVenue(`${padding}${key}${padding}`, undefined, async (venue, prefix) => {
                const outcome = await settle(venue, { method, args: VALID_REST_ARGS[method] })
                expect(outcome.kind, describeError(errorOf(outcome))).toBe('resolved')
                const texts = {
                  ...valueRenderings('venue', venue),
                  ...valueRenderings('venue.settings', venue.settings),
                  ...valueRenderings('venue.rest', venue.rest),
                }
                for (const [where, text] of Object.entries(texts)) {
                  expect(text.includes(key), `${where} shows the key`).toBe(false)
                }
                const sent = server.requests.filter((r) => r.rawPath.startsWith(`${prefix}/`))
                expect(sent).toHaveLength(1)
                const [request] = sent
                if (isAccountMethod(method)) {
                  expect(request?.headers.authorization).toBe(key)
                } else {
                  expect(request?.headers.authorization).toBeUndefined()
                  expect(JSON.stringify(request).includes(key)).toBe(false)
                }
              })
            },
          ),
          SIZE.venue,
        )
      },
      timeoutFor(SIZE.venue),
    )
  })
}

describe("redaction never touches venue-rx's own words", () => {
  it(
    'with a short key, every input error reads exactly as without a key',
    async () => {
      await check(
        fc.asyncProperty(shortKey, async (key) => {
          const calls = textPlacements('plain').filter((call) => !call.method.startsWith('watch'))
          const keyless = createVenue({ baseUrl: `${server.url}/r${++run}` })
          try {
            await withVenue(key, echoRequest, async (keyed) => {
              const plain = await callEveryMethod(keyless, calls)
              const redacted = await callEveryMethod(keyed, calls)
              redacted.forEach(({ call, outcome }, i) => {
                const expected = errorOf(plain[i]?.outcome ?? outcome)
                if (!(expected instanceof VenueInputError)) return
                const actual = errorOf(outcome)
                expect((actual as Error | undefined)?.message, label(call)).toBe(expected.message)
              })
            })
          } finally {
            await keyless.close()
          }
        }),
        SIZE.ownWords,
      )
    },
    timeoutFor(SIZE.ownWords),
  )

  it("with the key '~', latestTrades({ limit: 500 }) rejects with the keyless message", async () => {
    const keyless = createVenue({ baseUrl: server.url })
    const keyed = createVenue({ baseUrl: server.url, apiKey: '~' })
    try {
      const expected = await settle(keyless, { method: 'latestTrades', args: [{ limit: 500 }] })
      const actual = await settle(keyed, { method: 'latestTrades', args: [{ limit: 500 }] })
      expect(errorOf(expected)).toBeInstanceOf(VenueInputError)
      expect((errorOf(actual) as Error).message).toBe((errorOf(expected) as Error).message)
    } finally {
      await keyless.close()
      await keyed.close()
    }
  })
})

describe('venue.health', () => {
  it('a pool symbol equal to the key does not show the key in the health report', async () => {
    const key = 'k-HealthKey0123456789abcdefghijABCDEFGH'
    await withVenue(key, echoRequest, async (venue) => {
      const reports: HealthReport[] = []
      const health = venue.health.subscribe((report) => reports.push(report))
      await collect(venue.watchPool(key) as Observable<unknown>, 100)
      health.unsubscribe()
      for (const [where, text] of Object.entries(valueRenderings('health', reports))) {
        expect(text.includes(key), `${where} shows the key`).toBe(false)
      }
    })
  })
})

/**
 * Feed options whose checkpoint (or progress callback) fails with the key in sight: file
 * checkpoints under `dir` whose file name holds the key (not JSON, no cursor, the key as
 * the cursor, a directory that is missing), and stores that throw or return the key.
 */
async function checkpointOptions(dir: string, key: string): Promise<[string, unknown][]> {
  const file = (name: string) => `${dir}/${name}`
  await writeFile(file(`${key}.json`), 'not json')
  await writeFile(file(`${key}-empty.json`), '{}')
  await writeFile(file('cursor.json'), JSON.stringify({ cursor: key }))
  await mkdir(file('sub'), { recursive: true })
  const fails = () => {
    throw new Error(`no cursor for ${key}`)
  }
  return [
    ['a file that is not JSON', { checkpoint: fileCheckpoint(file(`${key}.json`)) }],
    ['a file without a cursor', { checkpoint: fileCheckpoint(file(`${key}-empty.json`)) }],
    ['a file whose cursor is the key', { checkpoint: fileCheckpoint(file('cursor.json')) }],
    [
      'a file in a missing directory',
      { checkpoint: fileCheckpoint(file(`sub/${key}/cursor.json`)) },
    ],
    ['load() returns the key', { checkpoint: { load: () => key, save: () => undefined } }],
    ['load() throws', { checkpoint: { load: fails, save: () => undefined } }],
    ['load() rejects', { checkpoint: { load: async () => fails(), save: () => undefined } }],
    ['save() throws', { checkpoint: { load: () => undefined, save: fails } }],
    ['onProgress throws', { onProgress: fails }],
  ]
}

const ACCOUNT_PATHS =
  /^\/api\/v1\/(info|balances|history-orders|open-orders|orders\/|trades|transfers)/

/** An option placement: the options it adds, and whether createVenue must throw. */
type OptionPlacement = readonly [
  (text: string, url: string) => Record<string, unknown>,
  mustThrow: boolean,
]

/** Where the key text can go in createVenue's options. */
const OPTION_PLACEMENTS: readonly OptionPlacement[] = [
  [(text) => ({ baseUrl: text }), false],
  [(text) => ({ baseUrl: `${text}://127.0.0.1` }), false],
  [(text) => ({ baseUrl: `ftp://${text}` }), true],
  [(text, url) => ({ baseUrl: `${url}/?${text}` }), true],
  [(text, url) => ({ baseUrl: `${url}/#${text}` }), true],
  [(text) => ({ baseUrl: `http://${text}@127.0.0.1:1` }), false],
  [(text) => ({ baseUrl: `http://user:${text}@127.0.0.1:1` }), false],
  [(text) => ({ [text]: 1 }), true],
  [(text) => ({ marketData: text }), true],
  [(text) => ({ pollIntervalMs: text }), true],
  [(text) => ({ requestTimeoutMs: text }), true],
  [(text) => ({ maxRequestsPerSecond: text }), true],
  [(text) => ({ lingerMs: text }), true],
  [(text) => ({ maxResponseBytes: text }), true],
  [(text) => ({ connections: text }), true],
  [(text) => ({ dispatcher: text }), true],
  [(text) => ({ backoff: text }), true],
  [(text) => ({ backoff: { initialMs: text } }), true],
  [(text) => ({ backoff: { [text]: 1 } }), true],
  [(text) => ({ backoff: { jitter: text } }), true],
  [(text) => ({ paramNames: text }), true],
  [(text) => ({ paramNames: { [text]: {} } }), true],
  [(text) => ({ paramNames: { trades: text } }), true],
  [(text) => ({ paramNames: { trades: { [text]: 'x' } } }), true],
  [(text) => ({ paramNames: { trades: { afterSeq: `${text}!` } } }), true],
  [(text) => ({ paramNames: { transfers: { afterId: text } } }), false],
  [(text) => ({ apiKey: `${text}\u0000` }), true],
  [(text) => ({ apiKey: `${text}é` }), true],
]

/** How the venue echoes a text: each scenario builds the reply. */
interface EchoScenario {
  readonly name: string
  readonly reply: (echo: string, request: RecordedRequest, at: number) => Reply
}

const ECHO_SCENARIOS: readonly EchoScenario[] = [
  ...[400, 401, 403, 404, 409, 429, 500, 502, 503].map(
    (status): EchoScenario => ({
      name: `HTTP ${status} envelope message`,
      reply: (echo) =>
        fail(status, status, `refused: ${echo}`, status === 429 ? { 'retry-after': '0' } : {}),
    }),
  ),
  { name: '400 invalid API key', reply: (echo) => fail(400, 0, `invalid API key: ${echo}`) },
  {
    name: 'HTTP 200, envelope code != 0',
    reply: (echo) => ({ status: 200, body: { code: 10_001, message: `key ${echo} frozen` } }),
  },
  {
    name: 'a data field of the wrong type (schema error)',
    reply: (echo, request, at) => {
      const data = copy(validData(request))
      const paths = allPaths(data)
      if (paths.length === 0) return ok(echo)
      setAt(data, paths[at % paths.length] ?? [], echo)
      return ok(data)
    },
  },
  { name: 'the key as data', reply: (echo) => ok(echo) },
  { name: 'the key as a field name', reply: (echo) => ok({ [echo]: echo }) },
  {
    name: 'the key as the envelope code',
    reply: (echo) => ({ status: 200, body: { code: echo, message: echo, data: null } }),
  },
  {
    name: 'an HTML body',
    reply: (echo) => ({
      status: 502,
      headers: { 'content-type': 'text/html' },
      raw: `<html><body>${echo}</body></html>`,
    }),
  },
  {
    name: 'a truncated body',
    reply: (echo) => ({ status: 200, raw: `{"code":0,"message":"${echo}","data":[` }),
  },
  {
    name: 'a header of a 500',
    reply: (echo) => ({
      status: 500,
      headers: { 'x-echo': echo },
      body: { code: 500, message: 'x', data: null },
    }),
  },
  {
    name: 'a Retry-After header',
    reply: (echo) => ({
      status: 429,
      headers: { 'retry-after': echo },
      body: { code: 429, message: 'slow down', data: null },
    }),
  },
  {
    name: 'meta',
    reply: (echo, request) => ({
      status: 200,
      body: { code: 0, message: '', data: validData(request), meta: { [echo]: echo } },
    }),
  },
]
