/**
 * `applyBookEvent` refuses a snapshot out of side order, with a repeated price or with a
 * level of quantity zero or below. The book streams build their snapshots from the
 * venue's depth, which may hold all of these: this file checks, against a real local
 * HTTP server, that what the venue sends never becomes such a snapshot. Zero levels are
 * dropped, repeats and disorder are sorted out (a `resync` when the book is known), and a
 * negative quantity, which no book can hold, is a `VenueResponseError` naming its place.
 */
import { firstValueFrom, take, toArray } from 'rxjs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  applyBookEvent,
  type BookEvent,
  createVenue,
  type OrderBook,
  type Venue,
  VenueResponseError,
} from '../src/index.js'
import * as fixtures from './helpers/fixtures.js'
import { ok, type RecordingServer, startRecordingServer } from './helpers/recording-server.js'
import { rejectionOf } from './helpers/rejection.js'

type Side = readonly (readonly [string, string])[]

let server: RecordingServer
let venue: Venue
/** Depth answers served in order, the last one again and again. */
let books: { bids: Side; asks: Side }[] = []
let served = 0

beforeEach(async () => {
  books = []
  served = 0
  server = await startRecordingServer(() => {
    const book = books[Math.min(served, books.length - 1)]
    served += 1
    // A new timestamp per answer: an older one would be dropped as stale.
    return ok({ ...fixtures.depth, ...book, timestamp: fixtures.depth.timestamp + served })
  })
  venue = createVenue({
    baseUrl: server.url,
    pollIntervalMs: 1,
    backoff: { initialMs: 1, maxMs: 2 },
  })
})

afterEach(async () => {
  await venue.close()
  await server.close()
})

/** Applies events in order, as a consumer would, failing on the first one refused. */
function rebuild(events: readonly BookEvent[]): OrderBook[] {
  const out: OrderBook[] = []
  let book: OrderBook | undefined
  for (const event of events) {
    book = applyBookEvent(book, event)
    out.push(book)
  }
  return out
}

describe('book streams never build a snapshot applyBookEvent refuses from what the venue sends', () => {
  it('drops levels of quantity zero from the first snapshot', async () => {
    books = [
      {
        bids: [
          ['1.05', '0'],
          ['1.04', '2'],
          ['1.03', '0.000'],
        ],
        asks: [
          ['1.06', '0'],
          ['1.07', '1'],
        ],
      },
    ]
    const [event] = await firstValueFrom(venue.watchDepth(1).pipe(take(1), toArray()))
    expect(event).toMatchObject({
      type: 'snapshot',
      bids: [['1.04', '2']],
      asks: [['1.07', '1']],
    })
    const [book] = rebuild([event as BookEvent])
    expect(book?.mid).toBe('1.055')
  })

  it('sorts out a side that repeats a price by value or comes out of order', async () => {
    books = [
      {
        bids: [
          ['1.03', '1'],
          ['1.04', '2'],
        ],
        asks: [
          ['1.1', '1'],
          ['1.10', '3'],
          ['1.2', '1'],
        ],
      },
    ]
    const [event] = await firstValueFrom(venue.watchDepth(1).pipe(take(1), toArray()))
    // Bids sorted high to low; of the repeated ask price, the last level is kept.
    expect(event).toMatchObject({
      type: 'snapshot',
      bids: [
        ['1.04', '2'],
        ['1.03', '1'],
      ],
      asks: [
        ['1.10', '3'],
        ['1.2', '1'],
      ],
    })
    expect(() => rebuild([event as BookEvent])).not.toThrow()
  })

  it('watchOrderBook over answers with zero levels, repeats and disorder: every event applies', async () => {
    books = [
      { bids: [['1.04', '2']], asks: [['1.06', '1']] },
      {
        bids: [
          ['1.04', '0'],
          ['1.03', '5'],
        ],
        asks: [['1.06', '1']],
      },
      {
        bids: [
          ['1.03', '5'],
          ['1.030', '6'],
        ],
        asks: [
          ['1.07', '1'],
          ['1.06', '1'],
        ],
      },
      { bids: [['1.02', '1']], asks: [['1.08', '0']] },
    ]
    const orderBooks = await firstValueFrom(venue.watchOrderBook(1).pipe(take(4), toArray()))
    expect(orderBooks.map((book) => [book.bids, book.asks])).toEqual([
      [[['1.04', '2']], [['1.06', '1']]],
      [[['1.03', '5']], [['1.06', '1']]],
      [
        [['1.030', '6']],
        [
          ['1.06', '1'],
          ['1.07', '1'],
        ],
      ],
      [[['1.02', '1']], []],
    ])
  })

  it('a negative quantity is a VenueResponseError naming its place, for rest.depth and the streams', async () => {
    books = [
      {
        bids: [['1.04', '2']],
        asks: [
          ['1.06', '1'],
          ['1.07', '-3'],
        ],
      },
    ]
    const error = await rejectionOf(venue.rest.depth({ poolId: 1 }))
    expect(error).toBeInstanceOf(VenueResponseError)
    expect(error).toMatchObject({ problem: 'schema' })
    expect((error as VenueResponseError).issues[0]?.path).toEqual(['asks', 1, 1])
    expect((error as Error).message).toContain('Expected a quantity of 0 or more')
    const streamed = await rejectionOf(firstValueFrom(venue.watchOrderBook(1)))
    expect(streamed).toBeInstanceOf(VenueResponseError)
    expect((streamed as VenueResponseError).issues[0]?.path).toEqual(['asks', 1, 1])
  })
})
