import { filter } from 'rxjs'
import { TestScheduler } from 'rxjs/testing'
import { describe, expect, it } from 'vitest'
import { diffByKey, isEmptyDiff, type KeyedDiff, keyedDiff } from '../src/core/keyed-diff.js'

function testScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected))
}

interface Order {
  readonly id: string
  readonly qty: number
  readonly fills?: readonly number[]
}

const byId = (order: Order) => order.id

function mapOf(...orders: Order[]): Map<string, Order> {
  return new Map(orders.map((order) => [order.id, order]))
}

describe('diffByKey', () => {
  it('reports added, changed (with the previous value) and removed items', () => {
    const previous = mapOf({ id: 'a', qty: 1 }, { id: 'b', qty: 2 }, { id: 'c', qty: 3 })
    const diff = diffByKey(
      previous,
      [
        { id: 'b', qty: 5 },
        { id: 'c', qty: 3 },
        { id: 'd', qty: 4 },
      ],
      byId,
    )
    expect(diff.added).toEqual([{ id: 'd', qty: 4 }])
    expect(diff.changed).toEqual([{ previous: { id: 'b', qty: 2 }, current: { id: 'b', qty: 5 } }])
    expect(diff.removed).toEqual([{ id: 'a', qty: 1 }])
    expect(diff.current).toEqual(
      mapOf({ id: 'b', qty: 5 }, { id: 'c', qty: 3 }, { id: 'd', qty: 4 }),
    )
    expect(isEmptyDiff(diff)).toBe(false)
  })

  it('treats an item that is deeply equal but a new object as unchanged', () => {
    const previous = mapOf({ id: 'a', qty: 1, fills: [1, 2] })
    const diff = diffByKey(previous, [{ id: 'a', qty: 1, fills: [1, 2] }], byId)
    expect(isEmptyDiff(diff)).toBe(true)
  })

  it('sees a change deep inside an item', () => {
    const previous = mapOf({ id: 'a', qty: 1, fills: [1, 2] })
    const diff = diffByKey(previous, [{ id: 'a', qty: 1, fills: [1, 3] }], byId)
    expect(diff.changed).toHaveLength(1)
    expect(diff.added).toEqual([])
    expect(diff.removed).toEqual([])
  })

  it('gives an empty diff when only the order of the items changed', () => {
    const items: Order[] = [
      { id: 'a', qty: 1 },
      { id: 'b', qty: 2 },
      { id: 'c', qty: 3 },
    ]
    const diff = diffByKey(mapOf(...items), [...items].reverse(), byId)
    expect(diff).toMatchObject({ added: [], changed: [], removed: [] })
    expect(isEmptyDiff(diff)).toBe(true)
    expect([...diff.current.keys()]).toEqual(['c', 'b', 'a'])
  })

  it('reports everything as added against an empty map, in the order given', () => {
    const diff = diffByKey(
      new Map(),
      [
        { id: 'b', qty: 2 },
        { id: 'a', qty: 1 },
      ],
      byId,
    )
    expect(diff.added).toEqual([
      { id: 'b', qty: 2 },
      { id: 'a', qty: 1 },
    ])
    expect(diff.changed).toEqual([])
    expect(diff.removed).toEqual([])
  })

  it('reports everything as removed when the collection empties', () => {
    const diff = diffByKey(mapOf({ id: 'a', qty: 1 }, { id: 'b', qty: 2 }), [], byId)
    expect(diff.removed).toEqual([
      { id: 'a', qty: 1 },
      { id: 'b', qty: 2 },
    ])
    expect(diff.current.size).toBe(0)
  })

  it('matches a simple reference diff on 500 random pairs of collections', () => {
    // A small seeded generator keeps failures reproducible.
    let seed = 42
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
      return seed / 2_147_483_648
    }
    const collection = (): Order[] => {
      const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].filter(() => random() < 0.5)
      return ids
        .map((id) => ({ id, qty: Math.floor(random() * 3) }))
        .sort(() => (random() < 0.5 ? -1 : 1))
    }
    for (let round = 0; round < 500; round += 1) {
      const before = collection()
      const after = collection()
      const diff = diffByKey(mapOf(...before), after, byId)
      const beforeIds = new Set(before.map(byId))
      const afterIds = new Set(after.map(byId))
      expect(diff.added.map(byId).sort()).toEqual(
        [...afterIds].filter((id) => !beforeIds.has(id)).sort(),
      )
      expect(diff.removed.map(byId).sort()).toEqual(
        [...beforeIds].filter((id) => !afterIds.has(id)).sort(),
      )
      const changedIds = after
        .filter((order) => {
          const old = before.find((candidate) => candidate.id === order.id)
          return old !== undefined && old.qty !== order.qty
        })
        .map(byId)
        .sort()
      expect(diff.changed.map((change) => change.current.id).sort()).toEqual(changedIds)
      expect(diff.current).toEqual(mapOf(...after))
      expect(isEmptyDiff(diff)).toBe(
        diff.added.length + diff.changed.length + diff.removed.length === 0,
      )
    }
  })
})

describe('keyedDiff', () => {
  function diff(
    added: Order[],
    changed: { previous: Order; current: Order }[],
    removed: Order[],
    current: Order[],
  ): KeyedDiff<Order> {
    return { added, changed, removed, current: mapOf(...current) }
  }

  it('makes the first collection all added, then carries only what changed', () => {
    const a1 = { id: 'a', qty: 1 }
    const a2 = { id: 'a', qty: 2 }
    const b1 = { id: 'b', qty: 1 }
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('xyz|', { x: [a1], y: [a2, b1], z: [b1] })
      expectObservable(source.pipe(keyedDiff(byId))).toBe('xyz|', {
        x: diff([a1], [], [], [a1]),
        y: diff([b1], [{ previous: a1, current: a2 }], [], [a2, b1]),
        z: diff([], [], [a2], [b1]),
      })
    })
  })

  it('gives an empty diff for a collection that only changed order, which a filter can drop', () => {
    const a = { id: 'a', qty: 1 }
    const b = { id: 'b', qty: 2 }
    const b3 = { id: 'b', qty: 3 }
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('xyz|', { x: [a, b], y: [b, a], z: [b3, a] })
      const diffs = source.pipe(keyedDiff(byId))
      expectObservable(diffs).toBe('xyz|', {
        x: diff([a, b], [], [], [a, b]),
        y: diff([], [], [], [b, a]),
        z: diff([], [{ previous: b, current: b3 }], [], [b3, a]),
      })
      expectObservable(diffs.pipe(filter((change) => !isEmptyDiff(change)))).toBe('x-z|', {
        x: diff([a, b], [], [], [a, b]),
        z: diff([], [{ previous: b, current: b3 }], [], [b3, a]),
      })
    })
  })

  it('starts from empty for every subscriber', () => {
    const a = { id: 'a', qty: 1 }
    testScheduler().run(({ cold, expectObservable }) => {
      const diffs = cold('x|', { x: [a] }).pipe(keyedDiff(byId))
      expectObservable(diffs).toBe('x|', { x: diff([a], [], [], [a]) })
      expectObservable(diffs, '--^').toBe('--x|', { x: diff([a], [], [], [a]) })
    })
  })

  it('accepts any iterable, such as a Set', () => {
    const a = { id: 'a', qty: 1 }
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('x|', { x: new Set([a]) })
      expectObservable(source.pipe(keyedDiff(byId))).toBe('x|', { x: diff([a], [], [], [a]) })
    })
  })
})
