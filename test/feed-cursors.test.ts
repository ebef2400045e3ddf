/**
 * One rule for every feed cursor (`watchMyTrades`, `watchTransfers`, `watchFills` with its
 * `global_seq/1` form, and the cursors their checkpoints load): the venue's unsigned 64-bit
 * id, as digits up to 18446744073709551615 (leading zeros dropped) or a non-negative safe
 * integer. A cursor off the rule is a `VenueInputError` at the call, before any request;
 * an id past 2^64 - 1 in the venue's answer is a `VenueResponseError` (the caller passed
 * nothing wrong), never a `VenueInputError` from the request built from it.
 */
import { firstValueFrom, type Observable } from 'rxjs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createVenue, type Venue, VenueInputError, VenueResponseError } from '../src/index.js'
import { dataFor, tradeDetail, transfer } from './helpers/fixtures.js'
import { ok, type RecordingServer, startRecordingServer } from './helpers/recording-server.js'
import { rejectionOf } from './helpers/rejection.js'

const TWO_TO_64 = '18446744073709551616'
const MAX_ID = '18446744073709551615'

let server: RecordingServer
let venue: Venue

beforeEach(async () => {
  server = await startRecordingServer((request) => ok(dataFor(request.pathname)))
  venue = createVenue({
    baseUrl: server.url,
    apiKey: 'k-feed-cursor-test-key',
    pollIntervalMs: 10,
    backoff: { initialMs: 1, maxMs: 5 },
  })
})

afterEach(async () => {
  await venue.close()
  await server.close()
})

type Feed = 'watchMyTrades' | 'watchTransfers' | 'watchFills'

const FEEDS: readonly Feed[] = ['watchMyTrades', 'watchTransfers', 'watchFills']

/** Calls a feed as a plain JavaScript caller would: no type checks on the options. */
const watch = (feed: Feed, options: unknown): Observable<unknown> =>
  (venue[feed] as (options: unknown) => Observable<unknown>)(options)

/** What the feed sent (paths of the trades and transfers pages), once pending work ran. */
async function pagesAsked(): Promise<string[]> {
  await new Promise((resolve) => setTimeout(resolve, 20))
  return server.requests
    .map((request) => request.pathname)
    .filter((path) => path === '/api/v1/trades' || path === '/api/v1/transfers')
}

/** Answers the trades and transfers pages with no item (the feed only pages), the rest as fixtures. */
function emptyPages(): void {
  server.handle((request) =>
    ok(
      request.pathname === '/api/v1/trades' || request.pathname === '/api/v1/transfers'
        ? []
        : dataFor(request.pathname),
    ),
  )
}

/** The first value of query parameter `param` the feed sent, once it has sent one. */
async function firstSent(feed: Feed, options: unknown, param: string): Promise<string | undefined> {
  const subscription = watch(feed, options).subscribe({ error: () => undefined })
  try {
    await expect.poll(() => server.requests.some((r) => param in r.query)).toBe(true)
    return server.requests.find((r) => param in r.query)?.query[param]
  } finally {
    subscription.unsubscribe()
  }
}

/** Cursors off the rule for every feed. */
const BAD_FOR_ALL: readonly [title: string, cursor: unknown][] = [
  ['twenty nines (above 2^64 - 1)', '99999999999999999999'],
  ['2^64', TWO_TO_64],
  ['2^64 with leading zeros', `000${TWO_TO_64}`],
  ['a negative string', '-1'],
  ['a negative number', -1],
  ['a fraction as text', '1.5'],
  ['a fractional number', 1.5],
  ['an unsafe number', 2 ** 53],
  ['NaN', Number.NaN],
  ['an exponent', '1e3'],
  ['an empty string', ''],
  ['a padded string', ' 7'],
  ['a bigint', 7n],
  ['null', null],
]

/** Cursors off the rule of fill cursors: the `/1` form with a bad `global_seq`, or no `/1`. */
const BAD_FILL_CURSORS: readonly [title: string, cursor: unknown][] = [
  ['2^64 with /1', `${TWO_TO_64}/1`],
  ['twenty nines with /1', '99999999999999999999/1'],
  ['a negative global_seq with /1', '-1/1'],
  ['/1 alone', '/1'],
  ['/2', '7/2'],
  ['/1 twice', '7/1/1'],
]

/** The `/1` form is a fill cursor only. */
const BAD_ID_CURSORS: readonly [title: string, cursor: unknown][] = [['a fill cursor', '7/1']]

describe('a cursor off the rule: VenueInputError at the call, no request sent', () => {
  const cases = FEEDS.flatMap((feed) =>
    [...BAD_FOR_ALL, ...(feed === 'watchFills' ? BAD_FILL_CURSORS : BAD_ID_CURSORS)].map(
      ([title, cursor]) => ({ feed, title, cursor }),
    ),
  )
  it.each(cases)('$feed refuses $title', async ({ feed, cursor }) => {
    let thrown: unknown
    try {
      watch(feed, { cursor })
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(VenueInputError)
    const error = thrown as VenueInputError
    expect(error.argument).toBe('cursor')
    expect(error.message.startsWith(`${feed}: cursor must be`), error.message).toBe(true)
    expect(server.requests).toEqual([])
  })
})

describe('the largest id is a cursor of every feed', () => {
  it.each(FEEDS)('%s takes 18446744073709551615 and asks the page after it', async (feed) => {
    const param = feed === 'watchTransfers' ? 'id' : 'global_seq'
    emptyPages()
    expect(await firstSent(feed, { cursor: MAX_ID }, param)).toBe(MAX_ID)
  })
})

describe('leading zeros are dropped: the feed pages from the canonical cursor', () => {
  const cases: readonly { feed: Feed; cursor: unknown; param: string; sent: string }[] = [
    { feed: 'watchMyTrades', cursor: '007', param: 'global_seq', sent: '7' },
    { feed: 'watchMyTrades', cursor: 7, param: 'global_seq', sent: '7' },
    { feed: 'watchTransfers', cursor: '007', param: 'id', sent: '7' },
    { feed: 'watchTransfers', cursor: 7, param: 'id', sent: '7' },
    { feed: 'watchFills', cursor: '007', param: 'global_seq', sent: '7' },
    // Half of trade 7 delivered: the page starts after trade 6, so trade 7 comes again.
    { feed: 'watchFills', cursor: '007/1', param: 'global_seq', sent: '6' },
    {
      feed: 'watchFills',
      cursor: `000${MAX_ID}/1`,
      param: 'global_seq',
      sent: MAX_ID.replace(/5$/, '4'),
    },
  ]
  it.each(cases)(
    '$feed with cursor $cursor sends $param=$sent',
    async ({ feed, cursor, param, sent }) => {
      emptyPages()
      expect(await firstSent(feed, { cursor }, param)).toBe(sent)
    },
  )

  it("watchFills with cursor '0/1' pages from the start (the first trade's other half comes)", async () => {
    emptyPages()
    const subscription = watch('watchFills', { cursor: '0/1' }).subscribe({
      error: () => undefined,
    })
    try {
      await expect
        .poll(() => server.requests.some((r) => r.pathname === '/api/v1/trades'))
        .toBe(true)
      const page = server.requests.find((r) => r.pathname === '/api/v1/trades')
      expect(page?.query).not.toHaveProperty('global_seq')
    } finally {
      subscription.unsubscribe()
    }
  })
})

describe('a checkpoint holding a cursor off the rule fails the feed with VenueInputError, before any page', () => {
  const cases = FEEDS.flatMap((feed) =>
    [
      TWO_TO_64,
      '99999999999999999999',
      -1,
      ...(feed === 'watchFills' ? [`${TWO_TO_64}/1`] : ['7/1']),
    ].map((saved) => ({ feed, saved })),
  )
  it.each(cases)('$feed with saved cursor $saved', async ({ feed, saved }) => {
    const checkpoint = { load: () => saved, save: () => undefined }
    const error = await rejectionOf(firstValueFrom(watch(feed, { checkpoint })))
    expect(error).toBeInstanceOf(VenueInputError)
    expect((error as VenueInputError).argument).toBe('cursor')
    expect(await pagesAsked()).toEqual([])
  })

  it('a checkpoint saved with leading zeros resumes from the canonical cursor', async () => {
    emptyPages()
    const checkpoint = { load: () => '0042', save: () => undefined }
    expect(await firstSent('watchTransfers', { checkpoint }, 'id')).toBe('42')
  })
})

describe('an id past 2^64 - 1 from the venue is a VenueResponseError, never a VenueInputError', () => {
  /** Answers every page of `path` with one record whose `field` is `value`; the rest as fixtures. */
  function answerWith(path: string, record: object) {
    server.handle((request) => ok(request.pathname === path ? [record] : dataFor(request.pathname)))
  }

  it('the transfers feed fails with VenueResponseError naming sid when the newest sid is 2^64', async () => {
    answerWith('/api/v1/transfers', { ...transfer, sid: TWO_TO_64 })
    const error = await rejectionOf(firstValueFrom(venue.watchTransfers()))
    expect(error).toBeInstanceOf(VenueResponseError)
    expect(error).not.toBeInstanceOf(VenueInputError)
    expect(error).toMatchObject({ problem: 'schema', endpoint: 'transfers' })
    expect((error as VenueResponseError).issues.map((issue) => issue.path)).toContainEqual([
      0,
      'sid',
    ])
  })

  it('the transfers feed fails with VenueResponseError when a page after its cursor holds sid 2^64 (a raw JSON number too)', async () => {
    server.handle((request) =>
      request.pathname === '/api/v1/transfers'
        ? {
            status: 200,
            raw: JSON.stringify({ code: 0, message: '', data: [{ ...transfer, sid: 0 }] }).replace(
              '"sid":0',
              `"sid":${TWO_TO_64}`,
            ),
          }
        : ok(dataFor(request.pathname)),
    )
    const error = await rejectionOf(firstValueFrom(venue.watchTransfers({ cursor: MAX_ID })))
    expect(error).toBeInstanceOf(VenueResponseError)
    expect((error as VenueResponseError).issues.map((issue) => issue.path)).toContainEqual([
      0,
      'sid',
    ])
  })

  it.each(['watchMyTrades', 'watchFills'] as const)(
    '%s fails with VenueResponseError when a global_seq has 21 digits',
    async (feed) => {
      answerWith('/api/v1/trades', { ...tradeDetail, global_seq: '100000000000000000000' })
      const error = await rejectionOf(firstValueFrom(watch(feed, undefined)))
      expect(error).toBeInstanceOf(VenueResponseError)
      expect((error as VenueResponseError).issues.map((issue) => issue.path)).toContainEqual([
        0,
        'global_seq',
      ])
    },
  )
})
