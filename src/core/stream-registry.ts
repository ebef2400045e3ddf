import {
  defer,
  finalize,
  type Observable,
  of,
  ReplaySubject,
  type SchedulerLike,
  share,
  takeUntil,
  tap,
  timer,
} from 'rxjs'
import { type HealthBoard, reportEnd } from './health.js'

/** Settings of a {@link StreamRegistry}. */
export interface StreamRegistryOptions {
  /** How long a stream keeps polling after its last subscriber left, ms. */
  readonly lingerMs: number
  readonly health: HealthBoard
  /** Emits once when the venue closes: every stream completes. */
  readonly closed: Observable<unknown>
  /** Scheduler of the linger (tests). */
  readonly scheduler?: SchedulerLike
}

/**
 * Shares one poller per stream key among every subscriber.
 *
 * - The key is the stream name plus its canonical arguments, e.g. `watchPool("1")`.
 * - A late subscriber gets the stream's latest value at once (a poller's latest answer).
 * - After the last subscriber leaves, polling goes on for `lingerMs` (a resubscribe in
 *   between costs nothing), then stops and the entry is dropped; the next subscriber
 *   starts a fresh poller. An error ends the shared poller for all its subscribers.
 * - Streams are looked up at subscribe time, so an Observable kept by the caller always
 *   joins the current poller of its key.
 */
export class StreamRegistry {
  readonly #streams = new Map<string, Observable<unknown>>()
  readonly #options: StreamRegistryOptions

  constructor(options: StreamRegistryOptions) {
    this.#options = options
  }

  /** Pollers currently alive (subscribed or lingering). */
  get size(): number {
    return this.#streams.size
  }

  /**
   * The shared stream of `key`, built by `build` when no poller of that key is alive. A
   * late subscriber gets the latest value at once, then the live ones.
   */
  shared<T>(key: string, build: () => Observable<T>): Observable<T> {
    return defer(() => {
      let stream = this.#streams.get(key) as Observable<T> | undefined
      if (stream === undefined) {
        stream = this.#create(key, build)
        this.#streams.set(key, stream)
      }
      return stream
    })
  }

  #create<T>(key: string, build: () => Observable<T>): Observable<T> {
    const { lingerMs, health, closed, scheduler } = this.#options
    // Set when the source ended: share has already reset, so the subscribers' teardown
    // must not start a linger timer (it would hold Node open after close or a failure).
    let ended = false
    // Forgotten before an error or completion reaches subscribers, so that one who
    // resubscribes from its handler (retry, repeat) starts a fresh poller under the key.
    const forget = () => {
      if (this.#streams.get(key) === stream) this.#streams.delete(key)
    }
    const stream: Observable<T> = defer(build).pipe(
      takeUntil(closed),
      tap({
        error: () => {
          forget()
          ended = true
        },
        complete: () => {
          forget()
          ended = true
        },
      }),
      reportEnd(health, key),
      finalize(forget),
      share<T>({
        connector: () => new ReplaySubject<T>(1),
        resetOnError: true,
        resetOnComplete: true,
        resetOnRefCountZero: () => (ended ? of(true) : timer(lingerMs, scheduler as SchedulerLike)),
      }),
    )
    return stream
  }
}
