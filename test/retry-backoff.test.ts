import { defer, type Observable } from 'rxjs'
import { type RunHelpers, TestScheduler } from 'rxjs/testing'
import { describe, expect, it } from 'vitest'
import {
  backoffDelay,
  type RetryBackoffOptions,
  type RetryNotice,
  retryBackoff,
} from '../src/core/retry-backoff.js'
import { VenueAbortError } from '../src/errors/venue-abort-error.js'
import { VenueApiError } from '../src/errors/venue-api-error.js'
import { VenueAuthError } from '../src/errors/venue-auth-error.js'
import { VenueInputError } from '../src/errors/venue-input-error.js'
import { VenueNetworkError } from '../src/errors/venue-network-error.js'
import { VenueNotFoundError } from '../src/errors/venue-not-found-error.js'
import { VenueRateLimitError } from '../src/errors/venue-rate-limit-error.js'
import { VenueRejectedError } from '../src/errors/venue-rejected-error.js'
import { VenueResponseError } from '../src/errors/venue-response-error.js'
import { VenueServerError } from '../src/errors/venue-server-error.js'
import { VenueTimeoutError } from '../src/errors/venue-timeout-error.js'
import { clampDelay, MAX_TIMER_MS } from '../src/timers.js'
import { eachCase } from './helpers/each-case.js'

function testScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected))
}

/** Subscription marble of a subscription from frame `from` to frame `to`. */
function span(from: number, to: number): string {
  return `${'-'.repeat(from)}^${'-'.repeat(to - from - 1)}!`
}

/** Serves the given Observables, one per subscription, and fails if asked for more. */
function inTurn<T>(...sources: Observable<T>[]): Observable<T> {
  let index = 0
  return defer(() => {
    const next = sources[index]
    index += 1
    if (next === undefined) throw new Error(`unexpected subscription number ${index}`)
    return next
  })
}

/** `failing` for the first `count` subscriptions, then `ok`. */
function failingFor<T>(count: number, failing: Observable<T>, ok: Observable<T>): Observable<T> {
  return inTurn(...Array.from({ length: count }, () => failing), ok)
}

/** Subscriptions of a source that fails one frame in, resubscribed after each of `delays`. */
function failingSpans(delays: readonly number[]): string[] {
  let start = 0
  return delays.map((delay) => {
    const subscription = span(start, start + 1)
    start += 1 + delay
    return subscription
  })
}

/** `options` with an onRetry that keeps every notice, and the notices it keeps. */
function recorded(options: RetryBackoffOptions) {
  const notices: RetryNotice[] = []
  const onRetry = (notice: RetryNotice) => {
    notices.push(notice)
  }
  return { notices, options: { ...options, onRetry } }
}

function delaysOf(notices: readonly RetryNotice[]): number[] {
  return notices.map((notice) => notice.delayMs)
}

const NO_JITTER = { initialMs: 100, maxMs: 1000, factor: 2, jitter: false } as const

/** Backoff of 1 ms per retry, so that long runs stay short in frames. */
const ONE_MS = { initialMs: 1, maxMs: 1, factor: 1, jitter: false } as const

function ambiguous500(): VenueServerError {
  return new VenueServerError('order: HTTP 500', {
    status: 500,
    venueMessage: 'service internal error',
  })
}

function server503(): VenueServerError {
  return new VenueServerError('pools: HTTP 503', { status: 503 })
}

describe('backoffDelay', () => {
  it('grows by factor from initialMs and is capped at maxMs', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7].map((attempt) => backoffDelay(attempt, 100, 1000, 2))
    expect(delays).toEqual([100, 200, 400, 800, 1000, 1000, 1000])
  })
})

describe('retryBackoff: timing', () => {
  eachCase(
    [
      {
        title: 'resubscribes after 100, 200, 400, 800, 1000, 1000 ms without jitter',
        options: NO_JITTER,
        until: '^ 3599ms !',
        delays: [100, 200, 400, 800, 1000, 1000, 1000],
      },
      {
        title: 'draws full jitter from the injected random source: 0.5 halves every delay',
        options: { initialMs: 100, maxMs: 1000, factor: 2, random: () => 0.5 },
        until: '^ 1299ms !',
        delays: [50, 100, 200, 400, 500, 500],
      },
      {
        title: 'rounds jittered delays down and never exceeds the computed delay',
        options: { initialMs: 100, maxMs: 1000, factor: 2, random: () => 0.999 },
        until: '^ 400ms !',
        delays: [99, 199, 399],
      },
    ],
    (r) => r.title,
    ({ options, until, delays }) => {
      const recording = recorded(options)
      testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
        const source = cold('-#', undefined, server503())
        expectObservable(source.pipe(retryBackoff(recording.options)), until).toBe('')
        expectSubscriptions(source.subscriptions).toBe(failingSpans(delays))
      })
      expect(delaysOf(recording.notices)).toEqual(delays)
    },
  )

  it('restarts the attempt count at 1 after a value', () => {
    const { notices, options } = recorded(NO_JITTER)
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const first = cold('-#', undefined, server503())
      const second = cold('-#', undefined, server503())
      const recovers = cold('-a-#', undefined, server503())
      const fourth = cold('-#', undefined, server503())
      const last = cold('-b|')
      const retried = inTurn(first, second, recovers, fourth, last).pipe(retryBackoff(options))
      expectObservable(retried).toBe('303ms a 303ms b|')
      expectSubscriptions(first.subscriptions).toBe(span(0, 1))
      expectSubscriptions(second.subscriptions).toBe(span(101, 102))
      expectSubscriptions(recovers.subscriptions).toBe(span(302, 305))
      // 100 ms (attempt 1 again), not 400 ms.
      expectSubscriptions(fourth.subscriptions).toBe(span(405, 406))
      expectSubscriptions(last.subscriptions).toBe(span(606, 608))
    })
    expect(notices.map(({ attempt, delayMs }) => [attempt, delayMs])).toEqual([
      [1, 100],
      [2, 200],
      [1, 100],
      [2, 200],
    ])
  })

  it('reports attempt, delay and the error itself to onRetry before each wait', () => {
    const { notices, options } = recorded(NO_JITTER)
    const errors = [server503(), new VenueTimeoutError('timeout', { timeoutMs: 5000 })]
    testScheduler().run(({ cold, expectObservable }) => {
      const retried = inTurn(
        cold('-#', undefined, errors[0]),
        cold('-#', undefined, errors[1]),
        cold('-a|'),
      ).pipe(retryBackoff(options))
      expectObservable(retried).toBe('303ms a|')
    })
    expect(notices).toEqual([
      { attempt: 1, delayMs: 100, error: errors[0] },
      { attempt: 2, delayMs: 200, error: errors[1] },
    ])
    expect(notices[0]?.error).toBe(errors[0])
    expect(notices[1]?.error).toBe(errors[1])
  })
})

describe('retryBackoff: waitAtMostMs', () => {
  it('bounds every wait by what it says before the wait, and reports the wait that happens', () => {
    const { notices, options } = recorded({ ...NO_JITTER, waitAtMostMs: () => 150 })
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-#', undefined, server503())
      expectObservable(source.pipe(retryBackoff(options)), '^ 400ms !').toBe('')
      expectSubscriptions(source.subscriptions).toBe(failingSpans([100, 150, 150]))
    })
    expect(delaysOf(notices)).toEqual([100, 150, 150])
  })

  it('asks afresh before each wait: a deadline drawing near shortens the last wait to it', () => {
    const scheduler = testScheduler()
    const left = () => 500 - scheduler.now()
    const { notices, options } = recorded({
      ...NO_JITTER,
      // Retried until frame 500: 100, 200, then the 197 ms left; at 501 the error passes.
      isRetryable: () => left() > 0,
      waitAtMostMs: left,
    })
    const error = server503()
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-#', undefined, error)
      expectObservable(source.pipe(retryBackoff(options))).toBe('501ms #', undefined, error)
      // The three waits, then the last try at the deadline.
      const spans = [...failingSpans([100, 200, 197]), span(500, 501)]
      expectSubscriptions(source.subscriptions).toBe(spans)
    })
    expect(delaysOf(notices)).toEqual([100, 200, 197])
  })

  it('bounds a Retry-After too', () => {
    const limited = new VenueRateLimitError('HTTP 429', { status: 429, retryAfterMs: 5000 })
    const { notices, options } = recorded({ ...NO_JITTER, waitAtMostMs: () => 300 })
    testScheduler().run(({ cold, expectObservable }) => {
      const retried = inTurn(cold('-#', undefined, limited), cold('-a|')).pipe(
        retryBackoff(options),
      )
      expectObservable(retried).toBe('302ms a|')
    })
    expect(delaysOf(notices)).toEqual([300])
  })
})

describe('retryBackoff: Retry-After', () => {
  eachCase(
    [
      {
        title: 'waits the 5000 ms a 429 asks for even when the backoff says 100',
        retryAfterMs: 5000,
        options: NO_JITTER,
        delayMs: 5000,
      },
      {
        title: 'waits at least Retry-After when jitter draws a shorter delay',
        retryAfterMs: 300,
        options: { initialMs: 1000, maxMs: 1000, factor: 2, random: () => 0 },
        delayMs: 300,
      },
      {
        title: 'keeps the longer backoff when Retry-After is shorter',
        retryAfterMs: 20,
        options: NO_JITTER,
        delayMs: 100,
      },
      {
        title:
          'clamps a Retry-After beyond the timer maximum to it, and reports that wait (no 1 ms hot loop)',
        // Retry-After: 4000000 (seconds): Node would fire such a timer after 1 ms.
        retryAfterMs: 4e9,
        options: NO_JITTER,
        delayMs: MAX_TIMER_MS,
      },
      {
        title: 'uses the plain backoff for a 429 without Retry-After',
        retryAfterMs: undefined,
        options: NO_JITTER,
        delayMs: 100,
      },
    ],
    (r) => r.title,
    ({ retryAfterMs, options, delayMs }) => {
      const limited = new VenueRateLimitError('HTTP 429', {
        status: 429,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      })
      const recording = recorded(options)
      testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
        const failing = cold('-#', undefined, limited)
        const ok = cold('-a|')
        const retried = inTurn(failing, ok).pipe(retryBackoff(recording.options))
        expectObservable(retried).toBe(`${delayMs + 2}ms a|`)
        expectSubscriptions(failing.subscriptions).toBe(span(0, 1))
        expectSubscriptions(ok.subscriptions).toBe(`${delayMs + 1}ms ^-!`)
      })
      expect(delaysOf(recording.notices)).toEqual([delayMs])
    },
  )
})

const NOT_RETRYABLE: readonly (readonly [string, () => unknown])[] = [
  ['VenueInputError', () => new VenueInputError('limit', 'limit must be 1..100')],
  ['VenueAuthError', () => new VenueAuthError('invalid-key', 'refused', { status: 401 })],
  ['VenueNotFoundError', () => new VenueNotFoundError('token: HTTP 404', { status: 404 })],
  ['VenueRejectedError', () => new VenueRejectedError('HTTP 400', { status: 400, venueCode: 1 })],
  [
    "VenueResponseError 'schema'",
    () => new VenueResponseError('schema', 'shape drift', { status: 200 }),
  ],
  [
    "VenueResponseError 'status'",
    () => new VenueResponseError('status', 'HTTP 302', { status: 302 }),
  ],
  ['VenueAbortError', () => new VenueAbortError('aborted')],
  [
    'VenueApiError with a non-transient code',
    () => new VenueApiError('refused', { status: 200, venueCode: 1001 }),
  ],
  ['a plain Error', () => new Error('bug')],
  ['a thrown string', () => 'not an error'],
]

const RETRYABLE: readonly (readonly [string, () => unknown])[] = [
  ['VenueServerError 503', server503],
  ['VenueNetworkError', () => new VenueNetworkError('reset', { causeCode: 'ECONNRESET' })],
  ['VenueTimeoutError', () => new VenueTimeoutError('no answer', { timeoutMs: 5000 })],
  ['VenueRateLimitError', () => new VenueRateLimitError('HTTP 429', { status: 429 })],
  ["VenueResponseError 'json'", () => new VenueResponseError('json', 'truncated', { status: 200 })],
  [
    "VenueResponseError 'envelope'",
    () => new VenueResponseError('envelope', 'no envelope', { status: 200 }),
  ],
  ['VenueApiError with code 503', () => new VenueApiError('busy', { status: 200, venueCode: 503 })],
]

describe('retryBackoff: which errors', () => {
  it.each(NOT_RETRYABLE)('ends at once with %s and never resubscribes', (_name, make) => {
    const error = make()
    const { notices, options } = recorded(NO_JITTER)
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-#', { a: 1 }, error)
      const retried = source.pipe(retryBackoff(options))
      expectObservable(retried).toBe('-a-#', { a: 1 }, error)
      expectSubscriptions(source.subscriptions).toBe('^--!')
    })
    expect(notices).toEqual([])
  })

  it('passes the very error object on, not a copy', () => {
    const error = new VenueAuthError('forbidden', 'forbidden', { status: 403 })
    const caught: unknown[] = []
    testScheduler().run(({ cold }) => {
      cold('-#', undefined, error)
        .pipe(retryBackoff(NO_JITTER))
        .subscribe({ error: (e: unknown) => caught.push(e) })
    })
    expect(caught).toHaveLength(1)
    expect(caught[0]).toBe(error)
  })

  it.each(RETRYABLE)('retries %s indefinitely: 50 failures, then the value', (_name, make) => {
    const error = make()
    const { notices, options } = recorded(ONE_MS)
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const failing = cold('-#', undefined, error)
      const ok = cold('-a|')
      const retried = failingFor(50, failing, ok).pipe(retryBackoff(options))
      expectObservable(retried).toBe('101ms a|')
      expectSubscriptions(failing.subscriptions).toBe(
        Array.from({ length: 50 }, (_, k) => span(2 * k, 2 * k + 1)),
      )
      expectSubscriptions(ok.subscriptions).toBe(span(100, 102))
    })
    expect(notices.map((notice) => notice.attempt)).toEqual(
      Array.from({ length: 50 }, (_, k) => k + 1),
    )
  })

  it('follows a custom isRetryable instead of VenueError#retryable', () => {
    const plain = new Error('flaky')
    testScheduler().run(({ cold, expectObservable }) => {
      const retried = inTurn(cold('-#', undefined, plain), cold('-a|')).pipe(
        retryBackoff({ ...ONE_MS, isRetryable: (error) => error === plain }),
      )
      expectObservable(retried).toBe('---a|')
    })
  })
})

describe('retryBackoff: the ambiguous 500', () => {
  const options: RetryBackoffOptions = { ...ONE_MS, maxAmbiguousRetries: 3 }

  it('is recognised from status 500 and the message service internal error', () => {
    expect(ambiguous500().ambiguous).toBe(true)
    expect(server503().ambiguous).toBe(false)
    expect(new VenueServerError('x', { status: 500, venueMessage: 'other' }).ambiguous).toBe(false)
  })

  it('is retried 3 times with maxAmbiguousRetries 3 and ends the stream on the 4th in a row', () => {
    const error = ambiguous500()
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-#', undefined, error)
      expectObservable(source.pipe(retryBackoff(options))).toBe('7ms #', undefined, error)
      expectSubscriptions(source.subscriptions).toBe([
        span(0, 1),
        span(2, 3),
        span(4, 5),
        span(6, 7),
      ])
    })
  })

  it('is retried without bound when maxAmbiguousRetries is not set', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const ok = cold('-a|')
      const source = failingFor(10, cold('-#', undefined, ambiguous500()), ok)
      expectObservable(source.pipe(retryBackoff(ONE_MS))).toBe('21ms a|')
      expectSubscriptions(ok.subscriptions).toBe(span(20, 22))
    })
  })

  eachCase(
    [
      {
        title: 'counts again from 0 after a value',
        // Errors at 1, 3, 5; value at 7 and error at 9 (1st in a row again); 11, 13, 15 ends.
        breaker: (cold: RunHelpers['cold'], error: unknown) => cold('-a-#', undefined, error),
        failuresAfter: 3,
        expected: '7ms a 7ms #',
      },
      {
        title: 'counts again from 0 after a non-ambiguous error',
        // Ends on the 8th error (frame 15): the 503 broke the run of ambiguous ones.
        breaker: (cold: RunHelpers['cold']) => cold('-#', undefined, server503()),
        failuresAfter: 4,
        expected: '15ms #',
      },
    ],
    (r) => r.title,
    ({ breaker, failuresAfter, expected }) => {
      const error = ambiguous500()
      testScheduler().run(({ cold, expectObservable }) => {
        const failures = (count: number) =>
          Array.from({ length: count }, () => cold('-#', undefined, error))
        const source = inTurn(...failures(3), breaker(cold, error), ...failures(failuresAfter))
        expectObservable(source.pipe(retryBackoff(options))).toBe(expected, undefined, error)
      })
    },
  )

  it('keeps an independent count for each subscription to the same piped observable', () => {
    const error = ambiguous500()
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-#', undefined, error)
      const retried = source.pipe(retryBackoff(options))
      // One subscriber from frame 0, one from frame 1: interleaved errors at 1, 2, 3 ...
      expectObservable(retried).toBe('7ms #', undefined, error)
      expectObservable(retried, '-^').toBe('8ms #', undefined, error)
      expectSubscriptions(source.subscriptions).toBe([
        span(0, 1),
        span(1, 2),
        span(2, 3),
        span(3, 4),
        span(4, 5),
        span(5, 6),
        span(6, 7),
        span(7, 8),
      ])
    })
  })
})

describe('clampDelay', () => {
  it('keeps delays a timer can wait for, and bounds the others', () => {
    expect([0, 1, 1500, MAX_TIMER_MS].map(clampDelay)).toEqual([0, 1, 1500, MAX_TIMER_MS])
    expect(clampDelay(MAX_TIMER_MS + 1)).toBe(MAX_TIMER_MS)
    expect(clampDelay(4e9)).toBe(MAX_TIMER_MS)
    expect(clampDelay(Number.POSITIVE_INFINITY)).toBe(MAX_TIMER_MS)
    expect(clampDelay(-5)).toBe(0)
    expect(clampDelay(Number.NaN)).toBe(0)
  })
})
