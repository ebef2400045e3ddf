/**
 * `venue-rx/operators`: the building blocks the venue's streams are made of, for streams
 * of your own. Each is a plain RxJS operator or source with no venue attached.
 *
 * @packageDocumentation
 */

export { type CursorPosition, isCursorPosition } from './core/cursor-position.js'
export { distinctUntilDeepChanged } from './core/distinct-until-deep-changed.js'
export { fromRequest } from './core/from-request.js'
export { diffByKey, isEmptyDiff, type KeyedDiff, keyedDiff } from './core/keyed-diff.js'
export { newInWindow } from './core/new-in-window.js'
export {
  type CursorProgress,
  MAX_ABOVE,
  type PaginateCursorOptions,
  paginateCursor,
} from './core/paginate-cursor.js'
export { type PollOptions, poll } from './core/poll.js'
export type { PollPace } from './core/poll-pacer.js'
export { type RetryBackoffOptions, type RetryNotice, retryBackoff } from './core/retry-backoff.js'
