/**
 * The books a pool serves: V1 is the engine's resting orders, V2 the engine merged with
 * the AMM's mapped levels (see amm-levels.ts), and the depth record built from them.
 * Levels are computed at most once per pool and source for each state of the books
 * (the core's `revision`, which every order, cancel and swap moves on, in a tick or
 * between ticks).
 *
 * @packageDocumentation
 */
import { type AmmLevels, ammLevels, type RawLevel } from './amm-levels.js'
import { groupLevels, mergeLevels, precisionExponent } from './depth-levels.js'
import { formatFixed } from './fixed-point.js'
import type { MarketCore } from './market-core.js'
import type { BookSide } from './order-book.js'
import type { DepthRecord, Source, WireLevel } from './types.js'

/** One side pair of integer levels. */
export interface RawBook {
  readonly bids: readonly RawLevel[]
  readonly asks: readonly RawLevel[]
}

/** Integer books of every pool, cached per revision of the market. */
export class BookView {
  readonly #core: MarketCore
  readonly #cache = new Map<string, RawBook>()
  #cacheRevision = -1

  constructor(core: MarketCore) {
    this.#core = core
  }

  /** The engine's own levels. */
  engine(poolId: number): RawBook {
    return this.#cached(`e${poolId}`, () => {
      const book = this.#core.engines[poolId]?.book
      return {
        bids: book === undefined ? [] : raw(book.bids),
        asks: book === undefined ? [] : raw(book.asks),
      }
    })
  }

  /** The AMM's mapped levels. */
  amm(poolId: number): AmmLevels {
    return this.#cached(`a${poolId}`, () => {
      const amm = this.#core.amms[poolId]
      const book = this.#core.engines[poolId]?.book
      if (amm === undefined || book === undefined) return { bids: [], asks: [] }
      return ammLevels(amm, book.bids.best()?.price, book.asks.best()?.price)
    })
  }

  /** The book a source serves: V1 engine only, V2 engine merged with the AMM. */
  book(poolId: number, source: Source): RawBook {
    if (source === 'v1') return this.engine(poolId)
    return this.#cached(`v${poolId}`, () => {
      const engine = this.engine(poolId)
      const amm = this.amm(poolId)
      return {
        bids: mergeLevels(engine.bids, amm.bids, true),
        asks: mergeLevels(engine.asks, amm.asks, false),
      }
    })
  }

  /** A book in wire form, full depth, no grouping. */
  wire(poolId: number, book: RawBook): { bids: WireLevel[]; asks: WireLevel[] } {
    const pool = this.#core.pools[poolId]
    if (pool === undefined) return { bids: [], asks: [] }
    const level = ([price, quantity]: RawLevel): WireLevel => [
      formatFixed(price, pool.pricePrecision),
      formatFixed(quantity, pool.basePrecision),
    ]
    return { bids: book.bids.map(level), asks: book.asks.map(level) }
  }

  /** The depth record of a pool, or undefined for an unknown pool. */
  depth(poolId: number, source: Source, limit: number, precision: string): DepthRecord | undefined {
    const pool = this.#core.pools[poolId]
    if (pool === undefined) return undefined
    const record: DepthRecord = {
      pool_id: poolId,
      precision,
      timestamp: this.#core.nowMs(),
      bids: [],
      asks: [],
    }
    const exponent = precisionExponent(precision)
    if (exponent === undefined) return record
    const book = this.book(poolId, source)
    const { pricePrecision: pp, basePrecision: bp } = pool
    record.bids = groupLevels(book.bids, exponent, pp, bp, true, limit)
    record.asks = groupLevels(book.asks, exponent, pp, bp, false, limit)
    return record
  }

  #cached<T extends RawBook>(key: string, build: () => T): T {
    if (this.#cacheRevision !== this.#core.revision) {
      this.#cache.clear()
      this.#cacheRevision = this.#core.revision
    }
    const found = this.#cache.get(key)
    if (found !== undefined) return found as T
    const built = build()
    this.#cache.set(key, built)
    return built
  }
}

function raw(side: BookSide): RawLevel[] {
  return side.levels.map((level) => [level.price, level.quantity])
}
