#!/usr/bin/env node
import { UsageError } from './args.js'
import { demoCommand } from './demo-command.js'
import { simulateCommand } from './simulate-command.js'

const USAGE = `Usage: venue-rx <command> [options]

Commands:
  demo        start the embedded simulator and show, live, what the client reads
              --seed N (1)  --pool ID (0)  --seconds N (0 = until Ctrl-C on a terminal)
  simulate    run the venue simulator standalone and print its URL and API key
              --port N (8787)  --seed N (1)  --tick-ms N (250)  --host H (127.0.0.1)
`

const commands: Record<string, (argv: readonly string[]) => Promise<void>> = {
  demo: demoCommand,
  simulate: simulateCommand,
}

async function main(argv: readonly string[]): Promise<void> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(USAGE)
    return
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined
  if (command === undefined) throw new UsageError(`unknown command "${name}"`)
  await command(rest)
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`venue-rx: ${error.message}\n\n${USAGE}`)
    process.exitCode = 2
  } else {
    process.stderr.write(
      `venue-rx: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    )
    process.exitCode = 1
  }
})
