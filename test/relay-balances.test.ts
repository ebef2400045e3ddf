/**
 * The relayed balances stream stores each entry as the changes only (the state, and
 * every 100th entry, the whole list): a reader from the state, applying the entries after
 * it, gets exactly the updates a polling venue gives. No Redis here: the entries go
 * through JSON as they would through Redis.
 */
import { describe, expect, it } from 'vitest'
import type { Balance, BalancesUpdate } from '../src/index.js'
import {
  BALANCES_SNAPSHOT_EVERY,
  type BalancesEntry,
  balancesDecoder,
  balancesEntry,
  balancesState,
} from '../src/relay-reader/balances-entries.js'
import { balanceChanges } from '../src/streams/watch-balances.js'
import { expectEqual } from './helpers/expect-equal.js'
import { balance } from './helpers/fixtures.js'
import { mulberry32 } from './helpers/random.js'

const coin = (i: number): Balance =>
  ({
    ...balance,
    coin: `coin${i}.ext-C${i}`,
    balance: `${1000 + i}.5`,
    locked: '0',
    locks: [],
  }) as unknown as Balance

/** Polls of balances: holdings, valuations, coins added (anywhere), removed, reordered. */
function polls(seed: number, count: number): Balance[][] {
  const random = mulberry32(seed)
  const pick = (n: number) => Math.floor(random() * n)
  let list = Array.from({ length: 25 }, (_, i) => coin(i))
  let next = 25
  const out = [list]
  for (let p = 1; p < count; p += 1) {
    list = [...list]
    const what = random()
    const at = pick(list.length)
    const one = list[at] as Balance
    if (what < 0.35) list[at] = { ...one, balance: `${pick(100_000)}.${pick(100)}` }
    else if (what < 0.45) {
      list[at] = {
        ...one,
        locked: '5',
        locks: [{ balance: '5', pool_id: pick(3), pool_symbol: 'p' }],
      } as Balance
    } else if (what < 0.6) list[at] = { ...one, stablecoin_price: `${pick(100)}.${pick(10)}` }
    else if (what < 0.7) list.splice(at, 0, coin(next++))
    else if (what < 0.75) list.push(coin(next++))
    else if (what < 0.82 && list.length > 3) list.splice(at, 1)
    else if (what < 0.85) list.reverse()
    else if (what < 0.88) {
      // A record whose fields change (one left out, or back): stored whole, not patched.
      const record: Record<string, unknown> = { ...one }
      if ('stablecoin_price' in record) delete record['stablecoin_price']
      else record['stablecoin_price'] = '1'
      list[at] = record as unknown as Balance
    }
    // else: the same list again (no update)
    out.push(list)
  }
  return out
}

/** What a polling venue emits for these polls: the first all added, then each change. */
function polled(lists: readonly Balance[][]): BalancesUpdate[] {
  const updates: BalancesUpdate[] = []
  let previous: readonly Balance[] = []
  for (const list of lists) {
    const changes = balanceChanges(previous, list)
    previous = list
    if (updates.length > 0 && changes.length === 0) continue
    updates.push({ balances: list, byCoin: new Map(list.map((b) => [b.coin, b])), changes })
  }
  return updates
}

/** What the relay stores for those updates: entries, and the state after each. */
function published(updates: readonly BalancesUpdate[]) {
  const entries: BalancesEntry[] = []
  const states: string[] = []
  let last: readonly Balance[] | undefined
  for (const [i, { balances, changes }] of updates.entries()) {
    entries.push(JSON.parse(JSON.stringify(balancesEntry(i + 1, last, balances, changes))))
    states.push(balancesState(i + 1, balances))
    last = balances
  }
  return { entries, states }
}

const asPolled = (update: BalancesUpdate) => ({ ...update, byCoin: [...update.byCoin] })

describe('relayed balances: changes per entry, the whole list in the state', () => {
  it('gives a reader from any state exactly the updates of a polling venue', () => {
    for (const seed of [1, 2, 3, 4]) {
      const updates = polled(polls(seed, 400))
      expect(updates.length).toBeGreaterThan(200)
      const { entries, states } = published(updates)
      for (const from of [0, 1, 57, 99, 150, updates.length - 1]) {
        const decode = balancesDecoder()
        const [state] = JSON.parse(states[from] as string) as unknown[]
        const got = [state, ...entries.slice(from + 1)].flatMap((event) => decode(event))
        // A late reader's first update calls every coin added, as a new poller's does.
        const first = updates[from] as BalancesUpdate
        const expected: BalancesUpdate[] = [
          {
            ...first,
            changes: first.balances.map((current) => ({
              type: 'added' as const,
              coin: current.coin,
              current,
            })),
          },
          ...updates.slice(from + 1),
        ]
        expectEqual(got.map(asPolled), expected.map(asPolled))
      }
    }
  })

  it('stores far less than the whole list per entry', () => {
    const updates = polled(polls(5, 600))
    const { entries, states } = published(updates)
    const whole = updates.map((u) => JSON.stringify({ balances: u.balances, changes: u.changes }))
    const bytes = (texts: string[]) => texts.reduce((sum, text) => sum + text.length, 0)
    const stored = bytes(entries.map((entry) => JSON.stringify(entry)))
    expect(stored * 5).toBeLessThan(bytes(whole))
    // The first entry, and every 100th.
    expect(entries.filter((entry) => entry.balances !== undefined)).toHaveLength(
      1 + Math.floor(entries.length / BALANCES_SNAPSHOT_EVERY),
    )
    expect(states.at(-1)?.length).toBeLessThan((whole.at(-1)?.length ?? 0) + 20)
  })

  it('after a gap emits nothing until an entry with the whole list, then what changed since', () => {
    const updates = polled(polls(6, 400))
    const { entries, states } = published(updates)
    const decode = balancesDecoder()
    const [state] = JSON.parse(states[10] as string) as unknown[]
    const before = [state, ...entries.slice(11, 20)].flatMap((event) => decode(event))
    const held = before.at(-1) as BalancesUpdate
    // Entries 21 to 49 are gone; the next whole list is entry 100 (index 99).
    const after = entries.slice(50).flatMap((event) => decode(event))
    const resumed = after[0] as BalancesUpdate
    expect(resumed.balances).toEqual(updates[99]?.balances)
    expect(resumed.changes).toEqual(balanceChanges(held.balances, resumed.balances))
    expect(after.slice(1).map(asPolled)).toEqual(updates.slice(100).map(asPolled))
  })

  it('reads entries of the earlier format (the whole list and the changes in each)', () => {
    const updates = polled(polls(7, 50))
    const decode = balancesDecoder()
    const old = updates.map(({ balances, changes }) => ({ balances, changes }))
    const got = old.flatMap((event) => decode(JSON.parse(JSON.stringify(event))))
    expect(got.slice(1).map(asPolled)).toEqual(updates.slice(1).map(asPolled))
  })
})
