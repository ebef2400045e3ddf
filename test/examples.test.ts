/**
 * The recipes in examples/ run as a user runs them (`npx tsx examples/<name>.ts`), each
 * against the simulator, and print what they promise.
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import { startSimulator } from '../src/simulator/index.js'
import { onCleanup, runCleanups } from './helpers/cleanups.js'

afterEach(() => runCleanups())

const ROOT = join(import.meta.dirname, '..')
const run = promisify(execFile)

/** Runs an example with tsx; its exit code must be 0. */
async function example(name: string, env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'examples', `${name}.ts`)],
    { cwd: ROOT, env: { ...process.env, ...env }, timeout: 30_000 },
  )
  return stdout
}

describe('examples', () => {
  it('for-await-loop prints five books and five trades, then ends', async () => {
    const out = await example('for-await-loop')
    expect(out.match(/^book \d+: bid [\d.]+ x [\d.]+ {2}ask [\d.]+ x [\d.]+$/gm)).toHaveLength(5)
    expect(out.match(/^trade: (buy|sell) [\d.]+ at [\d.]+$/gm)).toHaveLength(5)
  })

  it('fill-tracker follows its order through three fills to done', async () => {
    const out = await example('fill-tracker')
    expect(out.match(/^fill: 0\.0100 at [\d.]+ as maker/gm)).toHaveLength(3)
    expect(out).toMatch(/^done: filled, filled 0\.03 at [\d.]+$/m)
  })

  it('quick-start reads a venue given by VENUE_URL and VENUE_API_KEY', async () => {
    const sim = await startSimulator({ seed: 1, clock: 'manual' })
    onCleanup(() => sim.close())
    const out = await example('quick-start', { VENUE_URL: sim.url, VENUE_API_KEY: sim.apiKey })
    expect(out).toMatch(/^server time \d{4}-\d\d-\d\dT/m)
    expect(out).toMatch(/^best bid \[/m)
  })

  it('test-your-bot moves the simulator and reads it under faults', async () => {
    const out = await example('test-your-bot')
    expect(out).toMatch(/open orders, first page of \d+ own trades/)
    expect(out).toMatch(/50 balance reads under faults:/)
  })
})
