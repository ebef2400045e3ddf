/**
 * Balances of every account, per coin, in the coin's ledger units (10^-decimals, where
 * decimals is the largest precision the coin has in any pool, so every pool amount
 * converts exactly). Each holding splits into a free part and a locked part; the locked
 * part is tracked per pool (the `locks` of a balance record).
 *
 * @packageDocumentation
 */
import type { CoinRef } from './coins.js'
import { pow10 } from './fixed-point.js'

/** One account's holding of one coin. */
export interface Holding {
  free: bigint
  locked: bigint
  /** Locked amount per pool id (entries removed when they reach zero). */
  readonly locks: Map<number, bigint>
}

/** A coin known to the ledger. */
export interface LedgerCoin {
  readonly ref: CoinRef
  /** Ledger decimals of the coin. */
  readonly decimals: number
}

/** Thrown when an internal movement would overdraw a holding: a simulator bug. */
export class LedgerError extends Error {
  override name = 'LedgerError' as const
}

/** Balances of all accounts. */
export class Ledger {
  readonly #coins = new Map<string, LedgerCoin>()
  readonly #accounts = new Map<string, Map<string, Holding>>()

  constructor(coins: readonly LedgerCoin[]) {
    for (const coin of coins) this.#coins.set(coin.ref.id, coin)
  }

  /** Every coin, in registration order. */
  coins(): LedgerCoin[] {
    return [...this.#coins.values()]
  }

  /** The ledger coin with this id; throws for an unknown coin. */
  coin(id: string): LedgerCoin {
    const coin = this.#coins.get(id)
    if (coin === undefined) throw new LedgerError(`unknown coin ${id}`)
    return coin
  }

  /** The factor converting an amount with `precision` decimals into ledger units of `coin`. */
  scale(coin: string, precision: number): bigint {
    return pow10(this.coin(coin).decimals - precision)
  }

  /** Account names in the order they first held anything. */
  accounts(): string[] {
    return [...this.#accounts.keys()]
  }

  /** The holding of `account` in `coin` (created empty on first use). */
  holding(account: string, coin: string): Holding {
    let coins = this.#accounts.get(account)
    if (coins === undefined) {
      coins = new Map()
      this.#accounts.set(account, coins)
    }
    let holding = coins.get(coin)
    if (holding === undefined) {
      this.coin(coin)
      holding = { free: 0n, locked: 0n, locks: new Map() }
      coins.set(coin, holding)
    }
    return holding
  }

  /** Free (spendable) ledger units. */
  free(account: string, coin: string): bigint {
    return this.holding(account, coin).free
  }

  /** Adds to the free part. */
  credit(account: string, coin: string, amount: bigint): void {
    this.holding(account, coin).free += amount
  }

  /** Takes from the free part; throws when the free part is short. */
  debit(account: string, coin: string, amount: bigint): void {
    const holding = this.holding(account, coin)
    if (holding.free < amount) throw new LedgerError(`${account} is short of ${coin}`)
    holding.free -= amount
  }

  /** Moves free units into the lock of `poolId`. */
  lock(account: string, coin: string, poolId: number, amount: bigint): void {
    this.debit(account, coin, amount)
    this.#addLocked(this.holding(account, coin), poolId, amount)
  }

  /** Moves units of the lock of `poolId` back to free. */
  unlock(account: string, coin: string, poolId: number, amount: bigint): void {
    const holding = this.holding(account, coin)
    this.#addLocked(holding, poolId, -amount)
    holding.free += amount
  }

  /** Removes units from the lock of `poolId` (they are paid to someone else). */
  spendLocked(account: string, coin: string, poolId: number, amount: bigint): void {
    this.#addLocked(this.holding(account, coin), poolId, -amount)
  }

  /** Sum of free and locked units of `coin` over all accounts. */
  total(coin: string): bigint {
    let sum = 0n
    for (const coins of this.#accounts.values()) {
      const holding = coins.get(coin)
      if (holding !== undefined) sum += holding.free + holding.locked
    }
    return sum
  }

  #addLocked(holding: Holding, poolId: number, delta: bigint): void {
    const next = (holding.locks.get(poolId) ?? 0n) + delta
    if (next < 0n || holding.locked + delta < 0n) throw new LedgerError('lock overdrawn')
    if (next === 0n) holding.locks.delete(poolId)
    else holding.locks.set(poolId, next)
    holding.locked += delta
  }
}
