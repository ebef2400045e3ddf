import { map, type Observable, pipe } from 'rxjs'
import { distinctUntilDeepChanged } from '../core/distinct-until-deep-changed.js'
import type { RestClient } from '../rest/index.js'
import { pollAnswers, pollingPipeline } from './polling-pipeline.js'
import type { StreamContext } from './stream-context.js'

/** Settings of {@link polledResource}. */
export interface PolledResourceOptions {
  /** Bound on retries of the ambiguous 500 (single-resource streams). */
  readonly maxAmbiguousRetries?: number
}

/**
 * A state stream: the {@link pollingPipeline} emitting the resource only when it
 * deep-changed (the comparison runs once per answer, before sharing).
 */
export function polledResource<T>(
  context: StreamContext,
  key: string,
  fetch: (rest: RestClient, signal: AbortSignal) => Promise<T>,
  options: PolledResourceOptions = {},
): Observable<T> {
  return pollingPipeline(context, key, pollAnswers(fetch, options.maxAmbiguousRetries), {
    shape: pipe(
      map((polled) => polled.value),
      distinctUntilDeepChanged(),
    ),
  })
}
