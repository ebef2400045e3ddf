import { defer, type Observable, take, VirtualTimeScheduler } from 'rxjs'
import { TestScheduler } from 'rxjs/testing'
import { describe, expect, it } from 'vitest'
import { fromRequest } from '../src/core/from-request.js'
import { poll } from '../src/core/poll.js'
import { VenueNetworkError } from '../src/errors/venue-network-error.js'

function testScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected))
}

/** A promise resolved or rejected by hand. */
function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

/** Lets every pending promise callback run. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
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

describe('fromRequest', () => {
  it('emits the value of the request and completes', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const request = cold('--a|')
      expectObservable(fromRequest(() => request)).toBe('--a|')
      expectSubscriptions(request.subscriptions).toBe('^--!')
    })
  })

  it('starts the request only on subscribe, once per subscriber', () => {
    let calls = 0
    const request = fromRequest(async () => {
      calls += 1
      return calls
    })
    expect(calls).toBe(0)
    request.subscribe()
    request.subscribe()
    expect(calls).toBe(2)
  })

  it('emits the resolved value of a Promise, then completes', async () => {
    const events: string[] = []
    const answer = deferred<string>()
    fromRequest(() => answer.promise).subscribe({
      next: (value) => events.push(`next ${value}`),
      complete: () => events.push('complete'),
    })
    answer.resolve('pong')
    await settle()
    expect(events).toEqual(['next pong', 'complete'])
  })

  it('passes a rejection on as the error and does not abort the settled request', async () => {
    const error = new VenueNetworkError('refused', { causeCode: 'ECONNREFUSED' })
    const errors: unknown[] = []
    let received: AbortSignal | undefined
    fromRequest((signal) => {
      received = signal
      return Promise.reject(error)
    }).subscribe({ error: (caught: unknown) => errors.push(caught) })
    await settle()
    expect(errors).toEqual([error])
    expect(errors[0]).toBe(error)
    expect(received?.aborted).toBe(false)
  })

  it('passes an error thrown synchronously by the request on as the error', () => {
    const error = new Error('bad arguments')
    const errors: unknown[] = []
    fromRequest(() => {
      throw error
    }).subscribe({ error: (caught: unknown) => errors.push(caught) })
    expect(errors).toEqual([error])
  })

  it('aborts the request when unsubscribed while it is in flight', () => {
    let received: AbortSignal | undefined
    const subscription = fromRequest((signal) => {
      received = signal
      return new Promise<never>(() => undefined)
    }).subscribe()
    expect(received?.aborted).toBe(false)
    subscription.unsubscribe()
    expect(received?.aborted).toBe(true)
  })

  it('does not abort a request that completed before the unsubscribe', async () => {
    let received: AbortSignal | undefined
    const subscription = fromRequest((signal) => {
      received = signal
      return Promise.resolve(1)
    }).subscribe()
    await settle()
    expect(subscription.closed).toBe(true)
    subscription.unsubscribe()
    expect(received?.aborted).toBe(false)
  })

  it('does not abort a marble request that completed, but aborts one cut short', () => {
    const signals: AbortSignal[] = []
    testScheduler().run(({ cold, expectObservable }) => {
      const request = cold('--a|')
      const observed = defer(() =>
        fromRequest((signal) => {
          signals.push(signal)
          return request
        }),
      )
      expectObservable(observed).toBe('--a|')
      expectObservable(observed, '^!').toBe('')
    })
    expect(signals.map((signal) => signal.aborted)).toEqual([false, true])
  })
})
