/**
 * Property-based: no argument a plain JavaScript caller can pass makes a venue method
 * misbehave.
 *
 * - Every REST method, given fuzzed arguments (wrong types, null, NaN, ±Infinity, -0,
 *   2^53+1, huge and negative numbers, control characters, lone surrogates, `.`, `..`,
 *   `%2e%2e`, `/`, `?`, `#`, unknown and `__proto__` keys, arrays, functions, symbols, and
 *   valid-looking values), either sends exactly one well-formed request (under
 *   `/api/v1/`, no dot segment, a well-formed query of the method's own names, the key
 *   only on account endpoints) and settles, or rejects with `VenueInputError` before any
 *   request. No other error, except the typed errors of the venue's answer (and
 *   `VenueAbortError` for an already-aborted signal).
 * - Every `watch...` method either throws `VenueInputError` at the call, naming one of the
 *   arguments the documented rules call wrong (an independent oracle), before any request;
 *   or, exactly when no argument is wrong, returns a cold Observable whose first value
 *   comes from well-formed requests and whose only possible error is a `VenueError`.
 *
 * Sizes: `FUZZ_RUNS` (runs per property) and `FUZZ_SEED`; see test/fuzz/config.ts.
 */
import { runInNewContext } from 'node:vm'
import fc from 'fast-check'
import { isObservable, type Observable } from 'rxjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createVenue,
  type RestMethodName,
  type Venue,
  VenueAbortError,
  VenueError,
  VenueInputError,
} from '../src/index.js'
import { ENDPOINTS } from '../src/rest/endpoints.js'
import {
  describeError,
  firstOutcome,
  invokeWatch,
  REST_ARGS,
  REST_METHODS,
  settle,
  WATCH_ALSO,
  WATCH_ARGS,
  WATCH_ENDPOINT,
  WATCH_METHODS,
  type WatchMethodName,
} from './fuzz/calls.js'
import { check, timeoutFor } from './fuzz/config.js'
import { hasAbortedSignal } from './fuzz/values.js'
import { watchInputProblems } from './fuzz/watch-oracle.js'
import { requestProblems, validData } from './fuzz/wire.js'
import { ok, type RecordingServer, startRecordingServer } from './helpers/recording-server.js'
import { WAIT_MS } from './helpers/wait-for.js'

const KEY = 'k-fuzzArgs0123456789abcdefghijABCDEFGHIJ'
const REST_RUNS = 30
const WATCH_RUNS = 12

let server: RecordingServer
let venue: Venue
let run = 0

/** A venue of its own for one run, on its own path prefix (see `runPrefix`). */
function runVenue(): { venue: Venue; prefix: string } {
  const prefix = `/r${++run}`
  // Earlier runs' requests are told apart by their prefix; dropped to keep the list short.
  server.requests.length = 0
  return {
    prefix,
    venue: createVenue({
      baseUrl: server.url + prefix,
      apiKey: KEY,
      pollIntervalMs: 5,
      // A settle window of two polls (the default second would outlast the wait for a value).
      settleMs: 10,
      lingerMs: 1,
      requestTimeoutMs: 2_000,
      maxRequestsPerSecond: 1_000_000,
      backoff: { initialMs: 1, maxMs: 5 },
    }),
  }
}

function requestsUnder(prefix: string) {
  return server.requests.filter((request) => request.rawPath.startsWith(`${prefix}/`))
}

const tick = () => new Promise((resolve) => setImmediate(resolve))

beforeAll(async () => {
  server = await startRecordingServer((request) => ok(validData(request)))
  venue = createVenue({
    baseUrl: server.url,
    apiKey: KEY,
    requestTimeoutMs: 2_000,
    maxRequestsPerSecond: 1_000_000,
  })
})

afterAll(async () => {
  await venue?.close()
  await server?.close()
})

describe('REST methods: one well-formed request, or VenueInputError before any', () => {
  for (const method of REST_METHODS) {
    it(
      `rest.${method}`,
      async () => {
        const tally = { sent: 0, refused: 0 }
        await check(
          fc.asyncProperty(REST_ARGS[method], async (args) => {
            server.requests.length = 0
            const outcome = await settle(venue, { method, args })
            const requests = [...server.requests]
            if (outcome.kind === 'threw' || outcome.kind === 'not-async') {
              expect.fail(`rest.${method} did not return a promise: ${outcome.kind}`)
            }
            if (outcome.kind === 'rejected' && outcome.error instanceof VenueInputError) {
              tally.refused += 1
              const error = outcome.error
              expect(requests, 'VenueInputError after a request was sent').toEqual([])
              expect(typeof error.argument, 'VenueInputError without argument').toBe('string')
              expect(error.message.startsWith(`${method}: `), error.message).toBe(true)
              return
            }
            if (outcome.kind === 'rejected' && !(outcome.error instanceof VenueError)) {
              expect.fail(`rest.${method} rejected with ${describeError(outcome.error)}`)
            }
            if (outcome.kind === 'rejected' && outcome.error instanceof VenueAbortError) {
              expect(hasAbortedSignal(args.at(-1)), describeError(outcome.error)).toBe(true)
              expect(requests).toEqual([])
              return
            }
            // Resolved, or a typed error of the venue's answer: exactly one request was sent.
            tally.sent += 1
            expect(
              requests.length,
              `${outcome.kind} ${describeError(outcome.kind === 'rejected' ? outcome.error : undefined)}`,
            ).toBe(1)
            const [request] = requests
            if (request !== undefined) expect(requestProblems(method, request, KEY)).toEqual([])
          }),
          REST_RUNS,
        )
        // The property is not vacuous: both branches were taken.
        expect(tally.sent).toBeGreaterThan(0)
        expect(tally.refused).toBeGreaterThan(0)
      },
      timeoutFor(REST_RUNS, 10),
    )
  }
})

describe('watch methods: VenueInputError at the call naming a wrong argument, else a cold stream', () => {
  for (const method of WATCH_METHODS) {
    it(
      method,
      async () => {
        const tally = { streams: 0, refused: 0 }
        await check(
          fc.asyncProperty(WATCH_ARGS[method], async (args) => {
            const { venue: own, prefix } = runVenue()
            try {
              tally[await watchRun(own, prefix, method, args)] += 1
            } finally {
              await own.close()
            }
          }),
          WATCH_RUNS,
        )
        // The property is not vacuous: both branches were taken.
        expect(tally.streams).toBeGreaterThan(0)
        expect(tally.refused).toBeGreaterThan(0)
      },
      timeoutFor(WATCH_RUNS, 60),
    )
  }
})

async function watchRun(
  own: Venue,
  prefix: string,
  method: WatchMethodName,
  args: readonly unknown[],
): Promise<'streams' | 'refused'> {
  const wrong = [...watchInputProblems(method, args)]
  let stream: unknown
  try {
    stream = invokeWatch(own, method, args)
  } catch (error) {
    if (!(error instanceof VenueInputError)) expect.fail(`threw ${describeError(error)}`)
    expect(wrong, `threw for arguments the rules allow: ${error.message}`).not.toEqual([])
    expect(wrong, `argument ${JSON.stringify(error.argument)} is not a wrong one`).toContain(
      error.argument,
    )
    await tick()
    expect(requestsUnder(prefix), 'a request before VenueInputError').toEqual([])
    return 'refused'
  }
  expect(wrong, 'returned a stream for wrong arguments instead of VenueInputError').toEqual([])
  expect(isObservable(stream), 'did not return an Observable').toBe(true)
  await tick()
  expect(requestsUnder(prefix), 'the stream is not cold').toEqual([])
  const outcome = await firstOutcome(stream as Observable<unknown>, WAIT_MS)
  if (outcome.kind === 'failed' && !(outcome.error instanceof VenueError)) {
    expect.fail(`the stream failed with ${describeError(outcome.error)}`)
  }
  expect(
    outcome.kind,
    `valid arguments, valid answers, and no value within ${WAIT_MS} ms`,
  ).not.toBe('silent')
  const endpoints: RestMethodName[] = [WATCH_ENDPOINT[method], ...(WATCH_ALSO[method] ?? [])]
  for (const request of requestsUnder(prefix)) {
    const problems = endpoints.map((endpoint) => requestProblems(endpoint, request, KEY, prefix))
    // A request of one of the method's endpoints, well formed for it.
    expect(problems.find((found) => found.length === 0) ?? problems[0]).toEqual([])
  }
  return 'streams'
}

describe('the tables cover every method', () => {
  it('REST_METHODS is every endpoint, WATCH_METHODS every watch method of a venue', () => {
    expect([...REST_METHODS].sort()).toEqual(Object.keys(ENDPOINTS).sort())
    const watches = Object.keys(venue).filter((name) => name.startsWith('watch'))
    expect([...WATCH_METHODS].sort()).toEqual(watches.sort())
  })
})

describe('regressions', () => {
  function thrownBy(call: () => unknown): unknown {
    try {
      call()
    } catch (error) {
      return error
    }
    return undefined
  }

  it('watchDepth(1, { poolId: 2 }) throws VenueInputError naming poolId', () => {
    const error = thrownBy(() => venue.watchDepth(1, { poolId: 2 } as never))
    expect(error).toBeInstanceOf(VenueInputError)
    expect((error as VenueInputError).argument).toBe('poolId')
  })

  // A RegExp as the options was read by name: its prototype's `source` ('x') was taken
  // for the option, while its keys (none) said there was no option (FUZZ_SEED=77).
  it('options or arguments that are no plain object are refused by kind; plain ones of another realm are not', async () => {
    const error = thrownBy(() => venue.watchKlines(0, '1m', /x/ as never))
    expect(error).toBeInstanceOf(VenueInputError)
    expect((error as VenueInputError).argument).toBe('options')
    expect((error as Error).message).toBe(
      'watchKlines: options must be an object ({ ... }) with source, since (got a RegExp)',
    )
    class Options {
      get source() {
        return 'v1'
      }
    }
    for (const options of [new Date(0), new Options(), new Map()]) {
      expect(thrownBy(() => venue.watchTrades(0, options as never))).toBeInstanceOf(VenueInputError)
      await expect(venue.rest.historyOrders(options as never)).rejects.toThrow(
        /historyOrders: arguments must be an object/,
      )
      await expect(venue.rest.ping(options as never)).rejects.toThrow(/must be \{ signal \}/)
    }
    expect(String(thrownBy(() => venue.watchTrades(0, new Options() as never)))).toContain(
      '(got an object of a class)',
    )
    // An object literal of another realm (a vm context) and one without a prototype.
    const bare = <T extends object>(fields: T): T => Object.assign(Object.create(null), fields)
    const options = runInNewContext("({ source: 'v1' })") as { source: 'v1' }
    const args = runInNewContext("({ poolId: 0, interval: '1m', source: 'v1' })") as {
      poolId: 0
      interval: '1m'
    }
    for (const given of [options, bare(options)]) {
      expect(thrownBy(() => venue.watchKlines(0, '1m', given))).toBeUndefined()
    }
    for (const given of [args, bare(args)]) {
      expect(Array.isArray(await venue.rest.klines(given))).toBe(true)
    }
  })

  it("watchDepth('not-a-pool', {}) throws VenueInputError", () => {
    const error = thrownBy(() => venue.watchDepth('not-a-pool' as never, {}))
    expect(error).toBeInstanceOf(VenueInputError)
    expect((error as VenueInputError).argument).toBe('poolId')
  })

  // Cursors past the venue's 64-bit ids were taken at the call and failed later (or, with
  // `/1`, were sent as 2^64 - 1).
  it.each([
    ['watchFills', '99999999999999999999'],
    ['watchFills', '18446744073709551616/1'],
    ['watchTransfers', '18446744073709551616'],
    ['watchTransfers', '99999999999999999999'],
    ['watchMyTrades', '18446744073709551616'],
  ] as const)(
    '%s({ cursor: %j }) throws VenueInputError naming cursor, as the oracle says',
    (method, cursor) => {
      expect([...watchInputProblems(method, [{ cursor }])]).toEqual(['cursor'])
      const error = thrownBy(() => invokeWatch(venue, method, [{ cursor }]))
      expect(error).toBeInstanceOf(VenueInputError)
      expect((error as VenueInputError).argument).toBe('cursor')
    },
  )

  it.each([
    ['watchFills', '007/1'],
    ['watchFills', '0/1'],
    ['watchFills', '18446744073709551615/1'],
    ['watchTransfers', '007'],
    ['watchTransfers', 17],
    ['watchMyTrades', '007'],
  ] as const)(
    '%s({ cursor: %j }) is a valid cursor to the code and to the oracle',
    (method, cursor) => {
      expect([...watchInputProblems(method, [{ cursor }])]).toEqual([])
      expect(isObservable(invokeWatch(venue, method, [{ cursor }]))).toBe(true)
    },
  )
})
