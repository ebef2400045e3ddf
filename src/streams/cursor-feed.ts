import { concatMap, defer, from, type Observable, type ObservableInput, takeUntil } from 'rxjs'
import { reportEnd } from '../core/health.js'
import { type CursorProgress, paginateCursor } from '../core/paginate-cursor.js'
import type { RestClient } from '../rest/index.js'
import type { Checkpoint } from './checkpoint.js'
import { retrySettings } from './polling-pipeline.js'
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

let feeds = 0

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
 * A cursor feed on the venue: `paginateCursor` with the venue's budget, backoff and
 * health board, starting from the checkpoint (or `cursor`) and saving to it.
 * Each subscription runs its own feed (its own cursor); the health key gets `#n`.
 */
export function cursorFeed<T, C>(
  context: StreamContext,
  spec: CursorFeedSpec<T, C>,
  options: CursorFeedOptions<C>,
): Observable<T> {
  const { health, pollIntervalMs, scheduler } = context
  return defer(() => {
    const key = `${spec.key}#${++feeds}`
    const rest = context.rest(key)
    return from(Promise.resolve(options.checkpoint?.load())).pipe(
      concatMap((saved) =>
        paginateCursor<T, C>({
          start: saved === undefined ? options.cursor : spec.checkCursor(saved),
          fetchPage: (cursor, signal) => spec.fetchPage(rest, cursor, signal),
          cursorOf: spec.cursorOf,
          compare: spec.compare,
          pageSize: spec.pageSize,
          intervalMs: pollIntervalMs,
          save:
            options.checkpoint === undefined
              ? undefined
              : (cursor) => options.checkpoint?.save(cursor),
          retry: retrySettings(context, key),
          onProgress: (progress) => {
            health.ok(key)
            options.onProgress?.(progress)
          },
          scheduler,
        }),
      ),
      // The venue closing ends the feed (it completes; it is not an error).
      takeUntil(context.closed),
      reportEnd(health, key),
    )
  })
}
