/**
 * Cost of one simulated-market tick (traders act, engines match, AMMs swap, transfers
 * happen), as a ratio to serving one V2 depth answer of 100 levels (market.depth plus
 * JSON.stringify) measured in the same run; and heap growth per 10,000 ticks.
 *
 *   npx tsx --expose-gc bench/market-tick.ts [ticks, default 20000]
 */
import { createMarket } from '../src/simulator/index.js'

const TICKS = Number(process.argv[2] ?? 20_000)
const gc = (globalThis as { gc?: () => void }).gc

const market = createMarket({ seed: 21, tickMs: 1000 })
for (let i = 0; i < 500; i++) market.tick() // warm up

gc?.()
const heapBefore = process.memoryUsage().heapUsed
let started = performance.now()
for (let i = 0; i < TICKS; i++) market.tick()
const tickMs = (performance.now() - started) / TICKS
gc?.()
const heapAfter = process.memoryUsage().heapUsed

let bytes = 0
started = performance.now()
for (let i = 0; i < TICKS; i++)
  bytes += JSON.stringify(market.depth(i % 3, 'v2', 100, '0.0001')).length
const depthMs = (performance.now() - started) / TICKS

console.log(`market tick over ${TICKS} ticks (seed 21)`)
console.log(`  tick                       ${(tickMs * 1000).toFixed(1)} µs`)
console.log(
  `  depth v2 answer (baseline) ${(depthMs * 1000).toFixed(1)} µs (${Math.round(bytes / TICKS)} bytes)`,
)
console.log(`  ratio tick / depth answer  ${(tickMs / depthMs).toFixed(2)}`)
console.log(
  `  heap growth                ${((((heapAfter - heapBefore) / TICKS) * 10_000) / 1e6).toFixed(1)} MB per 10,000 ticks${gc ? '' : ' (run with --expose-gc for a steadier figure)'}`,
)
