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

/** The real clock. `setTimeout` handles are unref'd: a pending wait never keeps Node alive. */
export const realTimers: TimerProvider = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms)
    handle.unref?.()
    return handle
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}
