import { concatMap, from, type Observable, type ObservableInput } from 'rxjs'
import { type CursorProgress, paginateCursor } from '../core/paginate-cursor.js'
import type { RestClient } from '../rest/index.js'
import type { Checkpoint } from './checkpoint.js'
import { pollingPipeline } from './polling-pipeline.js'
import type { StreamContext } from './stream-context.js'
import { checkpointOption, onProgressOption, streamOptions } from './stream-options.js'

/** Options every cursor feed takes. */
export interface CursorFeedOptions<C> {
  /** Start after this cursor (exclusive). Ignored when `checkpoint` holds a saved cursor. */
  readonly cursor?: C | undefined
  /** Loaded at start, saved after each delivered item. */
  readonly checkpoint?: Checkpoint<C> | undefined
  /** Called after every page: phase, pages, items, cursor (for progress bars). */
  readonly onProgress?: ((progress: CursorProgress<C>) => void) | undefined
}

/** What a concrete feed supplies. */
export interface CursorFeedSpec<T, C> {
  /** Stream key, for the health board and the request-budget lane. */
  readonly key: string
  readonly pageSize: number
  readonly fetchPage: (
    rest: RestClient,
    cursor: C | undefined,
    signal: AbortSignal,
  ) => ObservableInput<readonly T[]>
  readonly cursorOf: (item: T) => C
  readonly compare: (a: C, b: C) => number
  /** Rejects a cursor of the wrong form (e.g. loaded from another feed's checkpoint). */
  readonly checkCursor: (cursor: unknown) => C
}

/**
 * Checks the options object of a cursor feed at the call: only `cursor`, `checkpoint`,
 * `onProgress` and the feed's own `extra` names, a checkpoint with `load` and `save`, a
 * function for `onProgress`. The cursor itself is the feed's to check.
 */
export function feedOptions(
  method: string,
  options: unknown,
  extra: readonly string[],
): Record<string, unknown> {
  const given = streamOptions(method, options, ['cursor', 'checkpoint', 'onProgress', ...extra])
  checkpointOption(method, given['checkpoint'])
  onProgressOption(method, given['onProgress'])
  return given
}

/**
 * A cursor feed on the venue: `paginateCursor` run by the {@link pollingPipeline} (the
 * venue's budget, backoff, health board and close), starting from the checkpoint (or
 * `cursor`) and saving to it. Each subscription runs its own feed (its own cursor); its
 * health key gets `#n`.
 */
export function cursorFeed<T, C>(
  context: StreamContext,
  spec: CursorFeedSpec<T, C>,
  options: CursorFeedOptions<C>,
): Observable<T> {
  return pollingPipeline<T>(
    context,
    spec.key,
    (lane) =>
      from(Promise.resolve(options.checkpoint?.load())).pipe(
        concatMap((saved) =>
          paginateCursor<T, C>({
            start: saved === undefined ? options.cursor : spec.checkCursor(saved),
            fetchPage: (cursor, signal) => spec.fetchPage(lane.rest, cursor, signal),
            cursorOf: spec.cursorOf,
            compare: spec.compare,
            pageSize: spec.pageSize,
            intervalMs: lane.intervalMs,
            save:
              options.checkpoint === undefined
                ? undefined
                : (cursor) => options.checkpoint?.save(cursor),
            retry: lane.retry(),
            onProgress: (progress) => {
              lane.ok()
              options.onProgress?.(progress)
            },
            scheduler: lane.scheduler,
          }),
        ),
      ),
    { sharing: 'own' },
  )
}
