/**
 * Cleanups a test registers as it goes (simulators, venues, subscriptions ...): a test file
 * calls `runCleanups()` in its `afterEach`, which runs them in reverse order of registration.
 */
export type Cleanup = () => Promise<void> | void

const pending: Cleanup[] = []

/** Registers `cleanup` to run after the current test. */
export function onCleanup(cleanup: Cleanup): void {
  pending.push(cleanup)
}

/** Runs every registered cleanup, the last registered first, and forgets them. */
export async function runCleanups(): Promise<void> {
  for (const cleanup of pending.splice(0).reverse()) await cleanup()
}
