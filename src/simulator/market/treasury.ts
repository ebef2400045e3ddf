/**
 * Keeps the crowd solvent over long runs: each tick one crowd account (in turn) tops up
 * any coin whose free balance fell below a quarter of its endowment and withdraws any
 * excess above four times it. These are ordinary transfers with their own sids.
 *
 * @packageDocumentation
 */
import { CROWD } from './genesis.js'
import type { MarketCore } from './market-core.js'

/** Rebalances one crowd account per tick. */
export class Treasury {
  readonly #core: MarketCore
  readonly #endowed: ReadonlyMap<string, ReadonlyMap<string, bigint>>
  #next = 0

  constructor(core: MarketCore, endowed: ReadonlyMap<string, ReadonlyMap<string, bigint>>) {
    this.#core = core
    this.#endowed = endowed
  }

  /** Looks after the next crowd account. */
  act(): void {
    const account = CROWD[this.#next % CROWD.length]
    this.#next += 1
    if (account === undefined) return
    for (const [coin, endowment] of this.#endowed.get(account) ?? []) {
      const free = this.#core.ledger.free(account, coin)
      if (free * 4n < endowment) this.#core.transfers.deposit(account, coin, endowment - free)
      else if (free > endowment * 4n) this.#core.transfers.withdraw(account, coin, free - endowment)
    }
  }
}
