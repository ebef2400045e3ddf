import { describe, expect, it } from 'vitest'
import { VenueAbortError } from '../src/errors/venue-abort-error.js'
import type { TimerProvider } from '../src/timers.js'
import { dedupeTransport } from '../src/transport/dedupe-transport.js'
import { TokenBucket } from '../src/transport/token-bucket.js'
import type { Transport, TransportRequest, TransportResponse } from '../src/transport/transport.js'
import { settle, track } from './helpers/promises.js'

interface PendingTimer {
  readonly callback: () => void
  readonly ms: number
  readonly at: number
}

/** A clock moved by hand; timers fire only from `advance`. */
class ManualTimers implements TimerProvider {
  time = 0
  readonly pending: PendingTimer[] = []
  /** Every delay ever asked for, in order. */
  readonly requested: number[] = []

  now(): number {
    return this.time
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const timer: PendingTimer = { callback, ms, at: this.time + ms }
    this.pending.push(timer)
    this.requested.push(ms)
    return timer
  }

  clearTimeout(handle: unknown): void {
    const index = this.pending.indexOf(handle as PendingTimer)
    if (index !== -1) this.pending.splice(index, 1)
  }

  /** Moves the clock by `ms`, firing due timers in order (each at its own time). */
  advance(ms: number): void {
    const until = this.time + ms
    for (;;) {
      const due = this.pending
        .filter((timer) => timer.at <= until)
        .sort((left, right) => left.at - right.at)[0]
      if (due === undefined) break
      this.pending.splice(this.pending.indexOf(due), 1)
      this.time = due.at
      due.callback()
    }
    this.time = until
  }
}

describe('TokenBucket', () => {
  it('grants a burst of capacity at once; the next waits 1/rate s', async () => {
    const timers = new ManualTimers()
    const bucket = new TokenBucket(10, { timers })
    const burst = Array.from({ length: 10 }, () => track(bucket.acquire('rest')))
    const next = track(bucket.acquire('rest'))
    await settle()
    expect(burst.map((state) => state.status)).toEqual(Array(10).fill('resolved'))
    expect(next.status).toBe('pending')
    expect(timers.requested).toEqual([100])
    timers.advance(99)
    await settle()
    expect(next.status).toBe('pending')
    timers.advance(1)
    await settle()
    expect(next.status).toBe('resolved')
    expect(timers.pending).toHaveLength(0)
  })

  it('takes its capacity from the options', async () => {
    const timers = new ManualTimers()
    const bucket = new TokenBucket(10, { capacity: 2, timers })
    const states = [1, 2, 3].map(() => track(bucket.acquire('rest')))
    await settle()
    expect(states.map((state) => state.status)).toEqual(['resolved', 'resolved', 'pending'])
  })

  it('makes requests wait rather than fail: 25 requests at 10/s are granted over 1.5 s', async () => {
    const timers = new ManualTimers()
    const bucket = new TokenBucket(10, { timers })
    const grantedAt: number[] = []
    const all = Array.from({ length: 25 }, () =>
      bucket.acquire('rest').then(() => grantedAt.push(timers.now())),
    )
    for (let step = 0; step < 20; step += 1) {
      await settle()
      timers.advance(100)
    }
    await Promise.all(all)
    expect(grantedAt).toEqual([
      ...Array(10).fill(0),
      100,
      200,
      300,
      400,
      500,
      600,
      700,
      800,
      900,
      1000,
      1100,
      1200,
      1300,
      1400,
      1500,
    ])
  })

  it('refills while idle, up to capacity and no more', async () => {
    const timers = new ManualTimers()
    const bucket = new TokenBucket(2, { capacity: 3, timers })
    for (let i = 0; i < 3; i += 1) await bucket.acquire('rest')
    timers.advance(60_000)
    const states = [1, 2, 3, 4].map(() => track(bucket.acquire('rest')))
    await settle()
    expect(states.map((state) => state.status)).toEqual([
      'resolved',
      'resolved',
      'resolved',
      'pending',
    ])
    expect(timers.requested).toEqual([500])
  })

  it('serves lanes round robin: lane B with 3 waiters is served within the first 6 grants, FIFO within a lane', async () => {
    const timers = new ManualTimers()
    const bucket = new TokenBucket(1, { timers })
    await bucket.acquire('drain')
    const order: string[] = []
    const wait = (lane: string, label: string) => {
      bucket.acquire(lane).then(
        () => order.push(label),
        () => order.push(`${label} rejected`),
      )
    }
    for (let i = 0; i < 100; i += 1) wait('A', `A${i}`)
    for (let i = 0; i < 3; i += 1) wait('B', `B${i}`)
    expect(bucket.waiting).toBe(103)
    for (let grant = 0; grant < 8; grant += 1) {
      timers.advance(1000)
      await settle()
    }
    expect(order).toEqual(['A0', 'B0', 'A1', 'B1', 'A2', 'B2', 'A3', 'A4'])
    expect(bucket.waiting).toBe(95)
    bucket.close(new Error('done'))
    await settle()
    expect(order).toHaveLength(8 + 95)
  })

  it('puts a lane that joins late into the round after the lanes already waiting', async () => {
    const timers = new ManualTimers()
    const bucket = new TokenBucket(1, { timers })
    await bucket.acquire('drain')
    const order: string[] = []
    const wait = (lane: string, label: string) => {
      void bucket.acquire(lane).then(() => order.push(label))
    }
    wait('A', 'A0')
    wait('A', 'A1')
    wait('B', 'B0')
    timers.advance(1000)
    await settle()
    wait('C', 'C0')
    for (let grant = 0; grant < 3; grant += 1) {
      timers.advance(1000)
      await settle()
    }
    expect(order).toEqual(['A0', 'B0', 'A1', 'C0'])
  })

  it('rejects a waiter whose signal aborts with VenueAbortError carrying the reason, and frees its place', async () => {
    const timers = new ManualTimers()
    const bucket = new TokenBucket(1, { timers })
    await bucket.acquire('rest')
    const controller = new AbortController()
    const aborted = track(bucket.acquire('rest', controller.signal))
    const next = track(bucket.acquire('rest'))
    expect(bucket.waiting).toBe(2)
    controller.abort('caller left')
    await settle()
    expect(aborted.status).toBe('rejected')
    expect(aborted.error).toBeInstanceOf(VenueAbortError)
    expect((aborted.error as VenueAbortError).cause).toBe('caller left')
    expect(bucket.waiting).toBe(1)
    // The freed place goes to the next waiter at the next token.
    timers.advance(1000)
    await settle()
    expect(next.status).toBe('resolved')
    expect(bucket.waiting).toBe(0)
  })

  it('leaves no timer behind when the only waiter aborts', async () => {
    const timers = new ManualTimers()
    const bucket = new TokenBucket(1, { timers })
    await bucket.acquire('rest')
    const controller = new AbortController()
    const aborted = track(bucket.acquire('rest', controller.signal))
    expect(timers.pending).toHaveLength(1)
    controller.abort()
    await settle()
    expect(aborted.status).toBe('rejected')
    expect(timers.pending).toHaveLength(0)
    expect(bucket.waiting).toBe(0)
  })

  it('rejects at once, without taking a token, when the signal is already aborted', async () => {
    const timers = new ManualTimers()
    const bucket = new TokenBucket(1, { timers })
    const controller = new AbortController()
    controller.abort()
    const aborted = track(bucket.acquire('rest', controller.signal))
    const next = track(bucket.acquire('rest'))
    await settle()
    expect(aborted.status).toBe('rejected')
    expect(aborted.error).toBeInstanceOf(VenueAbortError)
    expect(next.status).toBe('resolved')
  })

  it('does not reject a granted request when its signal aborts later', async () => {
    const timers = new ManualTimers()
    const bucket = new TokenBucket(1, { timers })
    await bucket.acquire('rest')
    const controller = new AbortController()
    const granted = track(bucket.acquire('rest', controller.signal))
    timers.advance(1000)
    await settle()
    expect(granted.status).toBe('resolved')
    controller.abort()
    await settle()
    expect(granted.status).toBe('resolved')
    expect(bucket.waiting).toBe(0)
  })

  it('rejects every waiter with the reason of close and stops the refill timer', async () => {
    const timers = new ManualTimers()
    const bucket = new TokenBucket(1, { timers })
    await bucket.acquire('rest')
    const reason = new VenueAbortError('the venue is closed')
    const waiters = [
      track(bucket.acquire('A')),
      track(bucket.acquire('A')),
      track(bucket.acquire('B')),
    ]
    expect(timers.pending).toHaveLength(1)
    bucket.close(reason)
    await settle()
    expect(waiters.map((state) => state.status)).toEqual(['rejected', 'rejected', 'rejected'])
    for (const state of waiters) expect(state.error).toBe(reason)
    expect(timers.pending).toHaveLength(0)
    expect(bucket.waiting).toBe(0)
  })
})

describe('dedupeTransport with the request budget', () => {
  const response: TransportResponse = { status: 200, headers: {}, body: '{}' }

  function recordingTransport() {
    const sent: TransportRequest[] = []
    const inner: Transport = {
      request: async (request) => {
        sent.push(request)
        return response
      },
      close: async () => undefined,
    }
    return { sent, inner }
  }

  /** The budget in front of `inner`, as createVenue builds it. */
  function rateLimitTransport(inner: Transport, bucket: TokenBucket): Transport {
    return dedupeTransport(inner, { acquire: (lane, signal) => bucket.acquire(lane, signal) })
  }

  let counter = 0
  /** A request with a path of its own (identical paths would share one flight). */
  function request(
    endpoint: string,
    lane?: string,
    signal?: AbortSignal,
    path?: string,
  ): TransportRequest {
    counter += 1
    return {
      path: path ?? `/api/v1/${endpoint}?n=${counter}`,
      headers: {},
      timeoutMs: 5000,
      endpoint,
      ...(lane === undefined ? {} : { lane }),
      ...(signal === undefined ? {} : { signal }),
    }
  }

  it('sends a request only once it got a token', async () => {
    const timers = new ManualTimers()
    const { sent, inner } = recordingTransport()
    const transport = rateLimitTransport(inner, new TokenBucket(1, { timers }))
    const first = track(transport.request(request('ping')))
    const second = track(transport.request(request('ping')))
    await settle()
    expect(sent).toHaveLength(1)
    expect(first.status).toBe('resolved')
    expect(second.status).toBe('pending')
    timers.advance(1000)
    await settle()
    expect(sent).toHaveLength(2)
    expect(second.status).toBe('resolved')
  })

  it("waits in the request's lane, 'rest' when it names none", async () => {
    const timers = new ManualTimers()
    const { sent, inner } = recordingTransport()
    const transport = rateLimitTransport(inner, new TokenBucket(1, { timers }))
    void transport.request(request('drain'))
    await settle()
    for (const name of ['rest1', 'rest2', 'rest3']) void transport.request(request(name))
    void transport.request(request('pools', 'watchPools()'))
    void transport.request(request('rest4', 'rest'))
    for (let grant = 0; grant < 5; grant += 1) {
      timers.advance(1000)
      await settle()
    }
    // Lanes 'rest' and 'watchPools()' take turns; rest4 named 'rest' and queues behind rest3.
    expect(sent.map((sentRequest) => sentRequest.endpoint)).toEqual([
      'drain',
      'rest1',
      'pools',
      'rest2',
      'rest3',
      'rest4',
    ])
  })

  it('rejects with VenueAbortError and sends nothing when the signal aborts the wait', async () => {
    const timers = new ManualTimers()
    const { sent, inner } = recordingTransport()
    const bucket = new TokenBucket(1, { timers })
    const transport = rateLimitTransport(inner, bucket)
    await transport.request(request('drain'))
    const controller = new AbortController()
    const waiting = track(transport.request(request('ping', undefined, controller.signal)))
    controller.abort()
    await settle()
    expect(waiting.status).toBe('rejected')
    expect(waiting.error).toBeInstanceOf(VenueAbortError)
    timers.advance(5000)
    await settle()
    expect(sent.map((sentRequest) => sentRequest.endpoint)).toEqual(['drain'])
    expect(bucket.waiting).toBe(0)
  })

  it('passes the request on unchanged and closes the inner transport', async () => {
    let closed = false
    const { sent, inner } = recordingTransport()
    const transport = rateLimitTransport(
      {
        ...inner,
        close: async () => {
          closed = true
        },
      },
      new TokenBucket(10, { timers: new ManualTimers() }),
    )
    const original = request('ping', 'watchPools()')
    await expect(transport.request(original)).resolves.toBe(response)
    const { signal: _own, ...sentWithoutSignal } = sent[0] as TransportRequest
    expect(sentWithoutSignal).toEqual(original)
    await transport.close()
    expect(closed).toBe(true)
  })

  it('shares a flight that holds its token with any lane, but one still waiting only with its own lane', async () => {
    const timers = new ManualTimers()
    const { sent, inner } = recordingTransport()
    const transport = rateLimitTransport(inner, new TokenBucket(1, { timers }))
    await transport.request(request('drain'))
    // A REST call waits for a token in lane 'rest'.
    const rest = track(transport.request(request('pools', 'rest', undefined, '/api/v1/pools')))
    // The same GET from a stream's lane does not wait behind the REST queue: a flight of its own.
    const stream = track(
      transport.request(request('pools', 'watchPools()', undefined, '/api/v1/pools')),
    )
    // The same GET from 'rest' again joins the waiting REST flight.
    const restAgain = track(transport.request(request('pools', 'rest', undefined, '/api/v1/pools')))
    timers.advance(1000)
    await settle()
    timers.advance(1000)
    await settle()
    expect(rest.status).toBe('resolved')
    expect(stream.status).toBe('resolved')
    expect(restAgain.status).toBe('resolved')
    expect(sent.filter((r) => r.path === '/api/v1/pools')).toHaveLength(2)
  })
})
