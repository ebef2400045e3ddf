import equal from 'fast-deep-equal'
import { distinctUntilChanged, type MonoTypeOperatorFunction } from 'rxjs'

/**
 * Lets a value through only when it differs, deeply, from the previous one (plain JSON
 * data: objects, arrays, strings, numbers). Polled resources emit only on real change.
 *
 * @example
 * ```ts
 * of({ a: [1] }, { a: [1] }, { a: [2] }).pipe(distinctUntilDeepChanged())
 * // { a: [1] }, { a: [2] }
 * ```
 */
export function distinctUntilDeepChanged<T>(): MonoTypeOperatorFunction<T> {
  return distinctUntilChanged<T>((previous, current) => equal(previous, current))
}
