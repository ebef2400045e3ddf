/**
 * The demo's strategy: every few seconds it places a small order on the embedded
 * simulator for the demo account, alternating buys and sells and resting and crossing
 * orders, cancels what is still working after a while, and follows each order with
 * `watchOrder`.
 *
 * It prices each order from the matching engine's own book, read from the simulator at the
 * moment it places the order. The book the demo shows (V2) also holds the AMM's levels,
 * which no limit order meets, and is up to a poll old: a buy at its best ask often found
 * no seller and rested. And each order is labelled by what happened to it at placement
 * (filled at once, partly, not at all, or rejected), read from the account's own record
 * of the order, never by what was meant to happen.
 */
import type { Subscription } from 'rxjs'
// The decimals from their own module, not the library's index: the board imports this
// file's words, and the demo draws its first frame before the library is loaded.
import { compareDecimal, multiplyDecimal, normalizeDecimal, subtractDecimal } from '../decimal.js'
import type { OrderEvent, Venue } from '../index.js'
import type { Simulator } from '../simulator/index.js'

/** An order the strategy placed, and what happened to it at placement. */
export interface Placement {
  readonly side: 'buy' | 'sell'
  readonly amount: string
  readonly price: string
  /** The side of the engine's book the price was taken from. */
  readonly level: 'bid' | 'ask'
  /** The account's record right after placement; `undefined` if it showed none. */
  readonly record: { readonly status: number; readonly executed: string } | undefined
}

/** What the strategy reports to the demo. */
export interface StrategyListener {
  placed(id: string, placement: Placement): void
  event(event: OrderEvent): void
  error(text: string): void
}

/** Settings of {@link startDemoStrategy}. */
export interface DemoStrategyOptions {
  readonly poolId: number
  /** The pool's smallest base amount (orders are a multiple of it). */
  readonly minAmount: string
  /** Ms between two orders. */
  readonly everyMs: number
  /** Ms after which a working order is canceled. */
  readonly cancelAfterMs: number
}

/** The four kinds of order the strategy cycles through: a price on the engine's book. */
const PLAN = [
  { side: 'buy', at: 'bids', level: 'bid' },
  { side: 'sell', at: 'bids', level: 'bid' },
  { side: 'sell', at: 'asks', level: 'ask' },
  { side: 'buy', at: 'asks', level: 'ask' },
] as const

/**
 * What happened to an order at placement, in words: `long` for a line of its own
 * (`crossed the bid, filled at once`, `crossed the ask, 0.01 filled at once, 0.02 rests`,
 * `rests at the bid`, `rejected`), `short` for the demo's narrow order panel.
 */
export function placementWords(placement: Placement): { long: string; short: string } {
  const { record, level, amount } = placement
  if (record === undefined) return { long: `at the ${level}`, short: `at ${level}` }
  if (record.status === 4) return { long: 'rejected', short: 'rejected' }
  if (compareDecimal(record.executed, '0') === 0) {
    return { long: `rests at the ${level}`, short: 'rests' }
  }
  if (compareDecimal(record.executed, amount) >= 0) {
    return { long: `crossed the ${level}, filled at once`, short: 'crossed, filled' }
  }
  // In the amount's short form: `0.01 filled at once`, not `0.0100`.
  const executed = normalizeDecimal(record.executed)
  const rest = normalizeDecimal(subtractDecimal(amount, record.executed))
  return {
    long: `crossed the ${level}, ${executed} filled at once, ${rest} rests`,
    short: `crossed, ${rest} rests`,
  }
}

/** Starts the strategy; the returned function stops it (and cancels nothing more). */
export function startDemoStrategy(
  sim: Simulator,
  venue: Venue,
  listener: StrategyListener,
  options: DemoStrategyOptions,
): () => void {
  const watching = new Map<string, Subscription>()
  const placedAt = new Map<string, number>()
  let step = 0
  let stopped = false

  const place = async () => {
    const plan = PLAN[step % PLAN.length]
    if (plan === undefined) return
    // Read and placed in one turn (placeOrder matches before it first awaits): no tick
    // can move the engine's book in between.
    const price = sim.truth.engineBook(options.poolId)[plan.at][0]?.[0]
    if (price === undefined) return
    step += 1
    const lots = 1 + (step % 3)
    const amount = multiplyDecimal(options.minAmount, String(lots))
    const placed = await sim.placeOrder({
      poolId: options.poolId,
      side: plan.side,
      type: 'limit',
      price,
      amount,
      clientId: `demo-${Date.now()}-${step}`,
    })
    if (stopped) return
    placedAt.set(placed.id, Date.now())
    const record = orderRecord(sim, placed.id)
    listener.placed(placed.id, {
      side: plan.side,
      amount,
      price,
      level: plan.level,
      record:
        record === undefined
          ? undefined
          : { status: record.status, executed: record.executed_amount },
    })
    const subscription = venue.watchOrder(placed.id).subscribe({
      next: (event) => listener.event(event),
      error: (error: unknown) => {
        listener.error(`${placed.id}: ${error instanceof Error ? error.message : String(error)}`)
        forget(placed.id)
      },
      complete: () => forget(placed.id),
    })
    if (!subscription.closed) watching.set(placed.id, subscription)
  }

  const forget = (id: string) => {
    watching.get(id)?.unsubscribe()
    watching.delete(id)
    placedAt.delete(id)
  }

  const cancelOld = async () => {
    const now = Date.now()
    for (const [id, at] of placedAt) {
      if (now - at < options.cancelAfterMs) continue
      placedAt.delete(id)
      // The order may have filled since the last poll: then there is nothing to cancel.
      await sim.cancelOrder(id).catch(() => undefined)
    }
  }

  const timer = setInterval(() => {
    Promise.all([place(), cancelOld()]).catch((error: unknown) => {
      if (!stopped) listener.error(error instanceof Error ? error.message : String(error))
    })
  }, options.everyMs)

  return () => {
    stopped = true
    clearInterval(timer)
    for (const subscription of watching.values()) subscription.unsubscribe()
    watching.clear()
  }
}

/** The demo account's record of the order `id` (`{pool}-{order}-{side}`), if it has one. */
function orderRecord(sim: Simulator, id: string) {
  const [pool, order, side] = id.split('-').map(Number)
  if (pool === undefined || order === undefined || (side !== 0 && side !== 1)) return undefined
  return sim.market.account(sim.apiKey)?.order(pool, order, side)
}
