import { isObservable, type Observable, type Subscription } from 'rxjs'
import { isWholeNumber } from '../checks.js'
import { VenueInputError } from '../errors/venue-input-error.js'
import { isPlainObject } from '../plain-object.js'
import { failArgument, knownKeys } from '../rest/index.js'

/**
 * What {@link toAsyncIterable} does when values arrive faster than the loop takes them.
 *
 * @example
 * ```ts
 * import { type OverflowPolicy, toAsyncIterable } from 'venue-rx'
 *
 * const overflow: OverflowPolicy = 'drop-oldest' // only the newest book matters
 * for await (const book of toAsyncIterable(venue.watchOrderBook(0), { overflow })) render(book)
 * ```
 */
export type OverflowPolicy = 'drop-oldest' | 'error'

/**
 * Settings of {@link toAsyncIterable}.
 *
 * @example
 * ```ts
 * import { type ToAsyncIterableOptions, toAsyncIterable } from 'venue-rx'
 *
 * // every trade counts: fail loudly rather than drop one
 * const options: ToAsyncIterableOptions = { buffer: 10_000, overflow: 'error' }
 * for await (const trade of toAsyncIterable(venue.watchMyTrades(), options)) {
 *   await ledger.record(trade) // falling 10,000 trades behind throws a RangeError here
 * }
 * ```
 */
export interface ToAsyncIterableOptions {
  /** Values held for the loop at most; default 1,000. */
  readonly buffer?: number | undefined
  /**
   * When the buffer is full and another value arrives: `'error'` (default) stops the
   * stream and the loop throws a `RangeError`; `'drop-oldest'` drops the oldest held value
   * (right for state such as books, where only the newest matters).
   */
  readonly overflow?: OverflowPolicy | undefined
}

const METHOD = 'toAsyncIterable'

/** The option names {@link toAsyncIterable} takes. */
const OPTION_NAMES: readonly string[] = ['buffer', 'overflow']

/**
 * An Observable as an async iterable, for `for await` loops. The subscription starts with
 * the loop's first step; values wait in a bounded buffer until the loop takes them;
 * `break` (or `return`) unsubscribes; an error of the stream is thrown at the loop once
 * the values before it were taken; completion ends the loop.
 * Throws `VenueInputError` at once, naming the argument, for a source that is not an
 * Observable, options that are not an object (`null` included), an unknown option name, a
 * bad option value (`null` included: only `undefined` means "the default"), or an argument
 * it does not take.
 *
 * @example
 * ```ts
 * for await (const book of toAsyncIterable(venue.watchOrderBook(1), { overflow: 'drop-oldest' })) {
 *   console.log(book.bestBid, book.bestAsk)
 *   if (done) break // unsubscribes
 * }
 * ```
 */
export function toAsyncIterable<T>(
  source: Observable<T>,
  options?: ToAsyncIterableOptions,
): AsyncIterableIterator<T>
export function toAsyncIterable<T>(
  source: Observable<T>,
  options: ToAsyncIterableOptions = {},
  // Not in the public signature: a plain JavaScript caller may still pass more.
  ...extra: readonly unknown[]
): AsyncIterableIterator<T> {
  // Checked at the call, not at the loop's first step, where a wrong source would only
  // show as a TypeError far from the mistake.
  if (!isObservable(source)) {
    failArgument(METHOD, 'source', 'must be an Observable', source)
  }
  // (Checked as unknown: the options keep their declared type below.)
  if (!isPlainObject(options as unknown)) {
    throw new VenueInputError('options', `${METHOD}: options must be an object ({ ... })`)
  }
  // A misspelt `bufer` must not silently leave the default buffer in place.
  knownKeys(METHOD, options, OPTION_NAMES)
  if (extra.some((argument) => argument !== undefined)) {
    throw new VenueInputError('arguments', `${METHOD}: takes a source and options, nothing more`)
  }
  // Defaults for `undefined` only: a `null` value is checked, and refused, like any other.
  const { buffer = 1_000, overflow = 'error' } = options
  if (!isWholeNumber(buffer, 1)) {
    throw new VenueInputError('buffer', `${METHOD}: buffer must be a whole number, 1 or more`)
  }
  if (overflow !== 'error' && overflow !== 'drop-oldest') {
    throw new VenueInputError('overflow', `${METHOD}: overflow must be 'error' or 'drop-oldest'`)
  }

  const held: T[] = []
  // The loop waiting for the next value, if any.
  let waiting:
    | { resolve: (step: IteratorResult<T>) => void; reject: (e: unknown) => void }
    | undefined
  let ended: { readonly error?: unknown; readonly failed: boolean } | undefined
  let subscription: Subscription | undefined
  let closed = false

  const finish = (failed: boolean, error?: unknown) => {
    if (ended !== undefined) return
    ended = failed ? { failed, error } : { failed }
    const loop = waiting
    waiting = undefined
    if (loop === undefined) return
    // Thrown once at the loop; after that the iterator is simply done.
    ended = { failed: false }
    if (failed) loop.reject(error)
    else loop.resolve({ value: undefined, done: true })
  }
  const start = () => {
    if (subscription !== undefined || closed) return
    subscription = source.subscribe({
      next: (value) => {
        if (ended !== undefined) return
        const loop = waiting
        if (loop !== undefined) {
          waiting = undefined
          loop.resolve({ value, done: false })
          return
        }
        if (held.length < buffer) {
          held.push(value)
        } else if (overflow === 'drop-oldest') {
          held.shift()
          held.push(value)
        } else {
          held.length = 0
          finish(
            true,
            new RangeError(
              `${METHOD}: more than ${buffer} values waited for the loop (overflow: 'error')`,
            ),
          )
          subscription?.unsubscribe()
        }
      },
      error: (error: unknown) => finish(true, error),
      complete: () => finish(false),
    })
    if (ended !== undefined) subscription.unsubscribe()
  }
  const stop = () => {
    closed = true
    held.length = 0
    subscription?.unsubscribe()
    finish(false)
  }

  const iterator: AsyncIterableIterator<T> = {
    next: () => {
      if (held.length > 0) return Promise.resolve({ value: held.shift() as T, done: false })
      if (ended !== undefined) {
        const { failed, error } = ended
        ended = { failed: false }
        return failed ? Promise.reject(error) : Promise.resolve({ value: undefined, done: true })
      }
      if (closed) return Promise.resolve({ value: undefined, done: true })
      return new Promise<IteratorResult<T>>((resolve, reject) => {
        waiting = { resolve, reject }
        start()
      })
    },
    return: () => {
      stop()
      return Promise.resolve({ value: undefined, done: true })
    },
    [Symbol.asyncIterator]() {
      return iterator
    },
  }
  return iterator
}
