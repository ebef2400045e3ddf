import { getEventListeners } from 'node:events'
import { from, Observable, type ObservableInput } from 'rxjs'

/**
 * Turns one request into a cold Observable: the request starts on subscribe, its value is
 * emitted and the Observable completes; unsubscribing while it is in flight aborts it
 * through the `AbortSignal` it was given (the transport then releases the socket).
 *
 * `request` may also return any ObservableInput (marble tests pass cold Observables).
 *
 * @example
 * ```ts
 * fromRequest((signal) => venue.rest.ping({ signal })).subscribe(console.log)
 * // { timestamp: 1700000000000 }
 * ```
 */
export function fromRequest<T>(
  request: (signal: AbortSignal) => ObservableInput<T>,
): Observable<T> {
  return requestWith(request, undefined)
}

/**
 * One `AbortController` for a series of requests made one after another (the polls of one
 * subscription): a request that settled leaves its controller here for the next, if the
 * signal never fired and nothing listens to it any more. Making a signal costs a
 * noticeable part of a poll (bench/stream-path.ts). Only for venue-rx's own request
 * functions, which hold no signal past their answer: a user's function might.
 */
export class SignalReuse {
  #spare: AbortController | undefined

  /** The spare controller, or a new one. */
  take(): AbortController {
    const spare = this.#spare
    if (spare === undefined) return new AbortController()
    this.#spare = undefined
    return spare
  }

  /** Keeps `controller` for the next request when it is as good as new. */
  give(controller: AbortController): void {
    const { signal } = controller
    if (!signal.aborted && getEventListeners(signal, 'abort').length === 0) {
      this.#spare = controller
    }
  }
}

/** {@link fromRequest}, its controller taken from `reuse` and given back once settled. */
export function requestWith<T>(
  request: (signal: AbortSignal) => ObservableInput<T>,
  reuse: SignalReuse | undefined,
): Observable<T> {
  return new Observable<T>((subscriber) => {
    const controller = reuse === undefined ? new AbortController() : reuse.take()
    let settled = false
    const answer = request(controller.signal)
    if (isPromiseLike(answer)) {
      // The usual case, a promise, followed directly (no inner Observable per request).
      answer
        .then(
          (value) => {
            settled = true
            reuse?.give(controller)
            if (subscriber.closed) return
            subscriber.next(value)
            subscriber.complete()
          },
          (error: unknown) => {
            settled = true
            reuse?.give(controller)
            if (!subscriber.closed) subscriber.error(error)
          },
        )
        // A subscriber that throws is reported as rxjs reports it, never left unhandled.
        .then(undefined, reportLater)
      return () => {
        if (!settled) controller.abort()
      }
    }
    const subscription = from(answer).subscribe({
      next: (value) => {
        // A request answers once: after its value there is nothing left to abort.
        settled = true
        subscriber.next(value)
      },
      error: (error: unknown) => {
        settled = true
        subscriber.error(error)
      },
      complete: () => {
        settled = true
        subscriber.complete()
      },
    })
    return () => {
      subscription.unsubscribe()
      // Only a request still in flight needs aborting.
      if (!settled) controller.abort()
    }
  })
}

/** Throws `error` on a later turn, where the process's uncaught-error handling sees it. */
function reportLater(error: unknown): void {
  setTimeout(() => {
    throw error
  })
}

function isPromiseLike<T>(value: ObservableInput<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown }).then === 'function'
}
