/** Book checking: every `watchDepth` event, applied, against the book served at that poll. */
import type { BookEvent, OrderBook } from '../../../src/index.js'
import { applyBookEvent } from '../../../src/index.js'
import type { Simulator, Source } from '../../../src/simulator/index.js'
import { describeError } from '../support/run-support.js'
import type { BookCounts } from './report.js'

export interface DepthStream {
  readonly name: string
  readonly poolId: number
  readonly source: Source
  readonly limit: number
  readonly precision: string
}

/** The price tick of a pool with `decimals` price decimals: 4 gives `'0.0001'`. */
export function tick(decimals: number): string {
  return decimals <= 0 ? '1' : `0.${'0'.repeat(decimals - 1)}1`
}

const bookText = (bids: unknown, asks: unknown) => JSON.stringify([bids, asks])

/** Follows one `watchDepth` subscription, checking each event against the served books. */
export class BookCheck {
  /** The served book of each depth timestamp (ms), as text. */
  readonly served = new Map<number, string>()
  #book: OrderBook | undefined
  #latest = ''
  events = 0
  snapshots = 0
  resyncs = 0
  deltas = 0
  equal = 0
  unequal = 0
  noServedBook = 0
  sequenceErrors = 0
  firstProblem: string | undefined

  constructor(
    readonly stream: DepthStream,
    private readonly sim: Simulator,
  ) {}

  /** Records what the stream's query serves now (call after every move of the market). */
  record(): void {
    const { poolId, source, limit, precision } = this.stream
    const depth = this.sim.market.depth(poolId, source, limit, precision)
    if (depth === undefined) throw new Error(`chaos: no pool ${poolId}`)
    this.#latest = bookText(depth.bids, depth.asks)
    this.served.set(depth.timestamp, this.#latest)
  }

  #problem(message: string): void {
    this.firstProblem ??= `event ${this.events}: ${message}`
  }

  check(event: BookEvent): void {
    this.events += 1
    if (event.type === 'delta') this.deltas += 1
    else if (event.reason === 'resync') this.resyncs += 1
    else this.snapshots += 1
    if (event.seq !== this.events) {
      this.sequenceErrors += 1
      this.#problem(`seq ${event.seq}, expected ${this.events}`)
    }
    try {
      this.#book = applyBookEvent(this.#book, event)
    } catch (error) {
      this.sequenceErrors += 1
      this.unequal += 1
      this.#problem(`seq ${event.seq}: ${describeError(error)}`)
      return
    }
    const served = this.served.get(event.timestamp)
    if (served === undefined) {
      this.noServedBook += 1
      this.#problem(`seq ${event.seq}: no book was served at ${event.timestamp}`)
      return
    }
    if (bookText(this.#book.bids, this.#book.asks) === served) {
      this.equal += 1
    } else {
      this.unequal += 1
      this.#problem(
        `seq ${event.seq} (${event.type}): rebuilt ${bookText(this.#book.bids, this.#book.asks)} served ${served}`,
      )
    }
  }

  /** The rebuilt book equals the last book served. */
  atLatest(): boolean {
    return this.#book !== undefined && bookText(this.#book.bids, this.#book.asks) === this.#latest
  }

  counts(): BookCounts {
    return {
      name: this.stream.name,
      events: this.events,
      snapshots: this.snapshots,
      resyncs: this.resyncs,
      deltas: this.deltas,
      equal: this.equal,
      unequal: this.unequal,
      noServedBook: this.noServedBook,
      sequenceErrors: this.sequenceErrors,
      finalEqual: this.atLatest(),
      ...(this.firstProblem === undefined ? {} : { firstProblem: this.firstProblem }),
    }
  }
}
