import { type SchedulerAction, type SchedulerLike, Subscription } from 'rxjs'

/**
 * How fast a replay runs: `speed` times the recording's real time, or `'max'`: each next
 * timer as soon as nothing else is pending.
 *
 * @example
 * ```ts
 * const speed: ReplaySpeed = 20 // a minute of the recording in three seconds
 * createVenue({ replay: { file: 'session.journal', speed } })
 * ```
 */
export type ReplaySpeed = number | 'max'

/**
 * The clock of a replaying venue (its scheduler): virtual time, starting where the
 * recording started. It moves only from one due timer to the next, and only once nothing
 * else is pending (no promise chain, no journal read: see {@link ReplayClock.busy}), so a
 * replay runs the same at every speed; a numeric `speed` only holds each step back until
 * real time has caught up with it (`speed` times real time). Timers due at the same time
 * run in the order they were set, each one's promise chains settling before the next.
 *
 * @example
 * ```ts
 * const clock = new ReplayClock(header.startedAt, 'max')
 * timer(60_000, clock).subscribe(() => console.log(clock.now() - header.startedAt)) // 60000, at once
 * ```
 */
export class ReplayClock implements SchedulerLike {
  readonly speed: ReplaySpeed
  #now: number
  readonly #startedAt: number
  /** Real time (performance.now()) when the virtual clock started, for a numeric speed. */
  readonly #realStart = performance.now()
  readonly #queue: ReplayAction<never>[] = []
  #seq = 0
  #busy = 0
  #stepping: 'immediate' | 'timeout' | undefined
  #handle: ReturnType<typeof setTimeout> | ReturnType<typeof setImmediate> | undefined
  #stopped = false
  /** Timers set on the clock so far (each one's number, as the recording counted them). */
  #actions = 0
  /**
   * What moves the clock while the journal says what happened next (its ticks and
   * answers, {@link ReplayClock.drive}); without one, the clock runs its timers by due time.
   */
  #driver: (() => void) | undefined

  constructor(startedAt: number, speed: ReplaySpeed = 1) {
    this.#now = startedAt
    this.#startedAt = startedAt
    this.speed = speed
  }

  now(): number {
    return this.#now
  }

  schedule<T>(
    work: (this: SchedulerAction<T>, state?: T) => void,
    delay = 0,
    state?: T,
  ): Subscription {
    return new ReplayAction<T>(this, work, this.#actions++).schedule(state, delay)
  }

  /**
   * From now on `step` moves the clock instead of the timers' due times: it is called
   * whenever nothing is pending (as a timer would run), and runs the next thing the
   * journal recorded ({@link ReplayClock.fire} a timer, or an answer after
   * {@link ReplayClock.advance}). {@link ReplayClock.release} gives the clock back to its
   * timers.
   */
  drive(step: () => void): void {
    this.#driver = step
    this.#step()
  }

  /** The timers run by due time again (the journal ended, or the replay left it). */
  release(): void {
    this.#driver = undefined
    this.#step()
  }

  /**
   * Runs timer number `action` at `at` (a tick of the journal): false when no such timer
   * is waiting (the replay is not doing what the recording did).
   */
  fire(action: number, at: number): boolean {
    const index = this.#queue.findIndex((queued) => queued.action === action)
    if (index === -1) return false
    const [next] = this.#queue.splice(index, 1) as [ReplayAction<never>]
    this.advance(at)
    this.#step()
    next.execute()
    return true
  }

  /** Moves virtual time to `at` (never back). */
  advance(at: number): void {
    if (at > this.#now) this.#now = at
  }

  /**
   * Calls `then` once real time has caught up with virtual time `at` at this clock's
   * speed (at once at `'max'`), unless the returned function cancels it first.
   */
  whenDue(at: number, then: () => void): () => void {
    const wait = this.#realWait(at)
    if (wait === 0) {
      then()
      return () => undefined
    }
    const handle = setTimeout(then, wait)
    return () => clearTimeout(handle)
  }

  /**
   * How long real time must still pass before virtual time `at` is due at this clock's
   * speed, ms: 0 at `'max'`, or when it is (within a millisecond) due already.
   */
  #realWait(at: number): number {
    if (this.speed === 'max') return 0
    const wait = this.#realStart + (at - this.#startedAt) / this.speed - performance.now()
    return wait > 1 ? wait : 0
  }

  /**
   * Holds the clock where it is until the returned release is called: what the clock
   * cannot see pending (a journal read) must end before virtual time moves on.
   */
  busy(): () => void {
    this.#busy += 1
    let released = false
    return () => {
      if (released) return
      released = true
      this.#busy -= 1
      this.#step()
    }
  }

  /** Drops every timer: the venue closed. */
  stop(): void {
    this.#stopped = true
    this.#queue.length = 0
    this.#cancelStep()
  }

  /** @internal Queues `action` at its due time, after those due at the same time. */
  enqueue(action: ReplayAction<never>): void {
    if (this.#stopped) return
    action.seq = this.#seq++
    // Binary search: the first queued action due after this one.
    let low = 0
    let high = this.#queue.length
    while (low < high) {
      const mid = (low + high) >>> 1
      const other = this.#queue[mid] as ReplayAction<never>
      if (other.due < action.due || (other.due === action.due && other.seq < action.seq)) {
        low = mid + 1
      } else {
        high = mid
      }
    }
    this.#queue.splice(low, 0, action)
    this.#step()
  }

  /** @internal Takes `action` out of the queue. */
  dequeue(action: ReplayAction<never>): void {
    const index = this.#queue.indexOf(action)
    if (index !== -1) this.#queue.splice(index, 1)
    if (this.#queue.length === 0 && this.#driver === undefined) this.#cancelStep()
  }

  /**
   * Asks for the next step after the work pending now: a macrotask (setImmediate) runs
   * once the promise chains of this one have settled.
   */
  #step(): void {
    if (this.#stopped || this.#stepping === 'immediate') return
    if (this.#queue.length === 0 && this.#driver === undefined) return
    if (this.#busy > 0) return
    this.#cancelStep()
    this.#stepping = 'immediate'
    this.#handle = setImmediate(() => this.#run())
  }

  #cancelStep(): void {
    if (this.#stepping === 'immediate')
      clearImmediate(this.#handle as ReturnType<typeof setImmediate>)
    else if (this.#stepping === 'timeout')
      clearTimeout(this.#handle as ReturnType<typeof setTimeout>)
    this.#stepping = undefined
    this.#handle = undefined
  }

  /** Runs the first due action, once real time has caught up with it at a numeric speed. */
  #run(): void {
    this.#stepping = undefined
    this.#handle = undefined
    if (this.#busy > 0 || this.#stopped) return
    if (this.#driver !== undefined) {
      this.#driver()
      return
    }
    const next = this.#queue[0]
    if (next === undefined) return
    const wait = next.due > this.#now ? this.#realWait(next.due) : 0
    if (wait > 0) {
      this.#stepping = 'timeout'
      this.#handle = setTimeout(() => this.#run(), wait)
      return
    }
    this.#queue.shift()
    if (next.due > this.#now) this.#now = next.due
    // The next step is asked for first: an action that throws does not stop the clock.
    this.#step()
    next.execute()
  }
}

/** One timer of a {@link ReplayClock}, rescheduled in place as rxjs's periodic work asks. */
class ReplayAction<T> extends Subscription implements SchedulerAction<T> {
  due = 0
  seq = 0
  /** Its number among the timers set on the clock (a journal's tick names it). */
  readonly action: number
  #state: T | undefined
  #queued = false
  readonly #clock: ReplayClock
  readonly #work: (this: SchedulerAction<T>, state?: T) => void

  constructor(
    clock: ReplayClock,
    work: (this: SchedulerAction<T>, state?: T) => void,
    action: number,
  ) {
    super(() => {
      if (this.#queued) clock.dequeue(this as unknown as ReplayAction<never>)
      this.#queued = false
    })
    this.#clock = clock
    this.#work = work
    this.action = action
  }

  schedule(state?: T, delay = 0): Subscription {
    if (this.closed) return this
    this.#state = state
    if (this.#queued) this.#clock.dequeue(this as unknown as ReplayAction<never>)
    this.due = this.#clock.now() + Math.max(0, delay)
    this.#queued = true
    this.#clock.enqueue(this as unknown as ReplayAction<never>)
    return this
  }

  /** Runs the work; unless it scheduled itself again, the action is done. */
  execute(): void {
    if (this.closed) return
    this.#queued = false
    try {
      this.#work(this.#state)
    } catch (error) {
      this.unsubscribe()
      throw error
    }
    if (!this.#queued) this.unsubscribe()
  }
}
