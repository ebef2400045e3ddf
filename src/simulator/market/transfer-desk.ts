/**
 * Deposits and withdrawals: they move coins between the outside world and an account's
 * free balance, numbered by `sid` (1, 2, 3 ... across all accounts), and keep the net
 * amount per coin that conservation checks subtract.
 *
 * @packageDocumentation
 */
import { coinName } from './coins.js'
import { formatFixed } from './fixed-point.js'
import type { Ledger } from './ledger.js'
import { txId } from './random.js'
import type { TransferRecord } from './types.js'

/** The outside counterparty of every deposit and withdrawal. */
export const BRIDGE_ACCOUNT = 'bridge.venue'

/** What the desk needs from the market. */
export interface TransferHooks {
  readonly seed: number
  /** Simulated time, Unix milliseconds. */
  nowMs(): number
  /** Called with every new record and the account it belongs to. */
  onTransfer(account: string, record: TransferRecord): void
}

/** Executes and records transfers. */
export class TransferDesk {
  /** Every transfer, ascending sid. */
  readonly records: TransferRecord[] = []
  readonly #ledger: Ledger
  readonly #hooks: TransferHooks
  readonly #net = new Map<string, bigint>()
  #sid = 0

  constructor(ledger: Ledger, hooks: TransferHooks) {
    this.#ledger = ledger
    this.#hooks = hooks
  }

  /** Deposits minus withdrawals of `coin` so far, ledger units. */
  net(coin: string): bigint {
    return this.#net.get(coin) ?? 0n
  }

  /** Credits `amount` ledger units of `coin` to `account` (amount > 0). */
  deposit(account: string, coin: string, amount: bigint): TransferRecord | undefined {
    if (amount <= 0n) return undefined
    this.#ledger.credit(account, coin, amount)
    return this.#record(account, coin, amount, 'deposit')
  }

  /** Debits `amount` from the free balance; undefined (nothing happens) when it is short. */
  withdraw(account: string, coin: string, amount: bigint): TransferRecord | undefined {
    if (amount <= 0n || this.#ledger.free(account, coin) < amount) return undefined
    this.#ledger.debit(account, coin, amount)
    return this.#record(account, coin, amount, 'withdraw')
  }

  #record(
    account: string,
    coin: string,
    amount: bigint,
    side: 'deposit' | 'withdraw',
  ): TransferRecord {
    const { ref, decimals } = this.#ledger.coin(coin)
    this.#net.set(coin, this.net(coin) + (side === 'deposit' ? amount : -amount))
    const sid = String(++this.#sid)
    const record: TransferRecord = {
      amount: formatFixed(amount, decimals),
      contract: ref.contract,
      symbol: ref.symbol,
      from: side === 'deposit' ? BRIDGE_ACCOUNT : account,
      to: side === 'deposit' ? account : BRIDGE_ACCOUNT,
      tx_id: txId(this.#hooks.seed, `transfer-${sid}`),
      side,
      sid,
      name: coinName(ref.symbol),
      created_at: new Date(this.#hooks.nowMs()).toISOString(),
    }
    this.records.push(record)
    this.#hooks.onTransfer(account, record)
    return record
  }
}
