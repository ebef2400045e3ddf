/**
 * Builds the simulated market behind the local venue simulator.
 *
 * @packageDocumentation
 */
import { createAccountView } from './account-view.js'
import { realignAmms } from './arbitrageur.js'
import { BookView } from './book-view.js'
import { BurstRegime } from './burst-regime.js'
import { checkBurstSpec } from './burst-spec.js'
import { Crowd } from './crowd-traders.js'
import { DemoTrader } from './demo-trader.js'
import { endowAccounts } from './genesis.js'
import { isKlineInterval } from './kline-intervals.js'
import { toKlineRecord } from './kline-series.js'
import { MarketCore } from './market-core.js'
import { createMarketTruth } from './market-truth.js'
import { OrderDesk } from './order-desk.js'
import { poolDetail, poolSummary } from './pool-records.js'
import { DEFAULT_POOLS, resolvePools } from './pool-spec.js'
import { Quirks } from './quirks.js'
import { stablecoinPrices } from './stablecoin-prices.js'
import { buildTokens } from './token-records.js'
import type { TapeEntry } from './trade-tape.js'
import { Treasury } from './treasury.js'
import type { AccountView, MarketOptions, SimulatedMarket } from './types.js'

/** Default start of simulated time: 2023-11-14T22:13:20.000Z. */
export const DEFAULT_START_TIME = 1_700_000_000_000

/**
 * Creates a seeded, deterministic market: a matching engine and an AMM per pool, a crowd
 * of simulated traders, two accounts with API keys (the first is the demo account) and
 * the records the venue serves. Nothing moves until {@link Market.tick} is called; the
 * same seed and the same number of ticks (and the same `placeOrder` / `cancelOrder`
 * calls between them) always give the same state and records. The account endpoints
 * honour the quirks of `options.quirks` (`VenueQuirks`), read on every request.
 *
 * @example
 * ```ts
 * const market = createMarket({ seed: 7, tickMs: 1000 })
 * for (let i = 0; i < 100; i++) market.tick()
 * market.depth(0, 'v2', 5, '0.0001')        // five levels a side of CHN/USDT
 * market.account(market.apiKeys()[0] ?? '')?.openOrders()
 * const { id } = market.placeOrder({ poolId: 0, side: 'buy', type: 'market', amount: '5' })
 * ```
 */
export function createMarket(options: MarketOptions): SimulatedMarket {
  const { seed, tickMs } = options
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`)
  if (!Number.isFinite(tickMs) || tickMs <= 0)
    throw new RangeError(`tickMs must be positive, got ${tickMs}`)
  const startTime = options.startTime ?? DEFAULT_START_TIME
  if (!Number.isSafeInteger(startTime))
    throw new RangeError(`startTime must be integer ms, got ${startTime}`)
  const genesisSec = Math.floor(startTime / 1000)
  const core = new MarketCore({
    seed,
    tickMs,
    startTime,
    pools: resolvePools(options.pools ?? DEFAULT_POOLS),
  })
  const endowed = endowAccounts(core)
  const crowd = new Crowd(core)
  crowd.seedBooks()
  const traders = core.accounts.keyed.map(
    (account, index) =>
      new DemoTrader(core, crowd, {
        account: account.name,
        activity: index === 0 ? 0.45 : 0.25,
        transferRate: index === 0 ? 0.15 : 0.06,
        scripted: index === 0,
        endowed: endowed.get(account.name) ?? new Map(),
      }),
  )
  const bursts =
    options.bursts === undefined
      ? undefined
      : new BurstRegime(
          core,
          crowd,
          checkBurstSpec(options.bursts),
          core.accounts.keyed[0]?.name ?? '',
        )
  const treasury = new Treasury(core, endowed)
  const books = new BookView(core)
  const desk = new OrderDesk(core)
  const tokens = buildTokens(seed, core.ledger.coins(), core.genesis, genesisSec)
  const prices = () => stablecoinPrices(core.pools, (poolId) => core.data[poolId]?.lastPrice ?? 0n)
  const quirks = {
    quirks: options.quirks ?? new Quirks(),
    seed,
    versions: core.versions,
    tradeTimes: core.tradeTimes,
    now: () => core.nowMs(),
    ticks: () => core.ticks,
  }
  const views = new Map<string, AccountView>(
    core.accounts.keyed.map((account) => [
      account.apiKey,
      createAccountView(account, {
        ledger: core.ledger,
        pools: core.pools,
        stablecoinPrices: prices,
        ticks: () => core.ticks,
        quirks,
      }),
    ]),
  )

  return {
    now: () => core.nowMs(),
    ticks: () => core.ticks,
    tick: () => {
      core.nextTick()
      if (bursts !== undefined) bursts.act()
      else {
        crowd.act()
        for (const trader of traders) trader.act()
      }
      treasury.act()
      realignAmms(core)
    },
    depth: (poolId, source, limit, precision) => books.depth(poolId, source, limit, precision),
    klines: (poolId, source, interval, startSec, endSec) => {
      const data = core.data[poolId]
      if (data === undefined || !isKlineInterval(interval)) return []
      const series = data.source(source).klines.get(interval)
      return (series?.range(startSec, endSec) ?? []).map((candle) =>
        toKlineRecord(data.pool, interval, candle),
      )
    },
    latestTrades: (poolId, source, limit) => {
      const pools =
        poolId === undefined ? core.data : core.data.filter((data) => data.pool.id === poolId)
      const entries: TapeEntry[] = pools.flatMap((data) => data.source(source).tape.latest(limit))
      if (pools.length > 1) entries.sort((a, b) => b.seq - a.seq)
      return entries.slice(0, Math.max(0, limit)).map((entry) => entry.record)
    },
    poolSummaries: () => core.data.map((data) => poolSummary(data, core.nowSec(), genesisSec)),
    poolDetail: (idOrSymbol) => {
      const data = /^\d+$/.test(idOrSymbol)
        ? core.data[Number(idOrSymbol)]
        : core.data.find((candidate) => candidate.pool.symbol === idOrSymbol)
      return data === undefined ? undefined : poolDetail(data, core.nowSec(), genesisSec)
    },
    tokens: () => [...tokens],
    token: (symbol) =>
      tokens.find(
        (token) => token.symbol === symbol || `${token.chain_contract}-${token.symbol}` === symbol,
      ),
    account: (apiKey) => views.get(apiKey),
    apiKeys: () => core.accounts.keyed.map((account) => account.apiKey),
    truth: createMarketTruth(core, books),
    placeOrder: (request) => desk.place(request),
    cancelOrder: (id) => desk.cancel(id),
  }
}
