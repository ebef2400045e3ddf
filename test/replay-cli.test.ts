import { describe, expect, it } from 'vitest'
import { cliEnv, cliOutcome, runInProcess, startCli } from './helpers/cli.js'
import { recordSession } from './helpers/replay-session.js'

describe('venue-rx watch --replay', () => {
  it('prints the recorded trades as they came live, then exits 0 where the recording ends', async () => {
    const { file, live } = await recordSession(2_000)
    const outcome = await cliOutcome(
      startCli(
        ['watch', 'trades', '--pool', '0', '--json', '--replay', file, '--speed', 'max'],
        cliEnv(),
      ),
    )
    expect(outcome.err).toBe('')
    expect(outcome.code).toBe(0)
    const printed = outcome.out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(printed).toEqual(JSON.parse(JSON.stringify(live['trades'])))
  }, 20_000)

  it('refuses --speed without --replay, and a speed that is not one', async () => {
    // What the command says: run in this process (the binary's run is the test above).
    const alone = await runInProcess(['watch', 'trades', '--speed', '2']).exited
    expect(alone.code).toBe(2)
    expect(alone.err).toContain('--speed goes with --replay')
    const bad = await runInProcess(['watch', 'trades', '--replay', 'x.journal', '--speed', '0'])
      .exited
    expect(bad.code).toBe(2)
    expect(bad.err).toContain('--speed must be a positive number or max')
  })

  it('a file that is no journal fails in one line', async () => {
    const outcome = await runInProcess([
      'watch',
      'trades',
      '--replay',
      'package.json',
      '--speed',
      'max',
    ]).exited
    expect(outcome.code).toBe(1)
    expect(outcome.err).toContain('package.json')
  })
})
