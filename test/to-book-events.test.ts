import { Subject } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { applyBookEvent } from '../src/book/apply-book-event.js'
import type { BookEvent, BookSide, BookSnapshot, Level } from '../src/book/book-event.js'
import type { OrderBook } from '../src/book/order-book.js'
import { type DepthPoll, toBookEvents } from '../src/streams/to-book-events.js'
import { runs, timeoutFor } from './fuzz/config.js'
import { units } from './helpers/exact-decimal.js'
import { mulberry32 } from './helpers/random.js'

const POOL = 3

// ---------------------------------------------------------------------------------------------
// Exact values, independent of src/decimal.ts: every price and quantity the generator writes
// has at most 12 decimals, so units at 12 decimals are an exact, canonical key.

const SCALE = 12
/** Exact units at 12 decimals, for ordering (few calls). */
const value = (text: string): bigint => units(text, SCALE)

/** The canonical text of a non-negative decimal: no leading or trailing zeros ('1.10' → '1.1'). */
function key(text: string): string {
  const dot = text.indexOf('.')
  const int = (dot < 0 ? text : text.slice(0, dot)).replace(/^0+(?=\d)/, '')
  const frac = dot < 0 ? '' : text.slice(dot + 1).replace(/0+$/, '')
  return frac === '' ? int : `${int}.${frac}`
}

/** A side by value, as one string: canonical `price:quantity` pairs in the order given. */
function byValue(levels: readonly Level[]): string {
  return levels.map(([price, quantity]) => `${key(price)}:${key(quantity)}`).join(' ')
}

function withoutZeros(levels: readonly Level[]): Level[] {
  return levels.filter(([, quantity]) => key(quantity) !== '0')
}

// ---------------------------------------------------------------------------------------------
// Random books: integer price ticks and quantity units in a model, written as text with
// varying trailing zeros (so the text of an unchanged level changes from poll to poll).

interface Shape {
  readonly priceDecimals: number
  readonly quantityDecimals: number
}

interface Model {
  mid: number
  readonly bids: Map<number, number>
  readonly asks: Map<number, number>
}

function fixed(n: number, decimals: number): string {
  if (decimals === 0) return String(n)
  const digits = String(n).padStart(decimals + 1, '0')
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`
}

/** One of the texts of a value: as the venue writes it, trimmed, or with an extra zero. */
function write(n: number, decimals: number, random: () => number): string {
  const text = fixed(n, decimals)
  const r = random()
  if (r < 0.8) return text
  if (r < 0.9) return text.includes('.') ? text.replace(/\.?0+$/, '') || '0' : text
  return text.includes('.') ? `${text}0` : `${text}.0`
}

function serve(model: Model, shape: Shape, random: () => number): { bids: Level[]; asks: Level[] } {
  const side = (levels: Map<number, number>, descending: boolean, lo: number, hi: number) => {
    const entries = [...levels.entries()]
    // Rarely, a level served with quantity 0 (no level at all, for the book).
    if (random() < 0.05 && hi - lo > 2) {
      const tick = lo + 1 + Math.floor(random() * (hi - lo - 1))
      if (!levels.has(tick)) entries.push([tick, 0])
    }
    entries.sort((a, b) => (descending ? b[0] - a[0] : a[0] - b[0]))
    return entries.map(
      ([tick, quantity]): Level => [
        write(tick, shape.priceDecimals, random),
        quantity === 0
          ? random() < 0.5
            ? '0'
            : '0.000'
          : write(quantity, shape.quantityDecimals, random),
      ],
    )
  }
  return {
    bids: side(model.bids, true, Math.max(1, model.mid - 50), model.mid),
    asks: side(model.asks, false, model.mid, model.mid + 50),
  }
}

function randomQuantity(random: () => number): number {
  return 1 + Math.floor(random() * 100_000)
}

function fill(model: Model, count: number, random: () => number, spread = 4 * count + 10): void {
  for (let k = 0; k < count; k++) {
    const bid = model.mid - 1 - Math.floor(random() * spread)
    if (bid >= 1) model.bids.set(bid, randomQuantity(random))
    model.asks.set(model.mid + 1 + Math.floor(random() * spread), randomQuantity(random))
  }
}

/** Moves the model on one step: a mix of tweaks, moves, emptied sides and no change at all. */
function step(model: Model, levels: number, random: () => number): void {
  const r = random()
  if (r < 0.15) return // the same book (its text may still change)
  if (r < 0.2) {
    ;(random() < 0.5 ? model.bids : model.asks).clear()
    return
  }
  if (r < 0.25) {
    model.bids.clear()
    model.asks.clear()
    fill(model, 1 + Math.floor(random() * levels), random)
    return
  }
  if (r < 0.35) {
    model.mid += Math.floor(random() * 11) - 5
    for (const tick of model.bids.keys()) if (tick >= model.mid) model.bids.delete(tick)
    for (const tick of model.asks.keys()) if (tick <= model.mid) model.asks.delete(tick)
  }
  for (const side of [model.bids, model.asks]) {
    const ticks = [...side.keys()]
    const changes = Math.max(1, Math.floor(ticks.length * 0.02 * random() * 5))
    for (let k = 0; k < changes && ticks.length > 0; k++) {
      const tick = ticks[Math.floor(random() * ticks.length)] as number
      if (random() < 0.3) side.delete(tick)
      else side.set(tick, randomQuantity(random))
    }
  }
  fill(model, Math.floor(random() * 4), random, 4 * levels + 10)
}

/** A random case: a sequence of polls with increasing timestamps. */
function randomPolls(seed: number): DepthPoll[] {
  const random = mulberry32(seed)
  const shape: Shape = {
    priceDecimals: Math.floor(random() * 5),
    quantityDecimals: Math.floor(random() * 7),
  }
  const many = random() < 0.04
  const levels = many ? 500 + Math.floor(random() * 1_500) : 1 + Math.floor(random() * 40)
  const model: Model = {
    mid: 1_000_000 + Math.floor(random() * 1_000_000),
    bids: new Map(),
    asks: new Map(),
  }
  if (random() > 0.1) fill(model, levels, random)
  const length = many ? 8 : 5 + Math.floor(random() * 30)
  const polls: DepthPoll[] = []
  let timestamp = 1_700_000_000_000
  for (let n = 0; n < length; n++) {
    const { bids, asks } = serve(model, shape, random)
    const precision = shape.priceDecimals === 0 ? '1' : fixed(1, shape.priceDecimals)
    polls.push({
      depth: { pool_id: POOL, precision, timestamp, bids, asks },
      afterRecovery: false,
    })
    // Sometimes two polls in the same millisecond: not older, so not stale.
    timestamp += random() < 0.1 ? 0 : 1 + Math.floor(random() * 1_000)
    step(model, levels, random)
  }
  return polls
}

// ---------------------------------------------------------------------------------------------
// Running polls through toBookEvents, one at a time, with the events each poll caused.

function run(polls: readonly DepthPoll[]): BookEvent[][] {
  const source = new Subject<DepthPoll>()
  let current: BookEvent[] = []
  const subscription = source.pipe(toBookEvents(POOL)).subscribe({
    next: (event) => {
      current.push(event)
    },
  })
  const perPoll: BookEvent[][] = []
  for (const poll of polls) {
    current = []
    source.next(poll)
    perPoll.push(current)
  }
  subscription.unsubscribe()
  return perPoll
}

/** An assertion that costs nothing when it holds (the property loops run many thousands). */
function check(condition: boolean, message: string): void {
  if (!condition) expect.fail(message)
}

/** Checks one delta side against the book before and the book served. */
function checkDeltaSide(
  side: BookSide,
  changes: readonly Level[],
  before: readonly Level[],
  served: readonly Level[],
  where: string,
): void {
  const previous = new Map(before.map(([p, q]) => [key(p), key(q)]))
  const next = new Map(served.map(([p, q]) => [key(p), key(q)]))
  for (let k = 1; k < changes.length; k++) {
    const a = value((changes[k - 1] as Level)[0])
    const b = value((changes[k] as Level)[0])
    check(side === 'bids' ? a > b : a < b, `${where}: ${side} changes not in side order`)
  }
  for (const [price, quantity] of changes) {
    const p = key(price)
    if (quantity === '0') {
      check(previous.has(p), `${where}: ${side} removes ${price}, which was not there`)
      check(!next.has(p), `${where}: ${side} removes ${price}, which is still served`)
    } else {
      check(next.get(p) === key(quantity), `${where}: ${side} ${price} is not as served`)
      check(previous.get(p) !== key(quantity), `${where}: ${side} ${price} did not change`)
    }
  }
  // Every level that changed is listed (the symmetric difference, no more, no less).
  let changed = 0
  for (const [p, q] of next) if (previous.get(p) !== q) changed += 1
  for (const p of previous.keys()) if (!next.has(p)) changed += 1
  check(changes.length === changed, `${where}: ${side} lists ${changes.length}, ${changed} changed`)
}

function poll(
  timestamp: number,
  bids: readonly Level[],
  asks: readonly Level[],
  afterRecovery = false,
): DepthPoll {
  return {
    depth: { pool_id: POOL, precision: '0.01', timestamp, bids: [...bids], asks: [...asks] },
    afterRecovery,
  }
}

const A_BIDS: Level[] = [
  ['1.05', '10'],
  ['1.04', '20'],
]
const A_ASKS: Level[] = [
  ['1.06', '5'],
  ['1.07', '6'],
]
const B_BIDS: Level[] = [
  ['1.05', '11'],
  ['1.03', '1'],
]

function flat(perPoll: readonly BookEvent[][]): BookEvent[] {
  return perPoll.flat()
}

/** The whole snapshot event expected for `POOL`. */
function snapshot(
  reason: BookSnapshot['reason'],
  seq: number,
  timestamp: number,
  bids: readonly Level[],
  asks: readonly Level[],
): BookSnapshot {
  return { type: 'snapshot', reason, poolId: POOL, seq, timestamp, bids, asks }
}

describe('the BookEvent law on random books', () => {
  // FUZZ_RUNS sets how many (npm run fuzz: 2,000); the same seeds, from the first.
  const CASES = runs(100)
  const SEED = 7_000

  it(`holds for ${CASES} random sequences of polls`, { timeout: timeoutFor(100, 15) }, () => {
    let deltas = 0
    let quiet = 0
    for (let c = 0; c < CASES; c++) {
      const seed = SEED + c
      const polls = randomPolls(seed)
      const perPoll = run(polls)
      let book: OrderBook | undefined
      let lastSeq = 0
      let lastServed: string | undefined
      for (let n = 0; n < polls.length; n++) {
        const where = `seed ${seed} poll ${n}`
        const depth = (polls[n] as DepthPoll).depth
        const served = { bids: withoutZeros(depth.bids), asks: withoutZeros(depth.asks) }
        const events = perPoll[n] as BookEvent[]
        const servedBids = byValue(served.bids)
        const servedAsks = byValue(served.asks)
        const unchanged = lastServed === `${servedBids} | ${servedAsks}`
        if (n === 0) {
          const [first] = events
          check(
            events.length === 1 &&
              first?.type === 'snapshot' &&
              first.reason === 'initial' &&
              first.seq === 1,
            `${where}: the first poll emits one initial snapshot, seq 1 (got ${JSON.stringify(events)})`,
          )
        } else if (unchanged) {
          check(events.length === 0, `${where}: an unchanged book emits nothing`)
          quiet += 1
        } else {
          check(
            events.length === 1 && events[0]?.type === 'delta',
            `${where}: a changed book emits one delta (got ${JSON.stringify(events)})`,
          )
        }
        for (const event of events) {
          check(event.seq === lastSeq + 1, `${where}: seq ${event.seq} after ${lastSeq}`)
          check(event.timestamp === depth.timestamp, `${where}: timestamp ${event.timestamp}`)
          check(event.poolId === POOL, `${where}: pool ${event.poolId}`)
          if (event.type === 'delta') {
            deltas += 1
            check(event.prevSeq === event.seq - 1, `${where}: prevSeq ${event.prevSeq}`)
            const before = book as OrderBook
            checkDeltaSide('bids', event.bids, before.bids, served.bids, where)
            checkDeltaSide('asks', event.asks, before.asks, served.asks, where)
          }
          book = applyBookEvent(book, event)
          lastSeq = event.seq
        }
        // After every poll, the rebuilt book is the served one, by value.
        const rebuilt = book as OrderBook
        if (byValue(rebuilt.bids) !== servedBids || byValue(rebuilt.asks) !== servedAsks) {
          expect(rebuilt.bids, `${where}: bids`).toEqual(served.bids)
          expect(rebuilt.asks, `${where}: asks`).toEqual(served.asks)
          expect.fail(`${where}: the rebuilt book differs from the served one by value`)
        }
        lastServed = `${servedBids} | ${servedAsks}`
      }
    }
    // The generator does exercise both kinds of poll.
    expect(deltas).toBeGreaterThan(CASES * 5)
    expect(quiet).toBeGreaterThan(CASES / 4)
  })

  it('sends only the text-changed levels as nothing: a book rewritten with other trailing zeros emits no event', () => {
    const first = poll(
      1,
      [
        ['1.10', '5.0'],
        ['1', '2'],
      ],
      [['1.2', '3.50']],
    )
    const second = poll(
      2,
      [
        ['1.1', '5'],
        ['1.000', '2.00'],
      ],
      [['1.20', '3.5']],
    )
    const perPoll = run([first, second])
    expect(perPoll[1]).toEqual([])
  })

  it('handles 2,000 levels a side with 1% changed', () => {
    const bids: Level[] = []
    const asks: Level[] = []
    for (let k = 0; k < 2_000; k++) {
      bids.push([fixed(500_000 - k, 4), String(k + 1)])
      asks.push([fixed(500_001 + k, 4), String(k + 1)])
    }
    const nextBids = bids.map((level, k): Level => (k % 100 === 0 ? [level[0], '7'] : level))
    const perPoll = run([poll(1, bids, asks), poll(2, nextBids, asks)])
    const event = perPoll[1]?.[0]
    expect(event?.type).toBe('delta')
    expect(event?.bids).toHaveLength(20)
    expect(event?.asks).toHaveLength(0)
  })
})

describe('toBookEvents edge cases', () => {
  it('drops a poll older than the last one applied', () => {
    const events = flat(
      run([poll(10, A_BIDS, A_ASKS), poll(5, B_BIDS, A_ASKS), poll(11, B_BIDS, A_ASKS)]),
    )
    expect(events.map((e) => e.type)).toEqual(['snapshot', 'delta'])
    expect(events[1]).toMatchObject({ seq: 2, prevSeq: 1, timestamp: 11 })
    expect(events[1]?.bids).toEqual([
      ['1.05', '11'],
      ['1.04', '0'],
      ['1.03', '1'],
    ])
  })

  it('believes a venue whose clock stepped back once three answers in a row were older', () => {
    const events = flat(
      run([
        poll(100, A_BIDS, A_ASKS),
        poll(50, B_BIDS, A_ASKS),
        poll(51, B_BIDS, A_ASKS),
        poll(52, B_BIDS, A_ASKS),
        poll(53, B_BIDS, A_ASKS),
      ]),
    )
    expect(events.map((e) => e.type)).toEqual(['snapshot', 'snapshot'])
    expect(events[1]).toMatchObject({ type: 'snapshot', reason: 'resync', seq: 2, timestamp: 52 })
    expect(events[1]?.bids).toEqual(B_BIDS)
  })

  it('hands every subscriber frozen sides, so none can add or drop a level another one holds', () => {
    const events = flat(run([poll(10, A_BIDS, A_ASKS), poll(11, B_BIDS, A_ASKS)]))
    const bids = events[0]?.bids ?? []
    expect(bids.length).toBeGreaterThan(0)
    expect(Object.isFrozen(bids)).toBe(true)
    expect(() => (bids as Level[]).push(['1', '1'])).toThrow(TypeError)
  })

  it('takes a poll with the same timestamp as the last one (not older)', () => {
    const events = flat(run([poll(10, A_BIDS, A_ASKS), poll(10, B_BIDS, A_ASKS)]))
    expect(events.map((e) => e.type)).toEqual(['snapshot', 'delta'])
  })

  it('skips a crossed book; the next uncrossed one comes as a resync snapshot', () => {
    const crossed: Level[] = [['1.06', '1']]
    const perPoll = run([
      poll(1, A_BIDS, A_ASKS),
      poll(2, crossed, A_ASKS),
      poll(3, B_BIDS, A_ASKS),
      poll(4, A_BIDS, A_ASKS),
    ])
    expect(perPoll[1]).toEqual([])
    expect(perPoll[2]).toEqual([snapshot('resync', 2, 3, B_BIDS, A_ASKS)])
    expect(perPoll[3]?.[0]).toMatchObject({ type: 'delta', seq: 3, prevSeq: 2 })
  })

  it('a crossed book at the start: the first uncrossed one is the initial snapshot', () => {
    const events = flat(run([poll(1, [['2', '1']], [['1', '1']]), poll(2, A_BIDS, A_ASKS)]))
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ type: 'snapshot', reason: 'initial', seq: 1, timestamp: 2 })
  })

  it('afterRecovery gives a resync snapshot, even of an unchanged book', () => {
    const perPoll = run([poll(1, A_BIDS, A_ASKS), poll(2, A_BIDS, A_ASKS, true)])
    expect(perPoll[1]).toEqual([snapshot('resync', 2, 2, A_BIDS, A_ASKS)])
  })

  it('afterRecovery on the very first poll is still the initial snapshot', () => {
    const events = flat(run([poll(1, A_BIDS, A_ASKS, true)]))
    expect(events[0]).toMatchObject({ type: 'snapshot', reason: 'initial' })
  })

  it('an out-of-order side gives a resync snapshot with sorted levels, then deltas from it', () => {
    const unordered: Level[] = [
      ['1.04', '20'],
      ['1.05', '10'],
      ['1.01', '3'],
    ]
    const perPoll = run([
      poll(1, A_BIDS, A_ASKS),
      poll(2, unordered, [...A_ASKS].reverse()),
      poll(
        3,
        [...unordered].sort((a, b) => Number(b[0]) - Number(a[0])),
        A_ASKS,
      ),
    ])
    const sorted: Level[] = [
      ['1.05', '10'],
      ['1.04', '20'],
      ['1.01', '3'],
    ]
    expect(perPoll[1]).toEqual([snapshot('resync', 2, 2, sorted, A_ASKS)])
    expect(perPoll[2]).toEqual([])
  })

  it('an out-of-order first poll is the initial snapshot, sorted', () => {
    const events = flat(run([poll(1, [...A_BIDS].reverse(), [...A_ASKS].reverse())]))
    expect(events).toEqual([snapshot('initial', 1, 1, A_BIDS, A_ASKS)])
  })

  it('a price served twice ("1.1" and "1.10") is one level in the resync snapshot', () => {
    const perPoll = run([
      poll(1, A_BIDS, A_ASKS),
      poll(2, A_BIDS, [
        ['1.1', '1'],
        ['1.10', '2'],
      ]),
    ])
    const event = perPoll[1]?.[0]
    expect(event).toMatchObject({ type: 'snapshot', reason: 'resync' })
    expect(event?.asks).toHaveLength(1)
  })

  it('levels served with quantity 0 are no levels: not in a snapshot, removed by a delta', () => {
    const perPoll = run([
      poll(1, [...A_BIDS, ['1.03', '0']], A_ASKS),
      poll(2, [['1.05', '10'], ['1.04', '0.00'], ...[['1.03', '0'] as Level]], A_ASKS),
    ])
    expect(perPoll[0]?.[0]?.bids).toEqual(A_BIDS)
    expect(perPoll[1]?.[0]).toMatchObject({ type: 'delta', bids: [['1.04', '0']], asks: [] })
  })

  it('an empty book, then a full one, then empty again', () => {
    const events = flat(run([poll(1, [], []), poll(2, A_BIDS, A_ASKS), poll(3, [], [])]))
    expect(events.map((e) => e.type)).toEqual(['snapshot', 'delta', 'delta'])
    expect(events[2]?.bids).toEqual([
      ['1.05', '0'],
      ['1.04', '0'],
    ])
  })

  it('each subscription has its own seq and starts with a snapshot', () => {
    const source = new Subject<DepthPoll>()
    const a: BookEvent[] = []
    const b: BookEvent[] = []
    const operator = toBookEvents(POOL)
    const sa = source.pipe(operator).subscribe((e) => a.push(e))
    source.next(poll(1, A_BIDS, A_ASKS))
    source.next(poll(2, B_BIDS, A_ASKS))
    const sb = source.pipe(operator).subscribe((e) => b.push(e))
    source.next(poll(3, A_BIDS, A_ASKS))
    sa.unsubscribe()
    sb.unsubscribe()
    expect(a.map((e) => [e.type, e.seq])).toEqual([
      ['snapshot', 1],
      ['delta', 2],
      ['delta', 3],
    ])
    expect(b.map((e) => [e.type, e.seq])).toEqual([['snapshot', 1]])
  })

  it('passes on errors and completion of the polls', () => {
    const source = new Subject<DepthPoll>()
    let error: unknown
    source.pipe(toBookEvents(POOL)).subscribe({ error: (e: unknown) => (error = e) })
    source.error(new Error('boom'))
    expect(error).toEqual(new Error('boom'))
    const done = new Subject<DepthPoll>()
    let completed = false
    done.pipe(toBookEvents(POOL)).subscribe({ complete: () => (completed = true) })
    done.complete()
    expect(completed).toBe(true)
  })

  // Regression: the timestamp was checked before afterRecovery, so a stale first answer
  // after a retry dropped the resync.
  it('a recovery whose first answer is stale still resyncs on the next answer', () => {
    // The poller marks only its first answer after a retry; when that answer is older than
    // the book (and so dropped), the recovery must not be forgotten.
    const perPoll = run([
      poll(10, A_BIDS, A_ASKS),
      poll(9, B_BIDS, A_ASKS, true),
      poll(11, B_BIDS, A_ASKS),
    ])
    expect(perPoll[1]).toEqual([])
    expect(perPoll[2]?.[0]).toMatchObject({ type: 'snapshot', reason: 'resync', seq: 2 })
  })
})
