import equal from 'fast-deep-equal'
import { type OperatorFunction, scan } from 'rxjs'

/**
 * What changed between two keyed collections.
 *
 * @example
 * ```ts
 * import type { PoolSummary } from 'venue-rx'
 * import { type KeyedDiff, keyedDiff } from 'venue-rx/operators'
 *
 * venue.watchPools()
 *   .pipe(keyedDiff((pool: PoolSummary) => String(pool.pool_id)))
 *   .subscribe((diff: KeyedDiff<PoolSummary>) => {
 *     for (const pool of diff.added) console.log('listed', pool.symbol)
 *     for (const { previous, current } of diff.changed) {
 *       console.log(current.symbol, previous.last_price, '->', current.last_price)
 *     }
 *     for (const pool of diff.removed) console.log('delisted', pool.symbol)
 *   })
 * ```
 */
export interface KeyedDiff<T> {
  /** Items whose key is new. */
  readonly added: readonly T[]
  /** Items whose key existed and whose value deeply changed, with the previous value. */
  readonly changed: readonly { readonly previous: T; readonly current: T }[]
  /** Items whose key is gone (their last value). */
  readonly removed: readonly T[]
  /** The current collection, by key. */
  readonly current: ReadonlyMap<string, T>
}

/**
 * Compares two collections keyed by `keyOf`. Linear in their sizes. `same` decides whether
 * an item kept its value (default: deep equality); an item it calls the same is not
 * `changed`, though `current` holds its newest value.
 *
 * @example
 * ```ts
 * diffByKey(new Map([['a', 1]]), [2], () => 'a')
 * // { added: [], changed: [{ previous: 1, current: 2 }], removed: [], current: Map { a => 2 } }
 * ```
 */
export function diffByKey<T>(
  previous: ReadonlyMap<string, T>,
  items: Iterable<T>,
  keyOf: (item: T) => string,
  same: (previous: T, current: T) => boolean = equal,
): KeyedDiff<T> {
  const current = new Map<string, T>()
  const added: T[] = []
  const changed: { previous: T; current: T }[] = []
  for (const item of items) {
    const key = keyOf(item)
    current.set(key, item)
    const before = previous.get(key)
    if (before === undefined) added.push(item)
    else if (!same(before, item)) changed.push({ previous: before, current: item })
  }
  const removed: T[] = []
  for (const [key, item] of previous) if (!current.has(key)) removed.push(item)
  return { added, changed, removed, current }
}

/**
 * Turns a stream of collections into a stream of {@link KeyedDiff}s. The first
 * collection is all `added`; later ones carry only what changed (possibly nothing: pair
 * it with a filter to drop empty diffs).
 *
 * @example
 * ```ts
 * of([{ id: 'a', q: 1 }], [{ id: 'a', q: 2 }, { id: 'b', q: 1 }], [{ id: 'b', q: 1 }])
 *   .pipe(keyedDiff((o) => o.id))
 * // added a; then changed a, added b; then removed a
 * ```
 *
 * `same` decides whether an item kept its value (default: deep equality), e.g. to ignore a
 * field that changes on its own:
 *
 * ```ts
 * keyedDiff((o) => o.id, (a, b) => a.q === b.q)
 * ```
 */
export function keyedDiff<T>(
  keyOf: (item: T) => string,
  same: (previous: T, current: T) => boolean = equal,
): OperatorFunction<Iterable<T>, KeyedDiff<T>> {
  const empty: KeyedDiff<T> = { added: [], changed: [], removed: [], current: new Map() }
  return scan(
    (last: KeyedDiff<T>, items: Iterable<T>) => diffByKey(last.current, items, keyOf, same),
    empty,
  )
}

/**
 * True when a diff carries no change.
 *
 * @example
 * ```ts
 * import { filter } from 'rxjs'
 * import { isEmptyDiff, keyedDiff, poll } from 'venue-rx/operators'
 *
 * poll((signal) => venue.rest.openOrders({ limit: 100 }, { signal }), { intervalMs: 1_000 })
 *   .pipe(
 *     keyedDiff((order) => order.id),
 *     filter((diff) => !isEmptyDiff(diff)), // only polls that changed something
 *   )
 * ```
 */
export function isEmptyDiff(diff: KeyedDiff<unknown>): boolean {
  return diff.added.length === 0 && diff.changed.length === 0 && diff.removed.length === 0
}
