/**
 * Run settings shared by the property-based suites (`test/fuzz-*.test.ts`).
 *
 * - `FUZZ_RUNS`: runs per property (default: the small per-property size given by each
 *   test, so that `npm test` stays fast and deterministic).
 * - `FUZZ_SEED`: the seed of every property (default {@link DEFAULT_SEED}).
 * - `FUZZ_PATH`: with `FUZZ_SEED`, replays the failing case fast-check printed
 *   (`{ seed, path }` of its report); use it with a test name filter (`-t`).
 *
 * On failure fast-check prints the seed, the path and the shrunk counterexample.
 */
import fc from 'fast-check'

/** The seed used when `FUZZ_SEED` is not set: `npm test` always runs the same cases. */
export const DEFAULT_SEED = 20_240_611

function envNumber(name: string): number | undefined {
  const text = process.env[name]
  if (text === undefined || text.trim() === '') return undefined
  const value = Number(text)
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, got ${text}`)
  return value
}

/** The seed of every property of this run. */
export const SEED = envNumber('FUZZ_SEED') ?? DEFAULT_SEED

/** Whether `FUZZ_RUNS` asks for more (or fewer) runs than the defaults. */
const RUNS = envNumber('FUZZ_RUNS')

/** Runs of a property: `FUZZ_RUNS`, or the property's small default. */
export function runs(defaultRuns: number): number {
  return RUNS ?? defaultRuns
}

/**
 * `fc.assert` parameters: the seed, the number of runs and, to replay a failure,
 * `FUZZ_PATH`.
 */
export function params<T>(defaultRuns: number): fc.Parameters<T> {
  const path = process.env['FUZZ_PATH']
  return {
    seed: SEED,
    numRuns: runs(defaultRuns),
    ...(path ? { path, endOnFailure: true } : {}),
  }
}

/** A property's default runs (`FUZZ_RUNS` overrides them) and about how long one run takes. */
export interface PropertySize {
  readonly runs: number
  readonly perRunMs: number
}

/**
 * A vitest timeout for a property: enough for `runs(defaultRuns)` runs of about
 * `perRunMs` each plus shrinking, and never less than 20 s.
 */
export function timeoutFor(size: PropertySize): number
export function timeoutFor(defaultRuns: number, perRunMs: number): number
export function timeoutFor(size: number | PropertySize, perRunMs = 0): number {
  if (typeof size !== 'number') return timeoutFor(size.runs, size.perRunMs)
  return Math.max(20_000, runs(size) * perRunMs * 4 + 10_000)
}

/** `fc.assert` with {@link params}; `size` is the default runs or a {@link PropertySize}. */
export async function check<Ts extends [unknown, ...unknown[]]>(
  property: fc.IAsyncPropertyWithHooks<Ts>,
  size: number | PropertySize,
): Promise<void> {
  await fc.assert(property, params<Ts>(typeof size === 'number' ? size : size.runs))
}
