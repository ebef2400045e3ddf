import { startSimulator } from '../simulator/index.js'
import { integerOption, parseCommand } from './args.js'
import { untilSignal } from './until-signal.js'

export { untilSignal }

/** `venue-rx simulate`: serves the simulated venue until interrupted. */
export async function simulateCommand(argv: readonly string[]): Promise<void> {
  const values = parseCommand(argv, ['port', 'seed', 'tick-ms', 'host'])
  const simulator = await startSimulator({
    port: integerOption(values, 'port', 8787, 0, 65_535),
    seed: integerOption(values, 'seed', 1, 0, 2 ** 31 - 1),
    tickMs: integerOption(values, 'tick-ms', 250, 1, 3_600_000),
    host: typeof values['host'] === 'string' ? values['host'] : '127.0.0.1',
  })
  process.stdout.write(
    [
      'venue-rx simulator running',
      `  url      ${simulator.url}`,
      `  api key  ${simulator.apiKey}`,
      '  (a simulated account: the key is printed so that a bot can use it)',
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  )
  await untilSignal()
  await simulator.close()
}
