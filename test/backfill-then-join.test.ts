/**
 * backfillThenJoin on its own, in virtual time: the hand-over from a subscriber's own
 * backfill to a shared source, for a source of events (numbers 1, 2, 3, ..., held in full
 * until the join) and for a source of whole states (only the latest one held).
 */
import { Observable, startWith } from 'rxjs'
import { type RunHelpers, TestScheduler } from 'rxjs/testing'
import { describe, expect, it } from 'vitest'
import { backfillThenJoin, type JoinHandle } from '../src/core/backfill-then-join.js'

function testScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected))
}

const N = { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8, i: 9, j: 10 }
/** A backfill's pages: a letter is an item of a full page, `p` a short page (caught up). */
const PAGES = { ...N, p: null }

/** Checks when a cold source was subscribed, when a case says (`undefined`: not checked). */
function subscribedAs(
  expectSubscriptions: RunHelpers['expectSubscriptions'],
  source: { readonly subscriptions: Parameters<RunHelpers['expectSubscriptions']>[0] },
  marbles: string | string[] | undefined,
): void {
  if (marbles !== undefined) expectSubscriptions(source.subscriptions).toBe(marbles)
}

/** A shared tail already running: its latest value replayed at once, then `rest`. */
function replaying(first: number, rest: Observable<number>): Observable<number> {
  return rest.pipe(startWith(first))
}

/**
 * A paged backfill: passes each number on; at each short page it listens to the shared
 * source and ends once that is covered (as the cursor feeds' backfill does).
 */
function paged(join: JoinHandle, pages: Observable<number | null>): Observable<number> {
  return new Observable<number>((out) =>
    pages.subscribe({
      next: (n) => {
        if (n !== null) {
          out.next(n)
          return
        }
        join.listen()
        if (join.covered() === true) out.complete()
      },
      error: (error: unknown) => out.error(error),
      complete: () => out.complete(),
    }),
  )
}

/**
 * The numbers 1, 2, 3, ...: each attempt backfills on the next of `backfills`, then
 * joins `tail`, whose first value is the first number it covers.
 */
function numbers(
  backfills: readonly Observable<number | null>[],
  tail: Observable<number>,
  hold = 100,
  save?: (n: number) => PromiseLike<void> | undefined,
): Observable<number> {
  let delivered = 0
  let attempts = 0
  return backfillThenJoin<number, number, number>(() => {
    const pages = backfills[attempts]
    attempts += 1
    if (pages === undefined) throw new Error(`unexpected attempt ${attempts}`)
    return {
      backfill: (join) => paged(join, pages),
      shared: tail,
      fromBackfill: (n, emit) => {
        delivered = n
        emit(n)
      },
      fromShared: (n, emit) => {
        if (n <= delivered) return
        delivered = n
        emit(n)
        return save?.(n)
      },
      covers: (first) => delivered >= first - 1,
      hold,
      handOver: 'when-backfill-ends',
    }
  })
}

/**
 * One run of {@link numbers}: the backfill's pages, the tail (started when listened to;
 * `replay` values come at once, as from a tail already running), an optional
 * unsubscription, then what comes out and when each source was subscribed.
 */
interface EventCase {
  readonly title: string
  readonly pages: string
  readonly tail: string
  readonly replay?: readonly number[]
  readonly unsubscribe?: string
  readonly out: string
  readonly pagesSubscribed?: string
  readonly tailSubscribed?: string
}

const EVENT_CASES: readonly EventCase[] = [
  {
    title:
      'caught up before the shared source sent anything: waits, then joins at the next short page',
    pages: '-a-b-c-p---p---p',
    // Started when listened to (frame 7): 4 at frame 9, 5 at 13, 6 at 19.
    tail: '--d---e-----f',
    out: '-a-b-c-----d-e-----f',
    // The backfill ends at the short page of frame 11, the first after 4 came.
    pagesSubscribed: '^----------!',
    tailSubscribed: '-------^',
  },
  {
    title:
      'the shared source starts right where the backfill caught up: joins at once, nothing dropped',
    pages: '-a-b-c-p---p',
    replay: [4],
    tail: '--e-f',
    out: '-a-b-c-d-e-f',
    pagesSubscribed: '^------!',
  },
  {
    title:
      'the shared source starts after where the backfill caught up: pages on to it, then the held values follow',
    pages: '-a-p-b-c-d-p',
    // First value 5 at frame 3: the backfill (at 1) must reach 4 before joining.
    tail: 'e-f-g--------h',
    out: '-a---b-c-d-(efg)h',
    pagesSubscribed: '^----------!',
  },
  {
    title: 'the backfill read past where the shared source starts: the overlap is dropped',
    pages: '-a-b-c-d-e-f-p',
    // Holds 4, 5, 6 and 7 at the join: only 7 is new.
    replay: [4, 5, 6, 7],
    tail: '-------h',
    out: '-a-b-c-d-e-f-g------h',
  },
  {
    title: 'a backfill that completes short of the join point completes the stream',
    pages: '-a-p-|',
    tail: 'd-e-f-g',
    out: '-a---|',
    tailSubscribed: '---^-!',
  },
  {
    title:
      'the shared source completing after the join completes the stream once its values are out',
    pages: '-a-p',
    replay: [2],
    tail: '--(c|)',
    out: '-a-b-(c|)',
  },
  {
    title:
      'the shared source completing before the join: the held values still come, then completion',
    pages: '-a-p-b-c-p',
    tail: 'd-e|',
    out: '-a---b-c-(de|)',
  },
  {
    title: 'an error of the backfill fails the stream and drops the shared source',
    pages: '-a-p---#',
    tail: 'd',
    out: '-a-----#',
    pagesSubscribed: '^------!',
    tailSubscribed: '---^---!',
  },
  {
    title: 'an error of the shared source before the join fails the stream and drops the backfill',
    pages: '-a-p-b-c-d',
    tail: '-#',
    out: '-a--#',
    pagesSubscribed: '^---!',
  },
  {
    title: 'an error of the shared source after the join fails the stream',
    pages: '-a-p',
    replay: [2],
    tail: '--c-#',
    out: '-a-b-c-#',
  },
  {
    title: 'unsubscribing while it backfills drops both sources',
    pages: '-a-p-b-c-d-p',
    tail: 'f-g-h',
    unsubscribe: '^------!',
    out: '-a---b-',
    pagesSubscribed: '^------!',
    tailSubscribed: '---^---!',
  },
  {
    title: 'unsubscribing after the join drops the shared source',
    pages: '-a-p',
    replay: [2],
    tail: '--c-d-e',
    unsubscribe: '^------!',
    out: '-a-b-c-',
    pagesSubscribed: '^--!',
    tailSubscribed: '---^---!',
  },
]

describe('backfillThenJoin, a shared source of events', () => {
  it.each(EVENT_CASES)('$title', (c) => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const pages = cold(c.pages, PAGES)
      const tail = cold(c.tail, N)
      const shared = c.replay === undefined ? tail : tail.pipe(startWith(...c.replay))
      expectObservable(numbers([pages], shared), c.unsubscribe).toBe(c.out, N)
      subscribedAs(expectSubscriptions, pages, c.pagesSubscribed)
      subscribedAs(expectSubscriptions, tail, c.tailSubscribed)
    })
  })

  it('one value more than it may hold: both sources dropped, a new backfill from where it was', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      // The first backfill stalls after 1 while the tail sends 4, 5, 6 (hold 2).
      const first = cold('-a-p--------b', PAGES)
      const second = cold('-b-c-d-e-f-p', PAGES)
      const rest = cold('--e-f-g---h', N)
      // Start over at frame 7; the second backfill listens again at frame 18.
      expectObservable(numbers([first, second], replaying(4, rest), 2)).toBe(
        '-a------b-c-d-e-f-------g---h',
        N,
      )
      expectSubscriptions(first.subscriptions).toBe('^------!')
      expectSubscriptions(second.subscriptions).toBe('-------^----------!')
      expectSubscriptions(rest.subscriptions).toBe(['---^---!', '------------------^'])
    })
  })

  it('a pending save holds the next values until it settles', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const saves = new Saves()
      const pages = cold('-a-p', PAGES)
      const tail = replaying(2, cold('--c-d------e', N))
      // The save of 2 settles only when the test says so.
      const feed = numbers([pages], tail, 100, (n) => (n === 2 ? saves.pending() : undefined))
      // 3 and 4 wait for the save of 2 (settled at frame 8); 5 comes when the tail sends it.
      cold('--------x').subscribe(() => saves.settle())
      expectObservable(feed).toBe('-a-b----(cd)--e', N)
    })
  })
})

/** Saves the test settles at a frame of its choosing (no real time passes). */
class Saves {
  #waiting: (() => void)[] = []

  pending(): PromiseLike<void> {
    const waiting = this.#waiting
    return {
      // biome-ignore lint/suspicious/noThenProperty: a hand-made thenable the test settles
      then<R1 = void, R2 = never>(done?: ((value: undefined) => R1 | PromiseLike<R1>) | null) {
        waiting.push(() => done?.(undefined))
        return new Promise<R1 | R2>(() => {})
      },
    }
  }

  settle(): void {
    for (const done of this.#waiting.splice(0)) done()
  }
}

/** A state of a shared run: it holds every item from `from` up to `upTo`. */
interface State {
  readonly from: number
  readonly upTo: number
}

/**
 * Items from `since`: a run of its own, then the shared run, handed over once covered.
 * `passed` lists the shared states that went through `fromShared`.
 */
function items(
  own: Observable<State>,
  shared: Observable<State>,
  since: number,
): { readonly run: Observable<number>; readonly passed: State[] } {
  const passed: State[] = []
  const run = backfillThenJoin<State, State, number>(() => {
    let next = since
    const take = (state: State, emit: (n: number) => void) => {
      for (let n = Math.max(next, state.from); n <= state.upTo; n += 1) emit(n)
      next = Math.max(next, state.upTo + 1)
    }
    // Listens at once: a replayed state may cover the subscriber before its own run starts.
    return {
      hold: 'latest',
      handOver: 'when-covered',
      covers: (state) => state.from <= next,
      shared,
      fromShared: (state, emit) => {
        passed.push(state)
        take(state, emit)
      },
      fromBackfill: take,
      backfill: (join) => {
        join.listen()
        return own
      },
    }
  })
  return { run, passed }
}

/** The state holding every item from `from` up to `upTo`. */
const holding = (from: number, upTo: number): State => ({ from, upTo })

const S = {
  x: holding(1, 3),
  y: holding(1, 6),
  z: holding(1, 9),
  a: holding(6, 8),
  b: holding(7, 9),
  c: holding(8, 10),
  k: holding(6, 7),
  w: holding(0, 5),
  v: holding(2, 9),
}

/**
 * One run of {@link items} from 1: its own run, the shared run (`replay` at once, as from
 * a run already going), an optional unsubscription, then what comes out (as numbers) and
 * when each run was subscribed.
 */
interface StateCase {
  readonly title: string
  readonly own: string
  readonly shared: string
  readonly replay?: State
  readonly unsubscribe?: string
  readonly out: string
  readonly ownSubscribed?: string | string[]
  readonly sharedSubscribed?: string
}

const STATE_CASES: readonly StateCase[] = [
  {
    title: 'a replayed state that covers the subscriber at once: its own run never starts',
    own: '-x-y',
    replay: S.w,
    shared: '--------v',
    out: '(abcde)-(fghi)',
    ownSubscribed: [],
  },
  {
    title: 'joins at the value of its own run that reaches the shared state, dropping the overlap',
    own: '-x---------y---------z',
    shared: 'a-------------------b---------c',
    out: '-(abc)-----(defgh)--i---------j',
    ownSubscribed: '^----------!',
  },
  {
    title: 'joins at the shared state that arrives once its own run covers it',
    own: '-x---------y---------z',
    shared: '--------------------v---------c',
    out: '-(abc)-----(def)----(ghi)-----j',
    ownSubscribed: '^-------------------!',
  },
  {
    title: 'an error of its own run fails the stream and drops the shared run',
    own: '-x------#',
    shared: 'a',
    out: '-(abc)--#',
    sharedSubscribed: '^-------!',
  },
  {
    title: 'unsubscribing drops both runs',
    own: '-x-----y',
    shared: 'a-------b',
    unsubscribe: '^---!',
    out: '-(abc)',
    ownSubscribed: '^---!',
    sharedSubscribed: '^---!',
  },
]

describe('backfillThenJoin, a shared source of whole states', () => {
  it.each(STATE_CASES)('$title', (c) => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const own = cold<State>(c.own, S)
      const shared = cold<State>(c.shared, S)
      const run = items(own, c.replay === undefined ? shared : shared.pipe(startWith(c.replay)), 1)
      expectObservable(run.run, c.unsubscribe).toBe(c.out, N)
      subscribedAs(expectSubscriptions, own, c.ownSubscribed)
      subscribedAs(expectSubscriptions, shared, c.sharedSubscribed)
    })
  })

  it('holds only the latest state: the join takes that one alone, and it never starts over', () => {
    let passed: State[] = []
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const own = cold<State>('---------y', S)
      const shared = cold<State>('kkkkkkkkka----------b', S)
      const joined = items(own, shared, 1)
      passed = joined.passed
      expectObservable(joined.run).toBe('---------(abcdefgh)-i', N)
      expectSubscriptions(own.subscriptions).toBe('^--------!')
      expectSubscriptions(shared.subscriptions).toBe('^')
    })
    expect(passed).toEqual([S.a, S.b])
  })
})
