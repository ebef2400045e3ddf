/**
 * `fillsOf`, the account's side of one of its trades: the error of a trade that is not
 * the account's, and the feed cursor each fill of a trade gets (carried beside the fill
 * through the fills feed, never looked up by the fill's identity).
 */
import { describe, expect, it } from 'vitest'
import { VenueResponseError } from '../src/errors/venue-response-error.js'
import type { RestClient } from '../src/rest/index.js'
import { type TradeDetail, tradeDetailSchema } from '../src/schemas/trade-detail.js'
import { type FillAtCursor, fillsAtCursors, fillsOf } from '../src/streams/fills.js'
import type { StreamContext } from '../src/streams/stream-context.js'
import { venueLookups } from '../src/streams/venue-lookups.js'
import { fillsSpec } from '../src/streams/watch-fills.js'
import { tradeDetail } from './helpers/fixtures.js'

/** Trade 1001 of the fixtures (taker alice, maker bob), as the REST client reads it. */
const trade = (taker: string, maker: string): TradeDetail =>
  tradeDetailSchema.parse({ ...tradeDetail, taker, maker })

describe('fillsOf', () => {
  it("calls a trade that names neither side as the account 'inconsistent', not schema drift", () => {
    let thrown: unknown
    try {
      fillsOf(trade('bob', 'carol'), 'alice')
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(VenueResponseError)
    expect(thrown).toMatchObject({
      problem: 'inconsistent',
      retryable: false,
      status: 200,
      message: "trades: trade 1001 names neither side as the account's chain account",
    })
  })
})

describe('the feed cursor of a fill', () => {
  it('is the global_seq, or global_seq/1 for the first (maker) fill of a self-trade', () => {
    const shown = (trade: TradeDetail) =>
      fillsAtCursors(trade, 'alice').map(({ fill, cursor }) => [fill.role, cursor])
    expect(shown(trade('alice', 'bob'))).toEqual([['taker', '1001']])
    expect(shown(trade('bob', 'alice'))).toEqual([['maker', '1001']])
    expect(shown(trade('alice', 'alice'))).toEqual([
      ['maker', '1001/1'],
      ['taker', '1001'],
    ])
  })

  it("goes with the fill through the fills feed's pages, copies of the fill included", async () => {
    const rest = {
      accountInfo: async () => ({ chain_account: 'alice' }),
      trades: async () => [
        trade('alice', 'alice'),
        { ...trade('alice', 'bob'), global_seq: '1002' },
      ],
    } as unknown as RestClient
    const context = { lookups: venueLookups() } as unknown as StreamContext
    const spec = fillsSpec(context, undefined)
    const page = (await spec.fetchPage(
      rest,
      undefined,
      new AbortController().signal,
    )) as readonly FillAtCursor[]
    const copies = page.map((item) => ({ ...item, fill: { ...item.fill } }))
    expect(copies.map(spec.cursorOf)).toEqual(['1001/1', '1001', '1002'])
  })
})
