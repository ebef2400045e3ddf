// Regressions: each test failed before its fix (see the commit that added it).
import { firstValueFrom, Observable, retry, Subject, VirtualTimeScheduler } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { fromRequest } from '../src/core/from-request.js'
import { HealthBoard } from '../src/core/health.js'
import { StreamRegistry } from '../src/core/stream-registry.js'

describe('fromRequest', () => {
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

describe('StreamRegistry', () => {
  it('keeps one poller per key when a subscriber resubscribes synchronously after an error', () => {
    const scheduler = new VirtualTimeScheduler()
    const registry = new StreamRegistry({
      lingerMs: 50,
      health: new HealthBoard(),
      closed: new Subject(),
      scheduler,
    })
    let builds = 0
    let active = 0
    const build = () => {
      builds += 1
      const failsLater = builds === 1
      return new Observable<number>((subscriber) => {
        active += 1
        const failure = failsLater
          ? scheduler.schedule(() => subscriber.error(new Error('boom')), 10)
          : undefined
        return () => {
          active -= 1
          failure?.unsubscribe()
        }
      })
    }
    const shared = registry.shared('k', build, true)
    shared.pipe(retry(1)).subscribe({ error: () => undefined })
    scheduler.flush()
    // The retry(1) subscriber is polling through a rebuilt source...
    expect(active).toBe(1)
    // ...which the registry must know about (it was orphaned before the fix),
    expect(registry.size).toBe(1)
    // so that a second subscriber joins it instead of building another.
    shared.subscribe()
    expect(builds).toBe(2)
    expect(active).toBe(1)
  })
})
