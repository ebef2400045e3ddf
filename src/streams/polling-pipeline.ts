import { map, type Observable, type OperatorFunction, tap } from 'rxjs'
import { poll } from '../core/poll.js'
import { type RetryBackoffOptions, retryBackoff } from '../core/retry-backoff.js'
import type { RestClient } from '../rest/index.js'
import type { StreamContext } from './stream-context.js'

/** One answer of a polled stream, and whether it is the first one after a failure. */
export interface Polled<T> {
  readonly value: T
  /** True for the first answer after one or more retries (a book then resyncs). */
  readonly afterRecovery: boolean
}

/** Settings of {@link pollingPipeline}. */
export interface PollingPipelineSettings<T, R> {
  /** Bound on retries of the ambiguous 500 in a row (single-resource streams). */
  readonly maxAmbiguousRetries?: number | undefined
  /** Shapes the answers inside the shared part (diffs run once, not once per subscriber). */
  readonly shape: OperatorFunction<Polled<T>, R>
}

/**
 * The venue's retry settings for the stream `key`: its backoff, its scheduler, and every
 * retry reported to the health board (`retrying`, with the wait that really happens).
 * The cursor feeds, which page instead of polling, retry with these too.
 */
export function retrySettings(
  context: StreamContext,
  key: string,
  onRetry?: () => void,
): RetryBackoffOptions {
  const { backoff, health, scheduler } = context
  return {
    ...backoff,
    onRetry: ({ attempt, delayMs, error }) => {
      onRetry?.()
      health.retrying(key, attempt, delayMs, error)
    },
    ...(scheduler ? { scheduler } : {}),
  }
}

/**
 * The one pipeline of every polled stream of a venue (resources, balances, open orders,
 * public trades, depth): `fetch` polled every `pollIntervalMs` on the venue's scheduler,
 * each answer reported `ok` to the health board, failures retried with backoff and
 * reported `retrying`, answers shaped by `settings.shape`, and the result shared under
 * `key` by the venue's registry (one poller for every subscriber, the latest value
 * replayed, polling stopped `lingerMs` after the last one left, `failed` reported when a
 * failure is not retried).
 *
 * @example
 * ```ts
 * pollingPipeline(context, 'watchPools()', (rest, signal) => rest.pools(undefined, { signal }), {
 *   shape: pipe(map((polled) => polled.value), distinctUntilDeepChanged()),
 * })
 * ```
 */
export function pollingPipeline<T, R>(
  context: StreamContext,
  key: string,
  fetch: (rest: RestClient, signal: AbortSignal) => Promise<T>,
  settings: PollingPipelineSettings<T, R>,
): Observable<R> {
  const { registry, health, pollIntervalMs, scheduler } = context
  return registry.shared(
    key,
    () => {
      const rest = context.rest(key)
      let afterRecovery = false
      return poll((signal) => fetch(rest, signal), {
        intervalMs: pollIntervalMs,
        ...(scheduler ? { scheduler } : {}),
      }).pipe(
        tap(() => health.ok(key)),
        map((value): Polled<T> => {
          const polled = { value, afterRecovery }
          afterRecovery = false
          return polled
        }),
        retryBackoff<Polled<T>>({
          ...retrySettings(context, key, () => {
            afterRecovery = true
          }),
          ...(settings.maxAmbiguousRetries === undefined
            ? {}
            : { maxAmbiguousRetries: settings.maxAmbiguousRetries }),
        }),
        settings.shape,
      )
    },
    true,
  )
}
