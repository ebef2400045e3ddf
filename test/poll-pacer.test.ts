/**
 * The pacer of a venue's polls, in virtual time: streams polled through `poll` with the
 * pacer's `pace`, answers a round trip later, each showing the changes a script made since
 * the stream's previous poll. What the budget pacing promises: the budget spent (at least
 * 95% of it with enough streams), evenly, never above it, whatever the round trip; shares
 * that follow the change rates (square-root rule) with a minimum rate; priorities; polls
 * that skip the queue counted; the interval pacing as before.
 */
import { delay, of, type Subscription, take, VirtualTimeScheduler } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import { type Pacing, PollPacer, type StreamPriority } from '../src/core/poll-pacer.js'
import { poll } from '../src/operators.js'

interface Simulated {
  readonly key: string
  /** Times (virtual ms) of the stream's changes, ascending. */
  readonly changes: readonly number[]
  readonly priority?: StreamPriority
}

const running: Subscription[] = []
afterEach(() => {
  for (const subscription of running.splice(0)) subscription.unsubscribe()
})

/** Every `gap` ms from `from` to `to` (excluded). */
const every = (gap: number, from = 0, to = 60_000) =>
  Array.from({ length: Math.ceil((to - from) / gap) }, (_, i) => from + i * gap)

/**
 * Runs `streams` on a pacer for `runMs` of virtual time: the start times of each stream's
 * polls, and the mean staleness of its changes (from a change to the answer of the first
 * poll started after it).
 */
function run(
  streams: readonly Simulated[],
  settings: { pacing?: Pacing; pollsPerSecond: number; intervalMs?: number; rttMs: number },
  runMs = 60_000,
) {
  const scheduler = new VirtualTimeScheduler(undefined, runMs)
  const pacer = new PollPacer({
    pacing: settings.pacing ?? 'adaptive',
    pollsPerSecond: settings.pollsPerSecond,
    intervalMs: settings.intervalMs ?? 1000,
    scheduler,
  })
  const starts = new Map<string, number[]>()
  const staleness = new Map<string, number[]>()
  for (const stream of streams) {
    if (stream.priority !== undefined) pacer.prefer(stream.key, stream.priority)
    const pace = pacer.join(stream.key)
    const mine: number[] = []
    const stale: number[] = []
    starts.set(stream.key, mine)
    staleness.set(stream.key, stale)
    let seen = 0
    running.push(
      poll(
        () => {
          const at = scheduler.now()
          mine.push(at)
          // The request takes its token of the budget (the venue tells the pacer).
          pacer.spent(stream.key)
          // What the venue shows at the request's start: the changes up to then.
          const upTo = stream.changes.filter((t) => t <= at).length
          return of(upTo).pipe(delay(settings.rttMs, scheduler))
        },
        { pace, scheduler },
      ).subscribe((upTo) => {
        const now = scheduler.now()
        for (const t of stream.changes.slice(seen, upTo)) stale.push(now - t)
        pace.observed(upTo - seen)
        seen = upTo
      }),
    )
  }
  scheduler.flush()
  const mean = (values: readonly number[]) =>
    values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length)
  return {
    pacer,
    starts,
    all: [...starts.values()].flat().sort((a, b) => a - b),
    polls: (key: string) => starts.get(key)?.length ?? 0,
    meanStaleness: (key: string) => mean(staleness.get(key) ?? []),
    overallStaleness: () => mean([...staleness.values()].flat()),
  }
}

/** Polls in every window of `windowMs` starting at each poll: the most in any one. */
function mostInWindow(times: readonly number[], windowMs: number): number {
  let most = 0
  let first = 0
  for (let last = 0; last < times.length; last += 1) {
    while ((times[last] as number) - (times[first] as number) >= windowMs) first += 1
    most = Math.max(most, last - first + 1)
  }
  return most
}

const quiet = (key: string): Simulated => ({ key, changes: [] })

/** The time between each two consecutive `times`. */
const gapsOf = (times: readonly number[]) => times.slice(1).map((t, i) => t - (times[i] as number))

/** A request of `key` that takes its token of the budget (the venue tells the pacer) and answers `value`. */
function spending<T>(pacer: PollPacer, key: string, value: T) {
  pacer.spent(key)
  return of(value)
}

describe('budget pacing', () => {
  it.each([1, 30, 80])(
    'spends at least 95% of the budget, never more than it in any second, evenly spaced (round trip %i ms)',
    (rttMs) => {
      const streams = Array.from({ length: 10 }, (_, i) => ({
        key: `s${i}`,
        changes: every(50 + 30 * i),
      }))
      const { all } = run(streams, { pollsPerSecond: 40, rttMs })
      // Over the minute after the first second (the first polls go out at once, together).
      const steady = all.filter((t) => t >= 1000 && t < 60_000)
      expect(steady.length).toBeGreaterThanOrEqual(0.95 * 40 * 59)
      expect(steady.length).toBeLessThanOrEqual(40 * 59 + 1)
      expect(mostInWindow(all, 1000)).toBeLessThanOrEqual(40)
      // One slot (25 ms) between polls; never two in the same millisecond.
      const gaps = gapsOf(steady)
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(12.5)
      const evenly = gaps.filter((gap) => Math.abs(gap - 25) < 1).length
      expect(evenly / gaps.length).toBeGreaterThan(0.9)
    },
  )

  it('adaptive: a busy stream gets more polls than a slow one, a quiet one still its minimum rate', () => {
    const streams = [
      { key: 'busy', changes: every(20) },
      { key: 'slow', changes: every(2000) },
      quiet('quiet-1'),
      quiet('quiet-2'),
    ]
    const result = run(streams, { pollsPerSecond: 20, rttMs: 5 })
    const busy = result.polls('busy')
    const slow = result.polls('slow')
    const silent = result.polls('quiet-1')
    expect(busy).toBeGreaterThan(2 * slow)
    expect(slow).toBeGreaterThan(silent)
    // Never starved: at least one poll every pollIntervalMs (1 s here: 4 streams at 20/s).
    for (const key of ['quiet-1', 'quiet-2', 'slow']) {
      const times = result.starts.get(key) ?? []
      expect(Math.max(...gapsOf(times)), key).toBeLessThanOrEqual(1000 + 50)
    }
  })

  it('adaptive: the polls follow the bursts, and their changes wait less than when the streams take turns', () => {
    // Two streams burst in turn, 5 s each: a change every 20 ms; two never change.
    const burstsOf = (offset: number) =>
      every(10_000, offset).flatMap((start) => every(20, start, start + 5_000))
    const streams = [
      { key: 'a', changes: burstsOf(0) },
      { key: 'b', changes: burstsOf(5_000) },
      quiet('c'),
      quiet('d'),
    ]
    const adaptive = run(streams, { pollsPerSecond: 20, rttMs: 5 })
    const even = run(streams, { pacing: 'even', pollsPerSecond: 20, rttMs: 5 })
    const inBursts = (key: string, offset: number) =>
      (adaptive.starts.get(key) ?? []).filter((t) => (t - offset + 10_000) % 10_000 < 5_000).length
    // Its bursts are half of the time: taking turns would put half of a's polls in them.
    expect(inBursts('a', 0) / adaptive.polls('a')).toBeGreaterThan(0.6)
    expect(inBursts('b', 5_000) / adaptive.polls('b')).toBeGreaterThan(0.6)
    expect(adaptive.overallStaleness()).toBeLessThan(0.8 * even.overallStaleness())
  })

  it('adaptive beats taking turns on mean staleness, and the square-root oracle is not beaten by much', () => {
    // Rates 50, 12.5, 2 and 0.5 changes/s, at random phase: the square-root split of 10
    // polls/s gives each stream 1/T_i = R √λ_i / Σ √λ_j.
    const gaps = [20, 80, 500, 2000]
    const streams = gaps.map((gap, i) => ({
      key: `s${i}`,
      changes: every(gap, 7 * i + 3),
    }))
    const adaptive = run(streams, { pollsPerSecond: 10, rttMs: 5 })
    const even = run(streams, { pacing: 'even', pollsPerSecond: 10, rttMs: 5 })
    const rates = gaps.map((gap) => 1000 / gap)
    const roots = rates.reduce((sum, rate) => sum + Math.sqrt(rate), 0)
    const total = rates.reduce((sum, rate) => sum + rate, 0)
    // S = (Σ √λ)² / (2 R Σ λ) + RTT, in ms.
    const oracle = (1000 * roots ** 2) / (2 * 10 * total) + 5
    expect(adaptive.overallStaleness()).toBeLessThan(even.overallStaleness() * 0.9)
    expect(adaptive.overallStaleness()).toBeLessThan(oracle * 1.25)
  })

  it("a 'high' stream gets about twice the polls of a 'normal' one that changes as often", () => {
    const streams = [
      { key: 'mine', changes: every(100), priority: 'high' as const },
      { key: 'other', changes: every(100, 50) },
    ]
    const result = run(streams, { pollsPerSecond: 6, rttMs: 5 })
    const ratio = result.polls('mine') / result.polls('other')
    expect(ratio).toBeGreaterThan(1.6)
    expect(ratio).toBeLessThan(2.5)
  })

  it("'even': the streams take turns whatever they change", () => {
    const streams = [
      { key: 'busy', changes: every(10) },
      quiet('quiet'),
      { key: 'slow', changes: every(3000) },
    ]
    const result = run(streams, { pacing: 'even', pollsPerSecond: 9, rttMs: 5 }, 30_000)
    const counts = ['busy', 'quiet', 'slow'].map(result.polls)
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1)
    expect(counts.reduce((a, b) => a + b)).toBeGreaterThanOrEqual(0.95 * 9 * 30)
  })

  it("'interval': each stream every intervalMs from the start of its last poll, the budget unspent", () => {
    const streams = [{ key: 'a', changes: every(10) }, quiet('b')]
    const result = run(
      streams,
      { pacing: 'interval', pollsPerSecond: 40, intervalMs: 250, rttMs: 30 },
      10_000,
    )
    expect(result.starts.get('a')).toEqual(every(250, 0, 10_001))
    expect(result.starts.get('b')).toEqual(every(250, 0, 10_001))
  })

  it('a poll that skipped the queue counts: the turns after it move a slot later', () => {
    const scheduler = new VirtualTimeScheduler(undefined, 10_000)
    const pacer = new PollPacer({ pacing: 'even', pollsPerSecond: 10, intervalMs: 1000, scheduler })
    const starts: number[] = []
    const paces = ['a', 'b'].map((key) => pacer.join(key))
    for (const pace of paces) {
      running.push(
        poll(() => spending(pacer, pace.key, starts.push(scheduler.now())), {
          pace,
          scheduler,
        }).subscribe(() => pace.observed(0)),
      )
    }
    // A third stream's every poll is woken (what another stream saw), never waiting its turn.
    const woken = pacer.join('woken')
    const wakes = every(200, 100, 10_000)
    for (const at of wakes) {
      scheduler.schedule(() => {
        woken.started()
        pacer.spent('woken')
        starts.push(scheduler.now())
      }, at)
    }
    scheduler.flush()
    const steady = starts.filter((t) => t >= 1000 && t < 10_000)
    // 10 a second in all, the woken ones included.
    expect(steady.length).toBeLessThanOrEqual(10 * 9 + 1)
    expect(steady.length).toBeGreaterThanOrEqual(0.95 * 10 * 9)
  })

  it('hurry gives a stream the next turn, once', () => {
    const scheduler = new VirtualTimeScheduler(undefined, 2_000)
    const pacer = new PollPacer({ pacing: 'even', pollsPerSecond: 10, intervalMs: 1000, scheduler })
    const starts: { key: string; at: number }[] = []
    const paces = ['a', 'b', 'c', 'd'].map((key) => pacer.join(key))
    for (const pace of paces) {
      running.push(
        poll(() => spending(pacer, pace.key, starts.push({ key: pace.key, at: scheduler.now() })), {
          pace,
          scheduler,
        }).subscribe(),
      )
    }
    const d = paces[3]
    scheduler.schedule(() => d?.hurry(), 1_010)
    scheduler.flush()
    const after = starts.filter((start) => start.at > 1_010)
    expect(after[0]?.key).toBe('d')
    // Then the turns go round again: d is not first twice in a row.
    expect(after[1]?.key).not.toBe('d')
  })

  it('reports per stream its poll rate, change rate and staleness estimate', () => {
    const streams = [{ key: 'busy', changes: every(20) }, quiet('quiet')]
    const { pacer } = run(streams, { pollsPerSecond: 10, rttMs: 5 }, 20_000)
    const report = pacer.report()
    const busy = report['busy']
    const silent = report['quiet']
    expect(busy?.pollsPerSecond).toBeGreaterThan(silent?.pollsPerSecond ?? 0)
    expect(busy?.changesPerSecond).toBeGreaterThan(1)
    expect(silent?.changesPerSecond).toBe(0)
    expect(busy?.priority).toBe('normal')
    // Half the time between polls plus the round trip.
    const expected = 500 / (busy?.pollsPerSecond ?? 1) + 5
    expect(busy?.stalenessMs).toBeCloseTo(expected, -1)
  })

  it('keeps nothing of a stream that left, nor of a priority no subscriber asks for any more', () => {
    const scheduler = new VirtualTimeScheduler(undefined, 100_000)
    const pacer = new PollPacer({
      pacing: 'adaptive',
      pollsPerSecond: 100,
      intervalMs: 1000,
      scheduler,
    })
    for (let i = 0; i < 1_000; i += 1) {
      // A subscriber's own run of a feed: polls a few times, then leaves.
      const key = `watchMyTrades()#${i}`
      const release = pacer.prefer(key, 'low')
      const pace = pacer.join(key, 'high')
      const subscription = poll(() => spending(pacer, key, 1), { pace, scheduler })
        .pipe(take(3))
        .subscribe({ complete: () => pace.leave() })
      running.push(subscription)
      release()
    }
    scheduler.flush()
    expect(pacer.report()).toEqual({})
    // A stream joins with its own priority again once nobody asks for another.
    const pace = pacer.join('watchMyTrades()#0', 'high')
    expect(pacer.priorityOf(pace)).toBe('high')
  })

  it('setPollsPerSecond changes the pace from then on (a relay whose share of the streams changed)', () => {
    const scheduler = new VirtualTimeScheduler(undefined, 20_000)
    const pacer = new PollPacer({ pacing: 'even', pollsPerSecond: 20, intervalMs: 1000, scheduler })
    const starts: number[] = []
    for (const key of ['a', 'b', 'c']) {
      const pace = pacer.join(key)
      running.push(
        poll(() => spending(pacer, key, starts.push(scheduler.now())), {
          pace,
          scheduler,
        }).subscribe(),
      )
    }
    scheduler.schedule(() => pacer.setPollsPerSecond(5), 10_000)
    scheduler.flush()
    const within = (from: number, to: number) => starts.filter((t) => t >= from && t < to).length
    expect(within(1_000, 10_000)).toBeGreaterThanOrEqual(20 * 9 - 1)
    expect(within(1_000, 10_000)).toBeLessThanOrEqual(20 * 9 + 1)
    expect(within(11_000, 20_000)).toBeGreaterThanOrEqual(5 * 9 - 1)
    expect(within(11_000, 20_000)).toBeLessThanOrEqual(5 * 9 + 1)
    expect(() => pacer.setPollsPerSecond(0)).toThrow(RangeError)
  })
})
