/**
 * The relay reader's waker after a failed blocking read: it pauses on its readers' clock
 * (their venue's scheduler, virtual here), 100 ms then doubling, and stops pausing when
 * its last watch closes. The Redis connection is a stand-in that fails as told. On a
 * cluster, one read per hash tag on a connection of its own; each watch hears of its
 * read's failures (shown on the venue's health board as `<key> wake`).
 */
import { VirtualTimeScheduler } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { HealthBoard } from '../src/core/health.js'
import { VenueRelayError } from '../src/errors/venue-relay-error.js'
import type { RedisConnection } from '../src/redis/redis-connection.js'
import { EntryWaker, type WakeFailure, wakeHealth } from '../src/relay-reader/entry-waker.js'
import { settle } from './helpers/promises.js'

/** A connection whose reads fail `failures` times, then answer `reply`, then block. */
function connection(failures: number, reply: unknown) {
  const state = { reads: 0, holders: 0 }
  const fake = {
    hold: () => {
      state.holders += 1
      return () => {
        state.holders -= 1
      }
    },
    run: () => {
      state.reads += 1
      if (state.reads <= failures) return Promise.reject(new Error('connection reset'))
      if (state.reads === failures + 1) return Promise.resolve(reply)
      return new Promise(() => undefined)
    },
  }
  return { state, connection: fake as unknown as RedisConnection }
}

function virtualClock() {
  const scheduler = new VirtualTimeScheduler(undefined, 0)
  /** Runs what is due in the next `ms` of virtual time, and the promises it settles. */
  const advance = async (ms: number) => {
    scheduler.maxFrames = scheduler.frame + ms
    scheduler.flush()
    scheduler.frame = scheduler.maxFrames
    await settle()
  }
  return { scheduler, advance }
}

describe('EntryWaker', () => {
  it("retries a failed blocking read after a pause on the readers' scheduler, 100 ms then doubled", async () => {
    const { scheduler, advance } = virtualClock()
    const { state, connection: redis } = connection(2, [['s', [['5-0', ['e', '{}']]]]])
    const waker = new EntryWaker(redis)
    const watch = waker.watch('s', scheduler)
    let woken = 0
    watch.wait('1-0', () => {
      woken += 1
    })
    await settle()
    expect(state.reads).toBe(1)
    // Real time passes, the venue's clock does not: no retry.
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(state.reads).toBe(1)
    await advance(99)
    expect(state.reads).toBe(1)
    await advance(1)
    expect(state.reads).toBe(2)
    await advance(199)
    expect(state.reads).toBe(2)
    await advance(1)
    // The third read answered (an entry after the reader's: woken), the fourth blocks.
    expect(state.reads).toBe(4)
    expect(woken).toBe(1)
    watch.close()
  })

  it('stops pausing when its last watch closes: no read after', async () => {
    const { scheduler, advance } = virtualClock()
    const { state, connection: redis } = connection(1, [])
    const waker = new EntryWaker(redis)
    const watch = waker.watch('s', scheduler)
    watch.wait('1-0', () => undefined)
    await settle()
    expect(state.reads).toBe(1)
    watch.close()
    await settle()
    await advance(1_000)
    expect(state.reads).toBe(1)
    expect(state.holders).toBe(0)
  })
})

/** A connection whose reads record their arguments and fail or block as `answer` says. */
function recording(answer: (args: unknown[]) => Promise<unknown>) {
  const reads: unknown[][] = []
  const fake = {
    hold: () => () => undefined,
    run: (command: (redis: unknown) => Promise<unknown>) =>
      command({
        xread: (...args: unknown[]) => {
          reads.push(args)
          return answer(args)
        },
      }),
  }
  return { reads, connection: fake as unknown as RedisConnection }
}

describe('EntryWaker on a cluster (a connection per hash tag)', () => {
  it('reads the streams of each hash tag together, apart from the others, each on its own connection', async () => {
    const { scheduler } = virtualClock()
    const connections = new Map<string, ReturnType<typeof recording>>()
    const waker = new EntryWaker((tag) => {
      // The first read ends with nothing (its BLOCK elapsed), the next ones block.
      const made = recording(() =>
        made.reads.length === 1 ? Promise.resolve(null) : new Promise(() => undefined),
      )
      connections.set(tag, made)
      return made.connection
    })
    const streams = [
      'p:{acct}:my-trades:stream',
      'p:{acct}:fills:stream',
      'p:{v:pool:0}:depth:0:stream',
    ]
    const watches = streams.map((stream) => waker.watch(stream, scheduler))
    for (const watch of watches) watch.wait('1-0', () => undefined)
    await settle()
    expect([...connections.keys()].sort()).toEqual(['acct', 'v:pool:0'])
    const streamsRead = (tag: string) =>
      connections.get(tag)?.reads.map((args) => args.slice(5, (args.length - 5) / 2 + 5))
    expect(streamsRead('acct')?.at(-1)).toEqual(streams.slice(0, 2))
    expect(streamsRead('v:pool:0')?.at(-1)).toEqual(streams.slice(2))
    for (const watch of watches) watch.close()
  })

  it("tells each watch of a tag of its read's failures, then that it reads again; and a closing watch that it is over", async () => {
    const { scheduler, advance } = virtualClock()
    let failing = true
    let answered = 0
    // Failing reads; then one that ends with nothing (its BLOCK elapsed), then blocking ones.
    const waker = new EntryWaker(
      () =>
        recording(() => {
          if (failing) return Promise.reject(new Error('Command timed out'))
          answered += 1
          return answered === 1 ? Promise.resolve(null) : new Promise(() => undefined)
        }).connection,
    )
    const heard: (string | undefined)[] = []
    const other: (string | undefined)[] = []
    const report = (into: (string | undefined)[]) => (failure: WakeFailure | undefined) =>
      into.push(failure === undefined ? undefined : `${failure.attempt} ${failure.nextDelayMs}`)
    const watch = waker.watch('p:{a}:fills:stream', scheduler, report(heard))
    const elsewhere = waker.watch('p:{b}:pools:stream', scheduler, report(other))
    watch.wait('1-0', () => undefined)
    await settle()
    expect(heard).toEqual(['1 100'])
    await advance(100)
    expect(heard).toEqual(['1 100', '2 200'])
    // A watch that joins a failing read hears of it at once.
    const late = waker.watch('p:{a}:my-trades:stream', scheduler, report(other))
    expect(other).toEqual(['2 200'])
    late.close()
    expect(other).toEqual(['2 200', undefined])
    failing = false
    await advance(200)
    expect(heard).toEqual(['1 100', '2 200', undefined])
    watch.close()
    elsewhere.close()
    expect(heard).toHaveLength(3)
  })

  it('shows a failing blocking read on the health board under `<key> wake`, ok then gone once it reads again', () => {
    const health = new HealthBoard()
    const states: (string | undefined)[] = []
    const watching = health.changes.subscribe((report) =>
      states.push(report['relay fills wake']?.state),
    )
    const report = wakeHealth(health, 'relay fills')
    report({
      error: new VenueRelayError('Redis at a:1: Command timed out'),
      attempt: 1,
      nextDelayMs: 100,
    })
    expect(health.current['relay fills wake']).toMatchObject({
      state: 'retrying',
      attempt: 1,
      nextDelayMs: 100,
      lastErrorCode: 'VENUE_RELAY',
    })
    report(undefined)
    expect(health.current['relay fills wake']).toBeUndefined()
    expect(states).toEqual([undefined, 'retrying', 'ok', undefined])
    watching.unsubscribe()
  })
})
