/**
 * One relay of a fleet test, in its own process: `relay-process.ts <JSON RelayOptions>`.
 * Prints a JSON line `{ "stream", "state" }` each time one of its streams turns active or
 * standby; closes on SIGTERM (a SIGKILL is the crash the test makes).
 */
import { startRelay } from '../../src/relay.js'

const options = JSON.parse(process.argv[2] ?? '{}')
const relay = await startRelay(options)
const last: Record<string, string> = {}
const timer = setInterval(() => {
  for (const [stream, { state }] of Object.entries(relay.status())) {
    if (last[stream] === state) continue
    last[stream] = state
    process.stdout.write(`${JSON.stringify({ relay: relay.id, stream, state })}\n`)
  }
}, 20)
process.once('SIGTERM', () => {
  clearInterval(timer)
  void relay.close().then(() => process.exit(0))
})
