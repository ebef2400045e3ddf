import { AsyncLocalStorage } from 'node:async_hooks'
import { type Observable, of, Subject, take, VirtualTimeScheduler } from 'rxjs'
import { TestScheduler } from 'rxjs/testing'
import { describe, expect, it } from 'vitest'
import { poll, pollWith } from '../src/core/poll.js'
import { VenueInputError } from '../src/errors/venue-input-error.js'
import { VenueNetworkError } from '../src/errors/venue-network-error.js'
import { deferred, settle } from './helpers/promises.js'

function testScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected))
}

/** Serves the given Observables, one per call, and fails the test if asked for more. */
function inTurn<T>(...requests: Observable<T>[]): () => Observable<T> {
  let index = 0
  return () => {
    const next = requests[index]
    index += 1
    if (next === undefined) throw new Error(`unexpected request number ${index}`)
    return next
  }
}

describe('poll', () => {
  it('sends the first request at frame 0 and the next one intervalMs after the previous completed', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const request = cold('---(a|)')
      const polled = poll(() => request, { intervalMs: 10 }).pipe(take(4))
      expectObservable(polled).toBe('---a 9ms ---a 9ms ---a 9ms ---(a|)')
      expectSubscriptions(request.subscriptions).toBe([
        '^--!',
        '13ms ^--!',
        '26ms ^--!',
        '39ms ^--!',
      ])
    })
  })

  it('never overlaps requests, even when a request takes longer than the interval', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const request = cold('-------(a|)')
      const polled = poll(() => request, { intervalMs: 2 }).pipe(take(3))
      expectObservable(polled).toBe('-------a 8ms a 8ms (a|)')
      // Each subscription ends before the next one starts.
      expectSubscriptions(request.subscriptions).toBe(['^------!', '9ms ^------!', '18ms ^------!'])
    })
  })

  it("measureFrom: 'start': requests start intervalMs apart whatever the answers take, the next at once after a longer one, never overlapping", () => {
    testScheduler().run(({ cold, expectSubscriptions }) => {
      const quick = cold('---(a|)')
      const slow = cold('---------------(a|)')
      const polled = poll(inTurn(quick, slow, quick, quick), {
        intervalMs: 10,
        measureFrom: 'start',
      }).pipe(take(4))
      polled.subscribe()
      // quick at 0 (3 frames), slow at 10 (15 frames: ends at 25), quick at once at 25, then 35.
      expectSubscriptions(quick.subscriptions).toBe(['^--!', '25ms ^--!', '35ms ^--!'])
      expectSubscriptions(slow.subscriptions).toBe(['10ms ^--------------!'])
    })
  })

  it('wake: ends the pause at once, and a wake during a request makes the next one follow it without a pause', () => {
    testScheduler().run(({ cold, hot, expectSubscriptions }) => {
      const request = cold('---(a|)')
      // Wakes at 7 (in the pause after the first request) and at 9 (during the second).
      const wake = hot('7ms x 1ms x')
      poll(() => request, { intervalMs: 100, wake })
        .pipe(take(3))
        .subscribe()
      // 0-3; woken at 7: 7-10, woken during it: 10-13; no wake: it would be 0, 103, 206.
      expectSubscriptions(request.subscriptions).toBe(['^--!', '7ms ^--!', '10ms ^--!'])
    })
  })

  it('sends every request in the async context of the subscription, also one another context woke', () => {
    const als = new AsyncLocalStorage<string>()
    const scheduler = new VirtualTimeScheduler()
    const wake = new Subject<void>()
    const seen: (string | undefined)[] = []
    const request = () => {
      seen.push(als.getStore())
      return of('answer')
    }
    als.run('subscriber', () =>
      poll(request, { intervalMs: 1_000, scheduler, wake }).pipe(take(3)).subscribe(),
    )
    als.run('someone else', () => wake.next())
    scheduler.flush()
    expect(seen).toEqual(['subscriber', 'subscriber', 'subscriber'])
  })

  it('uses the scheduler it is given for the pause', () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const request = cold('-(a|)')
      const polled = poll(() => request, { intervalMs: 5, scheduler }).pipe(take(2))
      expectObservable(polled).toBe('-a 5ms (a|)')
      expectSubscriptions(request.subscriptions).toBe(['^!', '6ms ^!'])
    })
  })

  it('ends with the error of a failing request and sends no further request', () => {
    const error = new VenueNetworkError('reset', { causeCode: 'ECONNRESET' })
    let calls = 0
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const ok = cold('-(a|)')
      const failing = cold('--#', undefined, error)
      const next = inTurn(ok, failing)
      const polled = poll(
        () => {
          calls += 1
          return next()
        },
        { intervalMs: 10 },
      )
      expectObservable(polled).toBe('-a 9ms --#', undefined, error)
      expectSubscriptions(ok.subscriptions).toBe('^!')
      expectSubscriptions(failing.subscriptions).toBe('11ms ^-!')
    })
    expect(calls).toBe(2)
  })

  it('unsubscribes the request in flight when the subscriber leaves mid-request', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const request = cold('-----(a|)')
      const polled = poll(() => request, { intervalMs: 10 })
      expectObservable(polled, '^ 17ms !').toBe('-----a')
      expectSubscriptions(request.subscriptions).toBe(['^----!', '15ms ^--!'])
    })
  })

  it('aborts the signal of the request in flight when the subscriber leaves mid-request', () => {
    const signals: AbortSignal[] = []
    testScheduler().run(({ cold, expectObservable }) => {
      const request = cold('-----(a|)')
      const polled = poll(
        (signal) => {
          signals.push(signal)
          return request
        },
        { intervalMs: 10 },
      )
      expectObservable(polled, '^ 17ms !').toBe('-----a')
    })
    expect(signals.map((signal) => signal.aborted)).toEqual([false, true])
  })

  it('aborts the signal a Promise-returning request received when unsubscribed mid-request', async () => {
    const answer = deferred<number>()
    let received: AbortSignal | undefined
    const subscription = poll(
      (signal) => {
        received = signal
        return answer.promise
      },
      { intervalMs: 1000, scheduler: new VirtualTimeScheduler() },
    ).subscribe()
    expect(received?.aborted).toBe(false)
    subscription.unsubscribe()
    expect(received?.aborted).toBe(true)
    expect(received?.reason).toMatchObject({ name: 'AbortError' })
  })

  it('does not abort a Promise-returning request that already completed', async () => {
    const scheduler = new VirtualTimeScheduler()
    const answers = [deferred<number>(), deferred<number>()]
    const signals: AbortSignal[] = []
    const values: number[] = []
    const subscription = poll(
      (signal) => {
        const answer = answers[signals.length]
        signals.push(signal)
        if (answer === undefined) throw new Error('unexpected request')
        return answer.promise
      },
      { intervalMs: 1000, scheduler },
    ).subscribe((value) => values.push(value))

    answers[0]?.resolve(1)
    await settle()
    expect(values).toEqual([1])
    // Between requests: leaving now aborts nothing.
    scheduler.flush()
    expect(signals).toHaveLength(2)
    expect(signals[0]?.aborted).toBe(false)

    subscription.unsubscribe()
    expect(signals[0]?.aborted).toBe(false)
    expect(signals[1]?.aborted).toBe(true)
  })

  it('does not abort when unsubscribed during the pause between requests', async () => {
    const answer = deferred<number>()
    let received: AbortSignal | undefined
    const values: number[] = []
    const subscription = poll(
      (signal) => {
        received = signal
        return answer.promise
      },
      { intervalMs: 1000, scheduler: new VirtualTimeScheduler() },
    ).subscribe((value) => values.push(value))
    answer.resolve(7)
    await settle()
    expect(values).toEqual([7])
    subscription.unsubscribe()
    expect(received?.aborted).toBe(false)
  })
})

describe('pollWith: one AbortController for the polls of a subscription', () => {
  /** Promise-answered requests, by hand: the signals received and the answers to give. */
  function byHand() {
    const signals: AbortSignal[] = []
    const answers: ReturnType<typeof deferred<number>>[] = []
    const request = (signal: AbortSignal) => {
      signals.push(signal)
      const answer = deferred<number>()
      answers.push(answer)
      return answer.promise
    }
    return { signals, answers, request }
  }

  it('hands each poll the signal of the last while none fired and nothing listens to it', async () => {
    const scheduler = new VirtualTimeScheduler()
    const { signals, answers, request } = byHand()
    const seen: number[] = []
    const subscription = pollWith(request, { intervalMs: 5, scheduler }, true).subscribe((n) =>
      seen.push(n),
    )
    for (let n = 0; n < 3; n += 1) {
      answers[n]?.resolve(n)
      await settle()
      scheduler.flush()
    }
    expect(seen).toEqual([0, 1, 2])
    expect(signals).toHaveLength(4)
    expect(new Set(signals).size).toBe(1)
    // The poll in flight when the subscriber leaves is aborted, as with a fresh signal each.
    subscription.unsubscribe()
    expect(signals[3]?.aborted).toBe(true)
  })

  it('gives a fresh signal after one left with a listener on it, and never shares across subscriptions', async () => {
    const scheduler = new VirtualTimeScheduler()
    const { signals, answers, request } = byHand()
    const leaky = (signal: AbortSignal) => {
      if (signals.length === 0) signal.addEventListener('abort', () => {})
      return request(signal)
    }
    const first = pollWith(leaky, { intervalMs: 5, scheduler }, true).subscribe()
    answers[0]?.resolve(0)
    await settle()
    scheduler.flush()
    answers[1]?.resolve(1)
    await settle()
    scheduler.flush()
    expect(signals).toHaveLength(3)
    // The first kept a listener: the second got its own, which the third reuses.
    expect(signals[1]).not.toBe(signals[0])
    expect(signals[2]).toBe(signals[1])
    const second = pollWith(request, { intervalMs: 5, scheduler }, true).subscribe()
    expect(signals).toHaveLength(4)
    expect(signals.slice(0, 3)).not.toContain(signals[3])
    first.unsubscribe()
    second.unsubscribe()
  })

  it('public poll: a fresh signal for every request', async () => {
    const scheduler = new VirtualTimeScheduler()
    const { signals, answers, request } = byHand()
    const subscription = poll(request, { intervalMs: 5, scheduler }).subscribe()
    answers[0]?.resolve(0)
    await settle()
    scheduler.flush()
    expect(signals).toHaveLength(2)
    expect(signals[1]).not.toBe(signals[0])
    subscription.unsubscribe()
  })
})

describe('poll: its options', () => {
  it('refuses a missing or negative intervalMs without a pace, at the call', () => {
    for (const options of [{}, { intervalMs: -1 }, { intervalMs: Number.NaN }]) {
      expect(() => poll(() => of(1), options)).toThrow(VenueInputError)
      expect(() => poll(() => of(1), options)).toThrow('poll: intervalMs must be a number >= 0')
    }
  })

  it('with a pace, polls when its turn emits, and says when each request starts', () => {
    const testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected))
    testScheduler.run(({ cold, expectObservable }) => {
      const started: number[] = []
      let n = 0
      const pace = {
        // After an odd number of starts the turn takes 5 ms, after an even one 3 ms.
        turn: () => cold(n % 2 === 0 ? '---a|' : '-----a|'),
        started: () => {
          started.push(testScheduler.now())
          n += 1
        },
      }
      const values = poll(() => of(n), { pace, scheduler: testScheduler }).pipe(take(3))
      // The request sees the count of starts, its own included.
      expectObservable(values).toBe('a----b--(c|)', { a: 1, b: 2, c: 3 })
      testScheduler.flush()
      expect(started).toEqual([0, 5, 8])
    })
  })
})
