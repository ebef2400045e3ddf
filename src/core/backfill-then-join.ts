import { catchError, Observable, type Subscription, throwError } from 'rxjs'

/**
 * A subscriber that is behind catches up on a source of its own (its backfill), then
 * joins a source every caught-up subscriber shares, losing and repeating nothing at the
 * hand-over. The cursor feeds and `watchOrder` (shared tail of events) and the candle
 * stream (shared run of whole states) are built on it.
 *
 * @packageDocumentation
 */

/**
 * What {@link backfillThenJoin} hands the backfill: listening to the shared source, and
 * whether the backfill has reached where that source covers everything.
 *
 * @example
 * ```ts
 * // A paged backfill asks after each short page whether it may end (see paginateCursor's handOver)
 * handOver: () => {
 *   join.listen()
 *   const covered = join.covered()
 *   return covered === undefined ? 'wait' : covered ? 'end' : 'next'
 * }
 * ```
 */
export interface JoinHandle {
  /**
   * Starts listening to the shared source (later calls do nothing): from then on what it
   * sends is held until the join. Call it at once for a source whose latest value is
   * replayed (it may already cover the subscriber), or when the backfill first catches up
   * (no shared poller kept busy by a subscriber still far behind).
   */
  listen(): void
  /**
   * Whether the backfill covers the shared source's join point (see
   * {@link JoinSpec.covers}); `undefined` while the shared source has sent nothing yet.
   */
  covered(): boolean | undefined
}

/**
 * One attempt at catching up and joining: built afresh by {@link backfillThenJoin} for
 * each subscription, and again each time a subscriber fell too far behind.
 *
 * @example
 * ```ts
 * const spec: JoinSpec<number, number, number> = {
 *   backfill: (join) => ownPages.pipe(finalize(() => join.listen())),
 *   shared: sharedTail,
 *   fromBackfill: (n, emit) => { delivered = n; emit(n) },
 *   fromShared: (n, emit) => { if (n > delivered) { delivered = n; emit(n) } },
 *   covers: (first) => delivered >= first - 1,
 *   hold: 10_000,
 *   handOver: 'when-backfill-ends',
 * }
 * ```
 */
export interface JoinSpec<B, S, T> {
  /**
   * The subscriber's own backfill. Built before it is subscribed; when `join.listen()`
   * during the build already joins (a replayed shared value covered the subscriber), it is
   * never subscribed.
   */
  readonly backfill: (join: JoinHandle) => Observable<B>
  /** The source every caught-up subscriber shares. */
  readonly shared: Observable<S>
  /** Passes a backfill value on (as zero or more items). */
  readonly fromBackfill: (value: B, emit: (item: T) => void) => void
  /**
   * Passes a shared value on after the join, in order, dropping what the backfill already
   * delivered (the overlap). A promise returned (a checkpoint being saved) holds the next
   * value until it resolves; a rejection or a throw fails the stream.
   */
  readonly fromShared: (value: S, emit: (item: T) => void) => PromiseLike<void> | void
  /**
   * Whether what the backfill delivered so far reaches the join point, so that the shared
   * source from there on leaves no gap. The join point is the first value the shared source
   * sent since listening (a source of events: every later event follows it) with a number
   * `hold`, or the latest one (a source of whole states) with `hold: 'latest'`.
   */
  readonly covers: (point: S) => boolean
  /**
   * What is held from the shared source until the join (and while `fromShared` waits):
   * `'latest'`, only the latest value (each supersedes the previous ones); or a number,
   * every value, at most that many: one more and the attempt starts over (both sources
   * dropped, a new attempt built), so memory stays bounded for a subscriber that keeps
   * falling behind.
   */
  readonly hold: number | 'latest'
  /**
   * When the join happens. `'when-covered'`: as soon as `covers` holds, checked after each
   * backfill value and each shared value; the backfill is then dropped (its values must be
   * whole states: stopping between two loses nothing). `'when-backfill-ends'`: when the
   * backfill completes (it decides itself, through {@link JoinHandle.covered}, at a boundary
   * of its own such as the end of a page).
   *
   * Either way, a backfill that completes without covering the join point (a venue closing)
   * completes the stream.
   */
  readonly handOver: 'when-covered' | 'when-backfill-ends'
}

/** An attempt held more than its bound of shared values: it starts over. */
class StartOver extends Error {}

/**
 * Backfill, then join a shared source, with nothing lost or repeated across the switch.
 *
 * Each attempt (built by `attempt`) subscribes the backfill and passes its values on
 * through `fromBackfill`. From `join.listen()` on, the shared source's values are held.
 * At the join (see {@link JoinSpec.handOver}) the backfill is dropped and the held values,
 * then every later one, go through `fromShared`, which drops the overlap. The stream
 * completes when the shared source has completed and everything it sent was passed on, or
 * when the backfill completes short of the join point; an error of either source (or of
 * the callbacks) fails it. Holding more than `hold` values starts a new attempt.
 * Unsubscribing drops both sources.
 *
 * @example
 * ```ts
 * // Numbers 1, 2, 3, ...: a backfill from 0 joins a shared tail that started at 40
 * let delivered = 0
 * backfillThenJoin(() => ({
 *   backfill: (join) => range(delivered + 1, 45).pipe(finalize(() => join.listen())),
 *   shared: tailFrom40, // 40, 41, ... replayed from its start
 *   fromBackfill: (n, emit) => { delivered = n; emit(n) },
 *   fromShared: (n, emit) => { if (n > delivered) { delivered = n; emit(n) } },
 *   covers: (first) => delivered >= first - 1,
 *   hold: 10_000,
 *   handOver: 'when-backfill-ends',
 * }))
 * // 1, 2, ..., 45 from the backfill, then 46, 47, ... from the tail
 * ```
 */
export function backfillThenJoin<B, S, T>(attempt: () => JoinSpec<B, S, T>): Observable<T> {
  const once = new Observable<T>((subscriber) => {
    const spec = attempt()
    const held: S[] = []
    let point: { readonly value: S } | undefined
    let joined = false
    let waiting = false
    let sharedEnded = false
    let listening = false
    let backfilling: Subscription | undefined
    const emit = (item: T): void => subscriber.next(item)
    const covered = (): boolean | undefined =>
      point === undefined ? undefined : spec.covers(point.value)

    // Held values, in order, once joined; a pending save holds the rest.
    const pump = (): void => {
      while (joined && !waiting && !subscriber.closed) {
        if (held.length === 0) {
          if (sharedEnded) subscriber.complete()
          return
        }
        const value = held.shift() as S
        let pending: PromiseLike<void> | void
        try {
          pending = spec.fromShared(value, emit)
        } catch (error) {
          subscriber.error(error)
          return
        }
        if (pending === undefined) continue
        waiting = true
        pending.then(
          () => {
            waiting = false
            if (!subscriber.closed) pump()
          },
          (error: unknown) => subscriber.error(error),
        )
      }
    }
    const join = (): void => {
      joined = true
      backfilling?.unsubscribe()
      pump()
    }
    const joinIfCovered = (): void => {
      if (!joined && spec.handOver === 'when-covered' && covered() === true) join()
    }

    const listen = (): void => {
      if (listening || subscriber.closed) return
      listening = true
      const shared = spec.shared.subscribe({
        next: (value) => {
          if (spec.hold === 'latest') {
            held.length = 0
            held.push(value)
            if (!joined) point = { value }
          } else {
            point ??= { value }
            held.push(value)
            if (held.length > spec.hold) {
              subscriber.error(new StartOver())
              return
            }
          }
          if (joined) pump()
          else joinIfCovered()
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          sharedEnded = true
          pump()
        },
      })
      subscriber.add(shared)
    }

    const backfill = spec.backfill({ listen, covered })
    // `listen()` during the build may have joined already (a replayed value covered it).
    if (!joined && !subscriber.closed) {
      backfilling = backfill.subscribe({
        next: (value) => {
          if (joined) return
          try {
            spec.fromBackfill(value, emit)
          } catch (error) {
            subscriber.error(error)
            return
          }
          joinIfCovered()
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          if (joined) return
          if (covered() === true) join()
          else subscriber.complete()
        },
      })
      // Joined while subscribing (an answer that came at once): the backfill is not needed.
      if (joined) backfilling.unsubscribe()
      else subscriber.add(backfilling)
    }
  })
  return once.pipe(
    catchError(function again(error: unknown): Observable<T> {
      return error instanceof StartOver ? once.pipe(catchError(again)) : throwError(() => error)
    }),
  )
}
