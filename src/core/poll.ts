import { AsyncLocalStorage } from 'node:async_hooks'
import {
  asyncScheduler,
  defer,
  Observable,
  type ObservableInput,
  race,
  repeat,
  type SchedulerLike,
  Subject,
  timer,
} from 'rxjs'
import { VenueInputError } from '../errors/venue-input-error.js'
import { requestWith, SignalReuse } from './from-request.js'
import type { PollPace } from './poll-pacer.js'

/**
 * Settings of {@link poll}.
 *
 * @example
 * ```ts
 * import { type PollOptions, poll } from 'venue-rx/operators'
 *
 * const options: PollOptions = { intervalMs: 60_000 }
 * poll((signal) => venue.rest.systemInfo({ signal }), options)
 *   .subscribe((info) => console.log(info.version))
 * ```
 */
export interface PollOptions {
  /**
   * Time between requests, in ms: from the end of one to the start of the next (default),
   * or from the start of one to the start of the next with `measureFrom: 'start'`. Not
   * used with `pace`.
   */
  readonly intervalMs?: number
  /**
   * Decides when each next request starts instead of `intervalMs` (a venue's pacer, which
   * spends its request budget where the market moves): the next request starts when
   * `pace.turn()` emits after an answer, and `pace.started()` is called as each starts.
   */
  readonly pace?: PollPace
  /**
   * `'end'` (default): the pause starts when an answer arrives, so a slow answer spaces the
   * requests out. `'start'`: requests start `intervalMs` apart whatever the answers take
   * (the next one at once when an answer took longer), so a slow venue costs no polls.
   * Requests never overlap either way.
   */
  readonly measureFrom?: 'end' | 'start'
  /**
   * Each emission asks for a request at once: it ends the pause under way, or, during a
   * request, makes the next one follow it without a pause (what it was woken for may have
   * come after that request was answered).
   */
  readonly wake?: Observable<unknown>
  /** Scheduler of the pause (tests pass a TestScheduler; default: asyncScheduler). */
  readonly scheduler?: SchedulerLike
}

/**
 * Polls: the first request at once, the next one `intervalMs` after the previous one
 * completed (or started, with `measureFrom: 'start'`), so requests never overlap. Emits each answer. An error ends the
 * Observable (compose {@link retryBackoff} to go on); unsubscribing aborts the request
 * in flight.
 *
 * @example
 * ```ts
 * poll((signal) => venue.rest.ping({ signal }), { intervalMs: 1000 })
 * // answer at 0 ms, then each answer arrives 1000 ms after the previous one came back
 * ```
 */
export function poll<T>(
  request: (signal: AbortSignal) => ObservableInput<T>,
  options: PollOptions,
): Observable<T> {
  return pollWith(request, options, false)
}

/**
 * {@link poll}; with `reuseSignals`, the requests of a subscription share one
 * `AbortController` while none of them is aborted (see `SignalReuse`): for venue-rx's own
 * request functions, which keep no hold on a signal after their answer.
 */
export function pollWith<T>(
  request: (signal: AbortSignal) => ObservableInput<T>,
  options: PollOptions,
  reuseSignals: boolean,
): Observable<T> {
  const { intervalMs, scheduler, measureFrom = 'end', wake, pace } = options
  if (pace === undefined && !(typeof intervalMs === 'number' && intervalMs >= 0)) {
    throw new VenueInputError('intervalMs', 'poll: intervalMs must be a number >= 0 (or give pace)')
  }
  const clock = scheduler ?? asyncScheduler
  return new Observable<T>((subscriber) => {
    // Every request runs in the async context of the subscription (tracing, metrics per
    // caller), also one that another stream's wake started.
    const inContext = AsyncLocalStorage.snapshot()
    const reuse = reuseSignals ? new SignalReuse() : undefined
    let startedAt = 0
    let woken = false
    const kicks = new Subject<void>()
    const wakes = wake?.subscribe(() => {
      woken = true
      kicks.next()
    })
    const polls = defer(() => {
      startedAt = clock.now()
      woken = false
      pace?.started()
      // Subscribed (the request sent) inside the subscription's context.
      return new Observable<T>((each) =>
        inContext(() => requestWith(request, reuse).subscribe(each)),
      )
    })
      .pipe(
        repeat({
          delay: () => {
            if (woken) return timer(0, scheduler as SchedulerLike)
            const spent = measureFrom === 'start' ? clock.now() - startedAt : 0
            const pause =
              pace?.turn() ??
              timer(Math.max(0, (intervalMs as number) - spent), scheduler as SchedulerLike)
            // The pause or a wake, whichever comes first.
            return wake === undefined ? pause : race(pause, kicks)
          },
        }),
      )
      .subscribe(subscriber)
    return () => {
      wakes?.unsubscribe()
      polls.unsubscribe()
    }
  })
}
