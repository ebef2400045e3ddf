/**
 * The simulated crowd that makes the market move: a fair price per pool that wanders
 * (with a pull back to the start price so long runs stay sane), market makers that keep
 * ladders of limit orders around it, takers that send market and marketable orders, and
 * noise traders that swap with the AMM.
 *
 * @packageDocumentation
 */
import { MAKERS, TAKERS } from './genesis.js'
import type { MarketCore } from './market-core.js'
import type { Order, Side } from './order.js'
import type { PoolSpec } from './pool-spec.js'
import { priceUnit, randomSize } from './trade-sizing.js'

/** Orders per side each maker keeps in each pool. */
const MAKER_ORDERS_PER_SIDE = 6
/** Makers cancel orders further than this many price units from the fair price. */
const STALE_UNITS = 16n

interface PoolCrowd {
  readonly pool: PoolSpec
  readonly unit: bigint
  fair: bigint
  /** Working orders per maker. */
  readonly quotes: Map<string, Order[]>
}

/** The crowd of all pools. */
export class Crowd {
  readonly #core: MarketCore
  readonly #pools: PoolCrowd[]

  constructor(core: MarketCore) {
    this.#core = core
    this.#pools = core.pools.map((pool) => ({
      pool,
      unit: priceUnit(pool),
      fair: pool.startPrice,
      quotes: new Map(),
    }))
  }

  /** The fair price of a pool, price units. */
  fair(poolId: number): bigint {
    return this.#pools[poolId]?.fair ?? 0n
  }

  /** Genesis ladders: every maker quotes both sides so the books are full from the start. */
  seedBooks(): void {
    for (const crowd of this.#pools) {
      for (const maker of MAKERS) {
        const orders: Order[] = []
        for (let k = 1n; k <= BigInt(MAKER_ORDERS_PER_SIDE); k++) {
          for (const side of [0, 1] as const) orders.push(this.#quote(crowd, maker, side, k * 2n))
        }
        crowd.quotes.set(maker, orders)
      }
    }
  }

  /** One tick of crowd activity in every pool. */
  act(): void {
    for (const crowd of this.#pools) this.#act(crowd)
  }

  /** One step of crowd activity in pool `poolId` alone (the bursty regime's). */
  actIn(poolId: number): void {
    const crowd = this.#pools[poolId]
    if (crowd !== undefined) this.#act(crowd)
  }

  #act(crowd: PoolCrowd): void {
    const random = this.#core.random
    this.#moveFair(crowd)
    for (const maker of MAKERS) this.#maintain(crowd, maker)
    if (random.chance(0.5)) this.#take(crowd)
    if (random.chance(0.15)) {
      const quantity = randomSize(random, crowd.pool, 2, 20)
      this.#core.swap(crowd.pool.id, random.pick(TAKERS), random.chance(0.5), quantity)
    }
  }

  #moveFair(crowd: PoolCrowd): void {
    const roll = this.#core.random.next()
    const move = roll < 0.3 ? -crowd.unit : roll >= 0.7 ? crowd.unit : 0n
    const pull = (crowd.pool.startPrice - crowd.fair) / 400n
    const fair = crowd.fair + move + pull
    const floor = crowd.unit * 40n
    crowd.fair = fair < floor ? floor : fair
  }

  #maintain(crowd: PoolCrowd, maker: string): void {
    const random = this.#core.random
    const working = (crowd.quotes.get(maker) ?? []).filter((order) => !order.history)
    for (const order of working) {
      const distance =
        order.price > crowd.fair ? order.price - crowd.fair : crowd.fair - order.price
      if (distance > STALE_UNITS * crowd.unit) this.#core.cancel(order)
    }
    const first = working[0]
    if (first !== undefined && random.chance(0.25)) this.#core.cancel(random.pick(working))
    const kept = working.filter((order) => !order.history)
    for (const side of [0, 1] as const) {
      const count = kept.filter((order) => order.side === side).length
      const missing = Math.min(2, MAKER_ORDERS_PER_SIDE - count)
      for (let i = 0; i < missing; i++) {
        const order = this.#quote(crowd, maker, side, BigInt(random.int(1, 12)))
        if (!order.history) kept.push(order)
      }
    }
    crowd.quotes.set(maker, kept)
  }

  /** Places a maker order `units` price units (plus jitter) away from the fair price. */
  #quote(crowd: PoolCrowd, maker: string, side: Side, units: bigint): Order {
    const random = this.#core.random
    const offset = units * crowd.unit + random.bigint(0n, crowd.unit - 1n)
    const raw = side === 0 ? crowd.fair - offset : crowd.fair + offset
    const price = raw > crowd.unit ? raw : crowd.unit
    const amount = randomSize(random, crowd.pool, 2, 20)
    return this.#core.submit(crowd.pool.id, { account: maker, side, type: 1, price, amount })
  }

  /** A taker order: mostly market, sometimes a marketable limit whose rest is canceled. */
  #take(crowd: PoolCrowd): void {
    const random = this.#core.random
    const account = random.pick(TAKERS)
    const side: Side = random.chance(0.5) ? 0 : 1
    const amount = randomSize(random, crowd.pool, 1, 15)
    if (random.chance(0.75)) {
      this.#core.submit(crowd.pool.id, { account, side, type: 0, amount })
      return
    }
    const book = this.#core.engines[crowd.pool.id]?.book
    const best = (side === 0 ? book?.asks : book?.bids)?.best()
    if (best === undefined) return
    const through = BigInt(random.int(0, 2)) * crowd.unit
    const price = side === 0 ? best.price + through : best.price - through
    if (price <= 0n) return
    const order = this.#core.submit(crowd.pool.id, { account, side, type: 1, price, amount })
    if (!order.history) this.#core.cancel(order)
  }
}
