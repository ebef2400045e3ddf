/**
 * A server for the throughput benchmark, run in its own process so that the load
 * generator and the server each get a core.
 *
 *   simulator  the venue simulator (seed 1, 2,000 ticks of history, 4 ticks/s after that)
 *   baseline   a bare node:http server answering, per path, the exact bytes the
 *              simulator answered for it once: the floor any server could reach
 *
 * Prints one JSON line `{ url, apiKey }` when ready; exits when stdin closes.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startSimulator } from '../../src/simulator/index.js'

const mode = process.argv[2]
const paths = process.argv.slice(3)

const simulator = await startSimulator({ clock: 'manual', seed: 1 })
simulator.advance(2_000)

if (mode === 'simulator') {
  const timer = setInterval(() => simulator.advance(1), 250)
  announce(simulator.url, simulator.apiKey, async () => {
    clearInterval(timer)
    await simulator.close()
  })
} else if (mode === 'baseline') {
  const canned = new Map<string, string>()
  for (const path of paths) {
    const response = await fetch(simulator.url + path, {
      headers: { authorization: simulator.apiKey },
    })
    canned.set(path, await response.text())
  }
  await simulator.close()
  const server = createServer((req, res) => {
    const body = canned.get(req.url ?? '')
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' })
    res.end(body ?? '{}')
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  announce(`http://127.0.0.1:${port}`, simulator.apiKey, async () => {
    server.closeAllConnections()
    server.close()
  })
} else {
  throw new Error(`usage: bench-server.ts simulator|baseline <paths...>`)
}

function announce(url: string, apiKey: string, stop: () => Promise<void>): void {
  process.stdout.write(`${JSON.stringify({ url, apiKey })}\n`)
  process.stdin.resume()
  process.stdin.on('end', () => void stop().then(() => process.exit(0)))
}
