/**
 * The genesis endowment: what every account holds before the first tick. Together with
 * the AMM reserves it is the genesis supply of each coin, the constant that conservation
 * is checked against (`coinTotals − netTransfers = genesisSupply`).
 *
 * @packageDocumentation
 */
import { KEYED_ACCOUNTS } from './accounts.js'
import type { MarketCore } from './market-core.js'
import { quoteAmount } from './pool-spec.js'

/** Market makers quoting ladders in every pool. */
export const MAKERS = ['mm.alpha', 'mm.beta'] as const

/** Takers sending market and marketable orders and swapping with the AMMs. */
export const TAKERS = ['flow.one', 'flow.two'] as const

/** Keeps each AMM price inside its engine's spread. */
export const ARBITRAGEUR = 'arb.bot'

/** Crowd accounts, in the order the treasury looks after them. */
export const CROWD: readonly string[] = [...MAKERS, ...TAKERS, ARBITRAGEUR]

/** Endowment per pool, in typical order sizes of base plus their quote value. */
const ENDOWMENT_SIZES: Readonly<Record<string, bigint>> = {
  'mm.alpha': 400n,
  'mm.beta': 400n,
  'flow.one': 100n,
  'flow.two': 100n,
  'arb.bot': 1500n,
  [KEYED_ACCOUNTS[0]]: 20n,
  [KEYED_ACCOUNTS[1]]: 10n,
}

/**
 * Endows every account and returns what each received: account -> coin -> ledger units.
 */
export function endowAccounts(core: MarketCore): Map<string, Map<string, bigint>> {
  const endowed = new Map<string, Map<string, bigint>>()
  for (const [account, sizes] of Object.entries(ENDOWMENT_SIZES)) {
    const coins = new Map<string, bigint>()
    for (const pool of core.pools) {
      const base = pool.typicalSize * sizes
      const quote = quoteAmount(pool, pool.startPrice, base)
      const baseUnits = base * core.ledger.scale(pool.base.id, pool.basePrecision)
      const quoteUnits = quote * core.ledger.scale(pool.quote.id, pool.quotePrecision)
      coins.set(pool.base.id, (coins.get(pool.base.id) ?? 0n) + baseUnits)
      coins.set(pool.quote.id, (coins.get(pool.quote.id) ?? 0n) + quoteUnits)
    }
    for (const [coin, units] of coins) core.endow(account, coin, units)
    endowed.set(account, coins)
  }
  return endowed
}
