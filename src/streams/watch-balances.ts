import { filter, map, type Observable } from 'rxjs'
import { isEmptyDiff, keyedDiff } from '../core/keyed-diff.js'
import type { Balance } from '../schemas/balance.js'
import { polledResource } from './polled-resource.js'
import type { StreamContext } from './stream-context.js'
import { streamKey } from './stream-key.js'

/** How one coin's balance changed. */
export type BalanceChange =
  | { readonly type: 'added'; readonly coin: string; readonly current: Balance }
  | {
      readonly type: 'changed'
      readonly coin: string
      readonly previous: Balance
      readonly current: Balance
    }
  | { readonly type: 'removed'; readonly coin: string; readonly previous: Balance }

/** One emission of `watchBalances`: every balance now, and what changed per coin. */
export interface BalancesUpdate {
  /** Every balance, as the venue listed them. */
  readonly balances: readonly Balance[]
  /** Balances by coin. */
  readonly byCoin: ReadonlyMap<string, Balance>
  /** What changed since the previous update (the first update: every coin `added`). */
  readonly changes: readonly BalanceChange[]
}

/**
 * The account's balances, with per-coin changes. Emits only when a balance really
 * changed. Subscribers share one poller; each one's first update lists every coin as
 * `added`, so a late subscriber starts from the full picture.
 */
export function watchBalances(context: StreamContext): Observable<BalancesUpdate> {
  const state = polledResource(context, streamKey('watchBalances'), (rest, signal) =>
    rest.balances({ signal }),
  )
  return state.pipe(
    keyedDiff((balance: Balance) => balance.coin),
    filter((diff, index) => index === 0 || !isEmptyDiff(diff)),
    map(
      (diff): BalancesUpdate => ({
        balances: [...diff.current.values()],
        byCoin: diff.current,
        changes: [
          ...diff.added.map(
            (current): BalanceChange => ({ type: 'added', coin: current.coin, current }),
          ),
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
        ],
      }),
    ),
  )
}
