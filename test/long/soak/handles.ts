/**
 * Active handles (timers, sockets, ...): counted at the start of a soak and after both
 * closes, to find what was left behind.
 */

/** Active handles (`Timeout`, `TCPSocketWrap`, ...) by type. */
export function activeHandles(): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1
  return counts
}

/** The handles of `now` beyond those of `before`, by type. */
function beyond(
  now: Record<string, number>,
  before: Record<string, number>,
): Record<string, number> {
  const extra: Record<string, number> = {}
  for (const [type, count] of Object.entries(now)) {
    const more = count - (before[type] ?? 0)
    if (more > 0) extra[type] = more
  }
  return extra
}

/** How many handles `counts` holds. */
export const total = (counts: Record<string, number>) =>
  Object.values(counts).reduce((sum, count) => sum + count, 0)

/** Resolves after a turn of the event loop (outside any timer callback). */
export const nextTurn = () => new Promise<void>((done) => setImmediate(done))

/**
 * The handles beyond `baseline`, once there are none or after `timeoutMs`: sockets close a
 * few turns of the event loop after their end. Counted from an immediate, never from inside a
 * timer callback (a timer is listed while its callback runs).
 */
export async function handlesLeftAfter(
  baseline: Record<string, number>,
  timeoutMs: number,
): Promise<Record<string, number>> {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    await nextTurn()
    const extra = beyond(activeHandles(), baseline)
    if (total(extra) === 0 || performance.now() >= deadline) return extra
    await new Promise((done) => setTimeout(done, 10))
  }
}
