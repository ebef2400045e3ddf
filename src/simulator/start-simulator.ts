import type { AddressInfo } from 'node:net'
import type { BurstSpec } from './market/burst-regime.js'
import { createMarket as createBuiltInMarket } from './market/create-market.js'
import type { VenueQuirks } from './market/quirk-spec.js'
import { Quirks } from './market/quirks.js'
import type {
  Market,
  MarketOptions,
  MarketTruth,
  PlacedOrder,
  PlaceOrderRequest,
  PoolConfig,
} from './market/types.js'
import { createSimulatorServer } from './server/create-simulator-server.js'
import type { FaultSpec } from './server/fault-spec.js'
import { Faults } from './server/faults.js'
import { stopSimulatorServer } from './server/stop-simulator-server.js'

/**
 * How simulated time moves.
 *
 * @example
 * ```ts
 * import { type SimulatorClock, startSimulator } from 'venue-rx/simulator'
 *
 * const clock: SimulatorClock = process.env.CI ? 'manual' : 'realtime'
 * const sim = await startSimulator({ clock })
 * if (clock === 'manual') sim.advance(100) // time moves only here
 * ```
 */
export type SimulatorClock = 'realtime' | 'manual'

/**
 * Settings of {@link startSimulator}.
 *
 * @example
 * ```ts
 * import { type SimulatorOptions, startSimulator } from 'venue-rx/simulator'
 *
 * const options: SimulatorOptions = {
 *   port: 8787,
 *   seed: 7,
 *   tickMs: 100,
 *   faults: { errorRate: 0.05, rateLimitRate: 0.02 },
 *   faultSeed: 3,
 * }
 * const sim = await startSimulator(options) // http://127.0.0.1:8787
 * ```
 */
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
  /**
   * Start of simulated time, Unix ms. Default with the realtime clock: now (`Date.now()`
   * rounded down to a whole second), so the latest candles are today's; with the manual
   * clock: the market's fixed, reproducible start (1_700_000_000_000).
   */
  readonly startTime?: number
  /** Faults in force from the start (global); change them later with `faults.set`. */
  readonly faults?: FaultSpec
  /** Seed of fault decisions (a PRNG of their own); default `seed`. */
  readonly faultSeed?: number
  /**
   * Live-venue behaviours in force from the start (purged cancels, late trades and orders,
   * capped trade lists); change them later with `quirks.set`. Default none.
   */
  readonly quirks?: VenueQuirks
  /**
   * The bursty regime of the built-in market (see {@link BurstSpec}; `{}` for its
   * defaults): each pool alternates bursts of crowd activity and quiet spells, and the
   * demo account trades at market every few seconds. Default off. Pair it with a
   * `tickMs` well under its `changeGapMs` (e.g. 10).
   */
  readonly bursts?: BurstSpec
  /**
   * `'realtime'` (default) ticks every `tickMs` and starts at the wall clock; `'manual'`
   * ticks only on `advance` and starts at a fixed time (see `startTime`).
   */
  readonly clock?: SimulatorClock
  /**
   * Builds the market instead of the built-in `createMarket`. For tests of the HTTP layer
   * (a fake market); leave it out otherwise.
   */
  readonly createMarket?: (options: MarketOptions) => Market
}

/**
 * A running simulator.
 *
 * @example
 * ```ts
 * import { createVenue } from 'venue-rx'
 * import { type Simulator, startSimulator } from 'venue-rx/simulator'
 *
 * const sim: Simulator = await startSimulator({ clock: 'manual' })
 * const venue = createVenue({ baseUrl: sim.url, apiKey: sim.apiKey })
 * sim.advance(100)
 * console.log(await venue.rest.balances())
 * await venue.close()
 * await sim.close()
 * ```
 */
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
  /**
   * The quirk controller, changeable while running: behaviours of a live venue the built-in
   * market reproduces on demand for the accounts with API keys (see {@link VenueQuirks}).
   * A market of your own (`createMarket`) may ignore it.
   *
   * @example
   * ```ts
   * const sim = await startSimulator({ clock: 'manual' })
   * sim.quirks.set({ ordersLagMs: 1000 }) // the order endpoints show the state of 1 s ago
   * const { id } = await sim.placeOrder({ poolId: 0, side: 'buy', type: 'limit', price: '1.0400', amount: '5' })
   * // GET /api/v1/orders/{id}: 500 'service internal error' (not placed yet, 1 s ago)
   * sim.advance(4) // 4 ticks of 250 ms
   * // GET /api/v1/orders/{id}: the order
   * sim.quirks.clear()
   * ```
   */
  readonly quirks: Quirks
  /** The market being served. */
  readonly market: Market
  /** Moves the market on by `ticks` ticks (default 1), whatever the clock. */
  advance(ticks?: number): void
  /**
   * Places an order for one of the simulated accounts (default the demo account, the first
   * API key), at the current simulated time, through the pool's own matching engine: it
   * matches at once with price-time priority, pays the engine's fees, locks the balance a
   * resting limit order needs, and shows in `/open-orders`, `/history-orders`,
   * `/orders/{id}` (with its trades), `/orders/client-id/{cid}`, `/trades` and `/balances`
   * like the demo trader's orders. `amount` is the base quantity, for a market buy too.
   * An order the balance cannot cover ends `rejected` (status 4): it still resolves.
   *
   * Resolves to the composite id `{pool_id}-{order_id}-{side}` (side 0 buy, 1 sell) and the
   * client id (default `sim-<n>`). Rejects with a `TypeError` or `RangeError` naming the
   * field for bad input (unknown account, pool, side or type; a price or amount that is not
   * positive or has too many decimals, an amount that is not a multiple of the pool's
   * `min_amount`; a price on a market order, none on a limit order; a client id of a
   * working order of the account; a bad `hiddenForTicks`), never quoting the API key;
   * nothing changes then. A client id whose orders are all final may be used again, as on
   * the live venue: `/orders/client-id/{cid}` then answers the newest order with it.
   *
   * With `hiddenForTicks: n`, for the next `n` ticks the order endpoints do not show the
   * order yet (500 `service internal error` for `/orders/...`, as for an unknown order,
   * and left out of the order lists); its fills are in `/trades` and `/balances` at once.
   *
   * @example
   * ```ts
   * const sim = await startSimulator({ clock: 'manual' })
   * const { id, clientId } = await sim.placeOrder({
   *   poolId: 0, side: 'buy', type: 'limit', price: '1.0400', amount: '50', clientId: 'bot-1',
   * })
   * // e.g. id '0-25-0' (pool 0, order 25, buy), clientId 'bot-1'
   * await sim.placeOrder({ account: sim.apiKeys[1], poolId: 0, side: 'sell', type: 'market', amount: '20' })
   * await sim.cancelOrder(id) // true
   * ```
   */
  placeOrder(request: PlaceOrderRequest): Promise<PlacedOrder>
  /**
   * Cancels a working order of any account by its composite id `{pool_id}-{order_id}-{side}`
   * and resolves to `true`; its reservation is unlocked. Rejects with a `RangeError` for a
   * malformed or unknown id and for an order that is already final (filled, canceled,
   * rejected). An order canceled after a partial fill stays in the history set with
   * status 1 (partially filled) and `history: true`, as the live service shows it.
   *
   * @example
   * ```ts
   * const { id } = await sim.placeOrder({ poolId: 0, side: 'sell', type: 'limit', price: '1.2000', amount: '10' })
   * await sim.cancelOrder(id) // true
   * await sim.cancelOrder(id) // rejects: RangeError 'cancelOrder: id "0-25-1": the order is already final (status 3)'
   * ```
   */
  cancelOrder(id: string): Promise<true>
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

/** The wall clock, Unix ms, rounded down to a whole second. */
function wallClockSecond(): number {
  return Math.floor(Date.now() / 1000) * 1000
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
 * const { id } = await sim.placeOrder({ poolId: 0, side: 'sell', type: 'market', amount: '10' })
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
  const startTime =
    options.startTime ?? (checked.clock === 'realtime' ? wallClockSecond() : undefined)
  const quirks = new Quirks(options.quirks)
  const market = createMarket({
    seed: checked.seed,
    tickMs: checked.tickMs,
    ...(options.pools === undefined ? {} : { pools: [...options.pools] }),
    ...(startTime === undefined ? {} : { startTime }),
    quirks,
    ...(options.bursts === undefined ? {} : { bursts: options.bursts }),
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
    quirks,
    market,
    advance,
    placeOrder: async (request) => {
      if (market.placeOrder === undefined) {
        throw new TypeError('placeOrder: this market takes no orders (its placeOrder is missing)')
      }
      return market.placeOrder(request)
    },
    cancelOrder: async (id) => {
      if (market.cancelOrder === undefined) {
        throw new TypeError('cancelOrder: this market takes no orders (its cancelOrder is missing)')
      }
      return market.cancelOrder(id)
    },
    close: () => {
      if (closing === undefined) {
        if (timer !== undefined) clearInterval(timer)
        closing = stopSimulatorServer(server)
      }
      return closing
    },
  }
}
