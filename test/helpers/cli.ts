/**
 * The `venue-rx` command line as a child process, for the CLI tests: the sources as
 * `npm start` runs them, transpiled once before the run (test/global-setup.ts) rather
 * than by tsx at every start.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process'
import { once } from 'node:events'
import { type AddressInfo, createServer } from 'node:net'
import { join } from 'node:path'
import { type Readable, Writable } from 'node:stream'
import type { CliIo } from '../../src/cli/io.js'
import { runCli } from '../../src/cli/run-cli.js'
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

/**
 * A running CLI whose output is collected from its start: read it while it runs. A child
 * process ({@link liveCli}) or a command run in this process ({@link runInProcess}).
 */
export interface LiveCli {
  /** The process, when the CLI runs in one. */
  readonly child?: CliProcess
  /** Asks it to stop as Ctrl-C does (SIGINT to a process). */
  readonly interrupt: () => void
  /** Stdout so far. */
  readonly out: () => string
  /** Stderr so far. */
  readonly err: () => string
  /** The non-empty stdout lines so far, the last one only once it is complete. */
  readonly lines: () => string[]
  /** Resolves when the process exits: its code and everything it printed. */
  readonly exited: Promise<CliOutcome>
}

/** The non-empty lines of `text`, the last one only once it is complete. */
function completeLines(text: string): string[] {
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((line) => line !== '')
}

/** A {@link LiveCli} that is a child process. */
export interface LiveProcess extends LiveCli {
  readonly child: CliProcess
}

/** Collects everything `child` prints from now on; see {@link LiveCli}. */
export function liveCli(child: CliProcess): LiveProcess {
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
    interrupt: () => child.kill('SIGINT'),
    out: () => out,
    err: () => err,
    lines: () => completeLines(out),
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
  let ended: string | undefined
  void cli.exited.then(({ code }) => {
    ended = `exited (${code ?? cli.child?.signalCode})`
  })
  for (;;) {
    if (condition()) return
    if (ended !== undefined || performance.now() - started > ms) {
      throw new Error(
        `${ended ?? `timed out after ${ms} ms`} waiting for ${what}; stdout: ${cli.out().slice(-500)} stderr: ${cli.err().slice(-500)}`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
}

/** Streams and an environment for a command run in this process; see {@link runInProcess}. */
export interface TestIo {
  readonly io: CliIo
  /** What the command wrote to its stdout so far. */
  readonly out: () => string
  /** What it wrote to its stderr so far. */
  readonly err: () => string
  /** Resolves its `untilSignal`, as Ctrl-C does for a process. */
  readonly interrupt: () => void
}

/**
 * A command's streams, collected, with `env` as its environment (default: this process's,
 * as {@link cliEnv} gives it); no terminal, and nothing closes its stdout.
 */
export function testIo(env: NodeJS.ProcessEnv = cliEnv()): TestIo {
  let out = ''
  let err = ''
  const collect = (append: (text: string) => void) =>
    new Writable({
      decodeStrings: false,
      write(chunk: string | Buffer, _encoding, done) {
        append(chunk.toString())
        done()
      },
    })
  let interrupt: () => void = () => undefined
  const interrupted = new Promise<void>((resolve) => {
    interrupt = resolve
  })
  const io: CliIo = {
    stdout: collect((text) => {
      out += text
    }),
    stderr: collect((text) => {
      err += text
    }),
    env,
    untilSignal: () => interrupted,
    outputClosed: () => new Promise<void>(() => undefined),
  }
  return { io, out: () => out, err: () => err, interrupt: () => interrupt() }
}

/**
 * Runs the command line `args` in this process, as the binary does but with the streams
 * of {@link testIo}. What a command prints and writes is tested so, without a process
 * start (some 0.25 s of CPU each); what only a process shows (exit codes as a shell sees
 * them, signals, pipes, the terminal) is tested on children ({@link startCli}).
 */
export function runInProcess(args: readonly string[], env?: NodeJS.ProcessEnv): LiveCli {
  const { io, out, err, interrupt } = testIo(env)
  return {
    interrupt,
    out,
    err,
    lines: () => completeLines(out()),
    exited: runCli(args, io).then((code) => ({ code, out: out(), err: err() })),
  }
}
