/**
 * No number changes on its way in: a JSON number a double cannot hold is kept as its
 * exact text (decimal fields and ids) or refused with a `VenueResponseError` (fields that
 * need a JavaScript number), never rounded. `global_seq` and order ids beyond 2^53 are
 * carried as exact digit strings, and the own-trades feed pages across 2^53 in order.
 */
import { firstValueFrom, take, toArray } from 'rxjs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createVenue, type Venue, VenueResponseError } from '../src/index.js'
import { parseJsonExact, plainDecimal } from '../src/rest/parse-json-exact.js'
import * as fixtures from './helpers/fixtures.js'
import {
  type RecordingServer,
  type Reply,
  startRecordingServer,
} from './helpers/recording-server.js'
import { rejectionOf } from './helpers/rejection.js'

describe('parseJsonExact', () => {
  it('keeps numbers a double holds exactly as numbers', () => {
    const text = '{"a":0.1,"b":-12.5,"c":9007199254740991,"d":1e21,"e":1.5E-7,"f":0,"g":-0.0}'
    expect(parseJsonExact(text)).toStrictEqual(JSON.parse(text))
  })

  it('hands on a number a double would change as its exact text', () => {
    expect(
      parseJsonExact(
        '[9007199254740993,-18446744073709551615,0.10000000000000000001,1e400,1e-400]',
      ),
    ).toStrictEqual([
      '9007199254740993',
      '-18446744073709551615',
      '0.10000000000000000001',
      '1e400',
      '1e-400',
    ])
  })

  it('never touches digits inside strings, escaped quotes included', () => {
    const text = '{"tx":"9007199254740993","q":"a\\"1e400\\"b","n":[9007199254740993]}'
    expect(parseJsonExact(text)).toStrictEqual({
      tx: '9007199254740993',
      q: 'a"1e400"b',
      n: ['9007199254740993'],
    })
  })

  it('settles a huge exponent without writing its digits out (1e99999999 would not fit in memory)', () => {
    expect(parseJsonExact('[1e-60000,0e-99999999,1e99999999,-0e5]')).toStrictEqual([
      '1e-60000',
      0,
      '1e99999999',
      -0,
    ])
  })

  it('throws SyntaxError for text that is not JSON, like JSON.parse', () => {
    expect(() => parseJsonExact('{"a":9007199254740993')).toThrow(SyntaxError)
    expect(() => parseJsonExact('<html>')).toThrow(SyntaxError)
  })

  it('writes exponent numbers as plain decimals, digit for digit', () => {
    expect(plainDecimal('1.25e3')).toBe('1250')
    expect(plainDecimal('-1.25E-3')).toBe('-0.00125')
    expect(plainDecimal('12e0')).toBe('12')
    expect(plainDecimal('42')).toBe('42')
  })
})

let server: RecordingServer
let venue: Venue
/** Raw body text per pathname; the default is the fixture. */
let raw: (pathname: string, query: Record<string, string>) => string | undefined = () => undefined

beforeEach(async () => {
  raw = () => undefined
  server = await startRecordingServer((request): Reply => {
    const text = raw(request.pathname, request.query)
    if (text !== undefined) return { status: 200, raw: text }
    return {
      status: 200,
      body: { code: 0, message: '', data: fixtures.dataFor(request.pathname), meta: {} },
    }
  })
  // No settle window: the feed tests here count the pages it asks for.
  venue = createVenue({
    baseUrl: server.url,
    apiKey: 'k-exact-numbers',
    pollIntervalMs: 5,
    settleMs: 0,
  })
})

afterEach(async () => {
  await venue.close()
  await server.close()
})

const envelope = (data: string) => `{"code":0,"message":"","data":${data},"meta":{}}`

describe('decimals sent as JSON numbers', () => {
  it('keeps a price of 9007199254740993 sent as a number, digit for digit', async () => {
    raw = () =>
      envelope(
        '{"pool_id":1,"precision":"0.0001","timestamp":1700000000123,' +
          '"bids":[[9007199254740993,0.30000000000000000004]],"asks":[[9007199254740995.5,7]]}',
      )
    const depth = await venue.rest.depth({ poolId: 1 })
    expect(depth.bids).toEqual([['9007199254740993', '0.30000000000000000004']])
    expect(depth.asks).toEqual([['9007199254740995.5', '7']])
  })

  it('refuses a decimal whose exponent a double cannot hold, as a schema error naming the path', async () => {
    raw = () =>
      envelope(
        '{"pool_id":1,"precision":"0.0001","timestamp":1700000000123,"bids":[[1e400,"1"]],"asks":[]}',
      )
    const error = await rejectionOf(venue.rest.depth({ poolId: 1 }))
    expect(error).toBeInstanceOf(VenueResponseError)
    expect(error).toMatchObject({ problem: 'schema' })
    expect((error as VenueResponseError).issues[0]?.path).toEqual(['bids', 0, 0])
  })

  it('refuses an integer field sent as a number beyond 2^53, instead of rounding it', async () => {
    raw = () =>
      envelope(
        '{"pool_id":9007199254740993,"precision":"0.0001","timestamp":1,"bids":[],"asks":[]}',
      )
    const error = await rejectionOf(venue.rest.depth({ poolId: 1 }))
    expect(error).toMatchObject({ problem: 'schema' })
    expect((error as VenueResponseError).issues[0]?.path).toEqual(['pool_id'])
  })
})

/** A trade detail on the wire, with `global_seq` and order ids written as raw JSON numbers. */
function wireTrade(seq: bigint): string {
  const { global_seq: _seq, taker_order_id: _t, maker_order_id: _m, ...rest } = fixtures.tradeDetail
  const body = JSON.stringify(rest).slice(1, -1)
  return `{"global_seq":${seq},"taker_order_id":${seq + 1n},"maker_order_id":18446744073709551615,${body}}`
}

describe('integers beyond 2^53', () => {
  it('carries global_seq and order ids past 2^53 exactly', async () => {
    raw = () => envelope(`[${wireTrade(9007199254740993n)}]`)
    const [trade] = await venue.rest.trades()
    expect(trade?.global_seq).toBe('9007199254740993')
    expect(trade?.taker_order_id).toBe('9007199254740994')
    expect(trade?.maker_order_id).toBe('18446744073709551615')
  })

  it('feeds own trades across 2^53 in order, each once, paging with the exact cursor', async () => {
    const seqs = Array.from({ length: 150 }, (_, i) => 9007199254740900n + BigInt(i) * 3n)
    raw = (pathname, query) => {
      if (pathname !== '/api/v1/trades') return undefined
      const after = query['global_seq'] === undefined ? -1n : BigInt(query['global_seq'])
      const newer = seqs.filter((s) => s > after)
      const sorted = query['sort'] === 'desc' ? newer.reverse() : newer
      const page = sorted.slice(0, Number(query['limit'] ?? 50))
      return envelope(`[${page.map(wireTrade).join(',')}]`)
    }
    const delivered = await firstValueFrom(venue.watchMyTrades().pipe(take(150), toArray()))
    expect(delivered.map((t) => t.global_seq)).toEqual(seqs.map(String))
    const cursors = server.requests
      .filter((r) => r.pathname === '/api/v1/trades' && r.query['sort'] === 'asc')
      .map((r) => r.query['global_seq'])
    // A safe sequence number and one past 2^53 on the same page: neither blocks the other.
    expect(cursors.slice(0, 2)).toEqual([undefined, String(seqs[99])])
  })

  it('resumes a feed from a cursor past 2^53 given as digits', async () => {
    raw = (pathname, query) =>
      pathname === '/api/v1/trades' && query['global_seq'] === '18446744073709551613'
        ? envelope(`[${wireTrade(18446744073709551614n)}]`)
        : pathname === '/api/v1/trades'
          ? envelope('[]')
          : undefined
    // The trade's own order id is one past it: 2^64 - 1, the largest the venue has.
    const trade = await firstValueFrom(venue.watchMyTrades({ cursor: '18446744073709551613' }))
    expect(trade.global_seq).toBe('18446744073709551614')
  })
})
