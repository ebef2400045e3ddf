/** Every stream of the venue, each made with random arguments, for the soak's churn. */
import type { Observable } from 'rxjs'
import type { Venue } from '../../../src/index.js'

/** What the stream makers read of the market. */
export interface Market {
  /** `global_seq` of the account's last trade. */
  readonly lastSeq: () => string | undefined
  /** Symbols of the pools. */
  readonly symbols: readonly string[]
}

export type Maker = (venue: Venue, random: () => number, market: Market) => Observable<unknown>

/** Every stream of the venue, with random arguments. */
export const STREAMS: readonly (readonly [name: string, make: Maker])[] = [
  ['watchPools', (venue) => venue.watchPools()],
  [
    'watchPool',
    (venue, random, market) => venue.watchPool(pick(random, [0, 1, 2, ...market.symbols])),
  ],
  ['watchTokens', (venue) => venue.watchTokens()],
  ['watchSystemInfo', (venue) => venue.watchSystemInfo()],
  ['watchAccount', (venue) => venue.watchAccount()],
  ['watchBalances', (venue) => venue.watchBalances()],
  ['watchOpenOrders', (venue) => venue.watchOpenOrders()],
  [
    'watchDepth',
    (venue, random) =>
      venue.watchDepth(pick(random, [0, 1, 2]), {
        limit: pick(random, [5, 20, 100]),
        source: pick(random, ['v1', 'v2'] as const),
      }),
  ],
  [
    'watchOrderBook',
    (venue, random) =>
      venue.watchOrderBook(pick(random, [0, 1, 2]), {
        source: pick(random, ['v1', 'v2'] as const),
      }),
  ],
  [
    'watchTrades',
    (venue, random) =>
      venue.watchTrades(pick(random, [0, 1, 2]), { source: pick(random, ['v1', 'v2'] as const) }),
  ],
  [
    'watchMyTrades',
    (venue, random, market) => {
      // From the start (a backfill) or from near the end of the history (the tail).
      const last = market.lastSeq()
      const near = last === undefined ? undefined : String(Math.max(0, Number(last) - 20))
      return venue.watchMyTrades(random() < 0.3 || near === undefined ? {} : { cursor: near })
    },
  ],
  ['watchTransfers', (venue) => venue.watchTransfers()],
  ['watchFills', (venue, random) => venue.watchFills(random() < 0.5 ? {} : { poolId: 0 })],
  [
    'watchKlines',
    (venue, random) =>
      venue.watchKlines(pick(random, [0, 1, 2]), pick(random, ['1m', '1h'] as const), {
        source: pick(random, ['v1', 'v2'] as const),
      }),
  ],
  // The demo account's first orders (client ids cid-1 ...) ended long ago: their fills
  // replay, then done.
  [
    'watchOrder',
    (venue, random) => venue.watchOrder({ clientId: `cid-${1 + Math.floor(random() * 8)}` }),
  ],
]

export function pick<T>(random: () => number, choices: readonly T[]): T {
  return choices[Math.floor(random() * choices.length)] as T
}
