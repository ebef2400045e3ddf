/**
 * `SharedLookup`: answers asked once per key and shared, dropped when they fail, asked
 * again when older than a caller allows. Time is a `VirtualTimeScheduler`'s, moved by the
 * test; answers are promises settled by hand.
 */
import { VirtualTimeScheduler } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { SharedLookup } from '../src/core/shared-lookup.js'
import { deferred, settle } from './helpers/promises.js'

/** A virtual clock and a way to move it on. */
function clock() {
  const scheduler = new VirtualTimeScheduler(undefined, Number.POSITIVE_INFINITY)
  const advance = (ms: number) => {
    scheduler.schedule(() => undefined, ms)
    scheduler.flush()
  }
  return { scheduler, advance }
}

/** An ask that counts its calls and answers `answers[n]` (a value, or an Error to reject). */
function asker<V>(...answers: (V | Error)[]) {
  const state = { calls: 0 }
  const ask = () => {
    const answer = answers[state.calls] as V | Error
    state.calls += 1
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer)
  }
  return { state, ask }
}

describe('SharedLookup', () => {
  it('asks once per key: callers share the answer in flight and after', async () => {
    const lookup = new SharedLookup<string, number>()
    const answer = deferred<number>()
    let calls = 0
    const ask = () => {
      calls += 1
      return answer.promise
    }
    const first = lookup.get('a', ask)
    const second = lookup.get('a', ask)
    expect(second).toBe(first)
    answer.resolve(7)
    expect(await first).toBe(7)
    expect(await lookup.get('a', ask)).toBe(7)
    expect(calls).toBe(1)

    const other = asker(8)
    expect(await lookup.get('b', other.ask)).toBe(8)
    expect(other.state.calls).toBe(1)
  })

  it('drops a failed answer: every caller of it sees the failure, the next one asks again', async () => {
    const lookup = new SharedLookup<string, number>()
    const { state, ask } = asker<number>(new Error('down'), 5)
    const first = lookup.get('a', ask)
    const second = lookup.get('a', ask)
    await expect(first).rejects.toThrow('down')
    await expect(second).rejects.toThrow('down')
    expect(await lookup.get('a', ask)).toBe(5)
    expect(state.calls).toBe(2)
  })

  it('takes an ask that throws as a rejected answer, not kept', async () => {
    const lookup = new SharedLookup<string, number>()
    const thrown = lookup.get('a', () => {
      throw new Error('bad input')
    })
    await expect(thrown).rejects.toThrow('bad input')
    expect(await lookup.get('a', () => Promise.resolve(1))).toBe(1)
  })

  it('asks again once the kept answer is maxAgeMs old (virtual time)', async () => {
    const { scheduler, advance } = clock()
    const lookup = new SharedLookup<number, string>()
    const { state, ask } = asker('first', 'second')
    const at = () => ({ now: scheduler.now(), maxAgeMs: 1_000 })
    expect(await lookup.get(0, ask, at())).toBe('first')
    advance(999)
    expect(await lookup.get(0, ask, at())).toBe('first')
    advance(1)
    expect(await lookup.get(0, ask, at())).toBe('second')
    expect(state.calls).toBe(2)
    // Kept from the second ask on: at 1,000 ms.
    advance(999)
    expect(await lookup.get(0, ask, at())).toBe('second')
  })

  it('serves a caller only an answer asked at or after its notBefore', async () => {
    const { scheduler, advance } = clock()
    const lookup = new SharedLookup<string, string>()
    const { state, ask } = asker('at 0', 'at 500')
    expect(await lookup.get('scan', ask, { now: scheduler.now() })).toBe('at 0')
    advance(500)
    expect(await lookup.get('scan', ask, { now: scheduler.now(), notBefore: 0 })).toBe('at 0')
    expect(await lookup.get('scan', ask, { now: scheduler.now(), notBefore: 1 })).toBe('at 500')
    expect(await lookup.get('scan', ask, { now: scheduler.now(), notBefore: 500 })).toBe('at 500')
    expect(state.calls).toBe(2)
  })

  it('an answer asked without a time serves callers without a bound only', async () => {
    const lookup = new SharedLookup<string, string>()
    const { state, ask } = asker('untimed', 'timed')
    expect(await lookup.get('a', ask)).toBe('untimed')
    expect(await lookup.get('a', ask, { now: 0 })).toBe('untimed')
    expect(await lookup.get('a', ask, { now: 0, maxAgeMs: 60_000 })).toBe('timed')
    expect(state.calls).toBe(2)
  })

  it('a stale answer failing late does not drop the newer one asked after it', async () => {
    const { scheduler, advance } = clock()
    const lookup = new SharedLookup<string, number>()
    const slow = deferred<number>()
    const at = () => ({ now: scheduler.now(), maxAgeMs: 100 })
    const old = lookup.get('a', () => slow.promise, at())
    advance(100)
    expect(await lookup.get('a', () => Promise.resolve(2), at())).toBe(2)
    slow.reject(new Error('late failure'))
    await expect(old).rejects.toThrow('late failure')
    await settle()
    expect(await lookup.get('a', () => Promise.resolve(3), at())).toBe(2)
  })

  it('forget drops the kept answer', async () => {
    const lookup = new SharedLookup<string, number>()
    const { state, ask } = asker(1, 2)
    expect(await lookup.get('a', ask)).toBe(1)
    lookup.forget('a')
    expect(await lookup.get('a', ask)).toBe(2)
    expect(state.calls).toBe(2)
  })
})
