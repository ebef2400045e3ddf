import { defer, firstValueFrom } from 'rxjs'
import { TestScheduler } from 'rxjs/testing'
import { describe, expect, it } from 'vitest'
import { fromRequest } from '../src/core/from-request.js'
import { VenueNetworkError } from '../src/errors/venue-network-error.js'
import { deferred, settle } from './helpers/promises.js'

function testScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected))
}

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

  it('does not abort a request that already answered when the consumer takes the first value', async () => {
    let received: AbortSignal | undefined
    const value = await firstValueFrom(
      fromRequest((signal) => {
        received = signal
        return Promise.resolve(42)
      }),
    )
    expect(value).toBe(42)
    expect(received?.aborted).toBe(false)
  })
})
