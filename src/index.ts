/**
 * venue-rx: the spot venue's polling REST interface as typed calls and RxJS streams.
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
export { distinctUntilDeepChanged } from './core/distinct-until-deep-changed.js'
// Operators (the polling core, for streams of your own)
export { fromRequest } from './core/from-request.js'
export type { HealthReport, StreamHealth } from './core/health.js'
export { diffByKey, isEmptyDiff, type KeyedDiff, keyedDiff } from './core/keyed-diff.js'
export { newInWindow } from './core/new-in-window.js'
export {
  type CursorProgress,
  type PaginateCursorOptions,
  paginateCursor,
} from './core/paginate-cursor.js'
export { type PollOptions, poll } from './core/poll.js'
export {
  backoffDelay,
  type RetryBackoffOptions,
  type RetryNotice,
  retryBackoff,
} from './core/retry-backoff.js'
// Exact decimals
export {
  addDecimal,
  compareDecimal,
  compareIds,
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
  VenueNetworkError,
  VenueNotFoundError,
  VenueRateLimitError,
  VenueRejectedError,
  VenueResponseError,
  type VenueResponseInfo,
  type VenueResponseIssue,
  type VenueResponseProblem,
  VenueServerError,
  VenueTimeoutError,
} from './errors/index.js'
export type { BackoffOptions, MarketDataSource, VenueOptions } from './options.js'
// REST
export type {
  CallOptions,
  DepthArgs,
  KlinesArgs,
  LatestTradesArgs,
  OrderRef,
  OrdersArgs,
  PoolsArgs,
  RestClient,
  SortDirection,
  SourceArg,
  TradesArgs,
  TransfersArgs,
} from './rest/index.js'
export {
  DEFAULT_PARAM_NAMES,
  ENDPOINTS,
  type Endpoint,
  type EndpointGroup,
  type ParamNames,
  type ParamNamesOverride,
  type RestMethodName,
} from './rest/index.js'
// Resources: schemas and the types inferred from them
export * from './schemas/index.js'
// Exactly-once feeds
export {
  type Checkpoint,
  type FileCheckpointOptions,
  fileCheckpoint,
  memoryCheckpoint,
} from './streams/checkpoint.js'
export type { CursorFeedOptions } from './streams/cursor-feed.js'
export { streamKey } from './streams/stream-key.js'
// Streams
export type { BalanceChange, BalancesUpdate } from './streams/watch-balances.js'
export type { DepthStreamOptions } from './streams/watch-depth.js'
export type { MyTradesOptions } from './streams/watch-my-trades.js'
export type { OpenOrderEvent } from './streams/watch-open-orders.js'
export type { PublicTradeEvent, PublicTradesOptions } from './streams/watch-trades.js'
export type { TransfersFeedOptions } from './streams/watch-transfers.js'
export type { VenueDispatcher } from './transport/undici-transport.js'
// The venue
export { createVenue, type Venue, type VenueSettings } from './venue.js'
