import { type Observable, tap } from 'rxjs'
import { distinctUntilDeepChanged } from '../core/distinct-until-deep-changed.js'
import { poll } from '../core/poll.js'
import { retryBackoff } from '../core/retry-backoff.js'
import type { RestClient } from '../rest/index.js'
import type { StreamContext } from './stream-context.js'

/** Settings of {@link polledResource}. */
export interface PolledResourceOptions {
  /** Bound on retries of the ambiguous 500 (single-resource streams). */
  readonly maxAmbiguousRetries?: number
}

/**
 * The poller behind every state stream: poll → retry with backoff (reporting to the
 * health board) → emit only on deep change → shared under `key` with replay of the
 * latest value.
 */
export function polledResource<T>(
  context: StreamContext,
  key: string,
  fetch: (rest: RestClient, signal: AbortSignal) => Promise<T>,
  options: PolledResourceOptions = {},
): Observable<T> {
  const { registry, health, pollIntervalMs, backoff, scheduler } = context
  return registry.shared(
    key,
    () => {
      const rest = context.rest(key)
      return poll((signal) => fetch(rest, signal), {
        intervalMs: pollIntervalMs,
        ...(scheduler ? { scheduler } : {}),
      }).pipe(
        tap(() => health.ok(key)),
        retryBackoff<T>({
          ...backoff,
          ...options,
          onRetry: ({ attempt, delayMs, error }) => health.retrying(key, attempt, delayMs, error),
          ...(scheduler ? { scheduler } : {}),
        }),
        distinctUntilDeepChanged(),
      )
    },
    true,
  )
}
