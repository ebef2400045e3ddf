/**
 * A constant-product AMM (x · y = k) in exact integer units: base reserve in base units,
 * quote reserve in quote units. Every swap rounds in the pool's favour (a buyer pays the
 * quote rounded up, a seller receives it rounded down), so k never decreases. No swap fee.
 *
 * @packageDocumentation
 */
import { divCeil, isqrt, isqrtCeil, pow10 } from './fixed-point.js'
import type { PoolSpec } from './pool-spec.js'

/** A price as an exact fraction of price units: `num / den`. */
export interface PriceRatio {
  readonly num: bigint
  readonly den: bigint
}

/** One pool's AMM reserves and curve. */
export class AmmPool {
  readonly pool: PoolSpec
  /** Base reserve, base units. */
  base: bigint
  /** Quote reserve, quote units. */
  quote: bigint
  /** Multiplier turning `quote / base` into price units (split into num and den). */
  readonly #priceNum: bigint
  readonly #priceDen: bigint

  constructor(pool: PoolSpec, base: bigint, quote: bigint) {
    this.pool = pool
    this.base = base
    this.quote = quote
    const shift = pool.pricePrecision + pool.basePrecision - pool.quotePrecision
    this.#priceNum = shift >= 0 ? pow10(shift) : 1n
    this.#priceDen = shift >= 0 ? 1n : pow10(-shift)
  }

  /** The marginal price exactly, in price units: quote · 10^shift / base. */
  price(): PriceRatio {
    return { num: this.quote * this.#priceNum, den: this.base * this.#priceDen }
  }

  /** Quote units a trader pays to take `quantity` base out (rounded up); undefined if too large. */
  costToBuy(quantity: bigint): bigint | undefined {
    if (quantity <= 0n || quantity >= this.base) return undefined
    return divCeil(this.quote * quantity, this.base - quantity)
  }

  /** Quote units a trader receives for putting `quantity` base in (rounded down). */
  proceedsOfSell(quantity: bigint): bigint {
    return (this.quote * quantity) / (this.base + quantity)
  }

  /** Applies a swap: base leaves the pool (`baseOut` > 0) or enters it (< 0). */
  apply(baseDelta: bigint, quoteDelta: bigint): void {
    this.base += baseDelta
    this.quote += quoteDelta
  }

  /**
   * The base reserve at which the marginal price equals `price` (price units, exact
   * fraction), from x² = k · 10^shift / price; rounded up or down as asked.
   */
  baseReserveAt(price: PriceRatio, roundUp: boolean): bigint {
    const numerator = this.base * this.quote * this.#priceNum * price.den
    const denominator = this.#priceDen * price.num
    return roundUp ? isqrtCeil(divCeil(numerator, denominator)) : isqrt(numerator / denominator)
  }
}
