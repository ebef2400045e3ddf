import { map, type Observable, pipe } from 'rxjs'
import { distinctUntilDeepChanged } from '../core/distinct-until-deep-changed.js'
import type { RestClient } from '../rest/index.js'
import type { StreamContext } from './stream-context.js'
import { pollAnswers, streamPipeline } from './stream-pipeline.js'

/** Settings of {@link polledResource}. */
export interface PolledResourceOptions {
  /** Bound on retries of the ambiguous 500 (single-resource streams). */
  readonly maxAmbiguousRetries?: number
  /** Each emission asks for a poll at once (causal refresh). */
  readonly wake?: Observable<unknown>
}

/**
 * A state stream: the {@link streamPipeline} emitting the resource only when it
 * deep-changed (the comparison runs once per answer, before sharing).
 */
export function polledResource<T>(
  context: StreamContext,
  key: string,
  fetch: (rest: RestClient, signal: AbortSignal) => Promise<T>,
  options: PolledResourceOptions = {},
): Observable<T> {
  return streamPipeline(
    context,
    key,
    pollAnswers(fetch, options.maxAmbiguousRetries, options.wake),
    {
      shape: pipe(
        map((polled) => polled.value),
        distinctUntilDeepChanged(),
      ),
    },
  )
}
