import type { Subscription } from 'rxjs'
import { count, firstValueFrom, lastValueFrom, map, of, take, tap, toArray } from 'rxjs'
import { TestScheduler } from 'rxjs/testing'
import { afterEach, describe, expect, it } from 'vitest'
import type { CursorPosition, CursorProgress } from '../src/index.js'
import { compareIds, memoryCheckpoint, VenueAuthError, VenueServerError } from '../src/index.js'
import { type PaginateCursorOptions, paginateCursor } from '../src/operators.js'
import { rejectionOf } from './helpers/rejection.js'

/** A record of the feed: its cursor is `seq`; `tag` tells copies of one seq apart. */
interface Item {
  readonly seq: number
  readonly tag?: string
}

const item = (seq: number, tag?: string): Item => (tag === undefined ? { seq } : { seq, tag })
const items = (...seqs: number[]): Item[] => seqs.map((seq) => item(seq))
const seqsOf = (list: readonly Item[]): number[] => list.map((i) => i.seq)

/** Marble values a..z for items 1..26. */
const V: Record<string, Item> = Object.fromEntries(
  Array.from({ length: 26 }, (_, i) => [String.fromCharCode(97 + i), item(i + 1)]),
)

function testScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected))
}

/** Feed settings with small numbers (page of 3, tail every 10 ms, retries 5, 10, 20 ms). */
function options(
  scheduler: TestScheduler | undefined,
  fetchPage: PaginateCursorOptions<Item, number>['fetchPage'],
  overrides: Partial<PaginateCursorOptions<Item, number>> = {},
): PaginateCursorOptions<Item, number> {
  return {
    start: undefined,
    fetchPage,
    cursorOf: (i) => i.seq,
    compare: (a, b) => a - b,
    pageSize: 3,
    intervalMs: 10,
    retry: {
      initialMs: 5,
      maxMs: 40,
      factor: 2,
      jitter: false,
      ...(scheduler ? { scheduler } : {}),
    },
    ...(scheduler ? { scheduler } : {}),
    ...overrides,
  }
}

/** A venue of records `1..n` (each available from `availableAt[seq]`, else from 0) paging after a cursor. */
function venueOf(n: number, availableAt: Readonly<Record<number, number>> = {}) {
  const all = items(...Array.from({ length: n }, (_, i) => i + 1))
  return (cursor: number | undefined, now: number, pageSize: number): Item[] =>
    all
      .filter((i) => (cursor === undefined || i.seq > cursor) && (availableAt[i.seq] ?? 0) <= now)
      .slice(0, pageSize)
}

/** Each subscription answers after 5 ms (virtual time). */
const LATENCY = '5ms (p|)'

describe('paginateCursor: backfill and tail', () => {
  it('fetches full pages back to back, then polls the tail intervalMs after each short page was delivered, asking with the last delivered cursor', () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold, expectObservable }) => {
      // Items 1..7 exist from the start; item 8 appears at 20 ms.
      const venue = venueOf(8, { 8: 20 })
      const fetches: [at: number, cursor: number | undefined][] = []
      const feed = paginateCursor(
        options(scheduler, (cursor) => {
          fetches.push([scheduler.now(), cursor])
          return cold(LATENCY, { p: venue(cursor, scheduler.now(), 3) })
        }),
      )
      // 5: page [1,2,3] (full) -> fetch at once; 10: [4,5,6] (full) -> at once; 15: [7]
      // (short) -> wait 10; 25: fetch -> 30: [8] (short) -> wait 10; 40: fetch -> 45: [].
      expectObservable(feed, '^ 50ms !').toBe('5ms (abc)(def)g 14ms h', V)
      scheduler.flush()
      expect(fetches).toEqual([
        [0, undefined],
        [5, 3],
        [10, 6],
        [25, 7],
        [40, 8],
      ])
    })
  })

  it("measureFrom: 'start': tail polls start intervalMs apart, the answer's 5 ms included", () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold }) => {
      const venue = venueOf(7, { 7: 12 })
      const fetches: number[] = []
      const feed = paginateCursor(
        options(
          scheduler,
          (cursor) => {
            fetches.push(scheduler.now())
            return cold(LATENCY, { p: venue(cursor, scheduler.now(), 3) })
          },
          { measureFrom: 'start' },
        ),
      )
      const subscription = feed.subscribe()
      scheduler.schedule(() => subscription.unsubscribe(), 45)
      scheduler.flush()
      // 0: [1,2,3] full; 5: [4,5,6] full; 10: [] short (7 appears at 12) -> the next at 20
      // (10 after the start of the last, not 10 after its answer at 15); 20: [7]; 30; 40.
      expect(fetches).toEqual([0, 5, 10, 20, 30, 40])
    })
  })

  it('respects the start cursor (exclusive): the first page is asked after it and items at or before it are dropped', () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold, expectObservable }) => {
      const asked: (number | undefined)[] = []
      const feed = paginateCursor(
        options(
          scheduler,
          (cursor) => {
            asked.push(cursor)
            // An inclusive server: repeats the start item.
            return cold(LATENCY, { p: asked.length === 1 ? items(3, 4, 5) : [] })
          },
          { start: 3, pageSize: 4 },
        ),
      )
      expectObservable(feed, '^ 20ms !').toBe('5ms (de)', V)
      scheduler.flush()
      expect(asked).toEqual([3, 5])
    })
  })

  it('starts from the beginning when start is undefined: the first page is asked with undefined and delivered whole', () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold, expectObservable }) => {
      const asked: (number | undefined)[] = []
      const feed = paginateCursor(
        options(scheduler, (cursor) => {
          asked.push(cursor)
          return cold(LATENCY, { p: asked.length === 1 ? items(1, 2) : [] })
        }),
      )
      expectObservable(feed, '^ 12ms !').toBe('5ms (ab)', V)
      scheduler.flush()
      expect(asked).toEqual([undefined])
    })
  })

  it('reports progress after every page: phase backfill while pages are full, then tail, with pages, items and cursor', () => {
    const scheduler = testScheduler()
    const progress: CursorProgress<number>[] = []
    scheduler.run(({ cold }) => {
      const venue = venueOf(8, { 8: 20 })
      const feed = paginateCursor(
        options(scheduler, (cursor) => cold(LATENCY, { p: venue(cursor, scheduler.now(), 3) }), {
          onProgress: (p) => progress.push(p),
        }),
      )
      const subscription = feed.subscribe()
      scheduler.schedule(() => subscription.unsubscribe(), 50)
    })
    expect(progress).toEqual([
      {
        phase: 'backfill',
        pages: 1,
        items: 3,
        cursor: 3,
        held: 0,
        newest: 3,
        position: { watermark: 3, above: [] },
      },
      {
        phase: 'backfill',
        pages: 2,
        items: 6,
        cursor: 6,
        held: 0,
        newest: 6,
        position: { watermark: 6, above: [] },
      },
      {
        phase: 'tail',
        pages: 3,
        items: 7,
        cursor: 7,
        held: 0,
        newest: 7,
        position: { watermark: 7, above: [] },
      },
      {
        phase: 'tail',
        pages: 4,
        items: 8,
        cursor: 8,
        held: 0,
        newest: 8,
        position: { watermark: 8, above: [] },
      },
      {
        phase: 'tail',
        pages: 5,
        items: 8,
        cursor: 8,
        held: 0,
        newest: 8,
        position: { watermark: 8, above: [] },
      },
    ])
  })
})

describe('paginateCursor: its options', () => {
  it('refuses a missing or negative intervalMs without a pace, at the call', () => {
    for (const intervalMs of [undefined, -1, Number.NaN]) {
      const given = { ...options(undefined, () => of([])), intervalMs }
      expect(() => paginateCursor(given)).toThrow(
        'paginateCursor: intervalMs must be a number >= 0 (or give pace)',
      )
    }
  })

  it('with a pace, tails when its turn emits, and says when each page is asked for', async () => {
    let starts = 0
    const turns: number[] = []
    const pace = {
      turn: () => {
        turns.push(starts)
        return of(0)
      },
      started: () => {
        starts += 1
      },
    }
    const pages = [[], [], [{ seq: 1 }]]
    const given = {
      ...options(undefined, () => of(pages.shift() ?? [])),
      intervalMs: undefined,
      pace,
    }
    const first = await firstValueFrom(paginateCursor(given))
    expect(first).toEqual({ seq: 1 })
    // Three pages asked for, each started through the pace; two tail turns between them.
    expect(starts).toBe(3)
    expect(turns).toEqual([1, 2])
  })
})

describe('paginateCursor: leaving from inside a callback', () => {
  /**
   * Runs a feed over `items` records whose callbacks `leave` (given the subscription to
   * end) may end it; returns the cursors of the pages asked for, and checks that nothing
   * is left scheduled (no pause, no request to keep a process up).
   */
  function leaving(
    items: number,
    callbacks: (leave: () => void) => Partial<PaginateCursorOptions<Item, number>>,
  ): (number | undefined)[] {
    const scheduler = testScheduler()
    const fetches: (number | undefined)[] = []
    scheduler.run(({ cold, flush }) => {
      const venue = venueOf(items)
      let subscription: Subscription | undefined
      const feed = paginateCursor(
        options(
          scheduler,
          (cursor) => {
            fetches.push(cursor)
            return cold(LATENCY, { p: venue(cursor, scheduler.now(), 3) })
          },
          callbacks(() => subscription?.unsubscribe()),
        ),
      )
      subscription = feed.subscribe()
      flush()
      expect(scheduler.actions).toEqual([])
    })
    return fetches
  }

  for (const phase of ['backfill', 'tail'] as const) {
    it(`schedules nothing and asks nothing more when onProgress (${phase}) unsubscribes`, () => {
      const fetches = leaving(5, (leave) => ({
        onProgress: (progress) => {
          if (progress.phase === phase) leave()
        },
      }))
      // Left after the first page (full: backfill) or the second (short: tail).
      expect(fetches).toEqual(phase === 'backfill' ? [undefined] : [undefined, 3])
    })
  }

  it('asks no page after handOver ends the subscription', () => {
    const fetches = leaving(2, (leave) => ({
      handOver: () => {
        leave()
        return 'next'
      },
    }))
    expect(fetches).toEqual([undefined])
  })
})

describe('paginateCursor: each item exactly once, ascending', () => {
  it('drops overlapping and repeated pages, sorts an unsorted page and drops duplicates within a page', () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold, expectObservable }) => {
      const pages: Item[][] = [
        items(1, 2, 3),
        // Overlaps the previous page.
        items(2, 3, 4),
        // Unsorted, and repeats the cursor.
        items(6, 4, 5),
        // A duplicate within the page.
        [item(7), item(7, 'copy'), item(8)],
        // The same page again as the one before: nothing new, full but not moving.
        [item(7), item(7, 'copy'), item(8)],
        // Overlapping and short.
        items(8, 9),
      ]
      const asked: (number | undefined)[] = []
      const feed = paginateCursor(
        options(scheduler, (cursor) => {
          asked.push(cursor)
          return cold(LATENCY, { p: pages[asked.length - 1] ?? [] })
        }),
      )
      // 5: abc | 10: d | 15: ef | 20: gh | 25: nothing new, wait 10 | 35: fetch -> 40: i
      expectObservable(feed, '^ 45ms !').toBe('5ms (abc)d 4ms (ef)-(gh) 16ms i', V)
      scheduler.flush()
      expect(asked).toEqual([undefined, 3, 4, 6, 8, 8])
    })
  })

  it('orders string ids past 2^53 as integers with compareIds (watchTransfers cursors)', () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold, expectObservable }) => {
      interface IdRecord {
        readonly sid: string
      }
      const asked: (string | undefined)[] = []
      const feed = paginateCursor<IdRecord, string>({
        start: '9',
        fetchPage: (cursor) => {
          asked.push(cursor)
          const page: IdRecord[] =
            asked.length === 1
              ? [{ sid: '9007199254740993' }, { sid: '10' }, { sid: '9' }, { sid: '100' }]
              : []
          return cold(LATENCY, { p: page })
        },
        cursorOf: (r) => r.sid,
        compare: compareIds,
        pageSize: 5,
        intervalMs: 10,
        retry: { initialMs: 5, maxMs: 40, factor: 2, jitter: false, scheduler },
        scheduler,
      })
      expectObservable(feed.pipe(map((r) => r.sid)), '^ 20ms !').toBe('5ms (abc)', {
        a: '10',
        b: '100',
        c: '9007199254740993',
      })
      scheduler.flush()
      expect(asked).toEqual(['9', '9007199254740993'])
    })
  })

  it('waits intervalMs after a full page that does not move the cursor instead of asking again at once (no hot loop)', () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold, expectObservable }) => {
      const fetches: [at: number, cursor: number | undefined][] = []
      const feed = paginateCursor(
        options(scheduler, (cursor) => {
          fetches.push([scheduler.now(), cursor])
          // Always the same full page, every item at or before the cursor after the first.
          return cold(LATENCY, { p: items(1, 2, 3) })
        }),
      )
      expectObservable(feed, '^ 40ms !').toBe('5ms (abc)', V)
      scheduler.flush()
      // 0: first page (moves) -> 5 at once -> 10: full but stale -> wait 10 -> 20 -> 25 ... 35
      expect(fetches).toEqual([
        [0, undefined],
        [5, 3],
        [20, 3],
        [35, 3],
      ])
    })
  })
})

describe('paginateCursor: failures', () => {
  it('retries a failed page (retryable VenueServerError) with backoff from the same cursor, with no duplicate and no loss', () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold, expectObservable }) => {
      const down = new VenueServerError('503 from the venue', { status: 503 })
      const fetches: [at: number, cursor: number | undefined][] = []
      const feed = paginateCursor(
        options(scheduler, (cursor) => {
          fetches.push([scheduler.now(), cursor])
          const call = fetches.length
          if (call === 1) return cold(LATENCY, { p: items(1, 2, 3) })
          if (call === 2 || call === 3) return cold('5ms #', undefined, down)
          return cold(LATENCY, { p: call === 4 ? items(4, 5) : [] })
        }),
      )
      // 5: abc; 10: error -> wait 5 -> 15 fetch, 20 error -> wait 10 -> 30 fetch, 35: de.
      expectObservable(feed, '^ 40ms !').toBe('5ms (abc) 25ms (de)', V)
      scheduler.flush()
      expect(fetches).toEqual([
        [0, undefined],
        [5, 3],
        [15, 3],
        [30, 3],
      ])
    })
  })

  it('ends the feed with a non-retryable error (VenueAuthError) at once', () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold, expectObservable }) => {
      const denied = new VenueAuthError('invalid-key', 'invalid API key', { status: 401 })
      let calls = 0
      const feed = paginateCursor(
        options(scheduler, () => {
          calls += 1
          return calls === 1
            ? cold(LATENCY, { p: items(1, 2, 3) })
            : cold('5ms #', undefined, denied)
        }),
      )
      expectObservable(feed).toBe('5ms (abc) #', V, denied)
      scheduler.flush()
      expect(calls).toBe(2)
    })
  })

  it('ends the feed with the error of a save that throws, after the item it was saving', () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold, expectObservable }) => {
      const full = new Error('disk full')
      const feed = paginateCursor(
        options(scheduler, () => cold(LATENCY, { p: items(1, 2, 3) }), {
          save: () => {
            throw full
          },
        }),
      )
      expectObservable(feed).toBe('5ms (a#)', V, full)
    })
  })

  it('ends the feed with the error of a save that rejects, after the item it was saving', async () => {
    const full = new Error('disk full')
    const seen: Item[] = []
    const feed = paginateCursor(
      options(undefined, async () => items(1, 2, 3), {
        save: async () => {
          throw full
        },
      }),
    )
    const error = await rejectionOf(lastValueFrom(feed.pipe(tap((i) => seen.push(i)))))
    expect(error).toBe(full)
    expect(seqsOf(seen)).toEqual([1])
  })
})

// fetchPage answering with a promise (the REST client's): the same retries, errors and
// aborts as an Observable answer above.
describe('paginateCursor: pages answered by promises', () => {
  it('retries a rejected page (retryable) with backoff from the same cursor, noticing each retry, with no duplicate and no loss', async () => {
    const down = new VenueServerError('503 from the venue', { status: 503 })
    const asked: (number | undefined)[] = []
    const notices: { attempt: number; error: unknown }[] = []
    const seen = await firstValueFrom(
      paginateCursor(
        options(
          undefined,
          async (cursor) => {
            asked.push(cursor)
            if (asked.length === 2 || asked.length === 3) throw down
            return asked.length === 1 ? items(1, 2, 3) : asked.length === 4 ? items(4, 5) : []
          },
          {
            retry: {
              initialMs: 1,
              maxMs: 4,
              factor: 2,
              jitter: false,
              onRetry: ({ attempt, error }) => notices.push({ attempt, error }),
            },
          },
        ),
      ).pipe(take(5), toArray()),
    )
    expect(seqsOf(seen)).toEqual([1, 2, 3, 4, 5])
    expect(asked).toEqual([undefined, 3, 3, 3])
    expect(notices).toEqual([
      { attempt: 1, error: down },
      { attempt: 2, error: down },
    ])
  })

  it('ends the feed with a non-retryable rejection at once, after the pages before it', async () => {
    const denied = new VenueAuthError('invalid-key', 'invalid API key', { status: 401 })
    const seen: Item[] = []
    let calls = 0
    const feed = paginateCursor(
      options(undefined, async () => {
        calls += 1
        if (calls === 1) return items(1, 2, 3)
        throw denied
      }),
    )
    const error = await rejectionOf(lastValueFrom(feed.pipe(tap((i) => seen.push(i)))))
    expect(error).toBe(denied)
    expect(seqsOf(seen)).toEqual([1, 2, 3])
    expect(calls).toBe(2)
  })

  it('treats a fetchPage that throws like a failed page: retried from the same cursor', async () => {
    const down = new VenueServerError('503 from the venue', { status: 503 })
    const asked: (number | undefined)[] = []
    const feed = paginateCursor(
      options(
        undefined,
        (cursor) => {
          asked.push(cursor)
          if (asked.length === 1) throw down
          return Promise.resolve(asked.length === 2 ? items(1, 2) : [])
        },
        { retry: { initialMs: 1, maxMs: 1, factor: 1, jitter: false } },
      ),
    )
    expect(seqsOf(await firstValueFrom(feed.pipe(take(2), toArray())))).toEqual([1, 2])
    expect(asked).toEqual([undefined, undefined])
  })

  it('aborts the signal of a page in flight when unsubscribed, and not that of a page answered', async () => {
    const signals: AbortSignal[] = []
    let answer: ((page: Item[]) => void) | undefined
    const feed = paginateCursor(
      options(
        undefined,
        (_cursor, signal) => {
          signals.push(signal)
          return new Promise<Item[]>((resolve) => {
            answer = resolve
          })
        },
        { intervalMs: 60_000 },
      ),
    )
    const seen: Item[] = []
    const subscription = feed.subscribe((i) => seen.push(i))
    answer?.(items(1, 2, 3))
    await settle()
    expect(seqsOf(seen)).toEqual([1, 2, 3])
    expect(signals).toHaveLength(2)
    subscription.unsubscribe()
    expect(signals.map((s) => s.aborted)).toEqual([false, true])
    // A late answer of the aborted page changes nothing.
    answer?.(items(4))
    await settle()
    expect(seqsOf(seen)).toEqual([1, 2, 3])
  })
})

/** A save whose promises the test settles by hand. */
function manualSave() {
  const calls: { readonly cursor: number; readonly resolve: () => void }[] = []
  let saved: number | undefined
  return {
    calls,
    get saved() {
      return saved
    },
    save: ({ watermark }: CursorPosition<number>) =>
      new Promise<void>((resolve) => {
        const cursor = watermark as number
        calls.push({
          cursor,
          resolve: () => {
            saved = cursor
            resolve()
          },
        })
      }),
  }
}

/** Runs every pending microtask and I/O callback: nothing else can make progress after it. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('paginateCursor: never advances past what was not delivered', () => {
  const subscriptions: { unsubscribe(): void }[] = []
  afterEach(() => {
    for (const subscription of subscriptions.splice(0)) subscription.unsubscribe()
  })

  it('does not emit the next item before the save of the previous one resolved', async () => {
    const store = manualSave()
    const seen: Item[] = []
    const feed = paginateCursor(
      options(undefined, async () => items(1, 2, 3), { save: store.save, intervalMs: 60_000 }),
    )
    subscriptions.push(feed.subscribe((i) => seen.push(i)))
    await settle()
    expect(seqsOf(seen)).toEqual([1])
    expect(store.calls.map((c) => c.cursor)).toEqual([1])

    await settle()
    expect(seqsOf(seen)).toEqual([1])

    store.calls[0]?.resolve()
    await settle()
    expect(seqsOf(seen)).toEqual([1, 2])
    expect(store.calls.map((c) => c.cursor)).toEqual([1, 2])
  })

  it('asks the next page with the cursor of the last delivered (and saved) item', async () => {
    const store = manualSave()
    const asked: (number | undefined)[] = []
    const feed = paginateCursor(
      options(
        undefined,
        async (cursor) => {
          asked.push(cursor)
          return asked.length === 1 ? items(1, 2, 3) : []
        },
        { save: store.save, intervalMs: 60_000 },
      ),
    )
    subscriptions.push(feed.subscribe())
    for (let k = 0; k < 3; k++) {
      await settle()
      // No second page while an item of the first one still waits for its save.
      expect(asked).toEqual([undefined])
      store.calls[k]?.resolve()
    }
    await settle()
    expect(asked).toEqual([undefined, 3])
  })

  it('leaves the saved cursor at the last delivered item when unsubscribed mid-page', async () => {
    const store = manualSave()
    const asked: (number | undefined)[] = []
    const seen: Item[] = []
    const feed = paginateCursor(
      options(
        undefined,
        async (cursor) => {
          asked.push(cursor)
          return items(1, 2, 3)
        },
        { save: store.save },
      ),
    )
    const subscription = feed.subscribe((i) => seen.push(i))
    await settle()
    store.calls[0]?.resolve()
    await settle()
    expect(seqsOf(seen)).toEqual([1, 2])

    // Item 2 was delivered and its save is in flight: stop now, then let the save land.
    subscription.unsubscribe()
    store.calls[1]?.resolve()
    await settle()
    expect(store.saved).toBe(2)
    expect(seqsOf(seen)).toEqual([1, 2])
    expect(store.calls.map((c) => c.cursor)).toEqual([1, 2])
    expect(asked).toEqual([undefined])
  })

  // Regression test, fixed bug: the save runs in a `defer` concatenated after `of(item)`. A consumer that stops
  // on an item (take(n), first(), takeWhile, an unsubscribe from its `next` handler)
  // unsubscribes while `of(item)` is emitting, so concat never subscribes to the save: the item
  // was delivered but its cursor is never saved, and a restart delivers it again.
  it('saves the cursor of the item a consumer stopped on (take)', async () => {
    const checkpoint = memoryCheckpoint<number>()
    const feed = paginateCursor(
      options(undefined, async () => items(1, 2, 3, 4, 5), {
        pageSize: 5,
        save: checkpoint.save,
      }),
    )
    const seen = await lastValueFrom(feed.pipe(take(2), toArray()))
    expect(seqsOf(seen)).toEqual([1, 2])
    // Actual: 1 (item 2 was delivered but not saved).
    expect(checkpoint.current).toEqual({ watermark: 2, above: [] })
  })
})

/**
 * Depth of the current call stack, in frames: counted from V8's call sites, not from a
 * formatted stack (the test runner's source-mapping of each frame cost more than the test).
 */
function stackDepth(): number {
  const format = Error.prepareStackTrace
  Error.prepareStackTrace = (_, frames) => frames.length
  try {
    const holder: { stack?: unknown } = {}
    Error.captureStackTrace(holder)
    return holder.stack as number
  } finally {
    Error.prepareStackTrace = format
  }
}

/** Runs `body` with unlimited stack traces. */
function withFullStacks<T>(body: () => T): T {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = Number.POSITIVE_INFINITY
  try {
    return body()
  } finally {
    Error.stackTraceLimit = limit
  }
}

/** Full pages of 100 consecutive seqs after the cursor, up to `total` items. */
function pageAfter(cursor: number | undefined, total: number): Item[] {
  const from = (cursor ?? 0) + 1
  const to = Math.min(total, from + 99)
  return from > to ? [] : items(...Array.from({ length: to - from + 1 }, (_, i) => from + i))
}

describe('paginateCursor: bounded', () => {
  it('delivers 2,000 pages answering in virtual time with a call stack that does not grow per page', () => {
    const scheduler = testScheduler()
    const depths: number[] = []
    let delivered = 0
    withFullStacks(() =>
      scheduler.run(({ cold }) => {
        const feed = paginateCursor(
          options(
            scheduler,
            (cursor) => {
              depths.push(stackDepth())
              return cold('1ms (p|)', { p: pageAfter(cursor, 200_000) })
            },
            { pageSize: 100 },
          ),
        )
        feed.pipe(take(200_000), count()).subscribe((n) => {
          delivered = n
        })
      }),
    )
    expect(delivered).toBe(200_000)
    expect(depths.length).toBe(2_000)
    expect(depths[1]).toBeGreaterThan(10)
    expect(depths.at(-1)).toBe(depths[1])
  })

  // Regression test, fixed bug: `startWith(delivered)` emits the start cursor before the `next` Subject is
  // subscribed. With a synchronous fetchPage the whole first page is delivered during that
  // emission, and the `next.next(delivered)` of a full page goes to a Subject with no
  // subscriber yet: the request for page 2 is lost and the feed stalls for ever, silently,
  // after the first page.
  it('keeps paging after the first full page when fetchPage answers synchronously (of(page))', () => {
    const scheduler = testScheduler()
    scheduler.run(({ expectObservable }) => {
      const feed = paginateCursor(
        options(scheduler, (cursor) => of(pageAfter(cursor, 250)), { pageSize: 100 }),
      )
      // 250 items: pages of 100, 100, 50 at frame 0.
      expectObservable(feed.pipe(take(250), count())).toBe('(n|)', { n: 250 })
    })
  })

  // Regression test, fixed bug: once the stall above is fixed (e.g. a BehaviorSubject instead of Subject +
  // startWith), synchronous pages recurse: page n+1 is subscribed from inside the completion of
  // page n's inner Observable (concatMap drains its buffer in the finalizer), about 48 frames
  // per page. Around 300 pages the stack overflows and the RangeError is swallowed inside rxjs:
  // the feed stalls with no error. Suggested fix: `new BehaviorSubject(start)` followed by
  // `observeOn(queueScheduler)` (a trampoline), which keeps the stack flat (checked: 20,000
  // synchronous pages, constant depth).
  it('delivers 20,000 items through 200 synchronous pages with a call stack that does not grow per page', () => {
    const scheduler = testScheduler()
    const depths: number[] = []
    let delivered = 0
    withFullStacks(() =>
      scheduler.run(() => {
        const feed = paginateCursor(
          options(
            scheduler,
            (cursor) => {
              depths.push(stackDepth())
              return of(pageAfter(cursor, 20_000))
            },
            { pageSize: 100 },
          ),
        )
        feed.pipe(take(20_000), count()).subscribe((n) => {
          delivered = n
        })
      }),
    )
    expect(delivered).toBe(20_000)
    expect(depths.length).toBe(200)
    expect(depths.at(-1)).toBe(depths[1])
  })

  it('delivers every item of a synchronous first page that is short (tail), then polls on', async () => {
    const feed = paginateCursor(
      options(undefined, (cursor) => of(cursor === undefined ? items(1, 2) : items(3)), {
        intervalMs: 1,
      }),
    )
    expect(seqsOf(await firstValueFrom(feed.pipe(take(3), toArray())))).toEqual([1, 2, 3])
  })
})

/** A venue whose items show at `shownAt[seq]` (default 0), each with a venue time in ms. */
function lateVenue(
  n: number,
  shownAt: Readonly<Record<number, number>>,
  timeOfSeq: (seq: number) => number = () => 0,
) {
  const all = Array.from({ length: n }, (_, i) => ({ seq: i + 1, tag: String(timeOfSeq(i + 1)) }))
  return (cursor: number | undefined, now: number, pageSize: number): Item[] =>
    all
      .filter((i) => (cursor === undefined || i.seq > cursor) && (shownAt[i.seq] ?? 0) <= now)
      .slice(0, pageSize)
}

describe("paginateCursor: the settle window (order: 'ascending')", () => {
  it('delivers an item the venue shows after a later one, in its place: 2 shows at 12 ms, after 3', () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold }) => {
      const venue = lateVenue(3, { 2: 12 })
      const delivered: [at: number, seq: number][] = []
      const asked: (number | undefined)[] = []
      const subscription = paginateCursor(
        options(
          scheduler,
          (cursor) => {
            asked.push(cursor)
            return cold(LATENCY, { p: venue(cursor, scheduler.now(), 10) })
          },
          { pageSize: 10, settleMs: 20, order: 'ascending' },
        ),
      ).subscribe((i) => delivered.push([scheduler.now(), i.seq]))
      scheduler.schedule(() => subscription.unsubscribe(), 100)
      scheduler.flush()
      // 5: [1, 3] seen, held; 20: [1, 3] again; 35: [1, 2, 3] (2 shown at 12 ms, seen at
      // 35); 1 and 3 were first seen at 5, so at 35 (>= 25) 3 is settled and everything
      // up to it goes: 1, 2, 3 in order.
      expect(delivered).toEqual([
        [35, 1],
        [35, 2],
        [35, 3],
      ])
      // Every page is asked from the cursor delivered so far: the held items are read again.
      expect(asked.slice(0, 4)).toEqual([undefined, undefined, undefined, 3])
    })
  })

  it('without the window the same venue loses the late item for good', () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold }) => {
      const venue = lateVenue(3, { 2: 12 })
      const delivered: number[] = []
      const subscription = paginateCursor(
        options(scheduler, (cursor) => cold(LATENCY, { p: venue(cursor, scheduler.now(), 10) }), {
          pageSize: 10,
        }),
      ).subscribe((i) => delivered.push(i.seq))
      scheduler.schedule(() => subscription.unsubscribe(), 100)
      scheduler.flush()
      expect(delivered).toEqual([1, 3])
    })
  })

  it('passes items at least settleMs + 1 s older than the newest of the page at once (a backfill does not wait)', () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold }) => {
      // Items 1..7, venue times 1 s apart: 7 is newest; with a 500 ms window, items at least
      // 1.5 s older (1..5) go at once, 6 and 7 wait 500 ms from when they were first seen.
      const venue = lateVenue(7, {}, (seq) => seq * 1_000)
      const delivered: [at: number, seq: number][] = []
      const subscription = paginateCursor<Item, number>(
        options(scheduler, (cursor) => cold(LATENCY, { p: venue(cursor, scheduler.now(), 10) }), {
          pageSize: 10,
          settleMs: 500,
          order: 'ascending',
          timeOf: (i) => Number(i.tag),
        }),
      ).subscribe((i) => delivered.push([scheduler.now(), i.seq]))
      scheduler.schedule(() => subscription.unsubscribe(), 1_000)
      scheduler.flush()
      expect(delivered.slice(0, 5)).toEqual([1, 2, 3, 4, 5].map((seq) => [5, seq]))
      // Seen at 5 ms; the first page asked at least 500 ms later answers at 515.
      expect(delivered.slice(5)).toEqual([
        [515, 6],
        [515, 7],
      ])
    })
  })

  it('a full page partly held goes on at once from the cursor delivered (no pause), and the checkpoint never passes a held item', () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold }) => {
      // Pages of 3; items 1..5 with venue times 0, 0, 2000, 2000, 2000 ms: on the first
      // page [1, 2, 3], 1 and 2 are 2 s older than 3 (settle 500 + 1 s) and go at once.
      const venue = lateVenue(5, {}, (seq) => (seq <= 2 ? 0 : 2_000))
      const asked: [at: number, cursor: number | undefined][] = []
      const saved: number[] = []
      const subscription = paginateCursor<Item, number>(
        options(
          scheduler,
          (cursor) => {
            asked.push([scheduler.now(), cursor])
            return cold(LATENCY, { p: venue(cursor, scheduler.now(), 3) })
          },
          {
            settleMs: 500,
            timeOf: (i) => Number(i.tag),
            order: 'ascending',
            save: ({ watermark }) => {
              saved.push(watermark as number)
            },
          },
        ),
      ).subscribe()
      scheduler.schedule(() => subscription.unsubscribe(), 600)
      scheduler.flush()
      expect(asked.slice(0, 3)).toEqual([
        [0, undefined],
        [5, 2], // at once: the full page moved the cursor
        [20, 2], // [3, 4, 5] is short and all held: the tail pause
      ])
      expect(saved.slice(0, 2)).toEqual([1, 2])
      expect(saved).toEqual([1, 2, 3, 4, 5])
    })
  })
})

describe("paginateCursor: on sight, with a watermark (order: 'on-sight', the default)", () => {
  type Marked = Item & { readonly late?: true }
  const markLate = (i: Item): Item => ({ ...i, late: true }) as Marked

  it('delivers each item the first time a page shows it, and one shown after a later one when it shows, once, marked late', () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold }) => {
      // 1 and 3 show at once; 2 only at 12 ms (after 3).
      const venue = lateVenue(3, { 2: 12 })
      const delivered: [at: number, seq: number, late: boolean][] = []
      const asked: (number | undefined)[] = []
      const subscription = paginateCursor(
        options(
          scheduler,
          (cursor) => {
            asked.push(cursor)
            return cold(LATENCY, { p: venue(cursor, scheduler.now(), 10) })
          },
          { pageSize: 10, settleMs: 20, markLate },
        ),
      ).subscribe((i) => delivered.push([scheduler.now(), i.seq, (i as Marked).late === true]))
      scheduler.schedule(() => subscription.unsubscribe(), 100)
      scheduler.flush()
      // 1 and 3 at the first answer (5 ms), not 20 ms later; 2 at the next poll's (20 ms),
      // late.
      expect(delivered).toEqual([
        [5, 1, false],
        [5, 3, false],
        [20, 2, true],
      ])
      // Pages are read from the watermark, which passes an item only once a poll starts at
      // least 20 ms after it was delivered: the poll of 30 ms passes 1 and 3 (delivered at
      // 5), and 2 with them (below 3); the next ones read after 3.
      expect(asked.slice(0, 5)).toEqual([undefined, undefined, undefined, 3, 3])
    })
  })

  it('saves the watermark and the items above it after each item; a restart from any save repeats nothing and loses nothing, across the late item', () => {
    const run = (start: CursorPosition<number> | undefined, stopAt: number) => {
      const scheduler = testScheduler()
      const delivered: number[] = []
      const saved: CursorPosition<number>[] = []
      scheduler.run(({ cold }) => {
        // 1..6; 2 shows at 12 ms and 5 at 22 ms, each after a later one (within 20 ms of
        // the later one's first sight, as the settle window promises).
        const venue = lateVenue(6, { 2: 12, 5: 22 })
        const subscription = paginateCursor(
          options(scheduler, (cursor) => cold(LATENCY, { p: venue(cursor, scheduler.now(), 3) }), {
            start: start?.watermark,
            startAbove: start?.above,
            settleMs: 20,
            save: (position) => {
              saved.push(position)
            },
          }),
        ).subscribe((i) => delivered.push(i.seq))
        scheduler.schedule(() => subscription.unsubscribe(), stopAt)
        scheduler.flush()
      })
      return { delivered, saved }
    }
    const whole = run(undefined, 200)
    expect([...whole.delivered].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6])
    // 2 came after 3 and 5 after 6: both were late.
    expect(whole.delivered.indexOf(2)).toBeGreaterThan(whole.delivered.indexOf(3))
    expect(whole.delivered.indexOf(5)).toBeGreaterThan(whole.delivered.indexOf(6))
    // Something was above the watermark at some save (the late item was still possible).
    expect(whole.saved.some((position) => position.above.length > 1)).toBe(true)
    // A restart from each save, of a run on the same venue: the two runs join exactly.
    for (const [i, position] of whole.saved.entries()) {
      const first = whole.delivered.slice(0, i + 1)
      const again = run(position, 200)
      expect([...first, ...again.delivered].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6])
    }
  })

  it('passes old items below the watermark at once by the source clock: a backfill of old items keeps nothing above it and reads each page once', () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold }) => {
      // 9 items an hour old (by the source clock at 3,600,000), pages of 3.
      const venue = lateVenue(9, {}, () => 0)
      const asked: (number | undefined)[] = []
      const positions: CursorPosition<number>[] = []
      const subscription = paginateCursor<Item, number>(
        options(
          scheduler,
          (cursor) => {
            asked.push(cursor)
            return cold(LATENCY, { p: venue(cursor, scheduler.now(), 3) })
          },
          {
            settleMs: 1_000,
            timeOf: (i) => Number(i.tag),
            sourceClock: (at) => 3_600_000 + at,
            onProgress: ({ position }) => positions.push(position),
          },
        ),
      ).subscribe()
      scheduler.schedule(() => subscription.unsubscribe(), 30)
      scheduler.flush()
      // Three full pages back to back, each from the last item of the one before, then the
      // tail from the last item: no page read twice.
      expect(asked).toEqual([undefined, 3, 6, 9])
      expect(positions.slice(0, 3)).toEqual([
        { watermark: 3, above: [] },
        { watermark: 6, above: [] },
        { watermark: 9, above: [] },
      ])
    })
  })

  it('reads a turn from the watermark page after page while they are full, and moves it only over what the turn covered', () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold }) => {
      // 7 fresh items (time 0, clock 0: none is old), pages of 3.
      const venue = lateVenue(7, {})
      const asked: [at: number, cursor: number | undefined][] = []
      const positions: CursorPosition<number>[] = []
      const subscription = paginateCursor<Item, number>(
        options(
          scheduler,
          (cursor) => {
            asked.push([scheduler.now(), cursor])
            return cold(LATENCY, { p: venue(cursor, scheduler.now(), 3) })
          },
          {
            settleMs: 20,
            timeOf: (i) => Number(i.tag),
            sourceClock: (at) => at,
            onProgress: ({ position }) => positions.push(position),
          },
        ),
      ).subscribe()
      scheduler.schedule(() => subscription.unsubscribe(), 62)
      scheduler.flush()
      // Turn 1 (0 ms): 3 pages, the last short. Turn 2 (25 ms) reads from the start again:
      // it starts 20 ms after 1..3 were delivered (at 5), so its first page moves the
      // watermark over them, not over 4..6 (delivered at 10, and not read yet in this turn).
      // Turn 3 (50 ms) reads from 3 and passes everything.
      expect(asked).toEqual([
        [0, undefined],
        [5, 3],
        [10, 6],
        [25, undefined],
        [30, 3],
        [35, 6],
        [50, 3],
        [55, 6],
      ])
      expect(positions[2]).toEqual({ watermark: undefined, above: [1, 2, 3, 4, 5, 6, 7] })
      expect(positions[3]).toEqual({ watermark: 3, above: [4, 5, 6, 7] })
      expect(positions[5]).toEqual({ watermark: 3, above: [4, 5, 6, 7] })
      expect(positions[6]).toEqual({ watermark: 6, above: [7] })
      expect(positions[7]).toEqual({ watermark: 7, above: [] })
    })
  })

  it('remembers at most maxAbove items above the watermark: newer ones wait for it to move, none is lost or repeated', () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold }) => {
      const venue = lateVenue(8, {})
      const delivered: [at: number, seq: number][] = []
      const sizes: number[] = []
      const subscription = paginateCursor<Item, number>(
        options(scheduler, (cursor) => cold(LATENCY, { p: venue(cursor, scheduler.now(), 10) }), {
          pageSize: 10,
          settleMs: 20,
          maxAbove: 3,
          onProgress: ({ position }) => sizes.push(position.above.length),
        }),
      ).subscribe((i) => delivered.push([scheduler.now(), i.seq]))
      scheduler.schedule(() => subscription.unsubscribe(), 200)
      scheduler.flush()
      expect(delivered.map(([, seq]) => seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
      expect(Math.max(...sizes)).toBeLessThanOrEqual(3)
      // The first three at once; the next ones only once the watermark moved past them.
      expect(delivered.slice(0, 3).every(([at]) => at === 5)).toBe(true)
      expect(delivered[3]?.[0]).toBeGreaterThan(5)
    })
  })
})
