/**
 * `fillsOf`, the account's side of one of its trades: the error of a trade that is not
 * the account's, and the feed cursor each fill of a trade gets.
 */
import { describe, expect, it } from 'vitest'
import { VenueResponseError } from '../src/errors/venue-response-error.js'
import { type TradeDetail, tradeDetailSchema } from '../src/schemas/trade-detail.js'
import { fillsOf } from '../src/streams/fills.js'
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
