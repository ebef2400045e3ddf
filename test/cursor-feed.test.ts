/**
 * The exactly-once cursor feeds (`watchMyTrades`, `watchTransfers`) against the simulator,
 * with faults on: backfill, tail, restarts from a file checkpoint (clean and crash-like),
 * the pool filter, and the health board.
 *
 * One simulator (seed 1, 8,000 ticks: 2,181 trades and 1,211 transfers of the demo
 * account) serves every test; each test reads the ground truth when it starts.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { filter, firstValueFrom, type Observable, type Subscription, timeout } from 'rxjs'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type {
  Checkpoint,
  CursorProgress,
  HealthReport,
  TradeDetail,
  Transfer,
  Venue,
} from '../src/index.js'
import { createVenue, fileCheckpoint } from '../src/index.js'
import type {
  FaultSpec,
  Simulator,
  TradeDetailRecord,
  TransferRecord,
} from '../src/simulator/index.js'
import { startSimulator } from '../src/simulator/index.js'
import { mulberry32 } from './helpers/random.js'
import { TRANSPORT_CODES } from './helpers/simulator-venue.js'
import { WAIT_MS, waitFor } from './helpers/wait-for.js'

const SEED = 1
const HISTORY_TICKS = 8_000

/** Faults of every test: about a third of all requests fail one way or another. */
const FAULTS: FaultSpec = {
  errorRate: 0.2,
  errorStatus: 503,
  resetRate: 0.05,
  truncateRate: 0.05,
  malformedRate: 0.02,
  rateLimitRate: 0.02,
  // Retry-After: 0 keeps the run short; the wait it asks for is honoured either way.
  retryAfterSeconds: 0,
  hangRate: 0.01,
  extraFields: true,
}

let sim: Simulator
let directory: string
const cleanups: (() => Promise<void> | void)[] = []

beforeAll(async () => {
  sim = await startSimulator({ seed: SEED, clock: 'manual' })
  sim.advance(HISTORY_TICKS)
  directory = await mkdtemp(join(tmpdir(), 'venue-rx-feeds-'))
})

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  sim.faults.clear()
})

afterAll(async () => {
  await sim?.close()
  if (directory !== undefined) await rm(directory, { recursive: true, force: true })
})

function openVenue(): Venue {
  const venue = createVenue({
    baseUrl: sim.url,
    apiKey: sim.apiKey,
    pollIntervalMs: 10,
    // A settle window of three polls: the newest items are read again before delivery.
    settleMs: 30,
    requestTimeoutMs: 300,
    maxRequestsPerSecond: 100_000,
    backoff: { initialMs: 1, maxMs: 20 },
  })
  cleanups.push(() => venue.close())
  return venue
}

// --- ground truth, in the client's normal form ----------------------------------------------

function truthTrades(poolId?: number): TradeDetail[] {
  const account = sim.market.account(sim.apiKey)
  if (account === undefined) throw new Error('the demo account is missing')
  return account
    .trades()
    .filter((trade) => poolId === undefined || trade.pool_id === poolId)
    .map(normalTrade)
}

function truthTransfers(): Transfer[] {
  const account = sim.market.account(sim.apiKey)
  if (account === undefined) throw new Error('the demo account is missing')
  return account.transfers().map(normalTransfer)
}

/** The client's normalisation: Unix seconds become epoch ms; everything else as sent. */
function normalTrade(record: TradeDetailRecord): TradeDetail {
  return {
    ...record,
    timestamp: record.timestamp * 1000,
    global_seq: String(record.global_seq),
    taker_order_id: String(record.taker_order_id),
    maker_order_id: String(record.maker_order_id),
  }
}

/** The client's normalisation: ISO `created_at` becomes epoch ms. */
function normalTransfer(record: TransferRecord): Transfer {
  return { ...record, created_at: Date.parse(record.created_at) }
}

const tradeKey = (trade: TradeDetail): string => String(trade.global_seq)
const transferKey = (transfer: Transfer): string => transfer.sid

/** What separates `got` from `want` (both lists of keys): empty lists when equal. */
function differences(got: readonly string[], want: readonly string[]) {
  const wanted = new Set(want)
  const seen = new Set<string>()
  const duplicates: string[] = []
  const unexpected: string[] = []
  for (const key of got) {
    if (seen.has(key)) duplicates.push(key)
    seen.add(key)
    if (!wanted.has(key)) unexpected.push(key)
  }
  const missing = want.filter((key) => !seen.has(key))
  const outOfOrder: string[] = []
  for (let i = 1; i < got.length; i++) {
    if (BigInt(got[i] as string) <= BigInt(got[i - 1] as string)) outOfOrder.push(got[i] as string)
  }
  return {
    duplicates: duplicates.slice(0, 10),
    unexpected: unexpected.slice(0, 10),
    missing: missing.slice(0, 10),
    outOfOrder: outOfOrder.slice(0, 10),
  }
}

const NO_DIFFERENCE = { duplicates: [], unexpected: [], missing: [], outOfOrder: [] }

/** The feed's items equal the ground truth exactly: same keys in the same order, same records. */
function expectExactly<T>(got: readonly T[], want: readonly T[], key: (item: T) => string): void {
  expect(differences(got.map(key), want.map(key))).toEqual(NO_DIFFERENCE)
  expect(got.length).toBe(want.length)
  // Whole records, after the client's normalisation (extra fields stripped, times in ms).
  for (let i = 0; i < want.length; i++) {
    if (JSON.stringify(got[i]) !== JSON.stringify(want[i])) {
      expect(got[i], `record #${i} (${key(want[i] as T)})`).toEqual(want[i])
    }
  }
}

// --- running a feed ---------------------------------------------------------------------------

interface FeedRun<T, C> {
  readonly items: T[]
  readonly progress: CursorProgress<C>[]
  /** Resolves once the feed reported `tail` with `done(items)` true; rejects on a feed error. */
  readonly caughtUp: (done: (items: readonly T[]) => boolean, what: string) => Promise<void>
  readonly subscription: Subscription
}

/**
 * Subscribes to a feed built by `make` (given the `onProgress` to pass on), collecting
 * every item; `onItem` sees each item as it is delivered (it may unsubscribe).
 */
function runFeed<T, C>(
  make: (onProgress: (progress: CursorProgress<C>) => void) => Observable<T>,
  onItem?: (item: T, items: readonly T[], run: { stop(): void }) => void,
): FeedRun<T, C> {
  const items: T[] = []
  const progress: CursorProgress<C>[] = []
  let failure: unknown
  let check = () => {}
  const stopper = { stop: () => subscription.unsubscribe() }
  const subscription: Subscription = make((report) => {
    progress.push(report)
    check()
  }).subscribe({
    next: (item) => {
      items.push(item)
      onItem?.(item, items, stopper)
    },
    error: (error: unknown) => {
      failure = error
      check()
    },
  })
  cleanups.push(() => subscription.unsubscribe())
  const caughtUp = (done: (items: readonly T[]) => boolean, what: string) =>
    new Promise<void>((resolve, reject) => {
      const guard = setTimeout(
        () =>
          reject(
            new Error(
              `${what}: not caught up after 15 s (${items.length} items, last progress ${JSON.stringify(progress.at(-1))})`,
            ),
          ),
        15_000,
      )
      check = () => {
        if (failure !== undefined) {
          clearTimeout(guard)
          reject(failure)
        } else if (progress.at(-1)?.phase === 'tail' && done(items)) {
          clearTimeout(guard)
          check = () => {}
          resolve()
        }
      }
      check()
    })
  return { items, progress, caughtUp, subscription }
}

/** Waits `ms` of real time (lets a feed poll a few more times). */
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

// --- tests ------------------------------------------------------------------------------------

describe('exactly-once feeds against the faulty simulator', () => {
  afterAll(() => {
    // Over the whole run, every kind of fault asked for at 2% or more really happened (a
    // busy machine makes fewer requests: the 1% of hangs may all fall after the last one;
    // a hang at every request is test/polling-pipeline.test.ts's).
    const stats = sim.faults.stats()
    for (const kind of ['error', 'reset', 'truncate', 'malformed', 'rateLimit'] as const) {
      expect(stats[kind], `${kind} in ${JSON.stringify(stats)}`).toBeGreaterThan(0)
    }
  })

  it('backfills every trade and every transfer exactly once, ascending, equal to the ground truth', async () => {
    const trades = truthTrades()
    const transfers = truthTransfers()
    expect(trades.length).toBeGreaterThanOrEqual(2_000)
    expect(transfers.length).toBeGreaterThanOrEqual(1_000)
    sim.faults.set(FAULTS)
    const venue = openVenue()

    const tradeRun = runFeed<TradeDetail, string>((onProgress) =>
      venue.watchMyTrades({ onProgress }),
    )
    const transferRun = runFeed<Transfer, string>((onProgress) =>
      venue.watchTransfers({ onProgress }),
    )
    await Promise.all([
      tradeRun.caughtUp((items) => items.length >= trades.length, 'watchMyTrades'),
      transferRun.caughtUp((items) => items.length >= transfers.length, 'watchTransfers'),
    ])
    // A few more tail polls: nothing new may come.
    await pause(60)
    tradeRun.subscription.unsubscribe()
    transferRun.subscription.unsubscribe()

    expectExactly(tradeRun.items, trades, tradeKey)
    expectExactly(transferRun.items, transfers, transferKey)

    // Full pages of 100 while backfilling (the settle window may hold the newest items of
    // a page for the next one: a page or two more), then the tail.
    const backfill = tradeRun.progress.filter((p) => p.phase === 'backfill')
    expect(backfill.length).toBeGreaterThanOrEqual(Math.floor(trades.length / 100))
    expect(backfill.length).toBeLessThanOrEqual(Math.floor(trades.length / 100) + 2)
    expect(backfill.every((p, i) => i === 0 || p.items > (backfill[i - 1]?.items ?? 0))).toBe(true)
    expect(backfill.at(-1)?.items).toBeGreaterThanOrEqual(trades.length - 200)
    expect(tradeRun.progress.at(-1)).toMatchObject({
      phase: 'tail',
      items: trades.length,
      cursor: trades.at(-1)?.global_seq,
    })
    expect(transferRun.progress.at(-1)).toMatchObject({
      phase: 'tail',
      items: transfers.length,
      cursor: transfers.at(-1)?.sid,
    })
  })

  it('tails: after the backfill, delivers exactly the trades and transfers that happen next', async () => {
    sim.faults.set(FAULTS)
    const venue = openVenue()
    const tradesBefore = truthTrades()
    const transfersBefore = truthTransfers()
    const tradeRun = runFeed<TradeDetail, string>((onProgress) =>
      venue.watchMyTrades({ onProgress }),
    )
    const transferRun = runFeed<Transfer, string>((onProgress) =>
      venue.watchTransfers({ onProgress }),
    )
    await Promise.all([
      tradeRun.caughtUp((items) => items.length >= tradesBefore.length, 'trades backfill'),
      transferRun.caughtUp((items) => items.length >= transfersBefore.length, 'transfers backfill'),
    ])
    expectExactly(tradeRun.items, tradesBefore, tradeKey)
    expectExactly(transferRun.items, transfersBefore, transferKey)

    // Three rounds of new market activity while the feeds poll the tail.
    for (const ticks of [300, 1_000, 1]) {
      const tradesAt = tradeRun.items.length
      const transfersAt = transferRun.items.length
      sim.advance(ticks)
      const trades = truthTrades()
      const transfers = truthTransfers()
      await Promise.all([
        tradeRun.caughtUp((items) => items.length >= trades.length, `trades after ${ticks}`),
        transferRun.caughtUp(
          (items) => items.length >= transfers.length,
          `transfers after ${ticks}`,
        ),
      ])
      await pause(40)
      expectExactly(tradeRun.items.slice(tradesAt), trades.slice(tradesAt), tradeKey)
      expectExactly(transferRun.items.slice(transfersAt), transfers.slice(transfersAt), transferKey)
      expectExactly(tradeRun.items, trades, tradeKey)
      expectExactly(transferRun.items, transfers, transferKey)
    }
    expect(tradeRun.items.length).toBeGreaterThan(tradesBefore.length)
    expect(transferRun.items.length).toBeGreaterThan(transfersBefore.length)
  })

  it('a subscriber far behind backfills on its own, then joins the shared tail: both equal the truth, each trade once', async () => {
    sim.faults.set(FAULTS)
    const venue = openVenue()
    const reports: HealthReport[] = []
    const watching = venue.health.subscribe((report) => reports.push(report))
    cleanups.push(() => watching.unsubscribe())
    // A caught-up subscriber keeps the shared tail running while the market moves on.
    const live = runFeed<TradeDetail, string>((onProgress) => venue.watchMyTrades({ onProgress }))
    await live.caughtUp((items) => items.length >= truthTrades().length, 'the live feed')
    sim.advance(200)
    // A second subscriber starts from a cursor a third of the way into the history.
    const history = truthTrades()
    const from = history[Math.floor(history.length / 3)]
    const behind = runFeed<TradeDetail, string>((onProgress) =>
      venue.watchMyTrades({ onProgress, cursor: from?.global_seq }),
    )
    sim.advance(100)
    const all = truthTrades()
    await Promise.all([
      live.caughtUp((items) => items.length >= all.length, 'the live feed after the moves'),
      behind.caughtUp(
        (items) => items.length >= all.length - history.indexOf(from as TradeDetail) - 1,
        'the feed behind',
      ),
    ])
    expectExactly(live.items, all, tradeKey)
    expectExactly(behind.items, all.slice(history.indexOf(from as TradeDetail) + 1), tradeKey)
    // One shared tail; the backfill of the one behind had a key of its own, gone once its
    // watermark reached the tail's (a poll that starts settleMs after its last item).
    await firstValueFrom(
      venue.health.pipe(
        filter((report) => Object.keys(report).every((key) => !key.includes('#'))),
        timeout(WAIT_MS),
      ),
    )
    const keys = [...new Set(reports.flatMap((report) => Object.keys(report)))]
    expect(keys.filter((key) => key === 'watchMyTrades()')).toHaveLength(1)
    expect(keys.filter((key) => key.startsWith('watchMyTrades()#')).length).toBe(2)
    expect(Object.keys(reports.at(-1) ?? {})).toEqual(['watchMyTrades()'])
  })

  describe('restart from a file checkpoint', () => {
    type Stop = 'clean' | 'crash-before-save' | 'crash-during-save'

    interface FeedKind<T, C extends string | number> {
      readonly name: string
      readonly truth: () => T[]
      readonly key: (item: T) => string
      readonly cursorOf: (item: T) => C
      readonly watch: (
        venue: Venue,
        checkpoint: Checkpoint<C>,
        cursor: C,
        onProgress: (progress: CursorProgress<C>) => void,
      ) => Observable<T>
    }

    const tradesFeed: FeedKind<TradeDetail, string> = {
      name: 'watchMyTrades',
      truth: () => truthTrades(),
      key: tradeKey,
      cursorOf: (trade) => trade.global_seq,
      watch: (venue, checkpoint, cursor, onProgress) =>
        venue.watchMyTrades({ checkpoint, cursor, onProgress }),
    }
    const transfersFeed: FeedKind<Transfer, string> = {
      name: 'watchTransfers',
      truth: () => truthTransfers(),
      key: transferKey,
      cursorOf: (transfer) => transfer.sid,
      watch: (venue, checkpoint, cursor, onProgress) =>
        venue.watchTransfers({ checkpoint, cursor, onProgress }),
    }

    /**
     * Items of a restart run: the last ones of the history, after a start `cursor` (a
     * whole history per run would be most of the time budget).
     */
    const WINDOW = 700

    interface Outcome<T> {
      readonly first: readonly T[]
      readonly second: readonly T[]
      /** The ground truth after the start cursor. */
      readonly truth: readonly T[]
      /** Index (in the truth) of the item at which the first run was stopped. */
      readonly stopAt: number
      /** The cursor in the file between the two runs. */
      readonly saved: unknown
    }

    /**
     * First run with `fileCheckpoint(file)` (empty) and a start `cursor` on its own venue,
     * stopped at item `stopAt` (0-based) as `stop` says; then a second run on a NEW venue
     * with the same file and the same `cursor` option (ignored: the file holds one), to the
     * end of the tail.
     */
    async function restart<T, C extends string | number>(
      kind: FeedKind<T, C>,
      stop: Stop,
      random: () => number,
    ): Promise<Outcome<T>> {
      const history = kind.truth()
      const start = kind.cursorOf(history[history.length - WINDOW - 1] as T)
      const truth = history.slice(-WINDOW)
      const stopAt = 1 + Math.floor(random() * (truth.length - 2))
      const file = join(directory, `${kind.name}-${stop}.json`)
      await rm(file, { force: true })
      const store = fileCheckpoint<C>(file)

      // First run: the checkpoint wrapper sees each save, the item hook each delivery.
      let pendingSave: Promise<void> | undefined
      let stopFirst = () => {}
      const stopped = new Promise<void>((resolve) => {
        stopFirst = resolve
      })
      let saves = 0
      const watched: Checkpoint<C> = {
        load: () => store.load(),
        save: async (cursor) => {
          saves += 1
          if (stop === 'crash-during-save' && saves === stopAt + 1) {
            // Unsubscribe while this save is in flight (its write goes on, as it would
            // in a process that died after starting it).
            pendingSave = Promise.resolve(store.save(cursor))
            first.subscription.unsubscribe()
            stopFirst()
            return pendingSave
          }
          await store.save(cursor)
          if (stop === 'clean' && saves === stopAt + 1) {
            // Saved and acknowledged: stop before the next item is delivered.
            first.subscription.unsubscribe()
            stopFirst()
          }
        },
      }
      const venue1 = openVenue()
      const first = runFeed<T, C>(
        (onProgress) => kind.watch(venue1, watched, start, onProgress),
        (_item, items, run) => {
          if (stop === 'crash-before-save' && items.length === stopAt + 1) {
            // Right after the delivery, before its cursor was saved.
            run.stop()
            stopFirst()
          }
        },
      )
      await stopped
      await pendingSave
      await venue1.close()
      const saved = (JSON.parse(await readFile(file, 'utf8')) as { cursor: unknown }).cursor

      const venue2 = openVenue()
      const second = runFeed<T, C>((onProgress) =>
        kind.watch(venue2, fileCheckpoint<C>(file), start, onProgress),
      )
      const remaining = truth.length - (stopAt + 1)
      await second.caughtUp((items) => items.length >= remaining, `${kind.name} second run`)
      await pause(40)
      second.subscription.unsubscribe()
      return { first: [...first.items], second: [...second.items], truth, stopAt, saved }
    }

    /** Clean stop: the first run ended right after item `stopAt` was saved; no duplicate. */
    function checkClean<T, C extends string | number>(
      { first, second, truth, stopAt, saved }: Outcome<T>,
      kind: FeedKind<T, C>,
    ): void {
      expect(first.length, kind.name).toBe(stopAt + 1)
      // The position's greatest item (the file holds `[watermark, ...above]` or a cursor).
      const greatest = Array.isArray(saved) ? saved.at(-1) : saved
      expect(String(greatest), kind.name).toBe(kind.key(truth[stopAt] as T))
      expectExactly([...first, ...second], truth, kind.key)
    }

    /** Crash-like stop: at most the item being delivered comes twice, nothing is lost. */
    function checkCrash<T, C extends string | number>(
      { first, second, truth, stopAt }: Outcome<T>,
      kind: FeedKind<T, C>,
    ): void {
      const joined = [...first, ...second]
      const stoppedItem = kind.key(truth[stopAt] as T)
      const { duplicates } = differences(joined.map(kind.key), truth.map(kind.key))
      expect(duplicates.length, `${kind.name}: ${duplicates.join(',')}`).toBeLessThanOrEqual(1)
      if (duplicates.length === 1) {
        // The duplicate is the stopped item, again first in the second run.
        expect(duplicates[0], kind.name).toBe(stoppedItem)
        expect(kind.key(second[0] as T), kind.name).toBe(stoppedItem)
      }
      // Without that one repeat: exactly the truth (no loss, no reorder).
      const once = duplicates.length === 1 ? [...first, ...second.slice(1)] : joined
      expectExactly(once, truth, kind.key)
    }

    it('a clean stop and a new venue with the same file: the two runs joined equal the ground truth', async () => {
      sim.faults.set(FAULTS)
      const random = mulberry32(20_240_601)
      const [trades, transfers] = await Promise.all([
        restart(tradesFeed, 'clean', random),
        restart(transfersFeed, 'clean', random),
      ])
      checkClean(trades, tradesFeed)
      checkClean(transfers, transfersFeed)
    })

    it('a crash-like stop costs at most the one item being delivered, never a loss', async () => {
      sim.faults.set(FAULTS)
      const random = mulberry32(7)
      const outcomes = await Promise.all([
        restart(tradesFeed, 'crash-before-save', random),
        restart(transfersFeed, 'crash-before-save', random),
        restart(tradesFeed, 'crash-during-save', random),
        restart(transfersFeed, 'crash-during-save', random),
      ])
      checkCrash(outcomes[0], tradesFeed)
      checkCrash(outcomes[1], transfersFeed)
      checkCrash(outcomes[2], tradesFeed)
      checkCrash(outcomes[3], transfersFeed)
    })
  })

  it('watchMyTrades({ poolId: 1 }) equals the ground truth of pool 1', async () => {
    sim.faults.set(FAULTS)
    const venue = openVenue()
    const want = truthTrades(1)
    expect(want.length).toBeGreaterThan(300)
    expect(want.length).toBeLessThan(truthTrades().length)
    const run = runFeed<TradeDetail, string>((onProgress) =>
      venue.watchMyTrades({ poolId: 1, onProgress }),
    )
    await run.caughtUp((items) => items.length >= want.length, 'watchMyTrades({ poolId: 1 })')
    await pause(40)
    run.subscription.unsubscribe()
    expect(run.items.every((trade) => trade.pool_id === 1)).toBe(true)
    expectExactly(run.items, want, tradeKey)
  })

  // Regression test, fixed bug (src/streams/cursor-feed.ts, the pipe after `concatMap(... paginateCursor
  // ...)`): the cursor feeds do not listen to the venue's `closed` signal (unlike the registry
  // streams, which `takeUntil(closed)`), so `venue.close()` does not complete them as the
  // README and `Venue#close` promise ("their streams complete"): the next poll's request is
  // refused and the feed ERRORS with VenueAbortError ('trades: the venue is closed'), up to
  // pollIntervalMs later. Fix: give StreamContext the venue's `closed` observable and add
  // `takeUntil(context.closed)` in cursorFeed before its tap/finalize.
  it('venue.close() completes the cursor feeds (instead of failing them)', async () => {
    const venue = openVenue()
    const ends: string[] = []
    const tails = { trades: false, transfers: false }
    const observer = (name: string) => ({
      complete: () => ends.push(`${name} complete`),
      error: (error: unknown) => ends.push(`${name} error ${String(error)}`),
    })
    // Start at the last item: straight into the tail.
    venue
      .watchMyTrades({
        cursor: truthTrades().at(-1)?.global_seq,
        onProgress: (progress) => {
          tails.trades ||= progress.phase === 'tail'
        },
      })
      .subscribe(observer('watchMyTrades'))
    venue
      .watchTransfers({
        cursor: truthTransfers().at(-1)?.sid,
        onProgress: (progress) => {
          tails.transfers ||= progress.phase === 'tail'
        },
      })
      .subscribe(observer('watchTransfers'))
    while (!(tails.trades && tails.transfers)) await pause(5)
    await venue.close()
    await pause(50)
    expect(ends.sort()).toEqual(['watchMyTrades complete', 'watchTransfers complete'])
  })

  it('health shows the backfill (watchMyTrades()#n) and the shared tail (watchMyTrades()) retrying and ok while the faults last, and forgets both after unsubscribe', async () => {
    sim.faults.set(FAULTS)
    const venue = openVenue()
    const reports: HealthReport[] = []
    const watching = venue.health.subscribe((report) => reports.push(report))
    cleanups.push(() => watching.unsubscribe())
    const want = truthTrades()
    const run = runFeed<TradeDetail, string>((onProgress) => venue.watchMyTrades({ onProgress }))
    await run.caughtUp((items) => items.length >= want.length, 'watchMyTrades')
    // The tail starts when the backfill first catches up: wait for its first report.
    await waitFor(() => reports.some((report) => 'watchMyTrades()' in report), 'the tail')

    const keys = [...new Set(reports.flatMap((report) => Object.keys(report)))].sort()
    expect(keys).toHaveLength(2)
    expect(keys[0]).toBe('watchMyTrades()')
    expect(keys[1]).toMatch(/^watchMyTrades\(\)#\d+$/)
    const states = reports
      .flatMap((report) => keys.map((key) => report[key]))
      .filter((state) => state !== undefined)
    const retrying = states.filter((state) => state.state === 'retrying')
    expect(retrying.length).toBeGreaterThan(0)
    expect(states.some((state) => state.state === 'ok')).toBe(true)
    expect(states.some((state) => state.state === 'failed')).toBe(false)
    for (const state of retrying) {
      expect(TRANSPORT_CODES).toContain(state.lastErrorCode)
      expect(state.attempt).toBeGreaterThanOrEqual(1)
      expect(state.nextDelayMs).toBeLessThanOrEqual(20)
    }
    // Back to ok after a retry: for one of the keys, a later report shows ok again (the
    // tail may be between a retry and its next answer right now: wait for it).
    const recovered = () =>
      keys.some((key) => {
        const own = reports.map((report) => report[key]?.state)
        const lastRetry = own.lastIndexOf('retrying')
        return lastRetry >= 0 && own.slice(lastRetry + 1).includes('ok')
      })
    await waitFor(recovered, 'ok again after a retry')

    run.subscription.unsubscribe()
    // The backfill ended when it caught up; the tail stops after its linger.
    expect(reports.at(-1)?.[keys[1] ?? '']).toBeUndefined()
    let current: HealthReport | undefined
    venue.health.subscribe((report) => {
      current = report
    })
    await waitFor(() => current !== undefined && Object.keys(current).length === 0, 'no key left')
    expectExactly(run.items, want, tradeKey)
  })
})
