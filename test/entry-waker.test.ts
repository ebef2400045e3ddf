/**
 * The relay reader's waker after a failed blocking read: it pauses on its readers' clock
 * (their venue's scheduler, virtual here), 100 ms then doubling, and stops pausing when
 * its last watch closes. The Redis connection is a stand-in that fails as told.
 */
import { VirtualTimeScheduler } from 'rxjs'
import { describe, expect, it } from 'vitest'
import type { RedisConnection } from '../src/redis/redis-connection.js'
import { EntryWaker } from '../src/relay-reader/entry-waker.js'
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
