/**
 * How the relay stores the balances stream: each entry holds what changed, not the whole
 * list (about 2 KB for a few dozen coins); the state key holds the whole list, and every
 * {@link BALANCES_SNAPSHOT_EVERY}th entry does too. A reader starts from the state (or
 * a whole list) and applies the entries after it, which gives it the very updates a
 * venue polling the balances gives: every balance as listed, by coin, and the changes.
 */
import { VenueRelayError } from '../errors/venue-relay-error.js'
import type { Balance } from '../schemas/balance.js'
import {
  type BalanceChange,
  type BalancesUpdate,
  balanceChanges,
} from '../streams/watch-balances.js'

/** One entry (or the state) of a relayed balances stream. */
export interface BalancesEntry {
  /** The entries of the stream counted (the state: the entry it is current at). */
  readonly n?: number
  /** Every balance, as listed: the state, and every so many entries. */
  readonly balances?: readonly Balance[]
  /** The changes, whole (entries of venue-rx 0.1, which all hold `balances` too). */
  readonly changes?: readonly BalanceChange[]
  /** Coins added, changed (their current records, as patches) and removed, in this order. */
  readonly added?: readonly Balance[]
  readonly changed?: readonly Patch[]
  readonly removed?: readonly string[]
  /** The previous records of coins changed or removed, where not the ones listed last. */
  readonly previous?: readonly Balance[]
  /** Records of coins whose holding did not change but which differ (a valuation), as patches. */
  readonly revalued?: readonly Patch[]
  /** The order of the coins, when it is not the one the changes leave (added last). */
  readonly coins?: readonly string[]
}

/**
 * A coin's record against the one listed last: its coin and the fields that differ (a
 * record with the same fields, in the same order), or the whole record under `record`.
 */
export type Patch = { readonly coin: string } & Partial<Balance> & { readonly record?: Balance }

/** The patch from `before` to `after` (see {@link Patch}). */
function patchOf(before: Balance | undefined, after: Balance): Patch {
  const keys = Object.keys(after) as (keyof Balance)[]
  if (before === undefined || !sameKeys(Object.keys(before), keys))
    return { coin: after.coin, record: after }
  const patch: Record<string, unknown> = { coin: after.coin }
  for (const key of keys) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) patch[key] = after[key]
  }
  return patch as Patch
}

const sameKeys = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((key, i) => key === b[i])

/** The record a patch makes of the one held. */
function applyPatch(held: ReadonlyMap<string, Balance>, patch: Patch): Balance {
  if (patch.record !== undefined) return patch.record
  const before = held.get(patch.coin)
  if (before === undefined) throw malformed()
  return { ...before, ...patch }
}

/** Every this many entries, one holds the whole list (a reader after a gap goes on there). */
export const BALANCES_SNAPSHOT_EVERY = 100

const same = (a: Balance | undefined, b: Balance | undefined) =>
  JSON.stringify(a) === JSON.stringify(b)

/**
 * The entry for `update` (the `n`th of the stream), against the list published last
 * (`undefined`: none, the entry holds the whole list).
 */
export function balancesEntry(
  n: number,
  last: readonly Balance[] | undefined,
  balances: readonly Balance[],
  changes: readonly BalanceChange[],
): BalancesEntry {
  const added: Balance[] = []
  const changed: Patch[] = []
  const removed: string[] = []
  const previous: Balance[] = []
  const before = new Map((last ?? []).map((balance) => [balance.coin, balance]))
  for (const change of changes) {
    if (change.type === 'added') {
      added.push(change.current)
      continue
    }
    if (change.type === 'removed') removed.push(change.coin)
    else changed.push(patchOf(before.get(change.coin), change.current))
    if (!same(before.get(change.coin), change.previous)) previous.push(change.previous)
  }
  const lists = {
    ...(added.length > 0 ? { added } : {}),
    ...(changed.length > 0 ? { changed } : {}),
    ...(removed.length > 0 ? { removed } : {}),
    ...(previous.length > 0 ? { previous } : {}),
  }
  if (last === undefined || n % BALANCES_SNAPSHOT_EVERY === 0) return { n, balances, ...lists }
  const touched = new Set(changes.map((change) => change.coin))
  const revalued = balances
    .filter((balance) => !touched.has(balance.coin) && !same(before.get(balance.coin), balance))
    .map((balance) => patchOf(before.get(balance.coin), balance))
  const order = [...before.keys()].filter((coin) => !removed.includes(coin))
  order.push(...added.map((balance) => balance.coin))
  const coins = balances.map((balance) => balance.coin)
  const reordered = order.length !== coins.length || order.some((coin, i) => coin !== coins[i])
  return {
    n,
    ...lists,
    ...(revalued.length > 0 ? { revalued } : {}),
    ...(reordered ? { coins } : {}),
  }
}

/** The state of the stream after the `n`th entry: the whole list. */
export function balancesState(n: number, balances: readonly Balance[]): string {
  return JSON.stringify([{ n, balances }])
}

/**
 * Decodes one reader's balances entries, in order, from the state on: each to the update
 * a polling venue gives. An entry that follows a gap (entries trimmed away under a reader
 * far behind) cannot be applied: nothing is emitted until the next one with the whole
 * list, whose changes are then those since the last update emitted.
 */
export function balancesDecoder(): (event: unknown) => readonly BalancesUpdate[] {
  let held: Map<string, Balance> | undefined
  let count: number | undefined
  let gap = false
  return (event) => {
    if (typeof event !== 'object' || event === null) throw malformed()
    const entry = event as BalancesEntry
    const next = typeof entry.n === 'number' ? entry.n : undefined
    const follows = count === undefined || next === undefined || next === count + 1
    if (!follows) gap = true
    count = next
    if (entry.balances !== undefined) {
      const byCoin = new Map(entry.balances.map((balance) => [balance.coin, balance]))
      // A reader's first update calls every coin added, as a poller's does; after a gap,
      // what changed since the last update emitted.
      const changes =
        held === undefined
          ? entry.balances.map(
              (current): BalanceChange => ({ type: 'added', coin: current.coin, current }),
            )
          : gap
            ? balanceChanges([...held.values()], entry.balances)
            : (entry.changes ?? changesOf(entry, held))
      held = byCoin
      gap = false
      return [{ balances: entry.balances, byCoin: new Map(byCoin), changes }]
    }
    if (held === undefined || gap) {
      gap = true
      return []
    }
    const changes = changesOf(entry, held)
    const byCoin = new Map(held)
    for (const current of entry.added ?? []) byCoin.set(current.coin, current)
    for (const patch of [...(entry.changed ?? []), ...(entry.revalued ?? [])]) {
      byCoin.set(patch.coin, applyPatch(held, patch))
    }
    for (const coin of entry.removed ?? []) byCoin.delete(coin)
    const ordered =
      entry.coins === undefined
        ? byCoin
        : new Map(entry.coins.map((coin) => [coin, byCoin.get(coin) as Balance]))
    held = ordered
    return [{ balances: [...ordered.values()], byCoin: new Map(ordered), changes }]
  }
}

/** The changes an entry lists, against the records held before it. */
function changesOf(entry: BalancesEntry, held: ReadonlyMap<string, Balance>): BalanceChange[] {
  const { added, changed, removed } = entry
  const previousOf = (coin: string): Balance => {
    const previous = entry.previous?.find((balance) => balance.coin === coin) ?? held.get(coin)
    if (previous === undefined) throw malformed()
    return previous
  }
  return [
    ...(added ?? []).map(
      (current): BalanceChange => ({ type: 'added', coin: current.coin, current }),
    ),
    ...(changed ?? []).map(
      (patch): BalanceChange => ({
        type: 'changed',
        coin: patch.coin,
        previous: previousOf(patch.coin),
        current: applyPatch(held, patch),
      }),
    ),
    ...(removed ?? []).map(
      (coin): BalanceChange => ({ type: 'removed', coin, previous: previousOf(coin) }),
    ),
  ]
}

function malformed(): VenueRelayError {
  return new VenueRelayError("the relay's balances entry is not one venue-rx wrote", {
    retryable: false,
  })
}
