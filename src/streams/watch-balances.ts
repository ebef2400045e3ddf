import { filter, map, type Observable } from 'rxjs'
import { diffByKey, isEmptyDiff, type KeyedDiff, keyedDiff } from '../core/keyed-diff.js'
import type { StreamPriority } from '../core/poll-pacer.js'
import { compareDecimal } from '../decimal.js'
import { failArgument } from '../rest/index.js'
import type { Balance } from '../schemas/balance.js'
import { polledResource } from './polled-resource.js'
import type { StreamContext } from './stream-context.js'
import { streamKey } from './stream-key.js'
import { priorityOption, streamOptions } from './stream-options.js'

/**
 * Options of `watchBalances`.
 *
 * @example
 * ```ts
 * // also emit when only a coin's valuation (stablecoin_price) moved
 * venue.watchBalances({ includeValuation: true }).subscribe(({ balances }) => draw(balances))
 * ```
 */
export interface BalancesOptions {
  /**
   * Also count a change of `stablecoin_price` (the coin's valuation) as a change of the
   * coin; default `false`: only `balance`, `locked` and the locks count.
   */
  readonly includeValuation?: boolean | undefined
  /** This stream's weight in the venue's pacing (see `DepthStreamOptions.priority`). */
  readonly priority?: StreamPriority | undefined
}

/**
 * How one coin's balance changed.
 *
 * @example
 * ```ts
 * import type { BalanceChange } from 'venue-rx'
 *
 * const describe = (change: BalanceChange): string => {
 *   if (change.type === 'added') return `${change.coin}: ${change.current.balance}`
 *   if (change.type === 'changed') {
 *     return `${change.coin}: ${change.previous.balance} -> ${change.current.balance}`
 *   }
 *   return `${change.coin}: gone`
 * }
 * venue.watchBalances().subscribe(({ changes }) => console.log(changes.map(describe)))
 * // ['usdt.ext-USDT: 102447.930900 -> 102364.4449']
 * ```
 */
export type BalanceChange =
  | { readonly type: 'added'; readonly coin: string; readonly current: Balance }
  | {
      readonly type: 'changed'
      readonly coin: string
      readonly previous: Balance
      readonly current: Balance
    }
  | { readonly type: 'removed'; readonly coin: string; readonly previous: Balance }

/**
 * One emission of `watchBalances`: every balance now, and what changed per coin.
 *
 * @example
 * ```ts
 * import type { BalancesUpdate } from 'venue-rx'
 *
 * venue.watchBalances().subscribe((update: BalancesUpdate) => {
 *   const usdt = update.byCoin.get('usdt.ext-USDT')
 *   console.log(usdt?.balance, usdt?.locked) // '102447.930900' '756.146394'
 * })
 * ```
 */
export interface BalancesUpdate {
  /** Every balance, as the venue listed them. */
  readonly balances: readonly Balance[]
  /** Balances by coin. */
  readonly byCoin: ReadonlyMap<string, Balance>
  /** What changed since the previous update (the first update: every coin `added`). */
  readonly changes: readonly BalanceChange[]
}

/**
 * The account's balances, with per-coin changes. Emits only when a holding really
 * changed: a coin's `balance`, `locked` or its locks (compared as exact decimals, so
 * `'1.0'` and `'1'` are the same), a coin added or removed. A change of valuation alone
 * (`stablecoin_price`) is no change unless `includeValuation` is set; the values listed
 * are always the newest polled. Subscribers share one poller; each one's first update
 * lists every coin as `added`, so a late subscriber starts from the full picture.
 * Throws `VenueInputError` at once for bad options.
 */
export function watchBalances(
  context: StreamContext,
  options?: BalancesOptions,
): Observable<BalancesUpdate> {
  const given = streamOptions('watchBalances', options, ['includeValuation', 'priority'])
  const priority = priorityOption('watchBalances', given['priority'])
  // Only `undefined` is "not given": `null` is refused like every other wrong value.
  const includeValuation = given['includeValuation']
  if (includeValuation !== undefined && typeof includeValuation !== 'boolean') {
    failArgument('watchBalances', 'includeValuation', 'must be true or false', includeValuation)
  }
  const same = includeValuation === true ? sameWithValuation : sameHolding
  // A new own trade or transfer seen by a running feed polls the balances at once.
  const state = polledResource(
    context,
    streamKey('watchBalances'),
    (rest, signal) => rest.balances({ signal }),
    {
      wake: context.nudges.on('account'),
      priority,
      changes: (previous, answer) => !sameAnswer(previous, answer),
    },
  )
  return state.pipe(
    keyedDiff((balance: Balance) => balance.coin, same),
    filter((diff, index) => index === 0 || !isEmptyDiff(diff)),
    map(
      (diff): BalancesUpdate => ({
        balances: [...diff.current.values()],
        byCoin: diff.current,
        changes: changesOf(diff),
      }),
    ),
  )
}

/** The changes of a diff of balances by coin: added, then changed, then removed. */
function changesOf(diff: KeyedDiff<Balance>): BalanceChange[] {
  return [
    ...diff.added.map((current): BalanceChange => ({ type: 'added', coin: current.coin, current })),
    ...diff.changed.map(
      ({ previous, current }): BalanceChange => ({
        type: 'changed',
        coin: current.coin,
        previous,
        current,
      }),
    ),
    ...diff.removed.map(
      (previous): BalanceChange => ({ type: 'removed', coin: previous.coin, previous }),
    ),
  ]
}

/**
 * What changed in holdings from `previous` to `current` (valuation alone is no change), as
 * `watchBalances` reports it between two polls.
 */
export function balanceChanges(
  previous: readonly Balance[],
  current: readonly Balance[],
): BalanceChange[] {
  const byCoin = new Map(previous.map((balance) => [balance.coin, balance]))
  return changesOf(diffByKey(byCoin, current, (balance) => balance.coin, sameHolding))
}

/**
 * Whether two balances answers are deep-equal: every field of the schema's output (which
 * has no other) compared by value, as `fast-deep-equal` would, without its walk over
 * each record's keys (a quarter of a 20-coin poll's own cost).
 */
export function sameAnswer(a: readonly Balance[], b: readonly Balance[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i] as Balance
    const y = b[i] as Balance
    if (
      x.coin !== y.coin ||
      x.balance !== y.balance ||
      x.locked !== y.locked ||
      x.stablecoin_price !== y.stablecoin_price ||
      x.locks.length !== y.locks.length
    ) {
      return false
    }
    for (let k = 0; k < x.locks.length; k += 1) {
      const lock = x.locks[k] as Balance['locks'][number]
      const other = y.locks[k] as Balance['locks'][number]
      if (
        lock.balance !== other.balance ||
        lock.pool_id !== other.pool_id ||
        lock.pool_symbol !== other.pool_symbol
      ) {
        return false
      }
    }
  }
  return true
}

/** The same amount: the same text, or the same exact decimal written otherwise. */
const sameAmount = (a: string, b: string) => a === b || compareDecimal(a, b) === 0

/** The same holding: balance, locked and every lock (pool and amount), in order. */
function sameHolding(a: Balance, b: Balance): boolean {
  return (
    sameAmount(a.balance, b.balance) &&
    sameAmount(a.locked, b.locked) &&
    a.locks.length === b.locks.length &&
    a.locks.every((lock, i) => {
      const other = b.locks[i]
      return (
        other !== undefined &&
        lock.pool_id === other.pool_id &&
        lock.pool_symbol === other.pool_symbol &&
        sameAmount(lock.balance, other.balance)
      )
    })
  )
}

function sameWithValuation(a: Balance, b: Balance): boolean {
  return sameHolding(a, b) && sameAmount(a.stablecoin_price, b.stablecoin_price)
}
