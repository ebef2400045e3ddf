/**
 * The fleet run (`npm run fleet`): 3 relays and 20 bots in their own processes on one
 * redis-server and the simulator; the active relay is SIGKILLed, Redis restarted once,
 * a bot restarted from its checkpoints; then checked against the simulator's truth.
 *
 *   npm run fleet -- [--relays 3] [--consumers 20] [--seconds 12] [--poll-ms 100] [--lease-ms 1000]
 *
 * Prints the report as JSON; exits 1 when a promise was broken.
 */
import { parseArgs } from 'node:util'
import { runFleet } from '../fleet/run-fleet.js'
import transpile from '../global-setup.js'

const { values } = parseArgs({
  options: {
    relays: { type: 'string', default: '3' },
    consumers: { type: 'string', default: '20' },
    seconds: { type: 'string', default: '12' },
    'poll-ms': { type: 'string', default: '100' },
    'lease-ms': { type: 'string', default: '1000' },
    seed: { type: 'string', default: '5' },
  },
})
// The relay and bot scripts run as plain node, transpiled as for the tests.
await transpile()
const report = await runFleet({
  relays: Number(values.relays),
  consumers: Number(values.consumers),
  runMs: Number(values.seconds) * 1000,
  pollIntervalMs: Number(values['poll-ms']),
  leaseMs: Number(values['lease-ms']),
  seed: Number(values.seed),
})
console.log(JSON.stringify(report, null, 2))
process.exitCode = report.problems.length === 0 ? 0 : 1
