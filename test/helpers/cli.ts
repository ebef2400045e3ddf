/**
 * The `venue-rx` command line as a child process, run from source through tsx as
 * `npm start` does, for the CLI tests.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import type { Readable } from 'node:stream'

/** The repository root: the CLI's working directory. */
export const ROOT = join(import.meta.dirname, '..', '..')
/** The CLI's entry point, in source. */
export const CLI_MAIN = join(ROOT, 'src', 'cli', 'main.ts')

/** A running CLI: no stdin, stdout and stderr piped. */
export type CliProcess = ChildProcessByStdio<null, Readable, Readable>

/** What a CLI run printed, and its exit code. */
export interface CliOutcome {
  readonly code: number | null
  readonly out: string
  readonly err: string
}

/** Starts the CLI with `args`, in the environment `env` (default: this process's). */
export function startCli(args: readonly string[], env?: NodeJS.ProcessEnv): CliProcess {
  return spawn(process.execPath, ['--import', 'tsx', CLI_MAIN, ...args], {
    cwd: ROOT,
    ...(env === undefined ? {} : { env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

/** Everything `child` prints from now until it exits, and its exit code. */
export async function cliOutcome(child: CliProcess): Promise<CliOutcome> {
  let out = ''
  let err = ''
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString()
  })
  child.stderr.on('data', (c: Buffer) => {
    err += c.toString()
  })
  const [code] = (await once(child, 'exit')) as [number | null]
  return { code, out, err }
}
