/**
 * Requests per second the simulator sustains on loopback, for depth and trades, as a
 * ratio to a bare node:http server that answers the same bytes from memory (measured in
 * the same run, same client, same concurrency).
 *
 *   npx tsx bench/simulator-throughput.ts [seconds per run, default 3]
 */
import { join } from 'node:path'
import { Pool } from 'undici'
import { type ChildServer, startChildServer, stopChildServer } from './support/child-server.js'

const SECONDS = Number(process.argv[2] ?? 3)
const CONCURRENCY = 16
const CASES = [
  { name: 'depth v2, 100 levels', path: '/api/v1/depth/v2?pool_id=0&limit=100', auth: false },
  { name: 'depth v1, 20 levels', path: '/api/v1/depth?pool_id=1&limit=20', auth: false },
  {
    name: 'trades, page of 100',
    path: '/api/v1/trades?global_seq=0&sort=asc&limit=100',
    auth: true,
  },
  { name: 'latest trades v2', path: '/api/v1/latest-trades/v2?pool_id=0&limit=50', auth: false },
]

type Server = ChildServer<{ url: string; apiKey: string }>

function startServer(mode: 'simulator' | 'baseline'): Promise<Server> {
  const script = join(import.meta.dirname, 'support', 'bench-server.ts')
  return startChildServer(script, [mode, ...CASES.map((c) => c.path)])
}

const stopServer = stopChildServer

/** Drives `path` with CONCURRENCY workers for SECONDS; returns requests per second. */
async function measure(server: Server, path: string, auth: boolean): Promise<number> {
  const pool = new Pool(server.url, { connections: CONCURRENCY })
  const headers = auth ? { authorization: server.apiKey } : {}
  let done = 0
  const run = async (until: number) => {
    while (performance.now() < until) {
      const { statusCode, body } = await pool.request({ method: 'GET', path, headers })
      await body.text()
      if (statusCode !== 200) throw new Error(`${path}: HTTP ${statusCode}`)
      done += 1
    }
  }
  // Warm up sockets and JIT, then measure.
  await Promise.all(Array.from({ length: CONCURRENCY }, () => run(performance.now() + 300)))
  done = 0
  const start = performance.now()
  const until = start + SECONDS * 1000
  await Promise.all(Array.from({ length: CONCURRENCY }, () => run(until)))
  const rps = done / ((performance.now() - start) / 1000)
  await pool.close()
  return rps
}

const results: { name: string; simulator: number; baseline: number }[] = []
const baseline = await startServer('baseline')
const baselineRps = new Map<string, number>()
for (const c of CASES) baselineRps.set(c.path, await measure(baseline, c.path, c.auth))
await stopServer(baseline)

const simulator = await startServer('simulator')
for (const c of CASES) {
  results.push({
    name: c.name,
    simulator: await measure(simulator, c.path, c.auth),
    baseline: baselineRps.get(c.path) ?? 0,
  })
}
await stopServer(simulator)

console.log(
  `simulator throughput on loopback (${CONCURRENCY} connections, ${SECONDS} s per run, server in its own process)`,
)
console.log('case                        simulator req/s   static-bytes req/s   ratio')
for (const r of results) {
  console.log(
    `${r.name.padEnd(26)}  ${r.simulator.toFixed(0).padStart(15)}   ${r.baseline.toFixed(0).padStart(18)}   ${(r.simulator / r.baseline).toFixed(2).padStart(5)}`,
  )
}
