/**
 * The `venue-rx` command line as a child process, for the CLI tests: the sources as
 * `npm start` runs them, transpiled once before the run (test/global-setup.ts) rather
 * than by tsx at every start.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process'
import { once } from 'node:events'
import { type AddressInfo, createServer } from 'node:net'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { BUILT_CLI } from './built.js'

/** The repository root: the CLI's working directory. */
export const ROOT = join(import.meta.dirname, '..', '..')
/** The CLI's entry point, transpiled: `node CLI_MAIN ...` runs the CLI. */
export const CLI_MAIN = BUILT_CLI

/** A running CLI: no stdin, stdout and stderr piped. */
export type CliProcess = ChildProcessByStdio<null, Readable, Readable>

/** What a CLI run printed, and its exit code. */
export interface CliOutcome {
  readonly code: number | null
  readonly out: string
  readonly err: string
}

/**
 * Starts the CLI with `args`, in the environment `env` (default: this process's), in the
 * directory `cwd` (default the repository root: give a temporary one to a command that
 * writes files).
 */
export function startCli(
  args: readonly string[],
  env?: NodeJS.ProcessEnv,
  cwd: string = ROOT,
): CliProcess {
  return spawn(process.execPath, [CLI_MAIN, ...args], {
    cwd,
    ...(env === undefined ? {} : { env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

/** Everything `child` prints from now until it exits, and its exit code. */
export function cliOutcome(child: CliProcess): Promise<CliOutcome> {
  return liveCli(child).exited
}

/**
 * The environment of a CLI run: this process's, without `VENUE_API_KEY` and `VENUE_URL`,
 * with `NO_COLOR=1`, and `key` as `VENUE_API_KEY` when given.
 */
/**
 * `args` with a short settle window (`--settle-ms 40`, two of the tests' polls) for the
 * commands that read the cursor feeds, unless the test sets one or asks for help: the
 * default second would add itself to every test of a feed.
 */
export function quickFeeds(args: readonly string[]): string[] {
  const feeds = args[0] === 'watch' || args[0] === 'export' || args[0] === 'relay'
  const asked = args.some((arg) => arg === '--settle-ms' || arg === '--help' || arg === '-h')
  return feeds && !asked ? [...args, '--settle-ms', '40'] : [...args]
}

export function cliEnv(key?: string): NodeJS.ProcessEnv {
  const { VENUE_API_KEY: _key, VENUE_URL: _url, VENUE_RX_REDIS: _redis, ...rest } = process.env
  return { ...rest, NO_COLOR: '1', ...(key === undefined ? {} : { VENUE_API_KEY: key }) }
}

/** A local port nothing listens on (free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/** A running CLI whose output is collected from its start: read it while it runs. */
export interface LiveCli {
  readonly child: CliProcess
  /** Stdout so far. */
  readonly out: () => string
  /** Stderr so far. */
  readonly err: () => string
  /** The non-empty stdout lines so far, the last one only once it is complete. */
  readonly lines: () => string[]
  /** Resolves when the process exits: its code and everything it printed. */
  readonly exited: Promise<CliOutcome>
}

/** Collects everything `child` prints from now on; see {@link LiveCli}. */
export function liveCli(child: CliProcess): LiveCli {
  let out = ''
  let err = ''
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString()
  })
  child.stderr.on('data', (c: Buffer) => {
    err += c.toString()
  })
  // 'close', not 'exit': everything printed has been read by then.
  const exited = once(child, 'close').then(([code]) => ({ code: code as number | null, out, err }))
  return {
    child,
    out: () => out,
    err: () => err,
    lines: () =>
      out
        .slice(0, out.lastIndexOf('\n') + 1)
        .split('\n')
        .filter((line) => line !== ''),
    exited,
  }
}

/**
 * Resolves when `condition` holds (checked every 2 ms); rejects at once when `cli` exits
 * first, and after `ms`, with what it printed, naming `what`.
 */
export async function waitForCli(
  cli: LiveCli,
  condition: () => boolean,
  what: string,
  ms = 10_000,
): Promise<void> {
  const started = performance.now()
  let closed = false
  void cli.exited.then(() => {
    closed = true
  })
  for (;;) {
    if (condition()) return
    if (closed || performance.now() - started > ms) {
      const ended = cli.child.exitCode !== null || cli.child.signalCode !== null
      throw new Error(
        `${ended ? `exited (${cli.child.exitCode ?? cli.child.signalCode})` : `timed out after ${ms} ms`} waiting for ${what}; stdout: ${cli.out().slice(-500)} stderr: ${cli.err().slice(-500)}`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
}
