/**
 * Property-based: no answer of the venue makes a REST method or a stream misbehave.
 *
 * - Every REST method, answered with its valid payload mutated (dropped fields, wrong
 *   types, raw JSON numbers such as 9007199254740993 or 1e400, nested nulls, truncated
 *   JSON, HTML, empty bodies, error envelopes with any HTTP status and any `Retry-After`,
 *   thousands of entries), resolves with a value or rejects with a `VenueError`: never a
 *   TypeError or another error, never later than `requestTimeoutMs` (plus slack), never
 *   an unhandled rejection.
 * - Decimal fields sent as exact strings come out byte for byte.
 * - A raw JSON number in a decimal or id field comes out as its exact value (digit for
 *   digit, never rounded through a double) or the call rejects with `VenueResponseError`.
 * - Each typed error is usable: a string `code`, a boolean `retryable`, the method as
 *   `endpoint`, and a `retryAfterMs` that is a non-negative safe integer when present.
 * - The book streams, fed sequences of odd books (unsorted, crossed, duplicate levels,
 *   zero and negative quantities, old timestamps) mixed with mutated answers, fail only
 *   with a `VenueError`, their events apply in order with `applyBookEvent`, and every
 *   wait `venue.health` reports is one a timer can make.
 * - Every other stream, fed valid and mutated answers, fails only with a `VenueError`
 *   with bounded waits; the account feeds deliver each item once, in ascending order.
 * - Long number texts (tens of thousands of digits) cost linear time: a call or a first
 *   book still comes within `requestTimeoutMs`.
 *
 * Sizes: `FUZZ_RUNS` (runs per property) and `FUZZ_SEED`; see test/fuzz/config.ts.
 */
import fc from 'fast-check'
import type { Observable } from 'rxjs'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  applyBookEvent,
  type BookEvent,
  createVenue,
  type HealthReport,
  OrderBook,
  type RestMethodName,
  type Venue,
  VenueError,
  VenueRateLimitError,
  VenueResponseError,
} from '../src/index.js'
import {
  answer,
  copy,
  DECIMAL_PATHS,
  decimalText,
  envelopeWithRawNumber,
  expand,
  getAt,
  ID_PATHS,
  type PathStep,
  rawNumber,
  reply,
  setAt,
  VALID_DATA,
} from './fuzz/answers.js'
import {
  collect,
  describeError,
  firstOutcome,
  invokeWatch,
  type Outcome,
  REST_METHODS,
  settle,
  VALID_REST_ARGS,
  VALID_WATCH_ARGS,
  WATCH_ENDPOINT,
  WATCH_METHODS,
  type WatchMethodName,
} from './fuzz/calls.js'
import { check, type PropertySize, timeoutFor } from './fuzz/config.js'
import { canonicalNumber } from './fuzz/decimal-text.js'
import { runPrefix, validData } from './fuzz/wire.js'
import * as fixtures from './helpers/fixtures.js'
import {
  ok,
  type RecordingServer,
  type Reply,
  startRecordingServer,
} from './helpers/recording-server.js'

const KEY = 'k-fuzzAnswers0123456789abcdefghijABCDEFG'
const TIMEOUT_MS = 1_000

let server: RecordingServer
let venue: Venue
/** The reply of the current run of the REST properties (runs without a prefix). */
let current: Reply = { status: 200, body: { code: 0, message: '', data: null } }
/** Replies per run prefix, served in order (the last one again and again); `'valid'` is valid data. */
const sequences = new Map<string, { replies: readonly (Reply | 'valid')[]; next: number }>()
const unhandled: unknown[] = []
const onUnhandled = (reason: unknown) => {
  unhandled.push(reason)
}

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled)
  server = await startRecordingServer((request) => {
    const sequence = sequences.get(runPrefix(request))
    if (sequence === undefined) return current
    const { replies } = sequence
    const next = replies[Math.min(sequence.next, replies.length - 1)] as Reply | 'valid'
    sequence.next += 1
    return next === 'valid' ? ok(validData(request)) : next
  })
  venue = createVenue({
    baseUrl: server.url,
    apiKey: KEY,
    requestTimeoutMs: TIMEOUT_MS,
    maxRequestsPerSecond: 1_000_000,
  })
})

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled)
  await venue?.close()
  await server?.close()
})

afterEach(async () => {
  // Unhandled rejections are reported after the microtask queue drains.
  await new Promise((resolve) => setTimeout(resolve, 20))
  expect(unhandled.map(describeError)).toEqual([])
})

/**
 * `settle`, failing when the call never settles: the venue's `requestTimeoutMs` bounds
 * every call, so one still pending after ten times that hangs (a slow machine only makes
 * a call later, never ten times its timeout). How long a call takes is not checked here.
 */
async function bounded(method: RestMethodName): Promise<Outcome> {
  const limitMs = TIMEOUT_MS * 10
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<'hang'>((resolve) => {
    timer = setTimeout(() => resolve('hang'), limitMs)
  })
  const outcome = await Promise.race([
    settle(venue, { method, args: VALID_REST_ARGS[method] }),
    deadline,
  ])
  clearTimeout(timer)
  if (outcome === 'hang') expect.fail(`rest.${method} did not settle within ${limitMs} ms`)
  return outcome
}

/** Fails unless the outcome is a value or a `VenueError`. */
function expectValueOrVenueError(method: string, outcome: Outcome): void {
  if (outcome.kind === 'resolved') return
  if (outcome.kind === 'rejected' && outcome.error instanceof VenueError) {
    expectWellFormed(method, outcome.error)
    return
  }
  expect.fail(
    `rest.${method}: ${outcome.kind} ${describeError('error' in outcome ? outcome.error : undefined)}`,
  )
}

/** The fields a caller acts on are usable: code, retryable, endpoint, a bounded retry wait. */
function expectWellFormed(method: string, error: VenueError): void {
  const what = describeError(error)
  expect(typeof error.code, what).toBe('string')
  expect(typeof error.retryable, what).toBe('boolean')
  expect(error.endpoint, what).toBe(method)
  if (error instanceof VenueRateLimitError && error.retryAfterMs !== undefined) {
    expect(Number.isSafeInteger(error.retryAfterMs) && error.retryAfterMs >= 0, what).toBe(true)
  }
}

/** Every wait `venue.health` reports is one a timer can make (finite, 0 to 2^31-1 ms). */
function expectBoundedWaits(reports: readonly HealthReport[]): void {
  for (const report of reports) {
    for (const [key, health] of Object.entries(report)) {
      if (health.state !== 'retrying') continue
      const where = `${key}: ${JSON.stringify(health)}`
      expect(Number.isSafeInteger(health.attempt) && health.attempt >= 1, where).toBe(true)
      expect(health.nextDelayMs >= 0 && health.nextDelayMs <= 2 ** 31 - 1, where).toBe(true)
    }
  }
}

/** A venue whose streams poll as fast as they can, on the server under `prefix`. */
function streamVenue(prefix: string, apiKey?: string): Venue {
  return createVenue({
    baseUrl: server.url + prefix,
    ...(apiKey === undefined ? {} : { apiKey }),
    pollIntervalMs: 1,
    lingerMs: 1,
    requestTimeoutMs: TIMEOUT_MS,
    maxRequestsPerSecond: 1_000_000,
    backoff: { initialMs: 1, maxMs: 2 },
  })
}

/** The size of the properties just below (each group of properties has its own). */
const ANSWER_SIZE: PropertySize = { runs: 12, perRunMs: 50 }

describe('mutated answers: a value or a VenueError, within requestTimeoutMs', () => {
  for (const method of REST_METHODS) {
    it(
      `rest.${method}`,
      async () => {
        await check(
          fc.asyncProperty(answer(VALID_DATA[method]), async (next) => {
            current = next
            expectValueOrVenueError(method, await bounded(method))
          }),
          ANSWER_SIZE,
        )
      },
      timeoutFor(ANSWER_SIZE),
    )
  }
})

const WITH_DECIMALS = REST_METHODS.filter((method) => DECIMAL_PATHS[method].length > 0)
const WITH_NUMBERS = REST_METHODS.filter(
  (method) => DECIMAL_PATHS[method].length > 0 || ID_PATHS[method].length > 0,
)

function pathsOf(method: RestMethodName, data: unknown, kind: 'decimal' | 'id'): PathStep[][] {
  const patterns = kind === 'decimal' ? DECIMAL_PATHS[method] : ID_PATHS[method]
  return patterns.flatMap((pattern) => expand(data, pattern))
}

const EXACT_SIZE: PropertySize = { runs: 30, perRunMs: 50 }

describe('exact numbers', () => {
  it(
    'decimal strings come out byte for byte',
    async () => {
      await check(
        fc.asyncProperty(
          fc.constantFrom(...WITH_DECIMALS),
          fc.array(decimalText, { minLength: 1, maxLength: 40 }),
          async (method, decimals) => {
            const data = copy(VALID_DATA[method])
            const paths = pathsOf(method, data, 'decimal')
            paths.forEach((path, i) => {
              const text = decimals[i % decimals.length] as string
              // A book quantity below zero is refused (property below): sent without its sign.
              setAt(data, path, isBookQuantity(method, path) ? text.replace(/^-/, '') : text)
            })
            current = { status: 200, body: { code: 0, message: '', data, meta: {} } }
            const outcome = await bounded(method)
            if (outcome.kind !== 'resolved') {
              expect.fail(`valid decimals refused: ${describeError(errorOfOutcome(outcome))}`)
            }
            for (const path of paths) {
              expect(getAt(outcome.value, path), JSON.stringify(path)).toBe(getAt(data, path))
            }
          },
        ),
        EXACT_SIZE,
      )
    },
    timeoutFor(EXACT_SIZE),
  )

  it(
    'a raw JSON number in a decimal or id field keeps its exact value, or the call rejects with VenueResponseError',
    async () => {
      await check(
        fc.asyncProperty(
          fc.constantFrom(...WITH_NUMBERS),
          fc.constantFrom<'decimal' | 'id'>('decimal', 'id'),
          fc.nat(),
          rawNumber,
          async (method, preferred, at, token) => {
            const data = VALID_DATA[method]
            const kind = pathsOf(method, data, preferred).length > 0 ? preferred : other(preferred)
            const paths = pathsOf(method, data, kind)
            const path = paths[at % paths.length] as PathStep[]
            current = reply(200, envelopeWithRawNumber(data, path, token))
            const outcome = await bounded(method)
            if (outcome.kind === 'rejected' && outcome.error instanceof VenueResponseError) return
            if (outcome.kind !== 'resolved') {
              expect.fail(`${outcome.kind}: ${describeError(errorOfOutcome(outcome))}`)
            }
            const sent = canonicalNumber(token)
            const got = getAt(outcome.value, path)
            const where = `${kind} field ${JSON.stringify(path)} sent as ${token}`
            expect(typeof got, where).toBe('string')
            if (kind === 'id') {
              expect(sent, `${where}: an id that is no non-negative integer was accepted`).toMatch(
                /^\d+$/,
              )
              // The venue's ids are unsigned 64-bit: a larger one is drift, not an id.
              expect(
                BigInt(sent ?? '') <= 2n ** 64n - 1n,
                `${where}: an id above 2^64 - 1 was accepted`,
              ).toBe(true)
              expect(got, where).toBe(sent)
            } else {
              expect(canonicalNumber(got as string), where).toBe(sent)
            }
          },
        ),
        EXACT_SIZE,
      )
    },
    timeoutFor(EXACT_SIZE),
  )

  it(
    'a negative depth quantity, as text or as a number, is a VenueResponseError naming its path',
    async () => {
      const data = VALID_DATA.depth
      const paths = pathsOf('depth', data, 'decimal').filter((path) =>
        isBookQuantity('depth', path),
      )
      await check(
        fc.asyncProperty(
          fc.nat(),
          // Valid JSON numbers too (no leading zero), so that the raw form is one.
          fc.oneof(
            fc.stringMatching(/^-[1-9]\d{0,8}(\.\d{1,8})?$/),
            fc.constantFrom('-0.5', '-0.00000001', '-1e-3', '-9007199254740993'),
          ),
          fc.boolean(),
          async (at, negative, raw) => {
            const path = paths[at % paths.length] as PathStep[]
            if (raw) {
              current = reply(200, envelopeWithRawNumber(data, path, negative))
            } else {
              const changed = copy(data)
              setAt(changed, path, negative)
              current = { status: 200, body: { code: 0, message: '', data: changed, meta: {} } }
            }
            const outcome = await bounded('depth')
            if (outcome.kind !== 'rejected' || !(outcome.error instanceof VenueResponseError)) {
              expect.fail(`quantity ${negative} at ${JSON.stringify(path)}: ${outcome.kind}`)
            }
            expect(outcome.error.issues[0]?.path).toEqual(path)
          },
        ),
        EXACT_SIZE,
      )
    },
    timeoutFor(EXACT_SIZE),
  )

  it('a depth price sent as the raw number 9007199254740993 is never 9007199254740992', async () => {
    const data = { ...fixtures.depth, bids: [['__p__', '1']] }
    current = reply(
      200,
      JSON.stringify({ code: 0, message: '', data }).replace('"__p__"', '9007199254740993'),
    )
    const outcome = await bounded('depth')
    if (outcome.kind === 'rejected') {
      expect(outcome.error).toBeInstanceOf(VenueResponseError)
    } else {
      expect(getAt(outcome.kind === 'resolved' ? outcome.value : undefined, ['bids', 0, 0])).toBe(
        '9007199254740993',
      )
    }
  })

  it('a trade price sent as the raw number 9007199254740993 is never 9007199254740992', async () => {
    current = reply(
      200,
      envelopeWithRawNumber([fixtures.publicTrade], [0, 'price'], '9007199254740993'),
    )
    const outcome = await bounded('latestTrades')
    if (outcome.kind === 'rejected') {
      expect(outcome.error).toBeInstanceOf(VenueResponseError)
    } else {
      expect(getAt(outcome.kind === 'resolved' ? outcome.value : undefined, [0, 'price'])).toBe(
        '9007199254740993',
      )
    }
  })
})

describe('long number texts cost linear time: a call settles within requestTimeoutMs', () => {
  // Sizes that take seconds where the cost is quadratic (about 2.6 s and 2.1 s on a
  // 2-core machine), and milliseconds where it is linear.
  const zeros = (n: number) => '0'.repeat(n)
  const TOKENS: readonly (readonly [label: string, token: string])[] = [
    ['1e-60000 (8 bytes)', '1e-60000'],
    ['0e-99999999 (11 bytes)', '0e-99999999'],
    ['1.(60,000 zeros)1', `1.${zeros(60_000)}1`],
    ['(60,000 zeros)1 written 0.0…01e60001', `0.${zeros(60_000)}1e60001`],
  ]
  for (const [label, token] of TOKENS) {
    it(`rest.depth with the raw number ${label} as its precision`, async () => {
      current = reply(200, envelopeWithRawNumber(fixtures.depth, ['precision'], token))
      expectValueOrVenueError('depth', await bounded('depth'))
    })
  }

  it('watchOrderBook: the first book of three levels whose prices have 30,000 digits', async () => {
    const prefix = `/r${++streamRun}`
    const book = {
      ...fixtures.depth,
      bids: [
        [`2.${zeros(30_000)}1`, '1'],
        [`1.${zeros(30_000)}1`, '1'],
      ],
      asks: [[`3.${zeros(30_000)}1`, '1']],
    }
    sequences.set(prefix, { replies: [{ status: 200, body: { code: 0, data: book } }], next: 0 })
    const own = createVenue({ baseUrl: server.url + prefix, requestTimeoutMs: TIMEOUT_MS })
    try {
      const first = await firstOutcome(
        own.watchOrderBook(1) as Observable<unknown>,
        TIMEOUT_MS * 10,
      )
      if (first.kind !== 'emitted') expect.fail(`no book: ${describeError(errorOfOutcome(first))}`)
      const view = first.value as OrderBook
      void [view.bestBid, view.bestAsk, view.spread, view.mid, view.crossed]
    } finally {
      sequences.delete(prefix)
      await own.close()
    }
  })
})

/** Whether `path` is the quantity of a level of a book (`['bids', i, 1]`, `['asks', i, 1]`). */
function isBookQuantity(method: RestMethodName, path: readonly PathStep[]): boolean {
  return method === 'depth' && path.length === 3 && path[2] === 1
}

function other(kind: 'decimal' | 'id'): 'decimal' | 'id' {
  return kind === 'decimal' ? 'id' : 'decimal'
}

function errorOfOutcome(outcome: Outcome): unknown {
  return 'error' in outcome ? outcome.error : undefined
}

/** Prices and quantities that make books odd: zero, negative, equal by value, huge. */
const price = fc.constantFrom(
  '1',
  '1.0',
  '1.10',
  '1.1',
  '2',
  '0',
  '-1',
  '0.5',
  '100',
  '9007199254740993',
)
const quantity = fc.constantFrom('0', '1', '2.50', '-1', '0.0', '100000000000000000000')
const side = fc.array(fc.tuple(price, quantity), { maxLength: 6 })

/** An odd but well-typed depth answer, or (sometimes) any mutated answer. */
const depthReply: fc.Arbitrary<Reply> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.tuple(side, side, fc.integer({ min: -5, max: 5 })).map(([bids, asks, drift]) => ({
      status: 200,
      body: {
        code: 0,
        message: '',
        data: { ...fixtures.depth, bids, asks, timestamp: fixtures.depth.timestamp + drift },
      },
    })),
  },
  { weight: 1, arbitrary: answer(fixtures.depth) },
)

let streamRun = 0

const STREAM_SIZE: PropertySize = { runs: 12, perRunMs: 400 }

describe('book streams fed odd books and mutated answers', () => {
  for (const method of ['watchDepth', 'watchOrderBook'] as const) {
    it(
      `${method} fails only with a VenueError, its events apply in order, its health waits are bounded`,
      async () => {
        let events = 0
        await check(
          fc.asyncProperty(
            fc.array(depthReply, { minLength: 1, maxLength: 6 }),
            async (replies) => {
              const prefix = `/r${++streamRun}`
              sequences.set(prefix, { replies, next: 0 })
              const own = streamVenue(prefix)
              const reports: HealthReport[] = []
              const health = own.health.subscribe((report) => reports.push(report))
              try {
                const stream = own[method](1) as Observable<BookEvent | OrderBook>
                // Watched until every reply was served and the last one polled again.
                const served = () =>
                  (sequences.get(prefix)?.next ?? 0) > replies.length || waitsLong(reports)
                const result = await collect(stream, 300, served)
                expectBoundedWaits(reports)
                if (result.ended === 'error' && !(result.error instanceof VenueError)) {
                  expect.fail(`${method} failed with ${describeError(result.error)}`)
                }
                checkEvents(result.values)
                events += result.values.length
              } finally {
                health.unsubscribe()
                sequences.delete(prefix)
                await own.close()
              }
            },
          ),
          STREAM_SIZE,
        )
        // The property is not vacuous: the streams did emit.
        expect(events).toBeGreaterThan(0)
      },
      timeoutFor(STREAM_SIZE),
    )
  }
})

const OTHER_STREAMS: readonly WatchMethodName[] = WATCH_METHODS.filter(
  (method) => method !== 'watchDepth' && method !== 'watchOrderBook',
)

/** The cursor of a feed's item, for the exactly-once check. */
const CURSOR: Partial<Record<WatchMethodName, string>> = {
  watchMyTrades: 'global_seq',
  watchTransfers: 'sid',
}

const OTHER_STREAM_SIZE: PropertySize = { runs: 6, perRunMs: 300 }

describe('every other stream fed valid and mutated answers', () => {
  for (const method of OTHER_STREAMS) {
    it(
      `${method} fails only with a VenueError, its health waits are bounded${CURSOR[method] ? ', each item comes once, in ascending order' : ''}`,
      async () => {
        const endpoint = WATCH_ENDPOINT[method]
        const reply = fc.oneof(
          { weight: 1, arbitrary: fc.constant<'valid'>('valid') },
          { weight: 2, arbitrary: answer(VALID_DATA[endpoint]) },
        )
        await check(
          fc.asyncProperty(fc.array(reply, { minLength: 1, maxLength: 5 }), async (replies) => {
            const prefix = `/r${++streamRun}`
            sequences.set(prefix, { replies, next: 0 })
            const own = streamVenue(prefix, KEY)
            const reports: HealthReport[] = []
            const health = own.health.subscribe((report) => reports.push(report))
            try {
              const stream = invokeWatch(
                own,
                method,
                VALID_WATCH_ARGS[method],
              ) as Observable<unknown>
              const served = () =>
                (sequences.get(prefix)?.next ?? 0) > replies.length || waitsLong(reports)
              const result = await collect(stream, 150, served)
              expectBoundedWaits(reports)
              if (result.ended === 'error' && !(result.error instanceof VenueError)) {
                expect.fail(`${method} failed with ${describeError(result.error)}`)
              }
              const field = CURSOR[method]
              if (field !== undefined) {
                const cursors = result.values.map(
                  (item) => (item as Record<string, unknown>)[field],
                )
                for (let i = 1; i < cursors.length; i += 1) {
                  const [before, after] = [String(cursors[i - 1]), String(cursors[i])]
                  expect(compareDigits(after, before), `${field} ${before} then ${after}`).toBe(1)
                }
              }
            } finally {
              health.unsubscribe()
              sequences.delete(prefix)
              await own.close()
            }
          }),
          OTHER_STREAM_SIZE,
        )
      },
      timeoutFor(OTHER_STREAM_SIZE),
    )
  }
})

/** Whether the last health report shows a stream waiting 100 ms or more (e.g. a `Retry-After`). */
function waitsLong(reports: readonly HealthReport[]): boolean {
  const last = reports.at(-1) ?? {}
  return Object.values(last).some(
    (health) => health.state === 'retrying' && health.nextDelayMs >= 100,
  )
}

/** Compares canonical digit strings as integers: -1, 0 or 1. */
function compareDigits(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1
  return a === b ? 0 : a < b ? -1 : 1
}

/** Book events apply in order; order books answer their queries without throwing. */
function checkEvents(values: readonly (BookEvent | OrderBook)[]): void {
  let book: OrderBook | undefined
  for (const value of values) {
    if (value instanceof OrderBook) {
      void [value.bestBid, value.bestAsk, value.spread, value.mid, value.crossed]
    } else {
      book = applyBookEvent(book, value)
    }
  }
}
