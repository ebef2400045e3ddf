import { concatMap, defer, type OperatorFunction } from 'rxjs'
import { compareDecimal, normalizeDecimal } from '../decimal.js'
import { type DecimalLike, seriesValue } from './checks.js'

/** A crossing of a fast series over a slow one, emitted by {@link crossover}. */
export interface CrossEvent {
  /** `'cross-up'`: fast went above slow; `'cross-down'`: fast went below slow. */
  readonly type: 'cross-up' | 'cross-down'
  /** The fast value that crossed, as a decimal string. */
  readonly fast: string
  /** The slow value at that moment, as a decimal string. */
  readonly slow: string
}

/**
 * Crossings of a fast series over a slow one, from a series of `[fast, slow]` pairs
 * (decimal strings or numbers, compared exactly). Emits `cross-up` when fast goes above
 * slow after having been below it, `cross-down` the other way round. A pair where the two
 * are equal is a touch, not a cross: it neither emits nor changes the side, so
 * below → equal → above is one `cross-up`, when above is reached, and below → equal →
 * below is none. The first pair only sets the side.
 *
 * For two separate series, pair them first: `combineLatest([fast$, slow$])` (each change of
 * either) or `zip(fast$, slow$)` (value by value of one source). A value that is no decimal
 * errors the stream with a `TypeError`. Takes no argument.
 *
 * @example
 * ```ts
 * import { map, share, zip } from 'rxjs'
 * import { crossover, ema, mid } from 'venue-rx/signals'
 *
 * const mids = venue.watchOrderBook(1).pipe(mid(), share())
 * zip(mids.pipe(ema(12)), mids.pipe(ema(26)))
 *   .pipe(crossover())
 *   .subscribe((event) => console.log(event.type, event.fast)) // 'cross-up' '1.0457...'
 * ```
 */
export function crossover(): OperatorFunction<readonly [DecimalLike, DecimalLike], CrossEvent> {
  return (source) =>
    defer(() => {
      // Sign of fast - slow at the last pair where they differed; 0 before any.
      let side = 0
      return source.pipe(
        concatMap((pair): CrossEvent[] => {
          const fast = normalizeDecimal(seriesValue('crossover', pair[0]))
          const slow = normalizeDecimal(seriesValue('crossover', pair[1]))
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
