/**
 * The order streams of a chaos run: orders the run places for the demo account while the
 * faults are on, each followed by `watchOrder`, counted against the simulator's truth once
 * every one ended: a stream that failed, one that never ended, a `done` whose status or
 * fills differ from the truth.
 */
import type { Subscription } from 'rxjs'
import type { OrderEvent, Venue } from '../../../src/index.js'
import type { Simulator } from '../../../src/simulator/index.js'
import { describeError } from '../support/run-support.js'

/** What the order streams of a run came to. */
export interface OrderCounts {
  /** Orders placed (each followed by one `watchOrder`). */
  readonly placed: number
  /** Placements the simulator refused (not the library's doing; counted to show the run). */
  readonly refused: number
  /** Streams that ended with `done` and completed. */
  readonly done: number
  /** Streams that ended with an error. */
  readonly failed: number
  /** Streams neither done nor failed at the end. */
  readonly notDone: number
  /** `done` with another status than the truth's. */
  readonly wrongStatus: number
  /** Fills (their `global_seq`s, in order) other than the order's trades in the truth. */
  readonly wrongFills: number
  /** `done` not reconciled. */
  readonly unreconciled: number
  /** Up to 5 examples of each problem, for the report. */
  readonly examples: readonly string[]
}

/** A followed order: its events, and how its stream ended. */
interface Followed {
  readonly id: string
  readonly events: OrderEvent[]
  error: unknown
  completed: boolean
  readonly subscription: Subscription
}

/** The truth's status of an order, as `done` says it. */
function trueStatus(status: number, history: boolean): string {
  if (status === 2) return 'filled'
  if (status === 4) return 'rejected'
  if (status === 3 || history) return 'canceled'
  return 'working'
}

/** Pool 0's prices have 4 decimals. */
const TICK = 0.0001

/**
 * Places orders on pool 0 for the demo account and follows each with `watchOrder`: by
 * turns a buy at the best ask and a sell at the best bid (they fill at once, in one or more
 * pieces), a buy two ticks under the best bid (it rests, and may fill as the market moves)
 * and a sell two ticks over the best ask canceled a few placements later.
 *
 * Placing and canceling change the book at once, within the call (the simulator's engine
 * is synchronous): the caller records the served books right after, before any poll.
 */
export class OrderChecks {
  readonly #sim: Simulator
  readonly #venue: Venue
  readonly #max: number
  readonly #followed: Followed[] = []
  /** Ids of orders to cancel on a later placement. */
  readonly #toCancel: string[] = []
  #refused = 0
  #turn = 0

  constructor(sim: Simulator, venue: Venue, max: number) {
    this.#sim = sim
    this.#venue = venue
    this.#max = max
  }

  get placed(): number {
    return this.#followed.length
  }

  /** Cancels one order placed a while ago, and places the next (none past `max`). */
  placeNext(): void {
    if (this.#toCancel.length > 2) this.#cancel(this.#toCancel.shift() as string)
    if (this.#turn >= this.#max) return
    const turn = this.#turn
    this.#turn += 1
    const book = this.#sim.truth.engineBook(0)
    const bid = Number(book.bids[0]?.[0])
    const ask = Number(book.asks[0]?.[0])
    if (!(bid > 0 && ask > bid)) return
    const kind = turn % 4
    const side = kind === 0 || kind === 2 ? 'buy' : 'sell'
    const price = [ask, bid, bid - 2 * TICK, ask + 2 * TICK][kind] as number
    // The order is in the book when the call returns; its id comes with the promise.
    this.#sim
      .placeOrder({
        poolId: 0,
        side,
        type: 'limit',
        price: price.toFixed(4),
        amount: (0.01 * (1 + (turn % 5))).toFixed(2),
      })
      .then(
        ({ id }) => {
          this.#follow(id)
          if (kind === 3) this.#toCancel.push(id)
        },
        () => {
          this.#refused += 1
        },
      )
  }

  /** Cancels every placed order the truth still shows working (at once, within the call). */
  cancelWorking(): void {
    for (const { id } of this.#followed) {
      const order = this.#truth(id)
      if (order !== undefined && trueStatus(order.status, order.history) === 'working') {
        this.#cancel(id)
      }
    }
  }

  /** Whether every stream ended (done or failed). */
  allEnded(): boolean {
    return this.#followed.every((each) => each.completed || each.error !== undefined)
  }

  unsubscribe(): void {
    for (const each of this.#followed) each.subscription.unsubscribe()
  }

  counts(): OrderCounts {
    const examples: string[] = []
    const example = (kind: string, text: string) => {
      if (examples.filter((line) => line.startsWith(kind)).length < 5)
        examples.push(`${kind}: ${text}`)
    }
    let done = 0
    let failed = 0
    let notDone = 0
    let wrongStatus = 0
    let wrongFills = 0
    let unreconciled = 0
    for (const { id, events, error, completed } of this.#followed) {
      if (error !== undefined) {
        failed += 1
        example('failed', `${id} ${describeError(error)}`)
        continue
      }
      const end = events.at(-1)
      if (!completed || end?.type !== 'done') {
        notDone += 1
        example('not done', `${id} after ${events.length} events`)
        continue
      }
      done += 1
      const order = this.#truth(id)
      const want = order === undefined ? 'missing' : trueStatus(order.status, order.history)
      if (end.status !== want) {
        wrongStatus += 1
        example('status', `${id} done ${end.status}, truth ${want}`)
      }
      if (!end.reconciled) {
        unreconciled += 1
        example('unreconciled', `${id} missing ${end.missing}`)
      }
      const seqs = events.flatMap((e) => (e.type === 'fill' ? [e.fill.globalSeq] : []))
      const trueSeqs = this.#trueTrades(id)
      if (seqs.join(',') !== trueSeqs.join(',')) {
        wrongFills += 1
        example('fills', `${id} delivered ${seqs.join(',')}, truth ${trueSeqs.join(',')}`)
      }
    }
    return {
      placed: this.#followed.length,
      refused: this.#refused,
      done,
      failed,
      notDone,
      wrongStatus,
      wrongFills,
      unreconciled,
      examples,
    }
  }

  #follow(id: string): void {
    const followed: Followed = {
      id,
      events: [],
      error: undefined,
      completed: false,
      subscription: this.#venue.watchOrder(id).subscribe({
        next: (event) => followed.events.push(event),
        error: (error: unknown) => {
          followed.error = error
        },
        complete: () => {
          followed.completed = true
        },
      }),
    }
    this.#followed.push(followed)
  }

  #cancel(id: string): void {
    this.#sim.cancelOrder(id).catch(() => {
      // Already final (filled meanwhile): nothing to cancel.
    })
  }

  #truth(id: string) {
    return this.#sim.truth.order(id)
  }

  /** The `global_seq`s of the order's trades in the truth, ascending. */
  #trueTrades(id: string): string[] {
    const order = this.#truth(id)
    if (order === undefined) return []
    return this.#sim.truth
      .trades()
      .filter((trade) => {
        const takerSide = trade.taker_is_bid ? 0 : 1
        const taker = `${trade.pool_id}-${trade.taker_order_id}-${takerSide}`
        const maker = `${trade.pool_id}-${trade.maker_order_id}-${1 - takerSide}`
        return (
          (trade.taker === order.trader && taker === id) ||
          (trade.maker === order.trader && maker === id)
        )
      })
      .map((trade) => String(trade.global_seq))
  }
}
