export type { VenueResponseInfo } from './http-error-options.js'
export { VenueAbortError } from './venue-abort-error.js'
export { VenueApiError } from './venue-api-error.js'
export { VenueAuthError, type VenueAuthReason } from './venue-auth-error.js'
export { VenueError, type VenueErrorOptions } from './venue-error.js'
export { VenueInputError } from './venue-input-error.js'
export { VenueJournalError, type VenueJournalProblem } from './venue-journal-error.js'
export { VenueNetworkError } from './venue-network-error.js'
export { VenueNotFoundError } from './venue-not-found-error.js'
export { VenueRateLimitError } from './venue-rate-limit-error.js'
export { VenueRejectedError } from './venue-rejected-error.js'
export { VenueRelayError } from './venue-relay-error.js'
export {
  VenueResponseError,
  type VenueResponseIssue,
  type VenueResponseProblem,
} from './venue-response-error.js'
export { VenueServerError } from './venue-server-error.js'
export { VenueTimeoutError } from './venue-timeout-error.js'
