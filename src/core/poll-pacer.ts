import { asyncScheduler, Observable, type SchedulerLike, type Subscription, timer } from 'rxjs'

/**
 * How a venue spends its request budget on polls (`createVenue`'s `pacing`).
 *
 * - `'adaptive'` (default): the budget is spent, one poll every `1000 / pollsPerSecond` ms,
 *   each going to the stream that gains most from it: a stream's share follows the square
 *   root of its measured change rate (the split that minimises mean staleness), weighted
 *   by its priority, with a minimum rate so that a quiet stream is never starved.
 * - `'even'`: the budget is spent the same way, the streams taking turns (by priority).
 * - `'interval'`: each stream polls every `pollIntervalMs`; the budget is only a ceiling.
 *
 * @example
 * ```ts
 * const pacing: Pacing = 'interval' // each stream every pollIntervalMs
 * const venue = createVenue({ baseUrl, pacing, pollIntervalMs: 250 })
 * ```
 */
export type Pacing = 'adaptive' | 'even' | 'interval'

/**
 * How much of the budget a stream asks for: `'high'` for the streams a bot trades on (four
 * times the weight: about twice the polls of a `'normal'` stream that changes as often,
 * and a poll at least every `pollIntervalMs`), `'low'` for the ones it only glances at (a
 * quarter). Default `'normal'`; the feeds of own trades, fills and transfers are `'high'`.
 *
 * @example
 * ```ts
 * const priority: StreamPriority = 'high'
 * venue.watchOrderBook(0, { priority }).subscribe((book) => console.log(book.mid))
 * ```
 */
export type StreamPriority = 'high' | 'normal' | 'low'

/** The weight a priority multiplies a stream's change rate by. */
const WEIGHTS: Readonly<Record<StreamPriority, number>> = { high: 4, normal: 1, low: 0.25 }
const RANK: Readonly<Record<StreamPriority, number>> = { low: 0, normal: 1, high: 2 }

/**
 * Time constant of the recent rate estimates, ms: a change seen counts for about this long
 * (it weighs e⁻¹ after it). Short enough to follow a burst of a second or two and to let
 * go soon after it, long enough to keep polling a stream through the gaps between its
 * changes.
 */
export const RATE_MEMORY_MS = 500

/**
 * Time constant of the long-run change rate, ms: what a stream that is quiet now is likely
 * to do next (a pool that bursts now and then), so that it keeps the polls that find its
 * next burst early.
 */
export const LONG_RATE_MEMORY_MS = 20_000

/**
 * How much of its long-run change rate a stream that is quiet now is taken to have: the
 * chance that its next burst has begun, weighing the polls that find the next burst early
 * against those spent where the market moves now.
 */
const LONG_RUN_WEIGHT = 0.3

/**
 * Change rate (per second) every stream is taken to have on top of what it showed: a
 * quiet stream keeps a share that grows with the time since its last poll, never none.
 */
const BASE_CHANGE_RATE = 0.5

/** The most a pacer lets requests outside its turns push its next turn ahead, ms. */
const MAX_DEBT_MS = 1_000

/**
 * Share of the budget the longest gap leaves for the minimum rates: with N streams, a
 * stream waits at most `max(intervalMs, N / (share · pollsPerSecond))` between polls.
 */
const MINIMUM_SHARE = 0.25

/** Settings of a {@link PollPacer}. */
export interface PollPacerSettings {
  readonly pacing: Pacing
  /** Polls a second the pacer spends (`'adaptive'`, `'even'`). */
  readonly pollsPerSecond: number
  /**
   * `'interval'`: the time from the start of a stream's poll to the start of its next.
   * Otherwise the longest a stream waits between polls, while a quarter of the budget
   * covers that for every stream.
   */
  readonly intervalMs: number
  /** Clock of the turns (tests: a TestScheduler). Default asyncScheduler. */
  readonly scheduler?: SchedulerLike | undefined
}

/**
 * What one stream's pacing looks like now ({@link PollPacer.report}).
 *
 * @example
 * ```ts
 * const freshness: StreamFreshness = {
 *   pollsPerSecond: 6.2, changesPerSecond: 9.8, stalenessMs: 85, priority: 'normal',
 * }
 * ```
 */
export interface StreamFreshness {
  /** Polls a second, a decaying average over about a second. */
  readonly pollsPerSecond: number
  /** Changes a second the polls showed, the same average (a poll shows one or more). */
  readonly changesPerSecond: number
  /**
   * Estimated mean staleness of a change, ms: the time from a change at the venue to its
   * answer arriving, half the time between polls plus the round trip. Absent before the
   * stream's first answer.
   */
  readonly stalenessMs?: number
  readonly priority: StreamPriority
}

/**
 * Every polled stream's {@link StreamFreshness}, by stream key (`venue.freshness`).
 *
 * @example
 * ```ts
 * venue.freshness.subscribe((report: FreshnessReport) => {
 *   console.log(report['watchBalances()']?.stalenessMs)
 * })
 * ```
 */
export type FreshnessReport = Readonly<Record<string, StreamFreshness>>

/**
 * A decaying count: each event adds `1 / memory` (in events per ms), and the sum decays
 * by e⁻¹ every `memory` ms, so its value is a rate that follows the recent past.
 */
class DecayingRate {
  readonly #memoryMs: number
  #value = 0
  #at: number | undefined

  constructor(memoryMs = RATE_MEMORY_MS) {
    this.#memoryMs = memoryMs
  }

  add(count: number, now: number): void {
    this.#value = this.at(now) + count / this.#memoryMs
    this.#at = now
  }

  /** Events per ms at `now`. */
  at(now: number): number {
    if (this.#at === undefined) return 0
    return this.#value * Math.exp(-(now - this.#at) / this.#memoryMs)
  }
}

/**
 * The pacer of one venue's polls: when each polled stream polls next. In `'interval'`
 * pacing a stream's turn comes `intervalMs` after its last poll started. Otherwise turns
 * come one every `1000 / pollsPerSecond` ms, evenly spaced, each to one waiting stream:
 *
 * - the first overdue stream (its last poll started the longest gap ago), if any;
 * - else the one with the largest `w · age²`, `age` the time since its last poll started
 *   and `w` its priority's weight times (`'adaptive'`) its recent change rate plus a
 *   small base rate. Served that way, a stream polls at a rate in proportion to √w: the
 *   square-root rule, which minimises the mean staleness of changes for a budget.
 *
 * A poll that did not wait for its turn (a stream's first, or one woken by what another
 * stream saw) still counts: the next turn moves one slot later, so polls stay at the
 * rate on average. The request budget's token bucket stays the hard ceiling.
 *
 * @example
 * ```ts
 * const pacer = new PollPacer({ pacing: 'adaptive', pollsPerSecond: 10, intervalMs: 1000 })
 * const pace = pacer.join('watchDepth(1)')
 * poll((signal) => rest.depth({ poolId: 1 }, { signal }), { pace })
 * pace.observed(1) // after an answer that changed the book
 * ```
 */
export class PollPacer {
  readonly #pacing: Pacing
  #slotMs: number
  readonly #intervalMs: number
  readonly #scheduler: SchedulerLike
  readonly #streams = new Set<PacedStream>()
  /** The polling streams by key: the lanes their requests take the budget in. */
  readonly #byKey = new Map<string, PacedStream>()
  /** Streams waiting for their turn, with the call that grants it. */
  readonly #waiting = new Map<PacedStream, () => void>()
  /** Priorities asked for by subscribers, per stream key. */
  readonly #priorities = new Map<string, StreamPriority[]>()
  /** When the next turn may be given. */
  #nextTurnAt = Number.NEGATIVE_INFINITY
  /** When the last turn was given. */
  #lastTurnAt = Number.NEGATIVE_INFINITY
  #timer: Subscription | undefined

  constructor(settings: PollPacerSettings) {
    this.#pacing = settings.pacing
    this.#slotMs = 1000 / settings.pollsPerSecond
    this.#intervalMs = settings.intervalMs
    this.#scheduler = settings.scheduler ?? asyncScheduler
  }

  get pacing(): Pacing {
    return this.#pacing
  }

  /**
   * Spends `pollsPerSecond` from now on (a relay that took or lost streams of its fleet
   * spends their share); the next turn comes no sooner than one slot at the new rate after
   * the last. Ignored in `'interval'` pacing.
   */
  setPollsPerSecond(pollsPerSecond: number): void {
    if (!(pollsPerSecond > 0) || !Number.isFinite(pollsPerSecond)) {
      throw new RangeError(`pollsPerSecond must be a positive number (got ${pollsPerSecond})`)
    }
    const slotMs = 1000 / pollsPerSecond
    this.#nextTurnAt += slotMs - this.#slotMs
    this.#slotMs = slotMs
    this.#schedule()
  }

  /**
   * The pacing of one run of the stream `key`; `leave()` it when the run ends. `priority`
   * is the stream's own when no subscriber asks for one (a feed of own trades: `'high'`).
   */
  join(key: string, priority: StreamPriority = 'normal'): PacedStream {
    return new PacedStream(this, key, priority)
  }

  /**
   * Asks for `priority` for the stream `key` until the returned call: a stream runs at the
   * highest priority any of its subscribers asked for.
   */
  prefer(key: string, priority: StreamPriority): () => void {
    const asked = this.#priorities.get(key) ?? []
    asked.push(priority)
    this.#priorities.set(key, asked)
    let released = false
    return () => {
      if (released) return
      released = true
      asked.splice(asked.indexOf(priority), 1)
      if (asked.length === 0) this.#priorities.delete(key)
    }
  }

  /** The priority of `stream`: the highest its subscribers asked for, else its own. */
  priorityOf(stream: PacedStream): StreamPriority {
    const asked = this.#priorities.get(stream.key)
    if (asked === undefined) return stream.ownPriority
    return asked.reduce((best, next) => (RANK[next] > RANK[best] ? next : best), 'low')
  }

  /** Every running stream's pacing now, by key. */
  report(): FreshnessReport {
    const now = this.#scheduler.now()
    const report: Record<string, StreamFreshness> = {}
    for (const stream of this.#streams) report[stream.key] = stream.freshness(now)
    return report
  }

  /** @internal The time of the pacer's clock. */
  now(): number {
    return this.#scheduler.now()
  }

  /** @internal Emits once when `stream` may poll again. */
  turn(stream: PacedStream): Observable<unknown> {
    if (this.#pacing === 'interval') {
      return timer(Math.max(0, this.#intervalMs - (this.now() - stream.startedAt)), this.#scheduler)
    }
    return new Observable<void>((subscriber) => {
      const grant = () => {
        stream.granted()
        subscriber.next()
        subscriber.complete()
      }
      this.#waiting.set(stream, grant)
      this.#serve()
      return () => {
        // Only this wait: a poll that answered at once may already wait for its next turn.
        if (this.#waiting.get(stream) === grant) this.#waiting.delete(stream)
      }
    })
  }

  /** @internal `stream` polls (from its first poll on, it counts in the report and the longest gap). */
  polling(stream: PacedStream): void {
    this.#streams.add(stream)
    this.#byKey.set(stream.key, stream)
  }

  /**
   * A request of the venue takes a token of the budget in `lane` (every request, polled or
   * not: the venue calls this as it asks the budget). One a turn was given for is what the
   * turn was for; any other (a REST call, a retry, a poll woken by another stream, the
   * second request of a poll, a look-up) moves the next turn a slot later, so that the
   * polls leave the budget what the rest takes, and no queue builds up at the budget.
   */
  spent(lane: string): void {
    if (this.#byKey.get(lane)?.takeTurn() === true) return
    this.#borrowed()
  }

  /** A request went out without a turn: the next turn comes a slot later. */
  #borrowed(): void {
    if (this.#pacing === 'interval') return
    const now = this.now()
    // At most a second of debt: more than the budget's bucket holds is waiting there anyway.
    this.#nextTurnAt = Math.min(
      Math.max(this.#nextTurnAt, now) + this.#slotMs,
      now + MAX_DEBT_MS + this.#slotMs,
    )
    this.#schedule()
  }

  /**
   * When the next turn is due: a slot after the last one and after the slots the other
   * requests took, but never later than two slots after the last turn. When the rest asks
   * the budget for more than half of it (a burst of REST calls), the polls keep half: their
   * requests then wait at the budget's bucket beside the rest, served in turn, instead of
   * stopping until the rest is done.
   */
  #dueAt(): number {
    return Math.min(this.#nextTurnAt, this.#lastTurnAt + 2 * this.#slotMs)
  }

  /** @internal `stream`'s run ended. */
  left(stream: PacedStream): void {
    this.#streams.delete(stream)
    if (this.#byKey.get(stream.key) === stream) this.#byKey.delete(stream.key)
    this.#waiting.delete(stream)
    if (this.#waiting.size === 0) this.#cancelTimer()
  }

  /** Gives the turn now, if one is due and a stream waits; else waits for the next. */
  #serve(): void {
    if (this.#waiting.size === 0) return
    const now = this.now()
    if (now < this.#dueAt()) {
      this.#schedule()
      return
    }
    const next = this.#pick(now)
    // A turn nobody was waiting for is lost, bar half a slot: polls stay evenly spaced.
    this.#nextTurnAt = Math.max(this.#nextTurnAt, now - this.#slotMs / 2) + this.#slotMs
    this.#lastTurnAt = now
    const grant = this.#waiting.get(next) as () => void
    this.#waiting.delete(next)
    grant()
    this.#schedule()
  }

  /**
   * The waiting stream the next turn goes to: an overdue one (the longest waiting first),
   * else a hurried one (the same), else the one with the largest `w · age²`.
   */
  #pick(now: number): PacedStream {
    // A 'high' stream waits at most intervalMs; the others longer when a quarter of the
    // budget would not cover that for every stream.
    const longestGap = Math.max(
      this.#intervalMs,
      (this.#streams.size * this.#slotMs) / MINIMUM_SHARE,
    )
    let best: PacedStream | undefined
    let bestTier = -1
    let bestScore = Number.NEGATIVE_INFINITY
    let bestWeight = 0
    for (const stream of this.#waiting.keys()) {
      const age = now - stream.startedAt
      const longest = this.priorityOf(stream) === 'high' ? this.#intervalMs : longestGap
      const tier = age >= longest ? 2 : stream.hurried ? 1 : 0
      if (tier < bestTier) continue
      const weight = this.#weight(stream, now)
      const score = tier > 0 ? age : weight * age * age
      // Even turns make ties (a stream of weight 4 at age 1, one of weight 1 at age 2):
      // the heavier one takes them, or its share would fall short of √w.
      const tie = tier === bestTier && Math.abs(score - bestScore) <= 1e-9 * Math.abs(score)
      if (tier > bestTier || (tie ? weight > bestWeight : score > bestScore)) {
        best = stream
        bestTier = tier
        bestScore = score
        bestWeight = weight
      }
    }
    return best as PacedStream
  }

  /** A stream's weight: its priority's, times its change rate and the base rate (adaptive). */
  #weight(stream: PacedStream, now: number): number {
    const priority = WEIGHTS[this.priorityOf(stream)]
    if (this.#pacing !== 'adaptive') return priority
    const rate = stream.changeRate(now) + LONG_RUN_WEIGHT * stream.longRunRate(now)
    return priority * (rate * 1000 + BASE_CHANGE_RATE)
  }

  #schedule(): void {
    this.#cancelTimer()
    if (this.#waiting.size === 0) return
    const wait = Math.max(0, this.#dueAt() - this.now())
    this.#timer = this.#scheduler.schedule(() => {
      this.#timer = undefined
      this.#serve()
    }, wait)
  }

  #cancelTimer(): void {
    this.#timer?.unsubscribe()
    this.#timer = undefined
  }
}

/**
 * One run of a polled stream in its venue's {@link PollPacer}: `turn()` waits for the next
 * poll's turn, `started()` and `observed(changes)` tell the pacer what happened.
 */
export class PacedStream implements PollPace {
  readonly key: string
  readonly #pacer: PollPacer
  /** When the last poll started (-∞ before the first). */
  startedAt = Number.NEGATIVE_INFINITY
  /** Whether the next turn goes to this stream (what another stream saw: `hurry`). */
  hurried = false
  #granted = false
  /** Whether the poll under way was given a turn its first request has not used yet. */
  #turnUnused = false
  readonly #polls = new DecayingRate()
  readonly #changes = new DecayingRate()
  readonly #longRunChanges = new DecayingRate(LONG_RATE_MEMORY_MS)
  /** When the stream first polled (the long-run rate counts from there). */
  #firstAt: number | undefined
  /** The round trip of the last answer, ms. */
  #roundTripMs: number | undefined

  /** The stream's priority when no subscriber asks for one. */
  readonly ownPriority: StreamPriority

  constructor(pacer: PollPacer, key: string, ownPriority: StreamPriority) {
    this.#pacer = pacer
    this.key = key
    this.ownPriority = ownPriority
  }

  /** @internal Uses the turn the poll under way was given: true once, if it had one. */
  takeTurn(): boolean {
    const had = this.#turnUnused
    this.#turnUnused = false
    return had
  }

  /** The venue's pacing. */
  get pacing(): Pacing {
    return this.#pacer.pacing
  }

  /**
   * Gives this stream the next turn (ahead of every other but an overdue one), e.g. a book
   * whose pool just traded; once, for its next poll.
   */
  hurry(): void {
    this.hurried = true
  }

  turn(): Observable<unknown> {
    return this.#pacer.turn(this)
  }

  /** @internal The pacer gave this stream its turn: the poll it starts uses it. */
  granted(): void {
    this.#granted = true
  }

  started(): void {
    const now = this.#pacer.now()
    if (this.startedAt === Number.NEGATIVE_INFINITY) {
      this.#pacer.polling(this)
      this.#firstAt = now
    }
    // The token its request takes is counted when the budget is asked (`spent`).
    this.#turnUnused = this.#granted
    this.#granted = false
    this.hurried = false
    this.startedAt = now
    this.#polls.add(1, now)
  }

  /**
   * An answer arrived that showed `changes` changes (0: the same as the last one), or, as
   * a boolean, whether it changed at all (a book: how many times it moved in between is
   * not known).
   */
  observed(changes: number | boolean): void {
    const now = this.#pacer.now()
    this.#roundTripMs = now - this.startedAt
    // A change of unknown count counts one: at a stream that changes at every poll, the
    // estimate stays at the poll rate.
    const count = typeof changes === 'number' ? changes : changes ? 1 : 0
    if (count > 0) {
      this.#changes.add(count, now)
      this.#longRunChanges.add(count, now)
    }
  }

  /** Changes per ms, recently. */
  changeRate(now: number): number {
    return this.#changes.at(now)
  }

  /**
   * Changes per ms over the last minute or so: the decaying count over the time it covers
   * (a stream younger than its memory is not taken for a quiet one).
   */
  longRunRate(now: number): number {
    if (this.#firstAt === undefined) return 0
    const covered = 1 - Math.exp(-(now - this.#firstAt) / LONG_RATE_MEMORY_MS)
    return covered > 0 ? this.#longRunChanges.at(now) / covered : 0
  }

  freshness(now: number): StreamFreshness {
    const polls = this.#polls.at(now) * 1000
    const changes = this.#changes.at(now) * 1000
    const priority = this.#pacer.priorityOf(this)
    const round = (value: number) => Math.round(value * 100) / 100
    if (this.#roundTripMs === undefined || polls === 0) {
      return { pollsPerSecond: round(polls), changesPerSecond: round(changes), priority }
    }
    return {
      pollsPerSecond: round(polls),
      changesPerSecond: round(changes),
      stalenessMs: Math.round(500 / polls + this.#roundTripMs),
      priority,
    }
  }

  leave(): void {
    this.#pacer.left(this)
  }
}

/**
 * What decides when a polled stream polls next, instead of a fixed interval (`poll`'s and
 * `paginateCursor`'s `pace`). A venue's streams use its pacer.
 *
 * @example
 * ```ts
 * import { timer } from 'rxjs'
 * import { type PollPace, poll } from 'venue-rx/operators'
 *
 * // Poll again 100 ms after each start while the market is open, else after 5 s.
 * let startedAt = 0
 * const pace: PollPace = {
 *   turn: () => timer(Math.max(0, (marketOpen() ? 100 : 5_000) - (Date.now() - startedAt))),
 *   started: () => {
 *     startedAt = Date.now()
 *   },
 * }
 * poll((signal) => venue.rest.pools(undefined, { signal }), { pace })
 * ```
 */
export interface PollPace {
  /** Emits when the next request may start. */
  turn(): Observable<unknown>
  /** Called as each request starts. */
  started(): void
}
