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
