/** The heap of a soak run: a forced GC before each sample, and the trend of the samples. */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/** The global `gc` of `--expose-gc`, or one made available at run time. */
export function garbageCollector(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc
  if (exposed !== undefined) return exposed
  setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
}

/** Least-squares slope of `y` over `x`. */
export function slope(points: readonly { x: number; y: number }[]): number {
  const n = points.length
  if (n < 2) return 0
  const meanX = points.reduce((sum, p) => sum + p.x, 0) / n
  const meanY = points.reduce((sum, p) => sum + p.y, 0) / n
  let numerator = 0
  let denominator = 0
  for (const p of points) {
    numerator += (p.x - meanX) * (p.y - meanY)
    denominator += (p.x - meanX) ** 2
  }
  return denominator === 0 ? 0 : numerator / denominator
}
