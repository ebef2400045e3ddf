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
  return new Observable<T>((subscriber) => {
    const controller = new AbortController()
    let settled = false
    const subscription = from(request(controller.signal)).subscribe({
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
