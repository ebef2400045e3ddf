import type { AddressInfo } from 'node:net'
import { createMarket as createBuiltInMarket } from './market/create-market.js'
import type { Market, MarketOptions, MarketTruth, PoolConfig } from './market/types.js'
import { createSimulatorServer } from './server/create-simulator-server.js'
import type { FaultSpec } from './server/fault-spec.js'
import { Faults } from './server/faults.js'
import { stopSimulatorServer } from './server/stop-simulator-server.js'

/** How simulated time moves. */
export type SimulatorClock = 'realtime' | 'manual'

/** Settings of {@link startSimulator}. */
export interface SimulatorOptions {
  /** TCP port; default 0 (a free port). */
  readonly port?: number
  /** Interface to listen on; default `'127.0.0.1'`. */
  readonly host?: string
  /** Seed of the market (same seed, same market); default 1. */
  readonly seed?: number
  /** Pools of the market; default the market's own set. */
  readonly pools?: readonly PoolConfig[]
  /** Simulated ms per tick, and the real interval between ticks with the realtime clock; default 250. */
  readonly tickMs?: number
  /** Start of simulated time, Unix ms; default the market's. */
  readonly startTime?: number
  /** Faults in force from the start (global); change them later with `faults.set`. */
  readonly faults?: FaultSpec
  /** Seed of fault decisions (a PRNG of their own); default `seed`. */
  readonly faultSeed?: number
  /** `'realtime'` (default) ticks every `tickMs`; `'manual'` ticks only on `advance`. */
  readonly clock?: SimulatorClock
  /**
   * Builds the market instead of the built-in `createMarket`. For tests of the HTTP layer
   * (a fake market); leave it out otherwise.
   */
  readonly createMarket?: (options: MarketOptions) => Market
}

/** A running simulator. */
export interface Simulator {
  /** Base URL, e.g. `http://127.0.0.1:54321`. */
  readonly url: string
  /** API key of the demo account (the market's first key). */
  readonly apiKey: string
  /** API keys of every simulated account. */
  readonly apiKeys: readonly string[]
  /** Ground truth of the market, for tests. */
  readonly truth: MarketTruth
  /** The fault controller, changeable while running. */
  readonly faults: Faults
  /** The market being served. */
  readonly market: Market
  /** Moves the market on by `ticks` ticks (default 1), whatever the clock. */
  advance(ticks?: number): void
  /** Stops ticking, ends hanging requests, closes every socket and the server. Idempotent. */
  close(): Promise<void>
}

interface CheckedOptions {
  readonly port: number
  readonly host: string
  readonly seed: number
  readonly tickMs: number
  readonly clock: SimulatorClock
  readonly faultSeed: number
}

function fail(message: string): never {
  throw new RangeError(`startSimulator: ${message}`)
}

function checkOptions(options: SimulatorOptions): CheckedOptions {
  const { port = 0, host = '127.0.0.1', seed = 1, tickMs = 250, clock = 'realtime' } = options
  const show = JSON.stringify
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    fail(`port must be an integer from 0 to 65535 (got ${show(port)})`)
  }
  if (typeof host !== 'string' || host === '') fail(`host must be a non-empty string`)
  if (!Number.isSafeInteger(seed)) fail(`seed must be an integer (got ${show(seed)})`)
  if (typeof tickMs !== 'number' || !Number.isFinite(tickMs) || tickMs <= 0) {
    fail(`tickMs must be a positive number of ms (got ${show(tickMs)})`)
  }
  if (clock !== 'realtime' && clock !== 'manual') {
    fail(`clock must be 'realtime' or 'manual' (got ${show(clock)})`)
  }
  const faultSeed = options.faultSeed ?? seed
  if (!Number.isSafeInteger(faultSeed)) {
    fail(`faultSeed must be an integer (got ${show(faultSeed)})`)
  }
  return { port, host, seed, tickMs, clock, faultSeed }
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1'
  return host.includes(':') ? `[${host}]` : host
}

/**
 * Starts the venue simulator: a seeded, reproducible market served over HTTP with every
 * endpoint of the venue, the live service's envelope, auth and errors, and run-time
 * faults.
 *
 * @example
 * ```ts
 * const sim = await startSimulator({ seed: 7, clock: 'manual' })
 * sim.advance(100)
 * const res = await fetch(`${sim.url}/api/v1/balances`, {
 *   headers: { authorization: sim.apiKey },
 * })
 * sim.faults.set({ errorRate: 0.1 })
 * await sim.close()
 * ```
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const checked = checkOptions(options)
  const faults = new Faults({
    seed: checked.faultSeed,
    ...(options.faults === undefined ? {} : { spec: options.faults }),
  })
  const createMarket = options.createMarket ?? createBuiltInMarket
  const market = createMarket({
    seed: checked.seed,
    tickMs: checked.tickMs,
    ...(options.pools === undefined ? {} : { pools: [...options.pools] }),
    ...(options.startTime === undefined ? {} : { startTime: options.startTime }),
  })
  const server = createSimulatorServer({ market, faults })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(checked.port, checked.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo

  const advance = (ticks = 1): void => {
    if (!Number.isSafeInteger(ticks) || ticks < 0) {
      throw new RangeError(`advance: ticks must be an integer >= 0 (got ${JSON.stringify(ticks)})`)
    }
    for (let i = 0; i < ticks; i += 1) market.tick()
  }
  const timer =
    checked.clock === 'realtime' ? setInterval(() => market.tick(), checked.tickMs) : undefined
  timer?.unref()

  let closing: Promise<void> | undefined
  const apiKeys = market.apiKeys()
  return {
    url: `http://${urlHost(checked.host)}:${port}`,
    apiKey: apiKeys[0] ?? '',
    apiKeys,
    truth: market.truth,
    faults,
    market,
    advance,
    close: () => {
      if (closing === undefined) {
        if (timer !== undefined) clearInterval(timer)
        closing = stopSimulatorServer(server)
      }
      return closing
    },
  }
}
