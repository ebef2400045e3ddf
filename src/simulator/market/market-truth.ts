/**
 * Ground truth for tests: what the market holds, read straight from its state.
 *
 * Conservation check: for every coin c and at every tick,
 * `coinTotals()[c] − netTransfers()[c] === genesisSupply()[c]` (exact decimal text of
 * integers with the coin's ledger decimals), because only transfers move coins across
 * the market's boundary; trades, fees, locks and swaps only move them inside it.
 *
 * Retention: `publicTrades` holds the kept tape (last 10 000 per pool), `trades` the last
 * 50 000 engine trades and `orders` every working order, every order of a keyed account
 * and the last 20 000 final orders of the crowd.
 *
 * @packageDocumentation
 */
import type { BookView } from './book-view.js'
import { formatFixed } from './fixed-point.js'
import type { MarketCore } from './market-core.js'
import { toOrderRecord } from './order.js'
import type { MarketTruth } from './types.js'

/** Builds the ground truth of a market. */
export function createMarketTruth(core: MarketCore, books: BookView): Required<MarketTruth> {
  const perCoin = (units: (coin: string) => bigint): Record<string, string> => {
    const result: Record<string, string> = {}
    for (const { ref, decimals } of core.ledger.coins())
      result[ref.id] = formatFixed(units(ref.id), decimals)
    return result
  }
  return {
    book: (poolId, source) => books.wire(poolId, books.book(poolId, source)),
    engineBook: (poolId) => books.wire(poolId, books.engine(poolId)),
    ammBook: (poolId) => books.wire(poolId, books.amm(poolId)),
    trades: () => [...core.tradeLog],
    publicTrades: (poolId) => {
      const pools =
        poolId === undefined ? core.data : core.data.filter((data) => data.pool.id === poolId)
      const entries = pools.flatMap((data) => data.v2.tape.all())
      if (poolId === undefined) entries.sort((a, b) => a.seq - b.seq)
      return entries.map((entry) => entry.record)
    },
    transfers: () => [...core.transfers.records],
    orders: () =>
      [...core.orders.values()]
        .sort((a, b) => a.pool.id - b.pool.id || a.orderId - b.orderId)
        .map(toOrderRecord),
    order: (id) => {
      const order = core.orders.get(id)
      return order === undefined ? undefined : toOrderRecord(order)
    },
    coinTotals: () => perCoin((coin) => core.coinTotal(coin)),
    netTransfers: () => perCoin((coin) => core.transfers.net(coin)),
    genesisSupply: () => perCoin((coin) => core.genesis.get(coin) ?? 0n),
  }
}
