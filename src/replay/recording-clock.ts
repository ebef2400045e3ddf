import type { SchedulerAction, SchedulerLike, Subscription } from 'rxjs'
import type { JournalRecord } from './journal.js'

/**
 * The clock of a recording venue (`record`): the venue's scheduler, with every timer that
 * fires journaled as a tick (which timer, counted as they were set, and when), and a time
 * that moves only with what the replay can see again: `now()` is the time of the last
 * timer that fired or answer that came (or the start), not the wall clock read anywhere in
 * between. A replay of the journal fires the same timers and delivers the same answers in
 * the same order at the same times, so every `now()` the venue reads is the same as live.
 *
 * @example
 * ```ts
 * const clock = new RecordingClock(asyncScheduler)
 * clock.attach((record) => writer.append(record)) // once the journal is open
 * timer(100, clock).subscribe() // journaled as { type: 'tick', action: 0, at }
 * ```
 */
export class RecordingClock implements SchedulerLike {
  readonly #inner: SchedulerLike
  #now: number
  #actions = 0
  /** What is journaled before the journal is open, in order. */
  #waiting: JournalRecord[] | undefined = []
  #sink: ((record: JournalRecord) => void) | undefined

  /** When the recording started (the clock's first time). */
  readonly startedAt: number

  constructor(inner: SchedulerLike) {
    this.#inner = inner
    this.#now = inner.now()
    this.startedAt = this.#now
  }

  now(): number {
    return this.#now
  }

  schedule<T>(
    work: (this: SchedulerAction<T>, state?: T) => void,
    delay?: number,
    state?: T,
  ): Subscription {
    const action = this.#actions++
    const clock = this
    return this.#inner.schedule(
      function (this: SchedulerAction<T>, given?: T) {
        clock.#now = Math.max(clock.#now, clock.#inner.now())
        clock.log({ type: 'tick', action, at: clock.#now })
        work.call(this, given)
      },
      delay,
      state,
    )
  }

  /**
   * Moves the clock to the wall clock's time (an answer came) and returns it; time never
   * goes back.
   */
  advance(): number {
    this.#now = Math.max(this.#now, this.#inner.now())
    return this.#now
  }

  /** Journals `record`, in order with the ticks (held until the journal is attached). */
  log(record: JournalRecord): void {
    if (this.#sink !== undefined) this.#sink(record)
    else this.#waiting?.push(record)
  }

  /** Where the records go from now on: first everything held so far, in order. */
  attach(sink: (record: JournalRecord) => void): void {
    const held = this.#waiting ?? []
    this.#waiting = undefined
    this.#sink = sink
    for (const record of held) sink(record)
  }

  /** Nothing more is journaled (the journal is closed, or could not be opened). */
  detach(): void {
    this.#sink = undefined
    this.#waiting = undefined
  }
}
