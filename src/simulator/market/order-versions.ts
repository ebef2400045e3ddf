/**
 * The past states of the keyed accounts' orders, so the order endpoints can show an order
 * as it was some simulated ms ago (quirks `ordersLagMs`, `openListLagMs`) and know when it
 * ended (`purgeCanceledAfterMs`).
 *
 * Simulated time moves only by ticks, and everything between two ticks (the tick's own
 * trading, then `placeOrder` / `cancelOrder` calls) happens at one instant. So an order
 * changed at an instant is only marked, and its state becomes a version stamped with that
 * instant when the next tick starts, before time moves: the state of a past instant is
 * then final, and the present one is the live order. Memory: a few numbers per order and
 * per instant at which it changed.
 *
 * @packageDocumentation
 */
import type { Order, OrderStatus } from './order.js'

/** The parts of an order that change over its life. */
export interface OrderState {
  readonly filled: bigint
  readonly filledQuote: bigint
  readonly status: OrderStatus
  readonly history: boolean
}

/** An order's state at the end of the instant `at` (simulated ms). */
interface Version extends OrderState {
  readonly at: number
}

interface Timeline {
  /** Ascending `at`, one per instant at which the order changed (creation included). */
  readonly versions: Version[]
  /** When it became final, simulated ms. */
  finalAt: number | undefined
}

/**
 * Versions of the keyed accounts' orders.
 *
 * @example
 * ```ts
 * versions.track(order, 1000) // placed at 1000
 * versions.flush(1000) // next tick: the state at 1000 becomes a version
 * versions.stateAt(order, 999, 1250) // undefined: not placed yet
 * versions.stateAt(order, 1000, 1250) // its state at 1000
 * ```
 */
export class OrderVersions {
  readonly #timelines = new WeakMap<Order, Timeline>()
  /** Orders changed at the current instant. */
  readonly #dirty = new Set<Order>()
  /** Orders in the order they ended (so ascending end time). */
  readonly #ended: Order[] = []

  /** Starts the timeline of a new order. */
  track(order: Order): void {
    this.#timelines.set(order, { versions: [], finalAt: undefined })
    this.#dirty.add(order)
  }

  /** Notes that a tracked order changed at the current instant. */
  touch(order: Order): void {
    this.#dirty.add(order)
  }

  /** Notes that a tracked order became final at `at`. */
  end(order: Order, at: number): void {
    const timeline = this.#timelines.get(order)
    if (timeline === undefined) return
    timeline.finalAt = at
    this.#ended.push(order)
    this.#dirty.add(order)
  }

  /** Closes the instant `at`: each order changed in it gets a version. Call before time moves. */
  flush(at: number): void {
    for (const order of this.#dirty) {
      const versions = this.#timelines.get(order)?.versions
      if (versions === undefined) continue
      const { filled, filledQuote, status, history } = order
      const version = { at, filled, filledQuote, status, history }
      // A fractional tickMs can floor two ticks to one ms: the later state of it wins.
      if (versions.at(-1)?.at === at) versions[versions.length - 1] = version
      else versions.push(version)
    }
    this.#dirty.clear()
  }

  /**
   * The state of `order` at time `t` (the end of that instant), or undefined when it was not
   * placed yet. `now` is the current time: from it on the state is the live order's.
   */
  stateAt(order: Order, t: number, now: number): OrderState | undefined {
    if (t >= now) return order
    const versions = this.#timelines.get(order)?.versions
    if (versions === undefined) return undefined
    let low = 0
    let high = versions.length
    while (low < high) {
      const mid = (low + high) >>> 1
      if ((versions[mid] as Version).at <= t) low = mid + 1
      else high = mid
    }
    return versions[low - 1]
  }

  /** When a tracked order became final, or undefined while it works. */
  finalAt(order: Order): number | undefined {
    return this.#timelines.get(order)?.finalAt
  }

  /** The tracked orders that became final after `t`, the latest first. */
  endedAfter(t: number): Order[] {
    const found: Order[] = []
    for (let i = this.#ended.length - 1; i >= 0; i--) {
      const order = this.#ended[i] as Order
      if ((this.finalAt(order) ?? t) <= t) break
      found.push(order)
    }
    return found
  }
}
