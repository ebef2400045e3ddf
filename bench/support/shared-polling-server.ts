/**
 * The simulator for bench/shared-polling.ts, in its own process so that the client being
 * measured has its core to itself. Manual clock: answers stay the same until told to
 * advance. Counts requests per route, with the gaps between them.
 *
 * Prints one JSON line `{ url, apiKey }` when ready, then answers one JSON line per
 * command read from stdin:
 *
 *   stats          { requests, routes: { [path]: { requests, minGapMs, meanGapMs, maxGapMs } } }
 *   reset          clears the counts
 *   advance N      moves the market N ticks
 *
 * Exits when stdin closes.
 */
import { createInterface } from 'node:readline'
import { startSimulator } from '../../src/simulator/index.js'

const simulator = await startSimulator({ clock: 'manual', seed: 1 })
simulator.advance(200)

let arrivals = new Map<string, number[]>()
const decide = simulator.faults.decide.bind(simulator.faults)
simulator.faults.decide = (pathname: string) => {
  const times = arrivals.get(pathname)
  if (times === undefined) arrivals.set(pathname, [performance.now()])
  else times.push(performance.now())
  return decide(pathname)
}

function stats() {
  const routes: Record<string, unknown> = {}
  let requests = 0
  for (const [path, times] of arrivals) {
    requests += times.length
    const gaps = times.slice(1).map((at, i) => at - (times[i] ?? at))
    routes[path] = {
      requests: times.length,
      minGapMs: gaps.length === 0 ? null : Math.min(...gaps),
      meanGapMs: gaps.length === 0 ? null : gaps.reduce((a, b) => a + b, 0) / gaps.length,
      maxGapMs: gaps.length === 0 ? null : Math.max(...gaps),
    }
  }
  return { requests, routes }
}

const reply = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`)
reply({ url: simulator.url, apiKey: simulator.apiKey })

for await (const line of createInterface({ input: process.stdin })) {
  const [command, argument] = line.trim().split(/\s+/)
  if (command === 'stats') reply(stats())
  else if (command === 'reset') {
    arrivals = new Map()
    reply({ ok: true })
  } else if (command === 'advance') {
    simulator.advance(Number(argument ?? 1))
    reply({ ticks: simulator.market.ticks() })
  } else reply({ error: `unknown command ${JSON.stringify(line)}` })
}
await simulator.close()
