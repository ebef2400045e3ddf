/**
 * The public trades of one pool and one source, oldest first, capped so memory stays
 * bounded; latest-trades reads its tail.
 *
 * @packageDocumentation
 */
import type { PublicTradeRecord } from './types.js'

/** Public trades kept per pool and source. */
export const MAX_PUBLIC_TRADES = 10_000

/** A public trade with the market-wide sequence that orders trades across pools. */
export interface TapeEntry {
  readonly seq: number
  readonly record: PublicTradeRecord
}

/** A capped list of public trades. */
export class TradeTape {
  readonly #entries: TapeEntry[] = []

  /** Appends a trade; drops the oldest beyond {@link MAX_PUBLIC_TRADES}. */
  push(entry: TapeEntry): void {
    this.#entries.push(entry)
    if (this.#entries.length > MAX_PUBLIC_TRADES + MAX_PUBLIC_TRADES / 4) {
      this.#entries.splice(0, this.#entries.length - MAX_PUBLIC_TRADES)
    }
  }

  /** Up to `limit` newest entries, newest first. */
  latest(limit: number): TapeEntry[] {
    const count = Math.min(Math.max(0, limit), MAX_PUBLIC_TRADES, this.#entries.length)
    const found: TapeEntry[] = []
    for (let i = this.#entries.length - 1; found.length < count; i--)
      found.push(this.#entries[i] as TapeEntry)
    return found
  }

  /** Every kept entry, oldest first. */
  all(): TapeEntry[] {
    return this.#entries.slice(-MAX_PUBLIC_TRADES)
  }
}
