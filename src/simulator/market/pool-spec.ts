/**
 * Resolved pool configuration: ids, coins, precisions and the derived constants every
 * other part of the market works with (tick, lot, typical order size, AMM level step).
 *
 * @packageDocumentation
 */
import { type CoinRef, coinRef } from './coins.js'
import { divFloor, parseFixed, pow10 } from './fixed-point.js'
import type { PoolConfig } from './types.js'

/** The default markets: three pools, pool 0 first. */
export const DEFAULT_POOLS: readonly PoolConfig[] = [
  {
    base: 'CHN',
    quote: 'USDT',
    price: '1.0450',
    pricePrecision: 4,
    basePrecision: 4,
    quotePrecision: 6,
  },
  {
    base: 'BTC',
    quote: 'USDT',
    price: '43000.00',
    pricePrecision: 2,
    basePrecision: 6,
    quotePrecision: 6,
  },
  {
    base: 'ETH',
    quote: 'CHN',
    price: '2200.0',
    pricePrecision: 1,
    basePrecision: 5,
    quotePrecision: 4,
  },
]

/** A pool with everything derived from its configuration. Amounts are integer units. */
export interface PoolSpec {
  readonly id: number
  /** `baseContract-BASE-quoteContract-QUOTE`. */
  readonly symbol: string
  readonly base: CoinRef
  readonly quote: CoinRef
  readonly pricePrecision: number
  readonly basePrecision: number
  readonly quotePrecision: number
  /** Starting price in units of 10^-pricePrecision. */
  readonly startPrice: bigint
  /**
   * Smallest order quantity step in base units: 10^max(0, pp + bp - qp). With quantities in
   * whole lots, price × quantity is always an exact quote amount, so engine trades never
   * round their quote side.
   */
  readonly lot: bigint
  /** A typical order size in base units (about 1000 quote coins), a multiple of `lot`. */
  readonly typicalSize: bigint
  /** Price distance between mapped AMM levels, price units (about 5 basis points). */
  readonly ammStep: bigint
  /** Account name of the pool's AMM in public trades, e.g. `amm.pool-0`. */
  readonly ammAccount: string
}

/** Exact quote units of `quantity` base units at `price` (floored when not exact). */
export function quoteAmount(pool: PoolSpec, price: bigint, quantity: bigint): bigint {
  const shift = pool.pricePrecision + pool.basePrecision - pool.quotePrecision
  const product = price * quantity
  return shift >= 0 ? product / pow10(shift) : product * pow10(-shift)
}

/** Base units worth `quote` quote units at `price`, floored to whole lots. */
export function baseForQuote(pool: PoolSpec, price: bigint, quote: bigint): bigint {
  const shift = pool.pricePrecision + pool.basePrecision - pool.quotePrecision
  const base = shift >= 0 ? (quote * pow10(shift)) / price : quote / (price * pow10(-shift))
  return base - (base % pool.lot)
}

/**
 * Price units of `quote` quote units paid for `base` base units, floored: the price a
 * swap or a set of fills averages to.
 */
export function priceOf(pool: PoolSpec, quote: bigint, base: bigint): bigint {
  const shift = pool.pricePrecision + pool.basePrecision - pool.quotePrecision
  return shift >= 0 ? divFloor(quote * pow10(shift), base) : divFloor(quote, base * pow10(-shift))
}

/** Rounds `value` down to 1, 2 or 5 times a power of ten (at least 1). */
function niceStep(value: bigint): bigint {
  if (value < 1n) return 1n
  let power = 1n
  while (power * 10n <= value) power *= 10n
  for (const factor of [5n, 2n]) if (power * factor <= value) return power * factor
  return power
}

const MAX_BASE_PRECISION = 8

/** Validates and resolves pool configurations; ids are their positions. */
export function resolvePools(configs: readonly PoolConfig[]): PoolSpec[] {
  if (configs.length === 0) throw new RangeError('a market needs at least one pool')
  const symbols = new Set<string>()
  return configs.map((config, id) => {
    const { pricePrecision: pp, basePrecision: bp, quotePrecision: qp } = config
    for (const [name, value] of [
      ['pricePrecision', pp],
      ['basePrecision', bp],
      ['quotePrecision', qp],
    ] as const) {
      if (!Number.isInteger(value) || value < 0 || value > 18)
        throw new RangeError(`${name} ${value} is out of range 0..18`)
    }
    // Depth quantities carry at most 8 decimals (docs/venue-interface.md#numbers).
    if (bp > MAX_BASE_PRECISION)
      throw new RangeError(`basePrecision ${bp} exceeds ${MAX_BASE_PRECISION}`)
    const startPrice = parseFixed(config.price, pp)
    if (startPrice <= 0n) throw new RangeError(`price ${config.price} must be positive`)
    const base = coinRef(config.base, config.baseContract)
    const quote = coinRef(config.quote, config.quoteContract)
    const symbol = `${base.id}-${quote.id}`
    if (symbols.has(symbol)) throw new RangeError(`duplicate pool ${symbol}`)
    symbols.add(symbol)
    const lot = pow10(Math.max(0, pp + bp - qp))
    const partial = {
      id,
      symbol,
      base,
      quote,
      pricePrecision: pp,
      basePrecision: bp,
      quotePrecision: qp,
      startPrice,
      lot,
    }
    const spec: PoolSpec = {
      ...partial,
      typicalSize: 0n,
      ammStep: niceStep((startPrice * 5n) / 10_000n),
      ammAccount: `amm.pool-${id}`,
    }
    const typical = baseForQuote(spec, startPrice, 1000n * pow10(qp))
    return { ...spec, typicalSize: typical < lot ? lot : typical }
  })
}
