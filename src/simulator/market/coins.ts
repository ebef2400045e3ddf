/**
 * Coin naming. A coin is written `contract-SYMBOL` (`usdt.ext-USDT`); a pool symbol joins
 * its base and quote coins (`chain.token-CHN-usdt.ext-USDT`).
 *
 * @packageDocumentation
 */

/** A coin as the venue names it. */
export interface CoinRef {
  /** `contract-SYMBOL`, e.g. `usdt.ext-USDT`. */
  readonly id: string
  /** Token contract account, e.g. `usdt.ext`. */
  readonly contract: string
  /** Token symbol, e.g. `USDT`. */
  readonly symbol: string
}

/** Descriptive facts the simulator knows about a few symbols. */
interface CoinFacts {
  readonly contract: string
  readonly name: string
  /** Decimals of the coin on its external chain. */
  readonly extDecimals: number
}

const KNOWN: Readonly<Record<string, CoinFacts>> = {
  USDT: { contract: 'usdt.ext', name: 'Stable Dollar', extDecimals: 6 },
  CHN: { contract: 'chain.token', name: 'Chain Token', extDecimals: 4 },
  BTC: { contract: 'btc.ext', name: 'Bitcoin', extDecimals: 8 },
  ETH: { contract: 'eth.ext', name: 'Ether', extDecimals: 18 },
}

/** The symbol of the stable reference coin that `stablecoin_price` is quoted in. */
export const STABLE_SYMBOL = 'USDT'

/** The default token contract of a symbol: known ones from the catalogue, else `sym.token`. */
export function defaultContract(symbol: string): string {
  return KNOWN[symbol]?.contract ?? `${symbol.toLowerCase()}.token`
}

/** A coin reference from a symbol and an optional contract override. */
export function coinRef(symbol: string, contract: string = defaultContract(symbol)): CoinRef {
  return { id: `${contract}-${symbol}`, contract, symbol }
}

/** The human name of a coin (`Chain Token`), or `SYMBOL Token` when unknown. */
export function coinName(symbol: string): string {
  return KNOWN[symbol]?.name ?? `${symbol} Token`
}

/** Decimals of the coin on its external chain, or `fallback` when unknown. */
export function extDecimals(symbol: string, fallback: number): number {
  return KNOWN[symbol]?.extDecimals ?? fallback
}
