/**
 * venue-rx: the spot venue's polling REST interface as typed calls and RxJS streams.
 *
 * What a bot uses: `createVenue`, the streams' event and resource types, the errors,
 * the order book, checkpoints and exact-decimal helpers. Building blocks for streams of
 * your own are in `venue-rx/operators`, the zod schemas in `venue-rx/schemas`, the
 * local venue in `venue-rx/simulator`.
 *
 * @packageDocumentation
 */

// Order book
export { applyBookEvent } from './book/apply-book-event.js'
export type {
  BookDelta,
  BookEvent,
  BookSide,
  BookSnapshot,
  Level as BookLevel,
} from './book/book-event.js'
export { type FillEstimate, OrderBook } from './book/order-book.js'
export { type CursorPosition, isCursorPosition } from './core/cursor-position.js'
export type { HealthReport, StreamHealth } from './core/health.js'
export type { CursorProgress } from './core/paginate-cursor.js'
export type {
  FreshnessReport,
  Pacing,
  StreamFreshness,
  StreamPriority,
} from './core/poll-pacer.js'
export {
  type OverflowPolicy,
  type ToAsyncIterableOptions,
  toAsyncIterable,
} from './core/to-async-iterable.js'
// Exact decimals and ids
export {
  addDecimal,
  compareDecimal,
  compareIds,
  divideDecimal,
  halfDecimal,
  isDecimal,
  isZeroDecimal,
  multiplyDecimal,
  normalizeDecimal,
  subtractDecimal,
} from './decimal.js'
// Errors
export {
  VenueAbortError,
  VenueApiError,
  VenueAuthError,
  type VenueAuthReason,
  VenueError,
  type VenueErrorOptions,
  VenueInputError,
  VenueJournalError,
  type VenueJournalProblem,
  VenueNetworkError,
  VenueNotFoundError,
  VenueRateLimitError,
  VenueRejectedError,
  VenueRelayError,
  VenueResponseError,
  type VenueResponseInfo,
  type VenueResponseIssue,
  type VenueResponseProblem,
  VenueServerError,
  VenueTimeoutError,
} from './errors/index.js'
export type {
  BackoffOptions,
  MarketDataSource,
  RecordSettings,
  RelayReaderSettings,
  RelaySettings,
  ReplaySettings,
  ReplaySpeed,
  ReplayVenueOptions,
  SharedBudgetSettings,
  VenueOptions,
} from './options.js'
// REST
export type {
  CallOptions,
  DepthArgs,
  KlinesArgs,
  LatestTradesArgs,
  OrderRef,
  OrdersArgs,
  ParamNames,
  ParamNamesOverride,
  PoolsArgs,
  RestClient,
  RestMethodName,
  SortDirection,
  SourceArg,
  TradesArgs,
  TransfersArgs,
} from './rest/index.js'
export { DEFAULT_PARAM_NAMES } from './rest/index.js'
// Resources as the venue sends them (types), and the codes they carry
export type {
  AccountInfo,
  Balance,
  BalanceLock,
  Depth,
  Kline,
  KlineInterval,
  Level,
  OpenOrder,
  Order,
  OrderWithTrades,
  Ping,
  PoolDetail,
  PoolSummary,
  PublicTrade,
  SystemInfo,
  Token,
  TokenChain,
  TokenInfo,
  TokenLink,
  TradeDetail,
  Transfer,
} from './schemas/index.js'
export { KLINE_INTERVALS, OrderSide, OrderStatus, OrderType, PoolStatus } from './schemas/index.js'
// Exactly-once feeds: where they keep their place
export {
  type Checkpoint,
  type FileCheckpointOptions,
  fileCheckpoint,
  memoryCheckpoint,
} from './streams/checkpoint.js'
export type { CursorFeedOptions, FeedItem } from './streams/cursor-feed.js'
export type { Fill } from './streams/fills.js'
export type { OrderEndStatus } from './streams/order-life.js'
export type { OrderOutcome } from './streams/order-outcome.js'
// Streams and their events
export type { BalanceChange, BalancesOptions, BalancesUpdate } from './streams/watch-balances.js'
export type { DepthStreamOptions } from './streams/watch-depth.js'
export type { FillsOptions } from './streams/watch-fills.js'
export type { KlineEvent, KlinesStreamOptions } from './streams/watch-klines.js'
export type { MyTradesOptions } from './streams/watch-my-trades.js'
export type { OpenOrderEvent } from './streams/watch-open-orders.js'
export type {
  OrderEvent,
  OrderProgress,
  WatchOrderOptions,
  WatchOrderRef,
} from './streams/watch-order.js'
export type { PublicTradeEvent, PublicTradesOptions } from './streams/watch-trades.js'
export type { TransfersFeedOptions } from './streams/watch-transfers.js'
export type { VenueDispatcher } from './transport/undici-transport.js'
// The venue
export { createVenue, type Venue, type VenueSettings } from './venue.js'
