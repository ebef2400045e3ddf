/**
 * Bounds on what one answer can cost: a body larger than `maxResponseBytes` is abandoned
 * (by its content-length, or as soon as the bytes read pass the bound), a body that
 * trickles past `requestTimeoutMs` is a timeout, and a `Retry-After` of weeks is waited
 * as long as a timer can wait, never turned into a hot retry loop.
 */
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { filter, firstValueFrom } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import {
  createVenue,
  type Venue,
  VenueAbortError,
  VenueNetworkError,
  VenueResponseError,
  VenueTimeoutError,
} from '../src/index.js'
import { MAX_TIMER_MS } from '../src/timers.js'
import { createUndiciTransport } from '../src/transport/undici-transport.js'
import { closedPort } from './helpers/cli.js'
import { dataFor } from './helpers/fixtures.js'
import { fail, ok, startRecordingServer } from './helpers/recording-server.js'
import { rejectionOf } from './helpers/rejection.js'

const cleanups: (() => Promise<unknown> | unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A server whose every answer is written by `answer`; counts the body bytes it wrote. */
async function rawServer(
  answer: (res: ServerResponse, sent: { bytes: number }) => void,
): Promise<{ url: string; sent: { bytes: number } }> {
  const sent = { bytes: 0 }
  const server: Server = createServer((_req, res) => answer(res, sent))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sent }
}

function open(url: string, options: Partial<Parameters<typeof createVenue>[0]> = {}): Venue {
  const venue = createVenue({ baseUrl: url, requestTimeoutMs: 2000, ...options })
  cleanups.push(() => venue.close())
  return venue
}

const CHUNK = Buffer.alloc(64 * 1024, 0x20)

describe('maxResponseBytes', () => {
  it('abandons an endless chunked body once it passes the bound, having read about the bound', async () => {
    const { url, sent } = await rawServer((res, count) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('{"code":0,"message":"","data":[')
      const more = () => {
        // Until the client goes away: an answer without end.
        while (!res.destroyed && res.write(CHUNK)) count.bytes += CHUNK.length
        if (!res.destroyed) res.once('drain', more)
      }
      more()
    })
    const max = 1024 * 1024
    const error = await rejectionOf(open(url, { maxResponseBytes: max }).rest.pools())
    expect(error).toBeInstanceOf(VenueResponseError)
    expect(error).toMatchObject({ problem: 'size', retryable: false, endpoint: 'pools' })
    expect((error as Error).message).toMatch(
      /larger than maxResponseBytes \(at least \d+ > 1048576 bytes\)/,
    )
    // The server could push only what fit into socket buffers after the client stopped.
    expect(sent.bytes).toBeLessThan(max * 8)
  })

  it('refuses a body whose content-length is over the bound before reading it', async () => {
    const { url } = await rawServer((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 200_000_000 })
      res.write('{"code":0')
    })
    const error = await rejectionOf(open(url, { maxResponseBytes: 4096 }).rest.ping())
    expect(error).toMatchObject({ problem: 'size' })
    expect((error as Error).message).toContain('(200000000 > 4096 bytes)')
  })

  it('reads an answer of exactly the bound', async () => {
    const server = await startRecordingServer((request) => ok(dataFor(request.pathname)))
    cleanups.push(() => server.close())
    const body = JSON.stringify({ code: 0, message: '', data: dataFor('/api/v1/ping'), meta: {} })
    const venue = open(server.url, { maxResponseBytes: Buffer.byteLength(body) })
    await expect(venue.rest.ping()).resolves.toBeDefined()
  })

  it('defaults to 8 MiB', () => {
    expect(open('http://127.0.0.1:9').settings.maxResponseBytes).toBe(8 * 1024 * 1024)
  })
})

describe('requestTimeoutMs covers the body', () => {
  it('times out a body that keeps trickling after the headers', async () => {
    const { url } = await rawServer((res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('{"code":0,"message":"","data":[')
      const timer = setInterval(() => res.write(' '), 20)
      res.on('close', () => clearInterval(timer))
    })
    const error = await rejectionOf(open(url, { requestTimeoutMs: 300 }).rest.tokens())
    expect(error).toBeInstanceOf(VenueTimeoutError)
  })

  it('times out a body with a content-length that trickles after the headers', async () => {
    const { url } = await rawServer((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 100_000 })
      res.write('{"code":0,"message":"","data":[')
      const timer = setInterval(() => res.write(' '), 20)
      res.on('close', () => clearInterval(timer))
    })
    const error = await rejectionOf(open(url, { requestTimeoutMs: 300 }).rest.tokens())
    expect(error).toBeInstanceOf(VenueTimeoutError)
  })

  it('reads a body with a content-length that arrives in pieces', async () => {
    const body = JSON.stringify({ code: 0, message: '', data: dataFor('/api/v1/tokens'), meta: {} })
    const { url } = await rawServer((res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      })
      const half = Math.floor(body.length / 2)
      res.write(body.slice(0, half))
      setTimeout(() => res.end(body.slice(half)), 30)
    })
    await expect(open(url).rest.tokens()).resolves.toEqual(await open(url).rest.tokens())
  })
})

describe('one request through the dispatcher', () => {
  /** A server that sends headers and then a space every 20 ms, until the client leaves. */
  const trickling = () =>
    rawServer((res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      const timer = setInterval(() => res.write(' '), 20)
      res.on('close', () => clearInterval(timer))
    })
  const transportFor = (baseUrl: string, connections = 8) => {
    const transport = createUndiciTransport({ baseUrl, connections })
    cleanups.push(() => transport.close())
    return transport
  }
  const get = (path = '/x') => ({ path, headers: {}, timeoutMs: 2000, endpoint: 'test' })

  it("stops at the caller's abort while the body arrives, and lets the socket go", async () => {
    let closed = false
    const { url } = await rawServer((res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      const timer = setInterval(() => res.write(' '), 20)
      res.on('close', () => {
        clearInterval(timer)
        closed = true
      })
    })
    const controller = new AbortController()
    const pending = transportFor(url).request({ ...get(), signal: controller.signal })
    setTimeout(() => controller.abort(new Error('enough')), 100)
    const error = await rejectionOf(pending)
    expect(error).toBeInstanceOf(VenueAbortError)
    expect((error as VenueAbortError).message).toBe('test: aborted by the caller')
    await expect.poll(() => closed).toBe(true)
  })

  it('refuses at once a request whose signal has already fired', async () => {
    const { url } = await trickling()
    const error = await rejectionOf(
      transportFor(url).request({ ...get(), signal: AbortSignal.abort() }),
    )
    expect(error).toBeInstanceOf(VenueAbortError)
  })

  it('times out a request still queued for a socket at its own deadline', async () => {
    const { url } = await trickling()
    const transport = transportFor(url, 1)
    const settled: string[] = []
    const first = rejectionOf(transport.request({ ...get('/first'), timeoutMs: 600 })).then(
      (error) => {
        settled.push('first')
        return error
      },
    )
    const queued = await rejectionOf(transport.request({ ...get('/second'), timeoutMs: 150 }))
    settled.push('second')
    expect(queued).toBeInstanceOf(VenueTimeoutError)
    // Rejected at its own 150 ms, before the first request's 600 ms ran out.
    expect(await first).toBeInstanceOf(VenueTimeoutError)
    expect(settled).toEqual(['second', 'first'])
  })

  it('drops a UTF-8 byte order mark, with and without a content-length', async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"é":1}')])
    const withLength = await rawServer((res) => {
      res.writeHead(200, { 'content-length': body.length })
      res.end(body)
    })
    const chunked = await rawServer((res) => {
      res.writeHead(200)
      res.write(body.subarray(0, 4))
      res.end(body.subarray(4))
    })
    for (const { url } of [withLength, chunked]) {
      const answer = await transportFor(url).request(get())
      expect(answer.status).toBe(200)
      expect(answer.body).toBe('{"é":1}')
    }
  })

  it('reports a refused connection as a network error with its code', async () => {
    const port = await closedPort()
    const error = await rejectionOf(transportFor(`http://127.0.0.1:${port}`).request(get()))
    expect(error).toBeInstanceOf(VenueNetworkError)
    expect((error as VenueNetworkError).causeCode).toBe('ECONNREFUSED')
  })

  it('refuses a request after close() as an abort, not a network error', async () => {
    const { url } = await trickling()
    const transport = transportFor(url)
    await transport.close()
    const error = await rejectionOf(transport.request(get()))
    expect(error).toBeInstanceOf(VenueAbortError)
    expect((error as VenueAbortError).message).toBe('test: the connection pool is closed')
  })
})

describe('Retry-After beyond the timer maximum', () => {
  it('waits the longest a timer can, reports that wait in health, and sends no second request', async () => {
    const server = await startRecordingServer(() =>
      fail(429, 429, 'too many requests', { 'retry-after': '4000000' }),
    )
    cleanups.push(() => server.close())
    const venue = open(server.url, { pollIntervalMs: 10 })
    const subscription = venue.watchPools().subscribe({ error: () => undefined })
    cleanups.push(() => subscription.unsubscribe())
    const report = await firstValueFrom(
      venue.health.pipe(filter((r) => r['watchPools()']?.state === 'retrying')),
    )
    expect(report['watchPools()']).toMatchObject({
      state: 'retrying',
      attempt: 1,
      nextDelayMs: MAX_TIMER_MS,
      lastErrorCode: 'VENUE_RATE_LIMITED',
    })
    // The old code fired the clamped-by-Node timer after 1 ms: 39 requests in 3 s.
    // Twenty pings in a row through the same server span many 1 ms timer periods.
    for (let i = 0; i < 20; i += 1) await venue.rest.ping().catch(() => undefined)
    expect(server.requests.filter((r) => r.pathname === '/api/v1/pools')).toHaveLength(1)
  })
})
