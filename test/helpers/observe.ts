/** Watching observables in tests: the first matching value, and subscriptions that keep values. */
import {
  filter,
  firstValueFrom,
  type Observable,
  Subject,
  type Subscription,
  startWith,
  timeout,
} from 'rxjs'
import type { HealthReport, Venue } from '../../src/index.js'
import { onCleanup } from './cleanups.js'
import { WAIT_MS } from './wait-for.js'

/** The first value of `source` that passes `predicate`, within `ms`. */
export function firstMatch<T>(
  source: Observable<T>,
  predicate: (value: T) => boolean,
  ms = WAIT_MS,
): Promise<T> {
  return firstValueFrom(source.pipe(filter(predicate), timeout({ first: ms })))
}

/** The first health report of `venue` that passes `predicate`, within `ms`. */
export function healthWhere(
  venue: Venue,
  predicate: (report: HealthReport) => boolean,
  ms = WAIT_MS,
): Promise<HealthReport> {
  return firstMatch(venue.health, predicate, ms)
}

/** A subscription that keeps every value, and lets a test wait for the n-th one. */
export class Collected<T> {
  readonly values: T[] = []
  error: unknown
  completed = false
  readonly #changed = new Subject<void>()
  readonly subscription: Subscription

  constructor(source: Observable<T>) {
    this.subscription = source.subscribe({
      next: (value) => {
        this.values.push(value)
        this.#changed.next()
      },
      error: (error: unknown) => {
        this.error = error
        this.#changed.next()
      },
      complete: () => {
        this.completed = true
        this.#changed.next()
      },
    })
  }

  /** Resolves with the n-th value (1-based) once it has arrived. */
  async nth(n: number, ms = WAIT_MS): Promise<T> {
    await firstValueFrom(
      this.#changed.pipe(
        startWith(undefined),
        filter(() => this.values.length >= n || this.error !== undefined),
        timeout({ first: ms }),
      ),
    )
    if (this.values.length < n) throw this.error
    return this.values[n - 1] as T
  }

  /** Resolves once the source completed (or errored). */
  async done(ms = WAIT_MS): Promise<void> {
    await firstValueFrom(
      this.#changed.pipe(
        startWith(undefined),
        filter(() => this.completed || this.error !== undefined),
        timeout({ first: ms }),
      ),
    )
  }

  unsubscribe(): void {
    this.subscription.unsubscribe()
  }
}

/** Subscribes to `source`, keeping every value, until the end of the current test. */
export function collect<T>(source: Observable<T>): Collected<T> {
  const collected = new Collected(source)
  onCleanup(() => collected.unsubscribe())
  return collected
}
