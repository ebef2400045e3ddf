import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { VenueAbortError } from '../src/errors/venue-abort-error.js'
import { VenueNetworkError } from '../src/errors/venue-network-error.js'
import { dedupeTransport } from '../src/transport/dedupe-transport.js'
import type { Transport, TransportRequest, TransportResponse } from '../src/transport/transport.js'
import { settle, track } from './helpers/promises.js'

interface InnerCall {
  readonly request: TransportRequest
  readonly resolve: (response: TransportResponse) => void
  readonly reject: (error: unknown) => void
}

/** An inner transport whose requests are answered by hand. */
function manualTransport() {
  const calls: InnerCall[] = []
  let closed = 0
  const inner: Transport = {
    request: (request) =>
      new Promise<TransportResponse>((resolve, reject) => {
        calls.push({ request, resolve, reject })
      }),
    close: async () => {
      closed += 1
    },
  }
  return { inner, calls, closedCount: () => closed }
}

function call(calls: readonly InnerCall[], index: number): InnerCall {
  const found = calls[index]
  if (found === undefined) throw new Error(`no inner request number ${index}`)
  return found
}

function get(path: string, options: { account?: boolean; signal?: AbortSignal } = {}) {
  const request: TransportRequest = {
    path,
    headers: options.account === true ? { authorization: 'Bearer test-key' } : {},
    timeoutMs: 5000,
    endpoint: 'depth',
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  }
  return request
}

function answer(body: string): TransportResponse {
  return { status: 200, headers: { 'content-type': 'application/json' }, body }
}

const DEPTH = '/api/v1/depth?pool_id=1'

describe('dedupeTransport', () => {
  const unhandled: unknown[] = []
  const onUnhandled = (reason: unknown) => {
    unhandled.push(reason)
  }
  beforeEach(() => {
    unhandled.length = 0
    process.on('unhandledRejection', onUnhandled)
  })
  afterEach(() => {
    process.off('unhandledRejection', onUnhandled)
  })

  it('shares one inner request between identical requests in flight', async () => {
    const { inner, calls } = manualTransport()
    const transport = dedupeTransport(inner)
    const first = transport.request(get(DEPTH, { signal: new AbortController().signal }))
    const second = transport.request(get(DEPTH))
    const third = transport.request(get(DEPTH, { signal: new AbortController().signal }))
    expect(calls).toHaveLength(1)
    const response = answer('{"code":0}')
    call(calls, 0).resolve(response)
    const results = await Promise.all([first, second, third])
    for (const result of results) expect(result).toBe(response)
  })

  it('shares between two account requests of the same path', async () => {
    const { inner, calls } = manualTransport()
    const transport = dedupeTransport(inner)
    const first = transport.request(get('/api/v1/balances', { account: true }))
    const second = transport.request(get('/api/v1/balances', { account: true }))
    expect(calls).toHaveLength(1)
    call(calls, 0).resolve(answer('b'))
    expect(await first).toBe(await second)
  })

  it('sends a separate inner request for a different path or query', () => {
    const { inner, calls } = manualTransport()
    const transport = dedupeTransport(inner)
    void transport.request(get(DEPTH))
    void transport.request(get('/api/v1/depth?pool_id=2'))
    void transport.request(get('/api/v1/depth?pool_id=1&limit=5'))
    expect(calls.map((inner) => inner.request.path)).toEqual([
      DEPTH,
      '/api/v1/depth?pool_id=2',
      '/api/v1/depth?pool_id=1&limit=5',
    ])
  })

  it('keeps a public request and an account request of the same path apart', async () => {
    const { inner, calls } = manualTransport()
    const transport = dedupeTransport(inner)
    const publicAnswer = transport.request(get(DEPTH))
    const accountAnswer = transport.request(get(DEPTH, { account: true }))
    expect(calls).toHaveLength(2)
    expect(call(calls, 0).request.headers['authorization']).toBeUndefined()
    expect(call(calls, 1).request.headers['authorization']).toBe('Bearer test-key')
    call(calls, 0).resolve(answer('public'))
    call(calls, 1).resolve(answer('account'))
    expect((await publicAnswer).body).toBe('public')
    expect((await accountAnswer).body).toBe('account')
  })

  it('makes a new inner request for a call after the shared one settled', async () => {
    const { inner, calls } = manualTransport()
    const transport = dedupeTransport(inner)
    const first = transport.request(get(DEPTH))
    call(calls, 0).resolve(answer('first'))
    expect((await first).body).toBe('first')
    const second = transport.request(get(DEPTH))
    expect(calls).toHaveLength(2)
    call(calls, 1).resolve(answer('second'))
    expect((await second).body).toBe('second')
  })

  it('makes a new inner request for a call after the shared one rejected', async () => {
    const { inner, calls } = manualTransport()
    const transport = dedupeTransport(inner)
    const first = track(transport.request(get(DEPTH)))
    call(calls, 0).reject(new VenueNetworkError('reset', { causeCode: 'ECONNRESET' }))
    await settle()
    expect(first.status).toBe('rejected')
    void transport.request(get(DEPTH))
    expect(calls).toHaveLength(2)
  })

  it('gives the inner request its own signal, not a caller’s', () => {
    const { inner, calls } = manualTransport()
    const transport = dedupeTransport(inner)
    const controller = new AbortController()
    void transport.request(get(DEPTH, { signal: controller.signal })).catch(() => undefined)
    const signal = call(calls, 0).request.signal
    expect(signal).toBeDefined()
    expect(signal).not.toBe(controller.signal)
  })

  it('rejects only the caller that aborts, with VenueAbortError; the other still gets the answer', async () => {
    const { inner, calls } = manualTransport()
    const transport = dedupeTransport(inner)
    const leaving = new AbortController()
    const staying = new AbortController()
    const left = track(transport.request(get(DEPTH, { signal: leaving.signal })))
    const stayed = track(transport.request(get(DEPTH, { signal: staying.signal })))
    leaving.abort('no longer needed')
    await settle()
    expect(left.status).toBe('rejected')
    expect(left.error).toBeInstanceOf(VenueAbortError)
    expect((left.error as VenueAbortError).cause).toBe('no longer needed')
    expect((left.error as VenueAbortError).endpoint).toBe('depth')
    expect(call(calls, 0).request.signal?.aborted).toBe(false)
    expect(stayed.status).toBe('pending')

    const response = answer('book')
    call(calls, 0).resolve(response)
    await settle()
    expect(stayed.status).toBe('resolved')
    expect(stayed.value).toBe(response)
    expect(left.status).toBe('rejected')
  })

  it('aborts the inner request once every caller has aborted', async () => {
    const { inner, calls } = manualTransport()
    const transport = dedupeTransport(inner)
    const one = new AbortController()
    const two = new AbortController()
    const first = track(transport.request(get(DEPTH, { signal: one.signal })))
    const second = track(transport.request(get(DEPTH, { signal: two.signal })))
    const innerSignal = call(calls, 0).request.signal
    one.abort()
    expect(innerSignal?.aborted).toBe(false)
    two.abort('gone')
    expect(innerSignal?.aborted).toBe(true)
    expect(innerSignal?.reason).toBe('gone')
    await settle()
    expect(first.error).toBeInstanceOf(VenueAbortError)
    expect(second.error).toBeInstanceOf(VenueAbortError)
  })

  it('does not abort the inner request while a caller without a signal still waits', async () => {
    const { inner, calls } = manualTransport()
    const transport = dedupeTransport(inner)
    const controller = new AbortController()
    const leaving = track(transport.request(get(DEPTH, { signal: controller.signal })))
    const staying = track(transport.request(get(DEPTH)))
    controller.abort()
    await settle()
    expect(leaving.status).toBe('rejected')
    expect(call(calls, 0).request.signal?.aborted).toBe(false)
    call(calls, 0).resolve(answer('ok'))
    await settle()
    expect(staying.status).toBe('resolved')
  })

  it('starts a fresh inner request after every caller aborted, and the old one settling later does not disturb it', async () => {
    const { inner, calls } = manualTransport()
    const transport = dedupeTransport(inner)
    const controller = new AbortController()
    const aborted = track(transport.request(get(DEPTH, { signal: controller.signal })))
    controller.abort()
    const fresh = track(transport.request(get(DEPTH)))
    expect(calls).toHaveLength(2)
    // The aborted inner request rejects late: the fresh flight stays shared.
    call(calls, 0).reject(new VenueAbortError('depth: aborted by the caller'))
    await settle()
    const joined = track(transport.request(get(DEPTH)))
    expect(calls).toHaveLength(2)
    call(calls, 1).resolve(answer('fresh'))
    await settle()
    expect(aborted.status).toBe('rejected')
    expect(fresh.value?.body).toBe('fresh')
    expect(joined.value?.body).toBe('fresh')
    expect(unhandled).toEqual([])
  })

  it('rejects at once, without an inner request, when the signal is already aborted', async () => {
    const { inner, calls } = manualTransport()
    const transport = dedupeTransport(inner)
    const controller = new AbortController()
    controller.abort('before')
    const error = await transport.request(get(DEPTH, { signal: controller.signal })).then(
      () => undefined,
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(VenueAbortError)
    expect((error as VenueAbortError).cause).toBe('before')
    expect(calls).toHaveLength(0)
  })

  it('passes an inner rejection to every caller, never as an unhandled rejection', async () => {
    const { inner, calls } = manualTransport()
    const transport = dedupeTransport(inner)
    const error = new VenueNetworkError('reset', { causeCode: 'ECONNRESET' })
    const withSignal = track(
      transport.request(get(DEPTH, { signal: new AbortController().signal })),
    )
    const withoutSignal = track(transport.request(get(DEPTH)))
    const alsoWithout = track(transport.request(get(DEPTH)))
    call(calls, 0).reject(error)
    await settle()
    await settle()
    for (const state of [withSignal, withoutSignal, alsoWithout]) {
      expect(state.status).toBe('rejected')
      expect(state.error).toBe(error)
    }
    expect(unhandled).toEqual([])
  })

  it('raises no unhandled rejection when the inner request fails after every caller left', async () => {
    const { inner, calls } = manualTransport()
    const transport = dedupeTransport(inner)
    const one = new AbortController()
    const two = new AbortController()
    const first = transport.request(get(DEPTH, { signal: one.signal })).catch(() => 'caught')
    const second = transport.request(get(DEPTH, { signal: two.signal })).catch(() => 'caught')
    one.abort()
    two.abort()
    call(calls, 0).reject(new VenueAbortError('depth: aborted by the caller'))
    expect(await first).toBe('caught')
    expect(await second).toBe('caught')
    await settle()
    await settle()
    expect(unhandled).toEqual([])
  })

  it('closes the inner transport', async () => {
    const { inner, closedCount } = manualTransport()
    await dedupeTransport(inner).close()
    expect(closedCount()).toBe(1)
  })
})
