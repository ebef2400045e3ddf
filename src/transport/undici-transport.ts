import { type Dispatcher, Pool } from 'undici'
import { VenueAbortError } from '../errors/venue-abort-error.js'
import type { VenueError } from '../errors/venue-error.js'
import { VenueNetworkError } from '../errors/venue-network-error.js'
import { VenueResponseError } from '../errors/venue-response-error.js'
import { VenueTimeoutError } from '../errors/venue-timeout-error.js'
import type {
  AbortSignalLike,
  Transport,
  TransportRequest,
  TransportResponse,
} from './transport.js'

/**
 * An undici `Dispatcher` (Agent, Pool, ProxyAgent, MockAgent ...) to send requests through.
 *
 * @example
 * ```ts
 * import { ProxyAgent } from 'undici'
 * import { createVenue, type VenueDispatcher } from 'venue-rx'
 *
 * const dispatcher: VenueDispatcher = new ProxyAgent('http://proxy.internal:3128')
 * const venue = createVenue({ baseUrl: 'https://venue.example.com', dispatcher })
 * ```
 */
export type VenueDispatcher = Dispatcher

/** Settings of {@link createUndiciTransport}. */
export interface UndiciTransportOptions {
  /** `protocol://host:port` plus an optional path prefix, without a trailing slash. */
  readonly baseUrl: string
  /** Send through this dispatcher instead of an own keep-alive pool; it is not closed by `close()`. */
  readonly dispatcher?: Dispatcher | undefined
  /** Sockets of the own pool. Default 8. */
  readonly connections?: number | undefined
  /** Largest body read, in bytes; a larger answer is abandoned. Default {@link DEFAULT_MAX_RESPONSE_BYTES}. */
  readonly maxResponseBytes?: number | undefined
}

/** Default bound on one answer's body: 8 MiB, some twenty times a 5,000-level book. */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024

/** Creates the undici transport: a keep-alive {@link Pool} per venue, a total timeout per request. */
export function createUndiciTransport(options: UndiciTransportOptions): Transport {
  const base = new URL(options.baseUrl)
  const prefix = base.pathname.replace(/\/+$/, '')
  const ownPool =
    options.dispatcher === undefined
      ? new Pool(base.origin, {
          connections: options.connections ?? 8,
          keepAliveTimeout: 10_000,
          keepAliveMaxTimeout: 60_000,
        })
      : undefined
  const dispatcher: Dispatcher = options.dispatcher ?? (ownPool as Pool)
  let closing: Promise<void> | undefined

  return {
    request: (req) =>
      send(
        dispatcher,
        base.origin,
        prefix,
        req,
        options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      ),
    // Once: undici throws on a second close of a pool.
    close: () => {
      closing ??= (async () => {
        await ownPool?.close()
      })()
      return closing
    },
  }
}

/**
 * One GET through `dispatcher.dispatch` with a handler that gathers the body's chunks
 * itself: no body stream, no AbortController (the timeout and the caller's signal abort
 * through undici's own controller), which costs less per page than `request()` plus
 * `body.text()` (bench/feed-backfill.ts).
 *
 * Settles exactly once: the first of the answer's end, an undici error, the timeout, the
 * caller's abort and a body past `maxBytes` wins; a request still queued for a socket is
 * rejected at once on timeout or abort, and aborted when its turn comes.
 */
function send(
  dispatcher: Dispatcher,
  origin: string,
  prefix: string,
  req: TransportRequest,
  maxBytes: number,
): Promise<TransportResponse> {
  const { signal, timeoutMs, endpoint } = req
  if (signal?.aborted) return Promise.reject(abortError(endpoint, signal))

  return new Promise<TransportResponse>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined
    /** Why we stopped the request ourselves, to hand to undici when it starts. */
    let stopped: VenueError | undefined
    let settled = false
    let status = 0
    let headers: TransportResponse['headers'] = {}
    const chunks: Buffer[] = []
    let size = 0

    const settle = () => {
      settled = true
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
    }
    const stop = (error: VenueError) => {
      if (settled) return
      settle()
      stopped = error
      reject(error)
      controller?.abort(error)
    }
    const tooLarge = (what: string) =>
      new VenueResponseError(
        'size',
        `${endpoint}: the answer is larger than maxResponseBytes (${what} > ${maxBytes} bytes)`,
        { status, endpoint },
      )
    const timer = setTimeout(() => {
      stop(
        new VenueTimeoutError(`${endpoint}: no complete answer within ${timeoutMs} ms`, {
          timeoutMs,
          endpoint,
        }),
      )
    }, timeoutMs)
    const onAbort = () => stop(abortError(endpoint, signal as AbortSignalLike))
    signal?.addEventListener('abort', onAbort, { once: true })

    dispatcher.dispatch(
      { origin, path: prefix + req.path, method: 'GET', headers: req.headers },
      {
        onRequestStart(started) {
          if (stopped !== undefined) started.abort(stopped)
          else controller = started
        },
        onResponseStart(_, statusCode, responseHeaders) {
          status = statusCode
          headers = responseHeaders
          const declared = Number(responseHeaders['content-length'])
          if (declared > maxBytes) stop(tooLarge(String(declared)))
        },
        onResponseData(_, chunk) {
          size += chunk.length
          if (size > maxBytes) stop(tooLarge(`at least ${size}`))
          else chunks.push(chunk)
        },
        onResponseEnd() {
          if (settled) return
          settle()
          resolve({ status, headers, body: decodeBody(chunks, size) })
        },
        onResponseError(_, error) {
          if (settled) return
          settle()
          reject(networkError(endpoint, error))
        },
      },
    )
  })
}

/** The body's bytes as UTF-8 text, without a leading byte order mark. */
function decodeBody(chunks: readonly Buffer[], size: number): string {
  if (size === 0) return ''
  const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
  return bytes.toString('utf8', bom ? 3 : 0)
}

/** The typed error for a failure undici reports (connection refused, reset, pool closed). */
function networkError(endpoint: string, error: Error): VenueError {
  const causeCode = errorCode(error)
  if (causeCode === 'UND_ERR_CLOSED' || causeCode === 'UND_ERR_DESTROYED') {
    // The pool was closed under the request: nobody will send it, retrying cannot help.
    return new VenueAbortError(`${endpoint}: the connection pool is closed`, {
      endpoint,
      cause: error,
    })
  }
  return new VenueNetworkError(
    `${endpoint}: network error${causeCode === undefined ? '' : ` (${causeCode})`}`,
    { causeCode, endpoint, cause: error },
  )
}

function abortError(endpoint: string, signal: AbortSignalLike): VenueAbortError {
  return new VenueAbortError(`${endpoint}: aborted by the caller`, {
    endpoint,
    cause: signal.reason,
  })
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string') return code
  return errorCode((error as { cause?: unknown }).cause)
}
