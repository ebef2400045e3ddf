/**
 * Timers reached through a small provider, so that tests can replace the clock
 * (vitest fake timers, or a hand-driven clock) without patching globals.
 */
export interface TimerProvider {
  /** Current time in ms (monotonic is fine; only differences are used). */
  now(): number
  setTimeout(callback: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

/**
 * The real clock. Timers keep Node alive, as work waiting on them (a request waiting
 * for the budget) must not be dropped at exit; users of the provider start them only
 * while something waits.
 */
export const realTimers: TimerProvider = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

/** The longest delay a Node timer keeps: a larger one fires after 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647

/**
 * A delay a timer can wait for: at most {@link MAX_TIMER_MS} (about 24.8 days), at least
 * 0, and a number (NaN waits 0). A longer wait than a timer keeps would otherwise fire
 * at once, and a retry loop would turn hot.
 *
 * @example
 * ```ts
 * clampDelay(4_000_000_000) // 2147483647
 * clampDelay(-5) // 0
 * ```
 */
export function clampDelay(ms: number): number {
  if (!(ms > 0)) return 0
  return Math.min(ms, MAX_TIMER_MS)
}

/** What {@link schedulerTimers} needs of an rxjs scheduler. */
export interface SchedulerClock {
  now(): number
  schedule(work: () => void, delay: number): { unsubscribe(): void }
}

/**
 * Timers driven by an rxjs scheduler (a `TestScheduler` or `VirtualTimeScheduler` in
 * tests), so that the request budget waits in the same time as the streams.
 *
 * @example
 * ```ts
 * const timers = schedulerTimers(new VirtualTimeScheduler())
 * ```
 */
export function schedulerTimers(scheduler: SchedulerClock): TimerProvider {
  return {
    now: () => scheduler.now(),
    setTimeout: (callback, ms) => scheduler.schedule(callback, ms),
    clearTimeout: (handle) => (handle as { unsubscribe(): void } | undefined)?.unsubscribe(),
  }
}
