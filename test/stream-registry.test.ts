import { Observable, retry, Subject, tap, VirtualTimeScheduler } from 'rxjs'
import { type RunHelpers, TestScheduler } from 'rxjs/testing'
import { describe, expect, it, type Mock, onTestFinished, vi } from 'vitest'
import { HealthBoard, type HealthReport } from '../src/core/health.js'
import { StreamRegistry } from '../src/core/stream-registry.js'
import { VenueNetworkError } from '../src/errors/venue-network-error.js'
import { VenueNotFoundError } from '../src/errors/venue-not-found-error.js'
import { VenueServerError } from '../src/errors/venue-server-error.js'
import { streamKey } from '../src/streams/stream-key.js'
import { eachCase } from './helpers/each-case.js'

function testScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected))
}

function setup(scheduler?: TestScheduler) {
  const health = new HealthBoard()
  const closed = new Subject<void>()
  const registry = new StreamRegistry({
    lingerMs: 50,
    health,
    closed,
    ...(scheduler === undefined ? {} : { scheduler }),
  })
  return { health, closed, registry }
}

/** Values every 10 frames: a at 0, b at 10, c at 20 ... never completes. */
const EVERY_10 = 'a 9ms b 9ms c 9ms d 9ms e 9ms f 9ms g 9ms h 9ms i 9ms j 9ms k 9ms l'

/** A source that counts its live subscriptions and never emits. */
function counted() {
  const state = { builds: 0, active: 0 }
  const build = () => {
    state.builds += 1
    return new Observable<number>(() => {
      state.active += 1
      return () => {
        state.active -= 1
      }
    })
  }
  return { state, build }
}

interface SharedRun extends RunHelpers {
  scheduler: TestScheduler
  registry: StreamRegistry
  health: HealthBoard
  source: ReturnType<RunHelpers['cold']>
  build: Mock
  shared: Observable<unknown>
}

interface SharedOptions {
  key?: string
  /** The error value of the source's `#`. */
  error?: unknown
  /** Passes the TestScheduler in the registry options; otherwise the default scheduler is used. */
  injectScheduler?: boolean
  /** The source tells health ok on every value, as a poller does. */
  reportsOk?: boolean
}

/**
 * Runs `body` in virtual time on a registry sharing one cold source (`marbles`) under one key,
 * built by a mock. Returns the mock, to count the builds.
 */
function runShared(marbles: string, body: (run: SharedRun) => void, options: SharedOptions = {}) {
  const { key = 'k', error, injectScheduler = false, reportsOk = false } = options
  const scheduler = testScheduler()
  const build = vi.fn()
  const injected = injectScheduler ? setup(scheduler) : undefined
  scheduler.run((helpers) => {
    const { registry, health } = injected ?? setup()
    const source = helpers.cold(marbles, undefined, error)
    build.mockReturnValue(reportsOk ? source.pipe(tap(() => health.ok(key))) : source)
    const shared = registry.shared(key, build)
    body({ ...helpers, scheduler, registry, health, source, build, shared })
  })
  return build
}

/**
 * Counts the real timers started and not yet cleared from now on (rxjs's async scheduler
 * runs on setInterval): only this test's timers, whatever else the process has running.
 */
function countTimers(): { readonly active: () => number; readonly restore: () => void } {
  const started = new Set<unknown>()
  const realSet = globalThis.setInterval
  const realClear = globalThis.clearInterval
  const set = vi.spyOn(globalThis, 'setInterval').mockImplementation(((
    ...args: Parameters<typeof setInterval>
  ) => {
    const id = realSet(...args)
    started.add(id)
    return id
  }) as typeof setInterval)
  const clear = vi.spyOn(globalThis, 'clearInterval').mockImplementation((id) => {
    started.delete(id)
    realClear(id)
  })
  return {
    active: () => started.size,
    restore: () => {
      set.mockRestore()
      clear.mockRestore()
    },
  }
}

describe('StreamRegistry: sharing', () => {
  it('gives two subscribers one subscription to the source and builds it once', () => {
    const build = runShared(
      '-a-b-c-|',
      ({ shared, source, expectObservable, expectSubscriptions }) => {
        expectObservable(shared).toBe('-a-b-c-|')
        expectObservable(shared, '--^').toBe('--ab-c-|')
        expectSubscriptions(source.subscriptions).toBe('^------!')
      },
      { injectScheduler: true },
    )
    expect(build).toHaveBeenCalledTimes(1)
  })

  it('replays the latest value to a late subscriber at once, then the live ones', () => {
    runShared('-a---b-c-|', ({ shared, source, expectObservable, expectSubscriptions }) => {
      expectObservable(shared).toBe('-a---b-c-|')
      expectObservable(shared, '---^').toBe('---a-b-c-|')
      expectSubscriptions(source.subscriptions).toBe('^--------!')
    })
  })

  it('keeps different keys apart', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const { registry } = setup()
      const one = cold('-a|')
      const two = cold('--b|')
      expectObservable(registry.shared('one', () => one)).toBe('-a|')
      expectObservable(registry.shared('two', () => two)).toBe('--b|')
      expectSubscriptions(one.subscriptions).toBe('^-!')
      expectSubscriptions(two.subscriptions).toBe('^--!')
    })
  })

  it('joins the live poller of the key at subscribe time, whoever built the Observable', () => {
    const build = runShared(EVERY_10, (run) => {
      const second = run.registry.shared('k', run.build)
      run.expectObservable(run.shared, '^ 24ms !').toBe('a 9ms b 9ms c')
      run.expectObservable(second, '5ms ^ 9ms !').toBe('5ms a 4ms b')
      run.expectSubscriptions(run.source.subscriptions).toBe('^ 74ms !')
    })
    expect(build).toHaveBeenCalledTimes(1)
  })
})

describe('StreamRegistry: linger', () => {
  it('keeps the source subscribed exactly lingerMs after the last unsubscribe, then drops the key', () => {
    const sizes: [number, number][] = []
    runShared(EVERY_10, ({ scheduler, registry, shared, source, ...run }) => {
      run.expectObservable(shared, '^ 14ms !').toBe('a 9ms b')
      run.expectSubscriptions(source.subscriptions).toBe('^ 64ms !')
      for (const frame of [14, 16, 64, 66]) {
        scheduler.schedule(() => sizes.push([frame, registry.size]), frame)
      }
    })
    expect(sizes).toEqual([
      [14, 1],
      [16, 1],
      [64, 1],
      [66, 0],
    ])
  })

  it('uses the scheduler given in the options for the linger', () => {
    runShared(
      EVERY_10,
      ({ shared, source, expectObservable, expectSubscriptions }) => {
        expectObservable(shared, '^ 14ms !').toBe('a 9ms b')
        expectSubscriptions(source.subscriptions).toBe('^ 64ms !')
      },
      { injectScheduler: true },
    )
  })

  eachCase(
    [
      {
        title: 'reuses the same source subscription when a subscriber comes back within the linger',
        // Back at 35, within 15..65: replay of d (30), then e, f, g; leaves at 65.
        back: '35ms ^ 29ms !',
        sees: '35ms d 4ms e 9ms f 9ms g',
        subscriptions: ['^ 114ms !'],
        builds: 1,
      },
      {
        title: 'builds a fresh source for a subscriber that comes after the linger',
        // The first poller stopped at 65: no stale replay, the new one starts from a.
        back: '80ms ^ 14ms !',
        sees: '80ms a 9ms b',
        subscriptions: ['^ 64ms !', '80ms ^ 64ms !'],
        builds: 2,
      },
    ],
    (r) => r.title,
    ({ back, sees, subscriptions, builds }) => {
      const build = runShared(
        EVERY_10,
        ({ shared, source, expectObservable, expectSubscriptions }) => {
          expectObservable(shared, '^ 14ms !').toBe('a 9ms b')
          expectObservable(shared, back).toBe(sees)
          expectSubscriptions(source.subscriptions).toBe(subscriptions)
        },
      )
      expect(build).toHaveBeenCalledTimes(builds)
    },
  )

  it('leaves registry.size 0 and no scheduled action after 10,000 subscribe/unsubscribe cycles (virtual time)', () => {
    const scheduler = new VirtualTimeScheduler()
    const health = new HealthBoard()
    const registry = new StreamRegistry({ lingerMs: 50, health, closed: new Subject(), scheduler })
    const { state, build } = counted()
    const shared = registry.shared('k', build)
    let mostPending = 0
    for (let cycle = 0; cycle < 10_000; cycle += 1) {
      shared.subscribe().unsubscribe()
      mostPending = Math.max(mostPending, scheduler.actions.length)
      // Every other cycle the linger runs out; in between, the next cycle comes back in time.
      if (cycle % 2 === 1) scheduler.flush()
      expect(state.active).toBe(1 - (cycle % 2))
    }
    expect(mostPending).toBe(1)
    expect(state.builds).toBe(5_000)
    expect(state.active).toBe(0)
    expect(registry.size).toBe(0)
    expect(scheduler.actions).toHaveLength(0)
  })

  it('leaves registry.size 0 and no active timer after 10,000 subscribe/unsubscribe cycles (real time)', async () => {
    const health = new HealthBoard()
    const registry = new StreamRegistry({ lingerMs: 5, health, closed: new Subject() })
    const timers = countTimers()
    onTestFinished(timers.restore)
    let stopped: () => void = () => undefined
    const sourceStopped = new Promise<void>((resolve) => {
      stopped = resolve
    })
    let builds = 0
    const shared = registry.shared('k', () => {
      builds += 1
      return new Observable<number>(() => stopped)
    })
    for (let cycle = 0; cycle < 10_000; cycle += 1) shared.subscribe().unsubscribe()
    expect(builds).toBe(1)
    expect(registry.size).toBe(1)
    // Only the one linger timer of the last unsubscribe is pending.
    expect(timers.active()).toBe(1)
    await sourceStopped
    expect(registry.size).toBe(0)
    expect(timers.active()).toBe(0)
  })
})

describe('StreamRegistry: errors, close, health', () => {
  it('sends an error to every subscriber, marks the key failed and rebuilds on the next subscribe', () => {
    const error = new VenueNotFoundError('pool: HTTP 404', { status: 404 })
    const seen: [number, number, HealthReport][] = []
    const build = runShared(
      '-a--#',
      ({ scheduler, registry, health, shared, source, expectObservable, expectSubscriptions }) => {
        expectObservable(shared).toBe('-a--#', undefined, error)
        expectObservable(shared, '--^').toBe('--a-#', undefined, error)
        expectObservable(shared, '10ms ^').toBe('10ms -a--#', undefined, error)
        expectSubscriptions(source.subscriptions).toBe(['^---!', '10ms ^---!'])
        scheduler.schedule(() => seen.push([5, registry.size, health.current]), 5)
      },
      { key: 'watchPool("1")', error },
    )
    expect(build).toHaveBeenCalledTimes(2)
    expect(seen).toEqual([
      [
        5,
        0,
        {
          'watchPool("1")': {
            state: 'failed',
            errorCode: 'VENUE_NOT_FOUND',
            errorMessage: 'pool: HTTP 404',
          },
        },
      ],
    ])
  })

  it('completes every stream when closed emits', () => {
    const scheduler = testScheduler()
    const sizes: number[] = []
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const { registry, closed } = setup()
      const one = cold(EVERY_10)
      const two = cold('-x 9ms y 9ms z')
      expectObservable(registry.shared('one', () => one)).toBe('a 9ms b 4ms |')
      expectObservable(registry.shared('two', () => two)).toBe('-x 9ms y 3ms |')
      expectSubscriptions(one.subscriptions).toBe('^ 14ms !')
      expectSubscriptions(two.subscriptions).toBe('^ 14ms !')
      scheduler.schedule(() => closed.next(), 15)
      scheduler.schedule(() => sizes.push(registry.size), 14)
      scheduler.schedule(() => sizes.push(registry.size), 16)
    })
    expect(sizes).toEqual([2, 0])
  })

  it('removes the key from health when a stream stops normally', () => {
    const reports: HealthReport[] = []
    runShared(
      EVERY_10,
      ({ scheduler, health, shared, expectObservable }) => {
        expectObservable(shared, '^ 14ms !').toBe('a 9ms b')
        for (const frame of [64, 66]) scheduler.schedule(() => reports.push(health.current), frame)
      },
      { reportsOk: true },
    )
    expect(reports).toEqual([{ k: { state: 'ok' } }, {}])
  })

  it('keeps a failed key in health after the stream is gone', () => {
    const reports: HealthReport[] = []
    const error = new VenueNetworkError('reset', { causeCode: 'ECONNRESET' })
    runShared(
      'a-#',
      ({ scheduler, health, shared, expectObservable }) => {
        expectObservable(shared).toBe('a-#', undefined, error)
        scheduler.schedule(() => reports.push(health.current), 100)
      },
      { error, reportsOk: true },
    )
    expect(reports).toEqual([
      { k: { state: 'failed', errorCode: 'VENUE_NETWORK', errorMessage: 'reset' } },
    ])
  })

  // A regression: the rebuilt poller was orphaned before its fix.
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
    const shared = registry.shared('k', build)
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

describe('HealthBoard', () => {
  function recorded(health: HealthBoard): HealthReport[] {
    const reports: HealthReport[] = []
    health.changes.subscribe((report) => reports.push(report))
    return reports
  }

  it('starts with an empty report and emits ok once when told twice', () => {
    const health = new HealthBoard()
    const reports = recorded(health)
    health.ok('k')
    health.ok('k')
    expect(reports).toEqual([{}, { k: { state: 'ok' } }])
  })

  it('emits when a retrying stream becomes ok again', () => {
    const health = new HealthBoard()
    const reports = recorded(health)
    health.retrying('k', 2, 400, new VenueServerError('HTTP 503', { status: 503 }))
    health.ok('k')
    expect(reports).toEqual([
      {},
      {
        k: {
          state: 'retrying',
          attempt: 2,
          nextDelayMs: 400,
          lastErrorCode: 'VENUE_SERVER',
          lastErrorMessage: 'HTTP 503',
        },
      },
      { k: { state: 'ok' } },
    ])
  })

  it('reports UNKNOWN as the code of a non-venue error', () => {
    const health = new HealthBoard()
    health.failed('k', new Error('bug'))
    health.retrying('j', 1, 10, 'text')
    expect(health.current).toEqual({
      k: { state: 'failed', errorCode: 'UNKNOWN', errorMessage: 'bug' },
      j: {
        state: 'retrying',
        attempt: 1,
        nextDelayMs: 10,
        lastErrorCode: 'UNKNOWN',
        lastErrorMessage: 'text',
      },
    })
  })

  it('freezes every report and every entry', () => {
    const health = new HealthBoard()
    health.ok('k')
    health.failed('j', new Error('x'))
    const report = health.current
    expect(Object.isFrozen(report)).toBe(true)
    expect(Object.isFrozen(report['k'])).toBe(true)
    expect(Object.isFrozen(report['j'])).toBe(true)
    health.stopped('k')
    expect(Object.isFrozen(health.current)).toBe(true)
    // An earlier report is not changed by later ones.
    expect(report['k']).toEqual({ state: 'ok' })
  })

  it('forgets a stopped stream but keeps a failed one after stopped', () => {
    const health = new HealthBoard()
    const reports = recorded(health)
    health.ok('k')
    health.failed('j', new Error('x'))
    health.stopped('k')
    health.stopped('j')
    health.stopped('unknown')
    expect(health.current).toEqual({
      j: { state: 'failed', errorCode: 'UNKNOWN', errorMessage: 'x' },
    })
    // {}, ok k, failed j, k removed; stopping j and an unknown key emits nothing.
    expect(reports).toHaveLength(4)
  })

  it('gives a new subscriber the current report first', () => {
    const health = new HealthBoard()
    health.ok('k')
    expect(recorded(health)).toEqual([{ k: { state: 'ok' } }])
  })

  it('completes changes on close', () => {
    const health = new HealthBoard()
    let completed = false
    health.changes.subscribe({ complete: () => (completed = true) })
    health.close()
    expect(completed).toBe(true)
  })
})

describe('streamKey', () => {
  it('writes the name and no arguments as name()', () => {
    expect(streamKey('watchPools')).toBe('watchPools()')
    expect(streamKey('watchPools', [])).toBe('watchPools()')
  })

  it('sorts object keys so that argument order does not matter', () => {
    expect(streamKey('watchDepth', [1, { precision: '0.01', limit: 5 }])).toBe(
      'watchDepth(1,{"limit":5,"precision":"0.01"})',
    )
    expect(streamKey('watchDepth', [1, { limit: 5, precision: '0.01' }])).toBe(
      streamKey('watchDepth', [1, { precision: '0.01', limit: 5 }]),
    )
  })

  it('leaves out object keys whose value is undefined', () => {
    expect(streamKey('watchDepth', [1, { limit: 5, precision: undefined }])).toBe(
      streamKey('watchDepth', [1, { limit: 5 }]),
    )
    expect(streamKey('x', [{ a: undefined }])).toBe('x({})')
  })

  it('is canonical in nested objects and arrays', () => {
    const one = streamKey('x', [{ b: { d: [1, { f: 2, e: 1 }], c: 'z' }, a: null }])
    const two = streamKey('x', [{ a: null, b: { c: 'z', d: [1, { e: 1, f: 2, g: undefined }] } }])
    expect(one).toBe(two)
    expect(one).toBe('x({"a":null,"b":{"c":"z","d":[1,{"e":1,"f":2}]}})')
  })

  it('tells apart values that differ in type, order of array items, or content', () => {
    const keys = [
      streamKey('watchPool', [1]),
      streamKey('watchPool', ['1']),
      streamKey('watchPool', [[1, 2]]),
      streamKey('watchPool', [[2, 1]]),
      streamKey('watchPool', [{ a: 1 }]),
      streamKey('watchPool', [{ a: 2 }]),
      streamKey('watchPools', [1]),
      streamKey('watchPool', [1, 2]),
      streamKey('watchPool', ['1,2']),
    ]
    expect(new Set(keys).size).toBe(keys.length)
  })
})
