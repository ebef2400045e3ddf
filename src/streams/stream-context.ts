import type { Observable, SchedulerLike } from 'rxjs'
import type { HealthBoard } from '../core/health.js'
import type { PollPacer } from '../core/poll-pacer.js'
import type { BackoffOptions } from '../core/retry-backoff.js'
import type { StreamRegistry } from '../core/stream-registry.js'
import type { RestClient } from '../rest/index.js'
import type { Nudges } from './nudges.js'
import type { VenueLookups } from './venue-lookups.js'

/** What every stream of one venue is built from. */
export interface StreamContext {
  /** A REST client whose requests are queued in `lane` of the request budget. */
  readonly rest: (lane: string) => RestClient
  readonly registry: StreamRegistry
  /** Emits once when the venue closes: streams outside the registry complete on it. */
  readonly closed: Observable<unknown>
  readonly health: HealthBoard
  readonly pollIntervalMs: number
  readonly backoff: Required<BackoffOptions>
  /** The settle window of the cursor feeds, ms (0: off). */
  readonly settleMs: number
  /** Look-ups of an order the venue does not answer for before it is called `unknown`. */
  readonly orderLookups: number
  /** How long `watchOrder` waits for the fills of an ended order, ms. */
  readonly fillGraceMs: number
  /** Answers the venue's streams share (account, clock offset, recent pages). */
  readonly lookups: VenueLookups
  /** What one stream sees that makes others poll at once (a new own trade: balances). */
  readonly nudges: Nudges
  /** When each polled stream polls next: the request budget spent where changes are. */
  readonly pacer: PollPacer
  /**
   * The venue's clock: every poll, retry, linger, look-up's age and timer of its streams
   * runs on it (the resolved `scheduler` option: the caller's, or `asyncScheduler`).
   */
  readonly scheduler: SchedulerLike
}
