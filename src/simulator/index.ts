/**
 * `venue-rx/simulator`: a local, seeded, reproducible venue served over HTTP, with
 * run-time faults and live-venue quirks. A separate entry point; it never loads the client.
 *
 * @packageDocumentation
 */

// The bursty regime of the built-in market
export type { BurstSpec } from './market/burst-regime.js'
// Quirks of a live venue: the spec, its check and the controller (`sim.quirks`)
export { checkQuirks } from './market/check-quirks.js'
// The market and its contract
export { createMarket } from './market/create-market.js'
export type { VenueQuirks } from './market/quirk-spec.js'
export { Quirks } from './market/quirks.js'
export type {
  AccountInfoRecord,
  AccountView,
  BalanceRecord,
  DepthRecord,
  KlineRecord,
  Market,
  MarketOptions,
  MarketTruth,
  OrderRecord,
  PlacedOrder,
  PlaceOrderRequest,
  PoolConfig,
  PoolDetailRecord,
  PoolSummaryRecord,
  PublicTradeRecord,
  SimulatedMarket,
  Source,
  TokenRecord,
  TradeDetailRecord,
  TransferRecord,
  WireLevel,
} from './market/types.js'

// The HTTP layer, for serving a market of your own
export {
  createSimulatorServer,
  type SimulatorServerOptions,
} from './server/create-simulator-server.js'
export { EXTRA_FIELD } from './server/extra-fields.js'

// Faults
export { checkFaultSpec, type FaultSpec } from './server/fault-spec.js'
export { type FaultStats, Faults, type FaultsOptions } from './server/faults.js'
export { stopSimulatorServer } from './server/stop-simulator-server.js'
// Starting a simulator
export {
  type Simulator,
  type SimulatorClock,
  type SimulatorOptions,
  startSimulator,
} from './start-simulator.js'
