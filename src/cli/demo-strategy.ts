/**
 * The demo's strategy: every few seconds it places a small order on the embedded
 * simulator for the demo account, near the top of the book, alternating buys and sells
 * and resting and crossing orders, and cancels what is still working after a while. It
 * reads the book from the demo's own stream and follows each order with `watchOrder`.
 */
import type { Subscription } from 'rxjs'
import { multiplyDecimal, type OrderBook, type OrderEvent, type Venue } from '../index.js'
import type { Simulator } from '../simulator/index.js'

/** What the strategy reports to the demo. */
export interface StrategyListener {
  placed(id: string, text: string): void
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

/** The four kinds of order the strategy cycles through. */
const PLAN = [
  { side: 'buy', at: 'bestBid', note: 'rests at bid' },
  { side: 'sell', at: 'bestBid', note: 'crosses bid' },
  { side: 'sell', at: 'bestAsk', note: 'rests at ask' },
  { side: 'buy', at: 'bestAsk', note: 'crosses ask' },
] as const

/** Starts the strategy; the returned function stops it (and cancels nothing more). */
export function startDemoStrategy(
  sim: Simulator,
  venue: Venue,
  latestBook: () => OrderBook | undefined,
  listener: StrategyListener,
  options: DemoStrategyOptions,
): () => void {
  const watching = new Map<string, Subscription>()
  const placedAt = new Map<string, number>()
  let step = 0
  let stopped = false

  const place = async () => {
    const book = latestBook()
    const plan = PLAN[step % PLAN.length]
    if (book === undefined || plan === undefined) return
    const level = book[plan.at]
    if (level === undefined) return
    step += 1
    const lots = 1 + (step % 3)
    const amount = multiplyDecimal(options.minAmount, String(lots))
    const placed = await sim.placeOrder({
      poolId: options.poolId,
      side: plan.side,
      type: 'limit',
      price: level[0],
      amount,
      clientId: `demo-${Date.now()}-${step}`,
    })
    if (stopped) return
    placedAt.set(placed.id, Date.now())
    listener.placed(placed.id, `${plan.side} ${amount} @ ${level[0]} (${plan.note})`)
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
