import { concatMap, connect, defer, ignoreElements, merge, type OperatorFunction, tap } from 'rxjs'
import { compareDecimal, normalizeDecimal } from '../decimal.js'
import { type DecimalLike, fail, noExtraArguments } from './checks.js'
import { refuse, seriesDecimal } from './inputs.js'

/**
 * A crossing of a fast series over a slow one, emitted by {@link crossover}.
 *
 * @example
 * ```ts
 * of(['1', '2'], ['3', '2']).pipe(crossover())
 * // { type: 'cross-up', fast: '3', slow: '2' }
 * ```
 */
export interface CrossEvent {
  /** `'cross-up'`: fast went above slow; `'cross-down'`: fast went below slow. */
  readonly type: 'cross-up' | 'cross-down'
  /** The fast value that crossed, as a decimal string. */
  readonly fast: string
  /** The slow value at that moment, as a decimal string. */
  readonly slow: string
}

/**
 * Crossings of a fast series over a slow one, compared exactly. Emits `cross-up` when fast
 * goes above slow after having been below it, `cross-down` the other way round. A pair
 * where the two are equal is a touch, not a cross: it neither emits nor changes the side,
 * so below → equal → above is one `cross-up`, when above is reached, and below → equal →
 * below is none. The first pair only sets the side.
 *
 * Two forms:
 * - `crossover(fast, slow)`: `fast` and `slow` are operators over the same source (e.g.
 *   `ema(12)` and `ema(26)` over mid prices). Every source value goes through both; once
 *   both did, the latest fast and slow outputs are compared after each source value, so a
 *   value never meets a stale partner from the other series.
 * - `crossover()`: over `[fast, slow]` pairs built by the caller, e.g. with
 *   `combineLatest([fast$, slow$])` (each change of either) or `zip(fast$, slow$)`.
 *
 * A `null` on either side (a book signal's "no value", e.g. `mid` of a one-sided book) is
 * passed over: no event, the side kept. Any other value that is not a decimal string or a
 * finite number errors the stream with a `TypeError` naming `fast` or `slow`, and so does a
 * pair that is not a `[fast, slow]` array. Arguments that are not two operators (or none)
 * throw `VenueInputError` at the call.
 *
 * @example
 * ```ts
 * import { share, zip } from 'rxjs'
 * import { crossover, ema, mid } from 'venue-rx/signals'
 *
 * venue.watchOrderBook(1)
 *   .pipe(mid(), crossover(ema(12), ema(26)))
 *   .subscribe((event) => console.log(event.type, event.fast)) // 'cross-up' '1.0457...'
 *
 * // The same from two series paired by hand:
 * const mids = venue.watchOrderBook(1).pipe(mid(), share())
 * zip(mids.pipe(ema(12)), mids.pipe(ema(26))).pipe(crossover())
 * ```
 */
export function crossover(): OperatorFunction<
  readonly [DecimalLike | null, DecimalLike | null],
  CrossEvent
>
export function crossover<T>(
  fast: OperatorFunction<T, DecimalLike | null>,
  slow: OperatorFunction<T, DecimalLike | null>,
): OperatorFunction<T, CrossEvent>
export function crossover<T>(
  ...series: unknown[]
): OperatorFunction<Pair, CrossEvent> | OperatorFunction<T, CrossEvent> {
  noExtraArguments('crossover', ['fast', 'slow'], series.slice(2))
  // A trailing `undefined` is no argument, as for every operator.
  const given = series.slice(0, 2)
  while (given.length > 0 && given.at(-1) === undefined) given.pop()
  if (given.length === 0) return crossPairs()
  const [fast, slow] = given
  if (given.length !== 2 || typeof fast !== 'function' || typeof slow !== 'function') {
    fail(
      'crossover',
      '(fast, slow)',
      'must be two operators, or no argument for [fast, slow] pairs',
      series,
    )
  }
  return pairedBy(
    fast as OperatorFunction<T, DecimalLike | null>,
    slow as OperatorFunction<T, DecimalLike | null>,
  )
}

/** A `[fast, slow]` pair of {@link crossover}; `null` on either side is passed over. */
type Pair = readonly [DecimalLike | null, DecimalLike | null]

/** `[fast, slow]` after each source value, once both series have a value. */
function pairedBy<T>(
  fast: OperatorFunction<T, DecimalLike | null>,
  slow: OperatorFunction<T, DecimalLike | null>,
): OperatorFunction<T, CrossEvent> {
  const none = Symbol('none')
  return (source) =>
    source.pipe(
      connect((shared) =>
        defer(() => {
          let fastValue: DecimalLike | null | typeof none = none
          let slowValue: DecimalLike | null | typeof none = none
          // merge subscribes in order, so for each source value both series have answered
          // (if they answer at once) before the third branch reads them.
          return merge(
            shared.pipe(
              fast,
              tap((value) => {
                fastValue = value
              }),
              ignoreElements(),
            ),
            shared.pipe(
              slow,
              tap((value) => {
                slowValue = value
              }),
              ignoreElements(),
            ),
            shared.pipe(
              concatMap((): Pair[] =>
                fastValue === none || slowValue === none ? [] : [[fastValue, slowValue]],
              ),
            ),
          )
        }),
      ),
      crossPairs(),
    )
}

function crossPairs(): OperatorFunction<Pair, CrossEvent> {
  return (source) =>
    defer(() => {
      // Sign of fast - slow at the last pair where they differed; 0 before any.
      let side = 0
      return source.pipe(
        concatMap((pair): CrossEvent[] => {
          if (!Array.isArray(pair) || pair.length !== 2) {
            refuse('crossover', 'pair', 'must be a [fast, slow] array', pair)
          }
          if (pair[0] === null || pair[1] === null) return []
          const fast = normalizeDecimal(seriesDecimal('crossover', 'fast', pair[0]))
          const slow = normalizeDecimal(seriesDecimal('crossover', 'slow', pair[1]))
          const now = Math.sign(compareDecimal(fast, slow))
          if (now === 0) return []
          const previous = side
          side = now
          if (previous === 0 || previous === now) return []
          return [{ type: now > 0 ? 'cross-up' : 'cross-down', fast, slow }]
        }),
      )
    })
}
