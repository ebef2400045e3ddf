import {
  BehaviorSubject,
  defer,
  distinctUntilChanged,
  finalize,
  type MonoTypeOperatorFunction,
  type Observable,
  tap,
} from 'rxjs'
import { VenueError } from '../errors/venue-error.js'

/**
 * How one stream is doing.
 *
 * @example
 * ```ts
 * import type { StreamHealth } from 'venue-rx'
 *
 * venue.health.subscribe((report) => {
 *   const health: StreamHealth | undefined = report['watchBalances()']
 *   if (health?.state === 'retrying') {
 *     const { attempt, nextDelayMs, lastErrorCode } = health
 *     console.warn(`balances: retry ${attempt} in ${nextDelayMs} ms (${lastErrorCode})`)
 *   } else if (health?.state === 'failed') {
 *     console.error(`balances stopped: ${health.errorCode} ${health.errorMessage}`)
 *   }
 * })
 * ```
 */
export type StreamHealth =
  | {
      /** Answers arrive. */
      readonly state: 'ok'
    }
  | {
      /** The last request failed with a retryable error; the stream waits and tries again. */
      readonly state: 'retrying'
      /** Retry number since the last success, from 1. */
      readonly attempt: number
      /** The wait before the next try, ms. */
      readonly nextDelayMs: number
      /** `code` of the last error (`'UNKNOWN'` for a non-venue error). */
      readonly lastErrorCode: string
      /** Message of the last error. */
      readonly lastErrorMessage: string
    }
  | {
      /**
       * The last poll showed that data may be missing (public trades: more trades between
       * two polls than the window holds). Back to `ok` with the next poll.
       */
      readonly state: 'gap'
      /** Time of the last item known before the gap, epoch ms. */
      readonly since: number
      /** Time of the oldest item after it, epoch ms. */
      readonly until: number
    }
  | {
      /** The stream ended with an error it does not retry. Stays until the stream restarts. */
      readonly state: 'failed'
      readonly errorCode: string
      readonly errorMessage: string
    }

/**
 * Every stream that is running (or has failed), by its key, e.g. `watchPool("1")` or `watchBalances()`.
 *
 * @example
 * ```ts
 * import type { HealthReport } from 'venue-rx'
 *
 * venue.health.subscribe((report: HealthReport) => {
 *   for (const [stream, health] of Object.entries(report)) console.log(stream, health.state)
 * })
 * // watchBalances() ok
 * // watchPool("1") retrying
 * ```
 */
export type HealthReport = Readonly<Record<string, StreamHealth>>

function codeOf(error: unknown): string {
  return error instanceof VenueError ? error.code : 'UNKNOWN'
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * The health board of one venue: streams report here, `venue.health` shows it. Emits a
 * new immutable report only when some stream's state really changed.
 */
export class HealthBoard {
  readonly #report = new BehaviorSubject<HealthReport>({})

  /** Reports, latest first to a new subscriber; only on change. */
  readonly changes: Observable<HealthReport> = this.#report.pipe(distinctUntilChanged())

  /** The current report. */
  get current(): HealthReport {
    return this.#report.value
  }

  ok(key: string): void {
    if (this.#report.value[key]?.state !== 'ok') this.#set(key, { state: 'ok' })
  }

  retrying(key: string, attempt: number, nextDelayMs: number, error: unknown): void {
    this.#set(key, {
      state: 'retrying',
      attempt,
      nextDelayMs,
      lastErrorCode: codeOf(error),
      lastErrorMessage: messageOf(error),
    })
  }

  gap(key: string, since: number, until: number): void {
    this.#set(key, { state: 'gap', since, until })
  }

  failed(key: string, error: unknown): void {
    this.#set(key, { state: 'failed', errorCode: codeOf(error), errorMessage: messageOf(error) })
  }

  /** Forgets a stream that stopped normally; a failed one stays visible. */
  stopped(key: string): void {
    const entry = this.#report.value[key]
    if (entry === undefined || entry.state === 'failed') return
    const { [key]: _gone, ...rest } = this.#report.value
    this.#report.next(Object.freeze(rest))
  }

  /** Completes `changes`. */
  close(): void {
    this.#report.complete()
  }

  #set(key: string, health: StreamHealth): void {
    this.#report.next(Object.freeze({ ...this.#report.value, [key]: Object.freeze(health) }))
  }
}

/**
 * Reports how a stream ended to the board: `failed` with its error (the entry stays), or
 * forgotten when it completes or its last subscriber leaves. Every polled stream of a
 * venue, polled or relayed, shared or a subscriber's own catch-up, ends through this one
 * operator.
 *
 * @example
 * ```ts
 * feed.pipe(takeUntil(closed), reportEnd(health, 'watchMyTrades()#1'))
 * ```
 */
export function reportEnd<T>(health: HealthBoard, key: string): MonoTypeOperatorFunction<T> {
  return (source) =>
    defer(() => {
      let failed = false
      return source.pipe(
        tap({
          error: (error: unknown) => {
            failed = true
            health.failed(key, error)
          },
        }),
        finalize(() => {
          if (!failed) health.stopped(key)
        }),
      )
    })
}
