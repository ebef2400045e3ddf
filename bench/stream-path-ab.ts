/**
 * bench/stream-path.ts's streams on two builds of the package in one process, for an A/B
 * of a change: rounds alternate A B, B A, ..., and each pair gives a ratio B/A, so that a
 * slow moment of the machine slows both. Prints per workload the median cost per poll (a
 * page for own trades) of each build and the median of the pairs' ratios, with its spread
 * (25th to 75th percentile).
 *
 *   npx tsx bench/stream-path-ab.ts A_DIR B_DIR [rounds, default 41] [workloads] [--wall]
 *
 * A_DIR and B_DIR are checkouts whose `dist/` was built (`npx tsc -p tsconfig.build.json`)
 * and that resolve `rxjs` and `undici` (their own `node_modules`, or a link to one).
 * Workloads, comma-separated (default all): depth10, depth100, depth1000, balances,
 * trades. The cost is the process's CPU time (user + system) per poll, which other
 * processes on a busy machine do not inflate as they do the wall-clock time; `--wall`
 * measures wall-clock time instead.
 */

import { resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import type { createVenue as CreateVenue } from '../src/index.js'
import { positionalArgs } from './support/measure.js'
import {
  balancesWorkload,
  benchVenueOptions,
  depthWorkload,
  tradesWorkload,
  type Workload,
} from './support/memory-venue.js'

const [dirA, dirB, roundsArg, workloadsArg] = positionalArgs()
if (dirA === undefined || dirB === undefined) {
  console.error('usage: npx tsx bench/stream-path-ab.ts A_DIR B_DIR [rounds] [workloads] [--wall]')
  process.exit(2)
}
const ROUNDS = Number(roundsArg ?? 41)
const WALL = process.argv.includes('--wall')
const WARMUP_ROUNDS = 5
const WARMUP_MS = 1_500

const load = async (dir: string) =>
  (
    (await import(pathToFileURL(resolve(dir, 'dist/index.js')).href)) as {
      createVenue: typeof CreateVenue
    }
  ).createVenue
const builds = { A: await load(dirA), B: await load(dirB) }

const WORKLOADS: Record<string, () => Workload> = {
  depth10: () => depthWorkload(10, 800),
  depth100: () => depthWorkload(100, 286),
  depth1000: () => depthWorkload(1_000, 50),
  balances: balancesWorkload,
  trades: tradesWorkload,
}

/** Cost per poll, µs, of `workload`'s stream on a fresh venue of `createVenue`. */
function round(createVenue: typeof CreateVenue, workload: Workload): Promise<number> {
  const { dispatcher, watch, events, requestsPerEvent } = workload
  const venue = createVenue(benchVenueOptions(dispatcher))
  return new Promise((done, fail) => {
    let seen = 0
    let wall = 0
    let cpu = process.cpuUsage()
    const subscription = watch(venue).subscribe({
      next: () => {
        seen += 1
        if (seen === 1) {
          wall = performance.now()
          cpu = process.cpuUsage()
        }
        if (seen === events + 1) {
          const { user, system } = process.cpuUsage(cpu)
          const micros = WALL ? (performance.now() - wall) * 1000 : user + system
          subscription.unsubscribe()
          void venue.close().then(() => done((micros / events) * (1 / requestsPerEvent)), fail)
        }
      },
      error: fail,
    })
  })
}

const quantile = (values: readonly number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length * q)] as number

console.log(
  `A ${dirA}, B ${dirB}: ${WALL ? 'wall-clock' : 'CPU'} µs per poll, ${ROUNDS} rounds alternating\n`,
)
for (const name of (workloadsArg ?? Object.keys(WORKLOADS).join(',')).split(',')) {
  const make = WORKLOADS[name]
  if (make === undefined) throw new Error(`unknown workload ${name}`)
  const workload = make()
  const warming = performance.now()
  for (let n = 0; n < WARMUP_ROUNDS || performance.now() - warming < WARMUP_MS; n += 1) {
    await round(builds.A, workload)
    await round(builds.B, workload)
  }
  const a: number[] = []
  const b: number[] = []
  const ratios: number[] = []
  for (let n = 0; n < ROUNDS; n += 1) {
    const first = n % 2 === 0 ? 'A' : 'B'
    const x = await round(builds[first], workload)
    const y = await round(builds[first === 'A' ? 'B' : 'A'], workload)
    const [ta, tb] = first === 'A' ? [x, y] : [y, x]
    a.push(ta)
    b.push(tb)
    ratios.push(tb / ta)
  }
  console.log(
    `${name.padEnd(10)} A ${quantile(a, 0.5).toFixed(1).padStart(7)}  B ${quantile(b, 0.5).toFixed(1).padStart(7)}  B/A ${quantile(ratios, 0.5).toFixed(3)} (${quantile(ratios, 0.25).toFixed(3)}-${quantile(ratios, 0.75).toFixed(3)})`,
  )
}
