import { defer, filter, map, type Observable, tap } from 'rxjs'
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
  /**
   * How many changes an answer shows against the previous one (for the pacing), or whether
   * it changed: the stream emits an answer only when this is not 0 or false. Default:
   * whether it is not deep-equal to the previous answer.
   */
  readonly changes?: ((previous: T, value: T) => number | boolean) | undefined
  /** Called once per change after the first value (in the shared poller, not per subscriber). */
  readonly onChange?: (value: T) => void
  /** This subscriber's weight in the venue's pacing. */
  readonly priority?: StreamPriority | undefined
}

/**
 * A state stream: the {@link streamPipeline} emitting the resource only when it
 * deep-changed, or changed by the stream's own `changes` test (the comparison runs once
 * per answer, before sharing).
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
          // The poll compared each answer with the last for the pacer already (deep
          // equality, or the stream's own test): its verdict is the filter.
          filter((polled) => polled.changed),
          map((polled) => polled.value),
          tap((value) => {
            if (first) first = false
            else options.onChange?.(value)
          }),
        )
      }),
    priority: options.priority,
  })
}
