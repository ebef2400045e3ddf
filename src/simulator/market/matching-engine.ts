/**
 * The matching engine of one pool: price-time priority, limit and market orders, partial
 * fills and cancels, settling every fill in the ledger with fees.
 *
 * Reservations: a limit buy locks `price × amount` quote, a limit sell locks `amount` base;
 * a fill at a better price than the limit unlocks the difference at once, so an open
 * order always reserves exactly what {@link reservedOf} says. Market orders lock nothing:
 * each fill takes from the free balance and the order stops where the balance ends.
 *
 * @packageDocumentation
 */
import { FEE_ACCOUNT, feeOn, MAKER_FEE_PPM, TAKER_FEE_PPM } from './fees.js'
import { minBig } from './fixed-point.js'
import type { Ledger } from './ledger.js'
import { type Order, type OrderStatus, remainingOf, reservedOf, type Side } from './order.js'
import { OrderBook } from './order-book.js'
import { type PoolSpec, quoteAmount } from './pool-spec.js'

/** One execution between a taker and a resting maker order. */
export interface Fill {
  readonly taker: Order
  readonly maker: Order
  /** Price units (the maker's price). */
  readonly price: bigint
  /** Base units. */
  readonly quantity: bigint
  /** Quote units, exact. */
  readonly quote: bigint
  /** Fee of the taker in the coin it receives, pool units. */
  readonly takerFee: bigint
  /** Fee of the maker in the coin it receives, pool units. */
  readonly makerFee: bigint
}

/** What the engine needs from the market around it. */
export interface EngineHooks {
  /** Current simulated time, Unix seconds. */
  nowSec(): number
  /** The next market-wide order creation sequence. */
  nextOrderSeq(): number
  /** Whether orders of `account` keep their trade records. */
  keepsTrades(account: string): boolean
  /** Called for every new order before it is checked or matched. */
  onCreate(order: Order): void
  /** Called for every fill, in execution order. */
  onFill(fill: Fill): void
  /** Called once when an order becomes final (filled, canceled or rejected). */
  onFinal(order: Order): void
}

/** An order request. Quantities are base units; a limit needs a price in price units. */
export interface OrderRequest {
  readonly account: string
  readonly side: Side
  readonly type: 0 | 1
  readonly amount: bigint
  readonly price?: bigint
  readonly cid?: string
}

/** The engine of one pool. */
export class MatchingEngine {
  readonly pool: PoolSpec
  readonly book = new OrderBook()
  readonly #ledger: Ledger
  readonly #hooks: EngineHooks
  readonly #baseScale: bigint
  readonly #quoteScale: bigint
  #lastOrderId = 0

  constructor(pool: PoolSpec, ledger: Ledger, hooks: EngineHooks) {
    this.pool = pool
    this.#ledger = ledger
    this.#hooks = hooks
    this.#baseScale = ledger.scale(pool.base.id, pool.basePrecision)
    this.#quoteScale = ledger.scale(pool.quote.id, pool.quotePrecision)
  }

  /** Places an order, matches it and rests a limit remainder. Returns the order. */
  submit(request: OrderRequest): Order {
    const { account, side, type, amount } = request
    const price = type === 1 ? (request.price ?? 0n) : 0n
    const order: Order = {
      pool: this.pool,
      orderId: ++this.#lastOrderId,
      cid: request.cid ?? '',
      account,
      side,
      type,
      price,
      amount,
      filled: 0n,
      filledQuote: 0n,
      status: 0,
      history: false,
      time: this.#hooks.nowSec(),
      seq: this.#hooks.nextOrderSeq(),
      trades: this.#hooks.keepsTrades(account) ? [] : undefined,
    }
    this.#hooks.onCreate(order)
    const valid = amount > 0n && amount % this.pool.lot === 0n && (type === 0 || price > 0n)
    if (!valid || (type === 1 && !this.#reserve(order))) return this.#finish(order, 4)
    const short = this.#match(order)
    if (remainingOf(order) === 0n) return this.#finish(order, 2)
    if (type === 1) {
      this.book.sideOf(side).add(order)
      order.status = order.filled > 0n ? 1 : 0
      return order
    }
    // A market order's unfilled rest is dropped: no fill at all is a rejection when the
    // balance was short and a cancel when the book was empty; after a fill it stays 1.
    return this.#finish(order, order.filled > 0n ? 1 : short ? 4 : 3)
  }

  /** Cancels an open order: unlocks its reservation. False when it is not open here. */
  cancel(order: Order): boolean {
    if (order.history || order.pool !== this.pool) return false
    if (!this.book.sideOf(order.side).remove(order)) return false
    this.#unlock(order, reservedOf(order))
    // Canceled after a partial fill keeps status 1 in the history set, as observed live.
    this.#finish(order, order.filled > 0n ? 1 : 3)
    return true
  }

  #reserve(order: Order): boolean {
    const [coin, units] = this.#reservation(order, reservedOf(order))
    if (this.#ledger.free(order.account, coin) < units) return false
    this.#ledger.lock(order.account, coin, this.pool.id, units)
    return true
  }

  #unlock(order: Order, poolUnits: bigint): void {
    const [coin, units] = this.#reservation(order, poolUnits)
    if (units > 0n) this.#ledger.unlock(order.account, coin, this.pool.id, units)
  }

  #reservation(order: Order, poolUnits: bigint): [coin: string, units: bigint] {
    return order.side === 0
      ? [this.pool.quote.id, poolUnits * this.#quoteScale]
      : [this.pool.base.id, poolUnits * this.#baseScale]
  }

  /** Matches against the opposite side; true when a market order stopped for balance. */
  #match(taker: Order): boolean {
    const opposite = this.book.sideOf(taker.side === 0 ? 1 : 0)
    for (;;) {
      const remaining = remainingOf(taker)
      const level = opposite.best()
      const maker = level?.orders[0]
      if (remaining === 0n || level === undefined || maker === undefined) return false
      if (
        taker.type === 1 &&
        (taker.side === 0 ? taker.price < level.price : taker.price > level.price)
      )
        return false
      let quantity = minBig(remaining, remainingOf(maker))
      if (taker.type === 0) {
        quantity = minBig(quantity, this.#affordable(taker, level.price))
        if (quantity === 0n) return true
      }
      this.#settle(taker, maker, level.price, quantity)
      opposite.fillBest(quantity, remainingOf(maker) === 0n)
      if (remainingOf(maker) === 0n) this.#finish(maker, 2)
      else maker.status = 1
    }
  }

  /** Base units (whole lots) a market order can pay for or deliver at `price`. */
  #affordable(order: Order, price: bigint): bigint {
    const { lot } = this.pool
    if (order.side === 1) {
      const free = this.#ledger.free(order.account, this.pool.base.id) / this.#baseScale
      return free - (free % lot)
    }
    const lotCost = quoteAmount(this.pool, price, lot) * this.#quoteScale
    return (this.#ledger.free(order.account, this.pool.quote.id) / lotCost) * lot
  }

  #settle(taker: Order, maker: Order, price: bigint, quantity: bigint): void {
    const ledger = this.#ledger
    const { base, quote: quoteCoin, id: poolId } = this.pool
    const quote = quoteAmount(this.pool, price, quantity)
    const buyer = taker.side === 0 ? taker : maker
    const seller = taker.side === 0 ? maker : taker
    const buyerRate = buyer === taker ? TAKER_FEE_PPM : MAKER_FEE_PPM
    const sellerRate = seller === taker ? TAKER_FEE_PPM : MAKER_FEE_PPM
    const paid = quote * this.#quoteScale
    if (buyer.type === 1) {
      ledger.spendLocked(buyer.account, quoteCoin.id, poolId, paid)
      // Filled below its limit: the reservation for this quantity shrinks to the real cost.
      this.#unlock(buyer, quoteAmount(this.pool, buyer.price, quantity) - quote)
    } else {
      ledger.debit(buyer.account, quoteCoin.id, paid)
    }
    const delivered = quantity * this.#baseScale
    if (seller.type === 1) ledger.spendLocked(seller.account, base.id, poolId, delivered)
    else ledger.debit(seller.account, base.id, delivered)
    const buyerFee = feeOn(quantity, buyerRate)
    const sellerFee = feeOn(quote, sellerRate)
    ledger.credit(buyer.account, base.id, (quantity - buyerFee) * this.#baseScale)
    ledger.credit(FEE_ACCOUNT, base.id, buyerFee * this.#baseScale)
    ledger.credit(seller.account, quoteCoin.id, (quote - sellerFee) * this.#quoteScale)
    ledger.credit(FEE_ACCOUNT, quoteCoin.id, sellerFee * this.#quoteScale)
    for (const order of [taker, maker]) {
      order.filled += quantity
      order.filledQuote += quote
    }
    const takerFee = buyer === taker ? buyerFee : sellerFee
    const makerFee = buyer === taker ? sellerFee : buyerFee
    this.#hooks.onFill({ taker, maker, price, quantity, quote, takerFee, makerFee })
  }

  #finish(order: Order, status: OrderStatus): Order {
    order.status = status
    order.history = true
    this.#hooks.onFinal(order)
    return order
  }
}
