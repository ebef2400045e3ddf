/**
 * Coin prices in the stable reference coin (`stablecoin_price` of a balance), derived
 * from the pools' last prices by walking pools outward from the stable coin.
 *
 * A price reached only through multiplications keeps the sum of the price precisions
 * along the path as its decimals (CHN: "1.0450", ETH via ETH/CHN and CHN/USDT:
 * "2299.00000"); a price that needs a division, or more than 8 decimals, is rounded down
 * to 8 decimals. The stable coin itself is "1"; a coin with no path is "0".
 *
 * @packageDocumentation
 */
import { STABLE_SYMBOL } from './coins.js'
import { formatFixed, pow10 } from './fixed-point.js'
import type { PoolSpec } from './pool-spec.js'

const MAX_DECIMALS = 8

/** An exact price: `num / den` stable units per coin, with a preferred number of decimals. */
interface Price {
  readonly num: bigint
  readonly den: bigint
  readonly decimals: number
}

/**
 * The stable-coin price of every coin as decimal text, keyed by coin id. `lastPrice`
 * gives each pool's last price in price units.
 */
export function stablecoinPrices(
  pools: readonly PoolSpec[],
  lastPrice: (poolId: number) => bigint,
): Map<string, string> {
  const stable =
    pools.find((pool) => pool.quote.symbol === STABLE_SYMBOL)?.quote ??
    pools.find((pool) => pool.base.symbol === STABLE_SYMBOL)?.base ??
    pools[0]?.quote
  const known = new Map<string, Price>()
  if (stable !== undefined) known.set(stable.id, { num: 1n, den: 1n, decimals: 0 })
  for (let grew = true; grew; ) {
    grew = false
    for (const pool of pools) {
      const base = known.get(pool.base.id)
      const quote = known.get(pool.quote.id)
      const price = lastPrice(pool.id)
      if (quote !== undefined && base === undefined) {
        // base = price × quote-price
        known.set(pool.base.id, {
          num: price * quote.num,
          den: pow10(pool.pricePrecision) * quote.den,
          decimals: pool.pricePrecision + quote.decimals,
        })
        grew = true
      } else if (base !== undefined && quote === undefined && price > 0n) {
        // quote = base-price / price
        known.set(pool.quote.id, {
          num: base.num * pow10(pool.pricePrecision),
          den: base.den * price,
          decimals: MAX_DECIMALS,
        })
        grew = true
      }
    }
  }
  const text = new Map<string, string>()
  for (const pool of pools) {
    for (const coin of [pool.base, pool.quote]) {
      const price = known.get(coin.id)
      const decimals = Math.min(price?.decimals ?? 0, MAX_DECIMALS)
      text.set(
        coin.id,
        price === undefined
          ? '0'
          : formatFixed((price.num * pow10(decimals)) / price.den, decimals),
      )
    }
  }
  return text
}
