import {
  defer,
  type Observable,
  type ObservableInput,
  repeat,
  type SchedulerLike,
  timer,
} from 'rxjs'
import { fromRequest } from './from-request.js'

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
  /** Pause between the end of one request and the start of the next, in ms. */
  readonly intervalMs: number
  /** Scheduler of the pause (tests pass a TestScheduler; default: asyncScheduler). */
  readonly scheduler?: SchedulerLike
}

/**
 * Polls: the first request at once, the next one `intervalMs` after the previous one
 * completed, so requests never overlap. Emits each answer. An error ends the
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
  const { intervalMs, scheduler } = options
  return defer(() => fromRequest(request)).pipe(
    repeat({ delay: () => timer(intervalMs, scheduler as SchedulerLike) }),
  )
}
