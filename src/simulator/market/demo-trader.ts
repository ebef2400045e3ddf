/**
 * The strategy of an account with an API key. It trades near the mid with client ids
 * `cid-<n>`: limit orders that rest, cross fully or cross partially (the rest keeps
 * working), market orders, cancels, the odd order too large for the balance (rejected),
 * and deposits and withdrawals now and then.
 *
 * It keeps between two and ten orders working and manages only orders it placed itself:
 * orders placed for the same account with `placeOrder` are never canceled by it, and its
 * client ids skip any the account already used. The demo account opens with a fixed
 * script that produces every order outcome within its first dozen ticks (whatever the
 * seed): filled, canceled, partially filled then canceled (status 1 in the history set),
 * rejected, working and partially filled working orders.
 *
 * @packageDocumentation
 */
import type { Crowd } from './crowd-traders.js'
import type { MarketCore } from './market-core.js'
import type { OrderRequest } from './matching-engine.js'
import type { Order, Side } from './order.js'
import { quoteAmount } from './pool-spec.js'
import { priceUnit, randomSize, toLots } from './trade-sizing.js'

/** How one keyed account behaves. */
export interface DemoTraderOptions {
  readonly account: string
  /** Chance per tick of an order action. */
  readonly activity: number
  /** Chance per tick of a deposit or withdrawal. */
  readonly transferRate: number
  /** Whether to run the opening script first. */
  readonly scripted: boolean
  /** Genesis endowment per coin, ledger units. */
  readonly endowed: ReadonlyMap<string, bigint>
}

/** Most working orders the strategy keeps; beyond it cancels its oldest. */
const MAX_WORKING = 10

/** Fewest working orders the strategy keeps; below it rests a new order deep in the book. */
const MIN_WORKING = 2

/** One keyed account's strategy. */
export class DemoTrader {
  readonly #core: MarketCore
  readonly #crowd: Crowd
  readonly #options: DemoTraderOptions
  #cid = 0
  #step = 0
  /** Orders this strategy placed (the account may hold others, placed with `placeOrder`). */
  readonly #own = new WeakSet<Order>()
  #rest: Order | undefined
  #partial: Order | undefined

  constructor(core: MarketCore, crowd: Crowd, options: DemoTraderOptions) {
    this.#core = core
    this.#crowd = crowd
    this.#options = options
  }

  /** One tick: a script step or a random action, then maybe a transfer. */
  act(): void {
    const random = this.#core.random
    if (this.#options.scripted && this.#step < SCRIPT_STEPS) this.#script(this.#step++)
    else {
      if (random.chance(this.#options.activity)) this.#randomAction()
      this.#keepWorking()
    }
    if (random.chance(this.#options.transferRate)) this.#transfer()
  }

  #script(step: number): void {
    const pool = this.#core.pools[0]
    if (pool === undefined) return
    const account = this.#options.account
    switch (step) {
      case 0:
        this.#core.transfers.deposit(
          account,
          pool.quote.id,
          (this.#options.endowed.get(pool.quote.id) ?? 0n) / 10n,
        )
        return
      case 1:
        this.#rest = this.#restOrder(0, 0, 2n)
        return
      case 2:
        this.#crossFully(0, 1)
        return
      case 3:
        this.#partial = this.#crossPartially(0, 0)
        return
      case 4:
        this.#market(0, 0)
        return
      case 5:
        if (!this.#cancelIfWorking(this.#rest)) this.#cancelIfWorking(this.#restOrder(0, 1, 3n))
        return
      case 6:
        if (!this.#cancelIfWorking(this.#partial)) this.#cancelIfWorking(this.#crossPartially(0, 1))
        return
      case 7:
        this.#oversized(0, 0)
        return
      case 8:
        this.#core.transfers.withdraw(
          account,
          pool.base.id,
          this.#core.ledger.free(account, pool.base.id) / 20n,
        )
        return
      case 9:
        this.#restOrder(0, 1, 3n)
        return
      case 10:
        this.#restOrder(0, 0, 4n)
        return
      default:
        this.#crossPartially(0, 1)
    }
  }

  #randomAction(): void {
    const random = this.#core.random
    const poolId = random.int(0, this.#core.pools.length - 1)
    const side: Side = random.chance(0.5) ? 0 : 1
    const roll = random.next()
    if (roll < 0.32) this.#restOrder(poolId, side, BigInt(random.int(0, 6)))
    else if (roll < 0.44) this.#crossFully(poolId, side)
    else if (roll < 0.52) this.#crossPartially(poolId, side)
    else if (roll < 0.62) this.#market(poolId, side)
    else if (roll < 0.84) {
      const working = this.#working()
      if (working.length > MIN_WORKING) this.#core.cancel(random.pick(working))
    } else if (roll < 0.87) this.#oversized(poolId, side)
    const working = this.#working()
    if (working.length > MAX_WORKING) {
      const oldest = working.reduce((a, b) => (b.seq < a.seq ? b : a))
      this.#core.cancel(oldest)
    }
  }

  /** Rests an order 5 to 10 price units behind the best when too few are working. */
  #keepWorking(): void {
    if (this.#working().length >= MIN_WORKING) return
    const random = this.#core.random
    const poolId = random.int(0, this.#core.pools.length - 1)
    this.#restOrder(poolId, random.chance(0.5) ? 0 : 1, BigInt(random.int(5, 10)))
  }

  #working(): Order[] {
    const open = this.#core.accounts.named(this.#options.account)?.open ?? []
    return [...open].filter((order) => this.#own.has(order))
  }

  #submit(poolId: number, request: OrderRequest): Order {
    const order = this.#core.submit(poolId, request)
    this.#own.add(order)
    return order
  }

  #cancelIfWorking(order: Order | undefined): boolean {
    return order !== undefined && this.#core.cancel(order)
  }

  /** A limit order `units` price units behind the best price of its own side. */
  #restOrder(poolId: number, side: Side, units: bigint): Order | undefined {
    const pool = this.#core.pools[poolId]
    const book = this.#core.engines[poolId]?.book
    if (pool === undefined || book === undefined) return undefined
    const unit = priceUnit(pool)
    const fair = this.#crowd.fair(poolId)
    const own =
      (side === 0 ? book.bids : book.asks).best()?.price ?? (side === 0 ? fair - unit : fair + unit)
    const opposite = (side === 0 ? book.asks : book.bids).best()?.price
    let price = side === 0 ? own - units * unit : own + units * unit
    if (opposite !== undefined && side === 0 && price >= opposite) price = opposite - 1n
    if (opposite !== undefined && side === 1 && price <= opposite) price = opposite + 1n
    if (price <= 0n) return undefined
    return this.#limit(poolId, side, price, randomSize(this.#core.random, pool, 1, 5))
  }

  /** A limit order at the best opposite price for at most that level's quantity: fills fully. */
  #crossFully(poolId: number, side: Side): Order | undefined {
    const best = this.#opposite(poolId, side)
    const pool = this.#core.pools[poolId]
    if (best === undefined || pool === undefined) return undefined
    const size = randomSize(this.#core.random, pool, 1, 5)
    const amount = toLots(pool, best.quantity < size ? best.quantity : size)
    return this.#limit(poolId, side, best.price, amount)
  }

  /** A limit order at the best opposite price for more than that level holds: the rest works. */
  #crossPartially(poolId: number, side: Side): Order | undefined {
    const best = this.#opposite(poolId, side)
    const pool = this.#core.pools[poolId]
    if (best === undefined || pool === undefined) return undefined
    const amount = toLots(pool, best.quantity) + randomSize(this.#core.random, pool, 1, 3)
    return this.#limit(poolId, side, best.price, amount)
  }

  #market(poolId: number, side: Side): Order | undefined {
    const pool = this.#core.pools[poolId]
    if (pool === undefined) return undefined
    const amount = randomSize(this.#core.random, pool, 1, 3)
    return this.#submit(poolId, {
      account: this.#options.account,
      side,
      type: 0,
      amount,
      cid: this.#nextCid(),
    })
  }

  /** A limit order for more than the balance covers: rejected with status 4. */
  #oversized(poolId: number, side: Side): Order | undefined {
    const pool = this.#core.pools[poolId]
    const best = this.#opposite(poolId, side)
    if (pool === undefined || best === undefined) return undefined
    const amount = this.#affordable(poolId, side, best.price) * 2n + pool.typicalSize * 10n
    return this.#submit(poolId, {
      account: this.#options.account,
      side,
      type: 1,
      price: best.price,
      amount,
      cid: this.#nextCid(),
    })
  }

  /** A limit order capped to what the free balance covers; nothing when that is zero. */
  #limit(poolId: number, side: Side, price: bigint, wanted: bigint): Order | undefined {
    const affordable = this.#affordable(poolId, side, price)
    const amount = wanted < affordable ? wanted : affordable
    if (amount <= 0n) return undefined
    return this.#submit(poolId, {
      account: this.#options.account,
      side,
      type: 1,
      price,
      amount,
      cid: this.#nextCid(),
    })
  }

  /** Base units (whole lots) the free balance covers for a limit order at `price`. */
  #affordable(poolId: number, side: Side, price: bigint): bigint {
    const pool = this.#core.pools[poolId]
    if (pool === undefined) return 0n
    const { ledger } = this.#core
    const account = this.#options.account
    if (side === 1) {
      return toLots(
        pool,
        ledger.free(account, pool.base.id) / ledger.scale(pool.base.id, pool.basePrecision),
      )
    }
    const lotCost =
      quoteAmount(pool, price, pool.lot) * ledger.scale(pool.quote.id, pool.quotePrecision)
    return (ledger.free(account, pool.quote.id) / lotCost) * pool.lot
  }

  #opposite(poolId: number, side: Side): { price: bigint; quantity: bigint } | undefined {
    const book = this.#core.engines[poolId]?.book
    return (side === 0 ? book?.asks : book?.bids)?.best()
  }

  #nextCid(): string {
    const taken = this.#core.accounts.named(this.#options.account)?.byCid
    let cid: string
    do {
      this.#cid += 1
      cid = `cid-${this.#cid}`
    } while (taken?.has(cid) === true)
    return cid
  }

  /** Deposits the coin it is shortest of, or withdraws a slice of a coin it holds. */
  #transfer(): void {
    const random = this.#core.random
    const { ledger, transfers } = this.#core
    const account = this.#options.account
    const coins = [...this.#options.endowed.entries()]
    if (coins.length === 0) return
    if (random.chance(0.6)) {
      // Shortest relative to its endowment: free_a / endowed_a smallest.
      const [coin, endowed] = coins.reduce((a, b) =>
        ledger.free(account, b[0]) * a[1] < ledger.free(account, a[0]) * b[1] ? b : a,
      )
      transfers.deposit(account, coin, (endowed * BigInt(random.int(10, 40))) / 100n)
      return
    }
    const [coin] = random.pick(coins)
    transfers.withdraw(
      account,
      coin,
      (ledger.free(account, coin) * BigInt(random.int(1, 15))) / 100n,
    )
  }
}

/** Steps of the opening script (one per tick). */
const SCRIPT_STEPS = 12
