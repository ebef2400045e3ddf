/**
 * The simulator for the feed backfill benchmark, in its own process so that the client
 * being measured and the server each get a core: manual clock, `ticks` ticks of history
 * (argv[2], default 40,000: ~10,900 trades of the demo account with seed 1), and every
 * answer `latencyMs` late (argv[3], default 0: no faults).
 *
 * Prints one JSON line `{ url, apiKey, trades, transfers }` when ready; exits when stdin
 * closes.
 */
import { startSimulator } from '../../src/simulator/index.js'

const ticks = Number(process.argv[2] ?? 40_000)
const latencyMs = Number(process.argv[3] ?? 0)
const simulator = await startSimulator({
  clock: 'manual',
  seed: 1,
  ...(latencyMs > 0 ? { faults: { latencyMs } } : {}),
})
simulator.advance(ticks)
const account = simulator.market.account(simulator.apiKey)

process.stdout.write(
  `${JSON.stringify({
    url: simulator.url,
    apiKey: simulator.apiKey,
    trades: account?.trades().length ?? 0,
    transfers: account?.transfers().length ?? 0,
  })}\n`,
)
process.stdin.resume()
process.stdin.on('end', () => {
  void simulator.close().then(() => process.exit(0))
})
