import equal from 'fast-deep-equal'
import {
  catchError,
  defer,
  EMPTY,
  finalize,
  map,
  merge,
  Observable,
  type OperatorFunction,
  type SchedulerLike,
  takeUntil,
  throwError,
} from 'rxjs'
import { reportEnd } from '../core/health.js'
import { pollWith } from '../core/poll.js'
import type { PacedStream, StreamPriority } from '../core/poll-pacer.js'
import { type RetryBackoffOptions, retryBackoff } from '../core/retry-backoff.js'
import { VenueJournalError } from '../errors/venue-journal-error.js'
import type { RestClient } from '../rest/index.js'
import type { StreamContext } from './stream-context.js'

/** One answer of a polled stream, and whether it is the first one after a failure. */
export interface Polled<T> {
  readonly value: T
  /** True for the first answer after one or more retries (a book then resyncs). */
  readonly afterRecovery: boolean
  /**
   * Whether the answer changed since the previous one of the run (true for the first), by
   * the source's `changes` test: deep equality unless it has its own.
   */
  readonly changed: boolean
}

/**
 * The events one poll of a stream gave one subscriber, together: `initial` on the first
 * batch of the subscription (what the stream knew when it joined, e.g. every open order),
 * so that a consumer can tell it from what changed later without relying on when the
 * events arrive. A batch may be empty (a poll that changed nothing it reports).
 */
export interface PollBatch<T> {
  readonly initial: boolean
  readonly events: readonly T[]
}

/**
 * What {@link streamPipeline} hands the source of one run of a stream: a REST client in
 * the stream's lane of the request budget, its pacing and the venue's clock, its retry
 * settings wired to the health board, and the call that reports an answer.
 */
export interface StreamLane {
  /** The health key of this run (`watchMyTrades()#3` for a feed of its own). */
  readonly key: string
  readonly rest: RestClient
  readonly scheduler: SchedulerLike
  /** The venue's backoff; each retry reported `retrying` (with its real wait), then `onRetry`. */
  readonly retry: (onRetry?: () => void) => RetryBackoffOptions
  /** Reports the stream `ok` (an answer arrived). */
  readonly ok: () => void
  /**
   * When this run polls next (the venue's pacer): a polling source passes it to `poll` or
   * `paginateCursor` as `pace`, and reports each answer's changes with `pace.observed`.
   */
  readonly pace: PacedStream
}

/**
 * Where a stream's values come from, given its lane: polling the venue, or following a
 * relay. Everything else (registry, sharing, linger, health, retry settings, the clock)
 * is the pipeline's.
 *
 * @example
 * ```ts
 * const pools: StreamSource<Polled<PoolSummary[]>> = pollAnswers((rest, signal) =>
 *   rest.pools(undefined, { signal }),
 * )
 * ```
 */
export type StreamSource<T> = (lane: StreamLane) => Observable<T>

/** Settings of {@link streamPipeline}. */
export interface StreamPipelineSettings<T, R> {
  /** Shapes the source's values before sharing (diffs run once, not once per subscriber). */
  readonly shape?: OperatorFunction<T, R>
  /**
   * `shared` (default): one run for every subscriber of `key`, the latest value replayed,
   * stopped `lingerMs` after the last one left. `own`: each subscription runs its own
   * source (a cursor feed starting from its own checkpoint), reported under `key#n`.
   */
  readonly sharing?: 'shared' | 'own'
  /** The share of the request budget this subscriber asks for (shared runs). */
  readonly priority?: StreamPriority | undefined
  /** The stream's priority when no subscriber asks for one. Default `'normal'`. */
  readonly defaultPriority?: StreamPriority | undefined
}

let ownRuns = 0

/**
 * The health key of one subscription's own run of a stream: `key#n`, `n` counting every
 * such run of the process (a feed's own backfill, a `watchOrder`).
 *
 * @example
 * ```ts
 * ownRunKey('watchMyTrades()') // 'watchMyTrades()#3'
 * ```
 */
export function ownRunKey(key: string): string {
  ownRuns += 1
  return `${key}#${ownRuns}`
}

/**
 * The one pipeline of a venue's streams, whatever their source: polled resources,
 * balances, open orders, public trades, depth, candles and the cursor feeds polling the
 * venue, and every relayed stream following Redis (`followRelay`). `watchOrder` builds on
 * the open orders and the fills feed, and reports its own look-ups the same way. It owns
 * what they have in common:
 *
 * - the stream's lane (its share of the request budget);
 * - retry settings (the venue's backoff and scheduler) with every retry reported to the
 *   health board as `retrying`, every answer as `ok`, and the end as gone or `failed`;
 * - completion when the venue closes;
 * - sharing: one run per key for every subscriber (`shared`, kept `lingerMs` after the
 *   last one left) or one per subscription (`own`, reported under `key#n`).
 *
 * The {@link StreamSource} builds the run from its lane: {@link pollAnswers} for a
 * resource polled every `pollIntervalMs`, `paginateCursor` for a feed, a Redis reader for
 * a relayed stream.
 *
 * @example
 * ```ts
 * streamPipeline(context, 'watchPools()', pollAnswers((rest, signal) => rest.pools(undefined, { signal })), {
 *   shape: pipe(map((polled) => polled.value), distinctUntilDeepChanged()),
 * })
 * ```
 */
export function streamPipeline<T, R = T>(
  context: StreamContext,
  key: string,
  source: StreamSource<T>,
  settings: StreamPipelineSettings<T, R> = {},
): Observable<R> {
  const { registry, health, closed } = context
  const shape = settings.shape ?? ((values: Observable<T>) => values as unknown as Observable<R>)
  const run = (runKey: string) =>
    defer(() => {
      let live = true
      const lane = laneOf(context, runKey, settings.defaultPriority, () => live)
      return source(lane).pipe(
        endOfRecording,
        shape,
        finalize(() => {
          live = false
          lane.pace.leave()
        }),
      )
    })
  if (settings.sharing === 'own') {
    return defer(() => {
      const runKey = ownRunKey(key)
      // The venue closing ends the run: it completes, it is not an error.
      return run(runKey).pipe(takeUntil(closed), reportEnd(health, runKey))
    })
  }
  // The registry completes shared runs on close and reports their end itself.
  const shared = registry.shared(key, () => run(key))
  const { priority } = settings
  if (priority === undefined) return shared
  return defer(() => {
    const release = context.pacer.prefer(key, priority)
    return shared.pipe(finalize(release))
  })
}

/**
 * A replayed stream whose next request has no recorded answer left completes: the
 * recording ended there (an error would say the stream failed).
 */
function endOfRecording<T>(values: Observable<T>): Observable<T> {
  return values.pipe(
    catchError((error: unknown) =>
      error instanceof VenueJournalError && error.problem === 'exhausted'
        ? EMPTY
        : throwError(() => error),
    ),
  )
}

/**
 * The lane of one run. Its reports reach the health board only while the run is `live`:
 * an answer that comes back after the run ended (a request or a Redis read still out when
 * the last subscriber left) must not bring back the entry its end removed.
 */
function laneOf(
  context: StreamContext,
  key: string,
  priority: StreamPriority | undefined,
  live: () => boolean,
): StreamLane {
  const { backoff, health, scheduler } = context
  return {
    key,
    rest: context.rest(key),
    scheduler,
    retry: (onRetry) => ({
      ...backoff,
      onRetry: ({ attempt, delayMs, error }) => {
        if (live()) health.retrying(key, attempt, delayMs, error)
        onRetry?.()
      },
      scheduler,
    }),
    ok: () => {
      if (live()) health.ok(key)
    },
    pace: context.pacer.join(key, priority),
  }
}

/** Settings of {@link pollAnswers}. */
export interface PollAnswersOptions<T> {
  /** Bound on the retries of the venue's ambiguous 500 in a row (single-resource streams). */
  readonly maxAmbiguousRetries?: number | undefined
  /** Each emission polls at once (what another stream saw: a new own trade for balances). */
  readonly wake?: Observable<unknown> | undefined
  /**
   * Each emission gives this stream the next turn of the budget (a new public trade for the
   * pool's book); with `pacing: 'interval'`, polls at once like `wake`.
   */
  readonly hurry?: Observable<unknown> | undefined
  /**
   * How many changes an answer shows against the previous one, for the pacer's change
   * rate, or (a boolean) whether it changed at all. Default: whether it is not deep-equal
   * to the previous answer.
   */
  readonly changes?: ((previous: T, value: T) => number | boolean) | undefined
}

/**
 * The source of a polled stream: `fetch` at each turn the venue's pacer gives it (with
 * `pacing: 'interval'`, every `pollIntervalMs` from the start of the last poll), each
 * answer reported `ok` and its changes to the pacer, a failure retried with the venue's
 * backoff; the first answer after a retry is marked `afterRecovery`.
 *
 * @example
 * ```ts
 * pollAnswers((rest, signal) => rest.balances({ signal }), { wake: nudges.on('account') })
 * ```
 */
export function pollAnswers<T>(
  fetch: (rest: RestClient, signal: AbortSignal) => Promise<T>,
  options: PollAnswersOptions<T> = {},
): StreamSource<Polled<T>> {
  const { maxAmbiguousRetries, hurry, changes = (a: T, b: T) => !equal(a, b) } = options
  return (lane) => {
    const interval = lane.pace.pacing === 'interval'
    // Interval pacing has no queue to move forward in: a hurry polls at once.
    const wakes = [options.wake, interval ? hurry : undefined].filter(
      (wake): wake is Observable<unknown> => wake !== undefined,
    )
    const wake = wakes.length === 0 ? undefined : merge(...wakes)
    let afterRecovery = false
    let last: { readonly value: T } | undefined
    // Our own fetches keep no hold on the signal after their answer: one controller serves
    // the polls of a subscription until one is aborted.
    const answers = pollWith(
      (signal) => fetch(lane.rest, signal),
      {
        pace: lane.pace,
        ...(wake === undefined ? {} : { wake }),
        scheduler: lane.scheduler,
      },
      true,
    ).pipe(
      map((value): Polled<T> => {
        lane.ok()
        const seen = last === undefined ? true : changes(last.value, value)
        lane.pace.observed(seen)
        last = { value }
        const polled = { value, afterRecovery, changed: seen !== false && seen !== 0 }
        afterRecovery = false
        return polled
      }),
      retryBackoff<Polled<T>>({
        ...lane.retry(() => {
          afterRecovery = true
        }),
        ...(maxAmbiguousRetries === undefined ? {} : { maxAmbiguousRetries }),
      }),
    )
    if (interval || hurry === undefined) return answers
    // While the run lasts, what it is hurried by gives it the next turn.
    return new Observable<Polled<T>>((subscriber) => {
      const hurried = hurry.subscribe(() => lane.pace.hurry())
      const run = answers.subscribe(subscriber)
      return () => {
        hurried.unsubscribe()
        run.unsubscribe()
      }
    })
  }
}
