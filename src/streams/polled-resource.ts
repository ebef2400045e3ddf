import { defer, filter, map, type Observable, pipe, tap } from 'rxjs'
import { distinctUntilDeepChanged } from '../core/distinct-until-deep-changed.js'
import type { StreamPriority } from '../core/poll-pacer.js'
import type { RestClient } from '../rest/index.js'
import type { StreamContext } from './stream-context.js'
import { pollAnswers, streamPipeline } from './stream-pipeline.js'

/** Settings of {@link polledResource}. */
export interface PolledResourceOptions<T = unknown> {
  /** Bound on retries of the ambiguous 500 (single-resource streams). */
  readonly maxAmbiguousRetries?: number
  /** Each emission asks for a poll at once (causal refresh). */
  readonly wake?: Observable<unknown>
  /** Changes an answer shows against the previous one, for the pacing (default 0 or 1). */
  readonly changes?: ((previous: T, value: T) => number | boolean) | undefined
  /** Called once per change after the first value (in the shared poller, not per subscriber). */
  readonly onChange?: (value: T) => void
  /** This subscriber's weight in the venue's pacing. */
  readonly priority?: StreamPriority | undefined
}

/**
 * A state stream: the {@link streamPipeline} emitting the resource only when it
 * deep-changed (the comparison runs once per answer, before sharing).
 */
export function polledResource<T>(
  context: StreamContext,
  key: string,
  fetch: (rest: RestClient, signal: AbortSignal) => Promise<T>,
  options: PolledResourceOptions<T> = {},
): Observable<T> {
  return streamPipeline(context, key, pollAnswers(fetch, options), {
    shape: (polls) =>
      defer(() => {
        // Per run of the shared poller: its first value is where it starts, not a change.
        let first = true
        return polls.pipe(
          // The poll compared each answer with the last (deep equality) for the pacer
          // already: its verdict is the filter. A stream with its own change test (public
          // trades count trades) is compared here.
          options.changes === undefined
            ? pipe(
                filter((polled) => polled.changed),
                map((polled) => polled.value),
              )
            : pipe(
                map((polled) => polled.value),
                distinctUntilDeepChanged(),
              ),
          tap((value) => {
            if (first) first = false
            else options.onChange?.(value)
          }),
        )
      }),
    priority: options.priority,
  })
}
