import { startSimulator } from '../simulator/index.js'
import { integerOption, parseWithPositionals, quotedWords, UsageError } from './args.js'
import { CliError } from './failure.js'
import type { CliIo } from './io.js'

export const SIMULATE_USAGE = `Usage: venue-rx simulate [options]

Serves the venue simulator until Ctrl-C, and prints its URL and the API key of its demo
account (a simulated account, not a secret).

Options:
  --port N      TCP port (default 8787; 0 for a free one)
  --host H      interface to listen on (default 127.0.0.1)
  --seed N      the simulated market's seed (default 1)
  --tick-ms N   simulated ms per tick, also its real interval (default 250)
  -h, --help    this help
`

/** `venue-rx simulate`: serves the simulated venue until interrupted. */
export async function simulateCommand(argv: readonly string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseWithPositionals(
    argv,
    ['port', 'seed', 'tick-ms', 'host'],
    [],
  )
  if (values['help'] === true) {
    io.stdout.write(SIMULATE_USAGE)
    return
  }
  if (positionals.length > 0) {
    throw new UsageError(`simulate takes no argument (got ${quotedWords(positionals)})`)
  }
  const port = integerOption(values, 'port', 8787, 0, 65_535)
  const host = typeof values['host'] === 'string' ? values['host'] : '127.0.0.1'
  const simulator = await startSimulator({
    port,
    host,
    seed: integerOption(values, 'seed', 1, 0, 2 ** 31 - 1),
    tickMs: integerOption(values, 'tick-ms', 250, 1, 3_600_000),
  }).catch((error: unknown) => {
    throw listenFailure(error, host, port)
  })
  // Listening for Ctrl-C before saying so: a script that sends SIGINT as soon as it reads
  // the line must find the handler there, not Node's default (ending by the signal).
  const stopped = io.untilSignal()
  io.stdout.write(
    [
      'venue-rx simulator running',
      `  url      ${simulator.url}`,
      `  api key  ${simulator.apiKey}`,
      '  (a simulated account: the key is printed so that a bot can use it)',
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  )
  await stopped
  await simulator.close()
}

/** A busy port or an interface that does not exist, as one line with a hint. */
function listenFailure(error: unknown, host: string, port: number): unknown {
  const code = (error as { code?: unknown } | null)?.code
  if (code === 'EADDRINUSE') {
    return new CliError(
      `port ${port} on ${host} is already in use`,
      'stop what listens there, or choose another with --port (--port 0 takes a free one)',
    )
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new CliError(`cannot listen on ${host}`, 'give --host an address of this machine')
  }
  if (code === 'EACCES') {
    return new CliError(
      `not allowed to listen on port ${port}`,
      'ports below 1024 need privileges: choose a higher --port',
    )
  }
  return error
}
