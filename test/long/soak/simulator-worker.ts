/**
 * The soak's simulator, in a worker thread: its market grows by a few KB a tick, which would
 * hide the client's heap in the samples; a worker has a heap of its own. The worker loads
 * this file (through tsx) and serves the simulator; the main thread holds a
 * {@link SimulatorWorker}.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import type { FaultStats } from '../../../src/simulator/index.js'
import { startSimulator } from '../../../src/simulator/index.js'
import { soakFaults } from './faults.js'

/** The market moves one tick every this many ms. */
const ADVANCE_EVERY_MS = 25

/** What the simulator worker is started with. */
export interface WorkerSetup {
  readonly role: 'soak-simulator'
  readonly seed: number
  readonly faultRate: number
}

/** Messages of the simulator worker. */
type FromWorker =
  | {
      readonly type: 'ready'
      readonly url: string
      readonly apiKey: string
      readonly symbols: string[]
      readonly lastSeq: string | undefined
    }
  | { readonly type: 'lastSeq'; readonly value: string | undefined }
  | { readonly type: 'closed'; readonly stats: FaultStats }

/** Ticks of history before the churn. */
const HISTORY_TICKS = 500

/**
 * The worker's side: starts the simulator (manual clock, moved every `ADVANCE_EVERY_MS`),
 * reports the account's last `global_seq` now and then, and closes on request with the
 * fault counters.
 */
async function serveSimulator(setup: WorkerSetup): Promise<void> {
  const port = parentPort
  if (port === null) return
  const sim = await startSimulator({ seed: setup.seed, faultSeed: setup.seed, clock: 'manual' })
  sim.advance(HISTORY_TICKS)
  sim.faults.set(soakFaults(setup.faultRate))
  const account = sim.market.account(sim.apiKey)
  const lastSeq = () => {
    const last = account?.trades().at(-1)?.global_seq
    return last === undefined ? undefined : String(last)
  }
  const send = (message: FromWorker) => port.postMessage(message)
  send({
    type: 'ready',
    url: sim.url,
    apiKey: sim.apiKey,
    symbols: sim.market.poolSummaries().map((pool) => pool.symbol),
    lastSeq: lastSeq(),
  })
  let ticks = 0
  const advancer = setInterval(() => {
    sim.advance(1)
    ticks += 1
    if (ticks % 20 === 0) send({ type: 'lastSeq', value: lastSeq() })
  }, ADVANCE_EVERY_MS)
  port.once('message', async () => {
    clearInterval(advancer)
    const stats = sim.faults.stats()
    await sim.close()
    send({ type: 'closed', stats })
    port.close()
  })
}

/** The main thread's handle on the simulator worker. */
export interface SimulatorWorker {
  readonly url: string
  readonly apiKey: string
  readonly symbols: readonly string[]
  /** The account's last `global_seq`, as last reported. */
  lastSeq(): string | undefined
  /** Closes the simulator and ends the worker; resolves with its fault counters. */
  close(): Promise<FaultStats>
}

/**
 * Starts the simulator in a worker thread: its market grows by a few KB a tick, which would
 * hide the client's heap in the samples; a worker has a heap of its own. The worker loads
 * this file through tsx, whatever runs the main thread (tsx, vitest).
 */
export function startSimulatorWorker(setup: WorkerSetup): Promise<SimulatorWorker> {
  const load = `import('tsx/esm/api').then((api) => { api.register(); return import(${JSON.stringify(import.meta.url)}) })`
  const worker = new Worker(load, { eval: true, workerData: setup })
  return new Promise((resolve, reject) => {
    let last: string | undefined
    let closed: ((stats: FaultStats) => void) | undefined
    let failure: unknown
    worker.on('error', (error) => {
      failure = error
      reject(error)
    })
    worker.on('exit', (code) => {
      if (code !== 0) reject(new Error(`the simulator worker exited with ${code}`))
    })
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'lastSeq') {
        last = message.value
      } else if (message.type === 'closed') {
        closed?.(message.stats)
      } else {
        last = message.lastSeq
        resolve({
          url: message.url,
          apiKey: message.apiKey,
          symbols: message.symbols,
          lastSeq: () => last,
          close: async () => {
            if (failure !== undefined) throw failure
            const stats = new Promise<FaultStats>((done) => {
              closed = done
            })
            worker.postMessage('close')
            const result = await stats
            await worker.terminate()
            return result
          },
        })
      }
    })
  })
}

const setup = workerData as WorkerSetup | undefined
if (!isMainThread && setup?.role === 'soak-simulator') {
  await serveSimulator(setup)
}
