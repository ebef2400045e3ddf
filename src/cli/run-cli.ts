import { readFileSync } from 'node:fs'
import { UsageError } from './args.js'
import { didYouMean } from './did-you-mean.js'
import { CliError } from './failure.js'
import type { CliIo } from './io.js'

const USAGE = `Usage: venue-rx <command> [options]

Options: --help, --version

Commands:
  demo        start the embedded simulator and show it live through the streams:
              book, trades, a demo strategy's orders and fills, balances, signals,
              health and request budget (venue-rx demo --help)
  simulate    run the venue simulator standalone and print its URL and API key
              --port N (8787)  --seed N (1)  --tick-ms N (250)  --host H (127.0.0.1)
  watch       print a stream's events: book, trades, my-trades, transfers, fills,
              order, klines, balances (venue-rx watch --help)
  export      append the account's trades, transfers or fills to an NDJSON or CSV
              file, resumable with a checkpoint (venue-rx export --help)
  relay       poll the venue once for a fleet and publish streams to Redis
              --streams depth:0,my-trades,... --redis URL (or VENUE_RX_REDIS)
              (venue-rx relay --help)
  record      record every answer of the venue (or the embedded simulator) to a
              journal for N seconds, to replay later
              FILE --seconds N --streams depth:0,trades:0,... (venue-rx record --help)
`

type Command = (argv: readonly string[], io: CliIo) => Promise<void>

// Each command is loaded when it runs: a quick command does not load the others' modules.
const commands: Record<string, () => Promise<Command>> = {
  demo: async () => (await import('./demo-command.js')).demoCommand,
  simulate: async () => (await import('./simulate-command.js')).simulateCommand,
  watch: async () => (await import('./watch-command.js')).watchCommand,
  export: async () => (await import('./export-command.js')).exportCommand,
  relay: async () => (await import('./relay-command.js')).relayCommand,
  record: async () => (await import('./record-command.js')).recordCommand,
}

/**
 * Runs the command line `argv` (the arguments after `venue-rx`) with `io`, and resolves to
 * its exit code: 0 done, 1 a runtime failure, 2 a usage error. Every failure is one line
 * on `io.stderr` (see {@link reportFailure}); nothing is thrown.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv
  try {
    if (name === undefined) {
      // No command is a usage error: the usage on stderr, exit 2 (a script that forgot its
      // command does not go on as if it had run).
      io.stderr.write(USAGE)
      return 2
    }
    if (name === '--help' || name === '-h' || name === 'help') {
      io.stdout.write(USAGE)
      return 0
    }
    if (name === '--version' || name === '-v') {
      io.stdout.write(`${version()}\n`)
      return 0
    }
    const load = Object.hasOwn(commands, name) ? commands[name] : undefined
    if (load === undefined) {
      throw new UsageError(`unknown command "${name}"${didYouMean(name, Object.keys(commands))}`)
    }
    await (await load())(rest, io)
    return 0
  } catch (error) {
    return reportFailure(
      error,
      io,
      name !== undefined && Object.hasOwn(commands, name) ? name : undefined,
    )
  }
}

/** The package's version, from its package.json (two levels up from src/cli and dist/cli). */
function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
  return String((pkg as { version?: unknown }).version)
}

/**
 * Any failure as one line on `io.stderr`, never a stack trace (VENUE_RX_DEBUG=1 shows it
 * for an unexpected one), and the exit code: 2 for a usage error (pointing to `command`'s
 * `--help`), 1 otherwise.
 */
export function reportFailure(error: unknown, io: CliIo, command?: string): number {
  if (error instanceof UsageError) {
    const help = command === undefined ? 'venue-rx --help' : `venue-rx ${command} --help`
    io.stderr.write(`venue-rx: ${error.message}; see \`${help}\`\n`)
    return 2
  }
  if (error instanceof CliError) {
    io.stderr.write(`venue-rx: ${error.line()}\n`)
    return 1
  }
  // Unexpected: one line still, with what is needed to report it.
  const detail =
    error instanceof Error
      ? io.env['VENUE_RX_DEBUG'] === '1'
        ? (error.stack ?? error.message)
        : `${error.name}: ${error.message}`
      : String(error)
  io.stderr.write(`venue-rx: unexpected failure: ${detail} (VENUE_RX_DEBUG=1 shows the stack)\n`)
  return 1
}
