/**
 * What a CLI test file starts and must end: the CLI processes it spawned, its simulators
 * (seed 3, manual clock), the REST clients it opened and a temporary directory. Tests of a
 * file run concurrently, so all of it is ended once, after the file's tests.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import type { Venue } from '../../src/index.js'
import { type Simulator, startSimulator } from '../../src/simulator/index.js'
import type { CliProcess } from './cli.js'

export interface CliFixture {
  /** Spawned CLI processes: killed at the end if still running. */
  readonly children: CliProcess[]
  /** REST clients: closed at the end. */
  readonly venues: Venue[]
  /** The file's temporary directory. */
  dir(): string
  /** A simulator on a manual clock with `ticks` of history, closed at the end. */
  simulator(ticks?: number): Promise<Simulator>
}

/** Registers the file's `beforeAll` / `afterAll` and gives what they manage. */
export function cliFixture(prefix: string): CliFixture {
  const children: CliProcess[] = []
  const simulators: Simulator[] = []
  const venues: Venue[] = []
  let directory: string | undefined
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), prefix))
  })
  afterAll(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
    await Promise.all(venues.splice(0).map((venue) => venue.close()))
    await Promise.all(simulators.splice(0).map((sim) => sim.close()))
    if (directory !== undefined) await rm(directory, { recursive: true, force: true })
  })
  return {
    children,
    venues,
    dir: () => {
      if (directory === undefined) throw new Error('cliFixture: no directory before beforeAll')
      return directory
    },
    async simulator(ticks = 50) {
      const sim = await startSimulator({ seed: 3, clock: 'manual' })
      simulators.push(sim)
      sim.advance(ticks)
      return sim
    },
  }
}
