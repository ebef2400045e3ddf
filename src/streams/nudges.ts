import { filter, map, type Observable, Subject } from 'rxjs'

/**
 * What one stream of a venue sees that makes another one worth polling at once (causal
 * refresh): a new own trade or transfer (`account`) means the balances and the open
 * orders changed too; a new public trade in a pool (`book:<poolId>`), that its book did. Per venue, in its `StreamContext`; a topic nobody listens to costs
 * nothing.
 *
 * @example
 * ```ts
 * const nudges = new Nudges()
 * nudges.on('account').subscribe(() => console.log('poll the balances now'))
 * nudges.nudge('account')
 * ```
 */
export class Nudges {
  readonly #topics = new Subject<string>()

  /** Tells the streams listening to `topic` to poll at once. */
  nudge(topic: NudgeTopic): void {
    this.#topics.next(topic)
  }

  /** Emits each time `topic` is nudged. */
  on(topic: NudgeTopic): Observable<void> {
    return this.#topics.pipe(
      filter((nudged) => nudged === topic),
      map(() => undefined),
    )
  }
}

/**
 * `account`: the account's trades or transfers moved (balances, open orders follow).
 * `book:<poolId>`: a public trade in the pool (its book moved).
 */
export type NudgeTopic = 'account' | `book:${number}`
