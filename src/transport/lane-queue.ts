import type { AbortSignalLike } from './transport.js'

interface Waiter {
  readonly resolve: () => void
  readonly reject: (error: unknown) => void
  readonly cleanup: () => void
}

/**
 * Requests waiting for a token of a request budget, grouped in lanes (one per stream, one
 * for plain REST calls) and served round-robin, so that one busy lane cannot starve
 * another; within a lane, first come first served. The budget decides when a token is
 * there and calls {@link LaneQueue.serveNext}; this queue decides who gets it.
 *
 * @example
 * ```ts
 * const queue = new LaneQueue({ aborted: () => new Error('aborted'), emptied: stopTimer })
 * const granted = queue.wait('watchPools()', signal)
 * queue.serveNext() // true: `granted` resolves
 * ```
 */
export class LaneQueue {
  /** Lanes with waiters, in round-robin order: the first lane is served next. */
  readonly #lanes = new Map<string, Waiter[]>()
  readonly #aborted: (signal: AbortSignalLike) => unknown
  readonly #emptied: () => void

  /**
   * `aborted` makes the error a waiter whose signal fires is rejected with; `emptied` is
   * called when such a waiter was the last one waiting.
   */
  constructor(options: { aborted: (signal: AbortSignalLike) => unknown; emptied: () => void }) {
    this.#aborted = options.aborted
    this.#emptied = options.emptied
  }

  /** Whether no request waits. */
  get empty(): boolean {
    return this.#lanes.size === 0
  }

  /** Requests waiting, across all lanes. */
  get waiting(): number {
    let count = 0
    for (const queue of this.#lanes.values()) count += queue.length
    return count
  }

  /**
   * Queues a request at the end of `lane`: resolves when {@link serveNext} serves it;
   * rejects (and leaves the queue) if `signal` fires first. `signal` must not have fired.
   */
  wait(lane: string, signal?: AbortSignalLike): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.#remove(lane, waiter)
        reject(this.#aborted(signal as AbortSignalLike))
      }
      const waiter: Waiter = {
        resolve,
        reject,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      const queue = this.#lanes.get(lane)
      if (queue === undefined) this.#lanes.set(lane, [waiter])
      else queue.push(waiter)
    })
  }

  /** Grants the first request of the first lane, whose lane goes to the back of the round. False when none waits. */
  serveNext(): boolean {
    const next = this.#lanes.entries().next()
    if (next.done) return false
    const [lane, queue] = next.value
    const waiter = queue.shift() as Waiter
    // Rotate: the lane just served goes to the back of the round.
    this.#lanes.delete(lane)
    if (queue.length > 0) this.#lanes.set(lane, queue)
    waiter.cleanup()
    waiter.resolve()
    return true
  }

  /** Rejects every waiting request with what `reason` makes for it, and empties the queue. */
  rejectAll(reason: () => unknown): void {
    const lanes = [...this.#lanes.values()]
    this.#lanes.clear()
    for (const queue of lanes) {
      for (const waiter of queue) {
        waiter.cleanup()
        waiter.reject(reason())
      }
    }
  }

  #remove(lane: string, waiter: Waiter): void {
    const queue = this.#lanes.get(lane)
    if (queue === undefined) return
    const index = queue.indexOf(waiter)
    if (index !== -1) queue.splice(index, 1)
    waiter.cleanup()
    if (queue.length === 0) this.#lanes.delete(lane)
    if (this.#lanes.size === 0) this.#emptied()
  }
}
