import equal from 'fast-deep-equal'
import { map, Observable } from 'rxjs'
import { isWholeNumber } from '../checks.js'
import { backfillThenJoin } from '../core/backfill-then-join.js'
import type { MarketDataSource, RestClient } from '../rest/index.js'
import { checkPoolId, checkSource, failArgument, INTERVAL_SECONDS } from '../rest/index.js'
import { KLINE_INTERVALS, type Kline, type KlineInterval } from '../schemas/kline.js'
import type { StreamContext } from './stream-context.js'
import { streamKey } from './stream-key.js'
import { streamOptions } from './stream-options.js'
import { pollAnswers, type StreamLane, streamPipeline } from './stream-pipeline.js'

/**
 * The candle stream (`watchKlines`): the open candle as `update` events, each finished
 * candle once as a `closed` event, on the venue's own clock. How the window and the
 * closing work: docs/candles.md.
 *
 * @packageDocumentation
 */

/**
 * Options of `watchKlines`.
 *
 * @example
 * ```ts
 * // Every 1 h candle from 1 May 2024 00:00 UTC on (closed ones first), then live, V1 data
 * venue.watchKlines(0, '1h', { since: Date.UTC(2024, 4, 1), source: 'v1' })
 * ```
 */
export interface KlinesStreamOptions {
  /** V2 (order book plus AMM trades) or V1 (order book only); default the venue's `marketData`. */
  readonly source?: MarketDataSource | undefined
  /**
   * Epoch milliseconds: first deliver, as `closed` events in time order, every finished
   * candle that starts at or after this time, then go on live. `0` is the whole history.
   * A number of seconds is refused (a value from 1 to 1e11 - 1 would be early 1970).
   */
  readonly since?: number | undefined
}

/**
 * What `watchKlines` emits.
 *
 * - `update`: the open (latest) candle of the current bucket, at the start and whenever
 *   it changed. Its values are not final.
 * - `closed`: a finished candle, with its final values: exactly once per candle, in time
 *   order, once a later bucket has started on the venue's clock (or a later candle exists).
 *
 * Buckets without a trade have no candle on the venue and produce no event.
 *
 * @example
 * ```ts
 * venue.watchKlines(0, '1m').subscribe((event) => {
 *   if (event.type === 'closed') strategy.onCandle(event.candle) // final, once, in order
 *   else chart.drawLive(event.candle) // { open: '1.0454', high: '1.0461', ..., timestamp }
 * })
 * ```
 */
export type KlineEvent =
  | { readonly type: 'update'; readonly candle: Kline }
  | { readonly type: 'closed'; readonly candle: Kline }

/**
 * How long after a bucket's end (on the venue's clock) its candle is closed when no later
 * candle has shown it over yet: time for trades of the bucket's last moment to reach the
 * venue's kline data. A later candle in an answer closes the previous one at once.
 */
export const KLINE_CLOSE_DELAY_MS = 2_000

const DAY = 86_400_000

/** The longest a bucket of each interval lasts, ms (a month at most 31 days). */
const LONGEST_MS = Object.fromEntries(
  Object.entries(INTERVAL_SECONDS).map(([interval, seconds]) => [interval, seconds * 1000]),
) as Readonly<Record<KlineInterval, number>>

/**
 * Buckets per query window. With one candle per bucket a window holds at most 94 candles
 * (90 months of 31 days hold 93 month starts), under the 100 the venue is assumed to serve.
 */
const PAGE_BUCKETS = 90
/** Kline requests of one poll at most (a long backfill goes on at the next poll). */
const MAX_PAGES_PER_POLL = 100
/** Closed candles a run keeps for subscribers that join it after a backfill of their own. */
const HISTORY = 100
/** `since` from 1 to this - 1 looks like Unix seconds (before 3 March 1973). */
const MIN_SINCE_MS = 1e11
/** Above this, `since` is no longer Unix seconds the venue takes (1e11 s). */
const MAX_SINCE_MS = 1e14

/** The end of the bucket starting at `start` (epoch ms): its start plus its length. */
function bucketEnd(interval: KlineInterval, start: number): number {
  if (interval !== '1M') return start + LONGEST_MS[interval]
  // The month of the bucket, read at its middle: right whatever time zone the venue's
  // months start in. `Date` reads no clock here, it only does calendar arithmetic.
  const middle = new Date(start + 15 * DAY)
  const days = new Date(Date.UTC(middle.getUTCFullYear(), middle.getUTCMonth() + 1, 0)).getUTCDate()
  return start + days * DAY
}

/** One poll's result, shared by every subscriber of a run. */
interface KlineState {
  /** The venue's time at this poll (its `ping`), epoch ms; never goes back within a run. */
  readonly asOf: number
  /** The latest closed candles, ascending (the last `HISTORY`, or more if one poll closed more). */
  readonly closed: readonly Kline[]
  /** Every candle this run closed that starts at or after this time is in `closed`. */
  readonly coveredFrom: number
  /** No candle that starts before this time will be emitted any more: it is closed or history. */
  readonly settled: number
  /** The candle of the bucket in progress; undefined when it has none or during a backfill. */
  readonly open: Kline | undefined
}

function sameKline(a: Kline, b: Kline | undefined): boolean {
  return b !== undefined && equal(a, b)
}

/** Ascending by start, one candle per start (the last one given wins). */
function ascending(candles: readonly Kline[]): Kline[] {
  const byStart = new Map<number, Kline>()
  for (const candle of candles) byStart.set(candle.timestamp, candle)
  return [...byStart.values()].sort((a, b) => a.timestamp - b.timestamp)
}

/**
 * The candles of one pool, interval and source, read poll by poll on the venue's clock.
 * It keeps the position of the scan between polls and across failed polls: a page that
 * came back is never asked again after a failure, and a candle closed is never closed again.
 */
class KlineScan {
  readonly #poolId: number
  readonly #interval: KlineInterval
  readonly #source: MarketDataSource
  /** The normal window, ms. */
  readonly #base: number
  /** Candles starting before this are settled (closed, or history); undefined until the first ping. */
  #floor: number | undefined
  #coveredFrom: number | undefined
  /** Where the next page starts while a backfill is under way. */
  #from: number | undefined
  /** The next window's length: grows over empty stretches of a backfill. */
  #span: number
  /** The latest candle seen that is not closed. */
  #open: Kline | undefined
  #history: readonly Kline[] = []
  /** Closed since the last successful poll. */
  #pending: Kline[] = []
  #asOf = Number.NEGATIVE_INFINITY

  constructor(
    poolId: number,
    interval: KlineInterval,
    source: MarketDataSource,
    since: number | undefined,
  ) {
    this.#poolId = poolId
    this.#interval = interval
    this.#source = source
    this.#base = PAGE_BUCKETS * LONGEST_MS[interval]
    this.#span = this.#base
    this.#floor = since
    this.#coveredFrom = since
  }

  /** One poll: the venue's time, then the candles from the open one (or the floor) up to it. */
  async poll(rest: RestClient, signal: AbortSignal): Promise<KlineState> {
    // The venue's time first: every candle read after it holds every trade before it.
    const ping = await rest.ping({ signal })
    const now = Math.max(this.#asOf, ping.timestamp)
    this.#asOf = now
    const longest = LONGEST_MS[this.#interval]
    // Without `since`: no history, only what may still be open (any bucket that ended
    // more than the close delay ago is over).
    this.#floor ??= Math.max(0, now - KLINE_CLOSE_DELAY_MS - longest)
    this.#coveredFrom ??= this.#floor

    let caughtUp = false
    for (let pages = 0; pages < MAX_PAGES_PER_POLL; pages += 1) {
      const from = this.#from ?? this.#open?.timestamp ?? this.#floor
      if (from > now && this.#open === undefined) {
        caughtUp = true // `since` is still ahead of the venue's clock
        break
      }
      const to = Math.max(from, Math.min(now, from + this.#span))
      const page = await rest.klines(
        {
          poolId: this.#poolId,
          interval: this.#interval,
          source: this.#source,
          start: Math.floor(from / 1000),
          end: Math.floor(to / 1000),
        },
        { signal },
      )
      if (page.length === 0) {
        // Nothing in [from, to]: a backfill skips it and looks further ahead next time.
        if (to >= now) {
          caughtUp = true
          break
        }
        this.#from = to
        this.#span = Math.min(this.#span * 2, MAX_SINCE_MS)
        continue
      }
      if (to - from > this.#base) {
        // A window wider than a page may have been cut short by the venue's limit: ask
        // again with half of it, until a page-sized window holds the first candles.
        this.#span = Math.max(this.#base, Math.floor((to - from) / 2))
        continue
      }
      for (const candle of ascending(page)) this.#accept(candle)
      if (to >= now) {
        caughtUp = true
        break
      }
      // The next page starts where this one ended (a candle on the boundary comes twice).
      this.#from = to
    }

    if (caughtUp) {
      this.#from = undefined
      this.#span = this.#base
      const open = this.#open
      if (
        open !== undefined &&
        now >= bucketEnd(this.#interval, open.timestamp) + KLINE_CLOSE_DELAY_MS
      ) {
        this.#close(open)
        this.#open = undefined
      }
      this.#floor = Math.max(this.#floor, now - KLINE_CLOSE_DELAY_MS - longest)
    }
    return this.#state(now, caughtUp)
  }

  #accept(candle: Kline): void {
    const floor = this.#floor as number
    if (candle.timestamp < floor) return // settled: a candle is never closed twice
    const open = this.#open
    if (open === undefined || candle.timestamp > open.timestamp) {
      // A later bucket has a candle: the open one is over.
      if (open !== undefined) this.#close(open)
      this.#open = candle
    } else if (candle.timestamp === open.timestamp) {
      this.#open = candle
    } else {
      // A candle before the open one that was not there before (it should not happen):
      // it is over, and closing it now keeps the closed candles in time order.
      this.#close(candle)
    }
  }

  #close(candle: Kline): void {
    this.#pending.push(candle)
    this.#floor = Math.max(this.#floor as number, candle.timestamp + 1)
  }

  #state(now: number, caughtUp: boolean): KlineState {
    const fresh = this.#pending
    this.#pending = []
    let closed = fresh.length === 0 ? this.#history : [...this.#history, ...fresh]
    const keep = Math.max(HISTORY, fresh.length)
    let coveredFrom = this.#coveredFrom as number
    if (closed.length > keep) {
      const dropped = closed[closed.length - keep - 1] as Kline
      coveredFrom = Math.max(coveredFrom, dropped.timestamp + 1)
      closed = closed.slice(-keep)
    }
    this.#history = closed
    this.#coveredFrom = coveredFrom
    return {
      asOf: now,
      closed,
      coveredFrom,
      settled: this.#floor as number,
      open: caughtUp ? this.#open : undefined,
    }
  }
}

/**
 * One subscriber's view of the states: each closed candle once, in order, and the open
 * candle whenever it changed. `next` is the cursor: candles starting before it were
 * delivered (or are history for this subscriber).
 */
class Follower {
  #next: number | undefined
  #open: Kline | undefined
  #asOf = Number.NEGATIVE_INFINITY

  constructor(since: number | undefined) {
    this.#next = since
  }

  /** Whether `state` holds every closed candle this subscriber still needs. */
  covers(state: KlineState): boolean {
    return this.#next !== undefined && state.coveredFrom <= this.#next
  }

  take(state: KlineState, emit: (event: KlineEvent) => void): void {
    // A live subscriber starts at the present: no closed candle from before it came.
    let next = this.#next ?? state.settled
    for (const candle of state.closed) {
      if (candle.timestamp >= next) {
        emit({ type: 'closed', candle })
        next = candle.timestamp + 1
      }
    }
    this.#next = Math.max(next, state.settled)
    // A state older than one already seen (the shared run's, met at the join after the
    // own run's newer one) must not take the open candle back.
    if (state.asOf < this.#asOf) return
    this.#asOf = state.asOf
    const open = state.open
    if (open !== undefined && open.timestamp >= this.#next && newer(open, this.#open)) {
      this.#open = open
      emit({ type: 'update', candle: open })
    }
  }
}

/**
 * Whether `candle` is news after `last` (the open candle emitted last): a later bucket, or
 * the same bucket changed without losing trades (its `count` only grows on the venue; a
 * version with fewer trades is an older read, and the ping's whole seconds cannot tell).
 */
function newer(candle: Kline, last: Kline | undefined): boolean {
  if (last === undefined || candle.timestamp > last.timestamp) return true
  return (
    candle.timestamp === last.timestamp && candle.count >= last.count && !sameKline(candle, last)
  )
}

/** `value` when it is one of {@link KLINE_INTERVALS}, else a `VenueInputError` naming `method`. */
export function checkInterval(method: string, value: unknown): KlineInterval {
  if (!(KLINE_INTERVALS as readonly unknown[]).includes(value)) {
    failArgument(
      method,
      'interval',
      `must be one of ${KLINE_INTERVALS.map((v) => JSON.stringify(v)).join(', ')}`,
      value,
    )
  }
  return value as KlineInterval
}

function checkSince(method: string, value: unknown): number | undefined {
  if (value === undefined) return undefined
  if (!isWholeNumber(value, 0)) {
    return failArgument(method, 'since', 'must be an integer of epoch milliseconds', value)
  }
  if (value > 0 && value < MIN_SINCE_MS) {
    return failArgument(
      method,
      'since',
      'must be epoch milliseconds, not seconds (0 for the whole history)',
      value,
    )
  }
  if (value >= MAX_SINCE_MS) {
    return failArgument(method, 'since', `must be epoch milliseconds below ${MAX_SINCE_MS}`, value)
  }
  return value
}

/**
 * Candles of a pool as {@link KlineEvent}s: the open candle as `update` (at the start and
 * whenever it changed), then each candle once as `closed`, in time order, when a later
 * bucket started on the venue's clock. With `since`, the closed candles from that time
 * come first. Windows follow the venue's time (`ping`), never the local clock.
 *
 * Subscribers with the same pool, interval and source share one poller (two requests a
 * poll: `ping`, then `klines`); a subscriber with `since` backfills on a poller of its
 * own, then joins the shared one. Throws `VenueInputError` at once for bad arguments.
 * docs/candles.md has the details.
 *
 * @example
 * ```ts
 * watchKlines(context, 'v2', 0, '1m', { since: Date.UTC(2024, 0, 1) }).subscribe(console.log)
 * // { type: 'closed', candle: { timestamp: 1704067200000, open: '1.0454', ... } } ... then
 * // { type: 'update', candle: { ... the candle of the current minute ... } }
 * ```
 */
export function watchKlines(
  context: StreamContext,
  defaultSource: MarketDataSource,
  poolId: number,
  interval: KlineInterval,
  options?: KlinesStreamOptions,
): Observable<KlineEvent> {
  const method = 'watchKlines'
  checkPoolId(method, poolId)
  checkInterval(method, interval)
  const given = streamOptions(method, options, ['source', 'since'])
  const source = checkSource(method, given['source'], defaultSource)
  const since = checkSince(method, given['since'])
  const key = streamKey(method, [poolId, { interval, source }])
  const scan =
    (from: number | undefined) =>
    (lane: StreamLane): Observable<KlineState> => {
      const run = new KlineScan(poolId, interval, source, from)
      return pollAnswers((rest, signal) => run.poll(rest, signal), {
        // The venue's time moves every poll: a change is a candle that moved or closed.
        changes: (before, after) =>
          !equal(before.open, after.open) ||
          before.closed.length !== after.closed.length ||
          before.closed.at(-1) !== after.closed.at(-1),
      })(lane).pipe(map((polled) => polled.value))
    }
  const shared = streamPipeline(context, key, scan(undefined))
  if (since === undefined) {
    return new Observable<KlineEvent>((subscriber) => {
      const follower = new Follower(undefined)
      return shared.subscribe({
        next: (state) => follower.take(state, (event) => subscriber.next(event)),
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      })
    })
  }
  const own = streamPipeline(context, key, scan(since), { sharing: 'own' })
  return sinceThenShared(shared, own, since)
}

/**
 * A subscriber with `since`: its own run (from `since`) until a state of the shared run
 * holds every closed candle it still needs, then the shared run alone. Both runs go
 * through the same {@link Follower}, so each candle is delivered once across the switch.
 * The shared run is listened to from the start: its replayed state may cover `since` at
 * once, and then the own run is never started.
 */
function sinceThenShared(
  shared: Observable<KlineState>,
  own: Observable<KlineState>,
  since: number,
): Observable<KlineEvent> {
  return backfillThenJoin<KlineState, KlineState, KlineEvent>(() => {
    const follower = new Follower(since)
    const take = (state: KlineState, emit: (event: KlineEvent) => void) =>
      follower.take(state, emit)
    return {
      backfill: (join) => {
        join.listen()
        return own
      },
      shared,
      fromBackfill: take,
      fromShared: take,
      covers: (state) => follower.covers(state),
      hold: 'latest',
      handOver: 'when-covered',
    }
  })
}
