import { describe, expect, it } from 'vitest'
import { VenueInputError } from '../src/errors/venue-input-error.js'
import type { PublicTrade } from '../src/schemas/public-trade.js'
import { tradeFlowImbalance } from '../src/signals/index.js'
import {
  expectWindowReference,
  imbalanceAt,
  ratio,
  run,
  sum,
  testScheduler,
  trade,
} from './helpers/signals.js'

describe('tradeFlowImbalance', () => {
  it('compares taker buy and sell quantity over a window of trade time', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const trades = {
        a: trade('1', '3', 0, 'buy'),
        b: trade('1', '1', 100, 'sell'),
        c: trade('1', '1', 1_000, 'sell'), // the buy at 0 leaves
        d: trade('1', '0', 3_000, 'buy'),
      }
      expectObservable(cold('abcd|', trades).pipe(tradeFlowImbalance(1_000))).toBe('abc-|', {
        a: '1',
        b: '0.5',
        c: '-1',
      })
    })
  })

  it('skips gap events and checks its arguments', () => {
    expect(
      run(
        [
          { type: 'gap', poolId: 1, since: 0, until: 1 } as const,
          { type: 'trade', trade: trade('1', '2', 1, 'sell') } as const,
        ],
        tradeFlowImbalance(10),
      ),
    ).toEqual(['-1'])
    expect(() => tradeFlowImbalance(-5)).toThrow(VenueInputError)
    expect(() => tradeFlowImbalance(5, { place: 2 } as never)).toThrow(VenueInputError)
  })

  it('matches a naive recompute over the window', () => {
    expectWindowReference(tradeFlowImbalance, (inside, places) => {
      const of = (side: PublicTrade['side']) =>
        sum(inside.filter((u) => u.side === side).map((u) => ratio(u.quantity)))
      return imbalanceAt(of('buy'), of('sell'), places)
    })
  })
})
