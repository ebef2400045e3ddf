/**
 * When a kept answer still serves a caller: the time now on the venue's clock (its
 * scheduler's `now()`) and how old an answer may be. Without it, an answer is kept until
 * it fails.
 */
export interface LookupFreshness {
  /** Now, on the venue's clock: the time an answer asked for this call is kept under. */
  readonly now: number
  /** An answer asked `maxAgeMs` or longer before `now` is asked again. */
  readonly maxAgeMs?: number
  /** An answer asked before this time (the venue's clock) is asked again. */
  readonly notBefore?: number
}

interface Kept<V> {
  readonly answer: Promise<V>
  /** When it was asked, on the venue's clock; `undefined` when asked without a time. */
  readonly askedAt: number | undefined
}

/**
 * Answers asked once and shared, by key: the first caller of a key asks, the callers after
 * it get the same promise (in flight or settled) while it is fresh enough for them
 * ({@link LookupFreshness}); a failed answer is dropped, so that the next caller asks
 * again. The lookup reads no clock of its own: callers give the venue's time, so that it
 * runs in the streams' (virtual, in tests) time. An answer is not tied to one caller's
 * abort signal: a caller leaving must not fail the others.
 *
 * @example
 * ```ts
 * const pages = new SharedLookup<number, Order[]>()
 * const now = scheduler.now() // 5_000
 * const ask = () => rest.historyOrders({ limit: 100, offset: 0 })
 * await pages.get(0, ask, { now, maxAgeMs: 1_000 }) // asks: one request
 * await pages.get(0, ask, { now: 5_400, maxAgeMs: 1_000 }) // the same answer, no request
 * await pages.get(0, ask, { now: 6_000, maxAgeMs: 1_000 }) // 1 s old: asks again
 *
 * const account = new SharedLookup<'account', string>()
 * await account.get('account', () => rest.accountInfo().then((info) => info.chain_account))
 * // a rejected answer is forgotten: the next get asks again
 * ```
 */
export class SharedLookup<K, V> {
  readonly #kept = new Map<K, Kept<V>>()

  /**
   * The answer for `key`: the one kept, while fresh for `freshness`, else `ask()`'s (kept
   * until it fails or is replaced). `ask` throwing is a rejected answer, not kept.
   */
  get(key: K, ask: () => Promise<V>, freshness?: LookupFreshness): Promise<V> {
    const kept = this.#kept.get(key)
    if (kept !== undefined && isFresh(kept, freshness)) return kept.answer
    let answer: Promise<V>
    try {
      answer = ask()
    } catch (error) {
      this.#kept.delete(key)
      return Promise.reject(error)
    }
    const entry: Kept<V> = { answer, askedAt: freshness?.now }
    this.#kept.set(key, entry)
    answer.catch(() => {
      if (this.#kept.get(key) === entry) this.#kept.delete(key)
    })
    return answer
  }

  /** Drops the answer kept for `key`: the next {@link get} asks again. */
  forget(key: K): void {
    this.#kept.delete(key)
  }
}

function isFresh(kept: Kept<unknown>, freshness: LookupFreshness | undefined): boolean {
  if (freshness === undefined) return true
  const { now, maxAgeMs, notBefore } = freshness
  if (maxAgeMs === undefined && notBefore === undefined) return true
  // Asked without a time: its age is unknown, so it serves no caller that bounds it.
  if (kept.askedAt === undefined) return false
  if (maxAgeMs !== undefined && now - kept.askedAt >= maxAgeMs) return false
  return notBefore === undefined || kept.askedAt >= notBefore
}
