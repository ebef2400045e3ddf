import type { Observable, SchedulerLike } from 'rxjs'
import type { HealthBoard } from '../core/health.js'
import type { BackoffOptions } from '../core/retry-backoff.js'
import type { StreamRegistry } from '../core/stream-registry.js'
import type { RestClient } from '../rest/index.js'

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
  /** Scheduler of polls and retries (tests); default asyncScheduler. */
  readonly scheduler?: SchedulerLike | undefined
}
