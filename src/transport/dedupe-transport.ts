import { VenueAbortError } from '../errors/venue-abort-error.js'
import {
  type AbortSignalLike,
  FlightSignal,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from './transport.js'

interface InFlight {
  readonly response: Promise<TransportResponse>
  readonly signal: FlightSignal
  /** The lane whose budget the flight waits in. */
  readonly lane: string
  /** Whether the flight holds its token (or needs none). */
  granted: boolean
  waiters: number
}

/** Settings of {@link dedupeTransport}. */
export interface DedupeTransportOptions {
  /**
   * Waits for a token of the request budget in a lane (see `TokenBucket#acquire`)
   * before a flight is sent. Without it, flights are sent at once.
   */
  readonly acquire?: (lane: string, signal: AbortSignalLike) => Promise<void>
}

/**
 * Identical GETs in flight at the same moment share one request: the same path and
 * query, with or without the `authorization` header. Each caller keeps its own signal:
 * one caller aborting rejects only that caller; the shared request is aborted when the
 * last caller has gone.
 *
 * With `acquire`, each flight first waits for a token in its lane, so shared callers
 * cost one token. A flight still waiting for its token is joined only from its own
 * lane: a stream never waits behind another lane's queue for a request it could send
 * from its own.
 */
export function dedupeTransport(inner: Transport, options: DedupeTransportOptions = {}): Transport {
  const { acquire } = options
  /** Flights by request key: usually one; more while flights of several lanes wait for tokens. */
  const inFlight = new Map<string, InFlight[]>()

  const forget = (key: string, entry: InFlight) => {
    const flights = inFlight.get(key)
    if (flights === undefined) return
    const index = flights.indexOf(entry)
    if (index !== -1) flights.splice(index, 1)
    if (flights.length === 0) inFlight.delete(key)
  }

  const start = (key: string, request: TransportRequest): InFlight => {
    const signal = new FlightSignal()
    const lane = request.lane ?? 'rest'
    const send = async (): Promise<TransportResponse> => {
      if (acquire !== undefined) {
        try {
          await acquire(lane, signal)
        } catch (error) {
          throw withEndpoint(error, request.endpoint)
        }
        entry.granted = true
      }
      return inner.request({ ...request, signal })
    }
    const entry: InFlight = {
      signal,
      lane,
      granted: acquire === undefined,
      waiters: 0,
      response: send().finally(() => forget(key, entry)),
    }
    const flights = inFlight.get(key)
    if (flights === undefined) inFlight.set(key, [entry])
    else flights.push(entry)
    return entry
  }

  return {
    request: (request) => {
      const { signal, endpoint } = request
      if (signal?.aborted) {
        return Promise.reject(
          new VenueAbortError(`${endpoint}: aborted by the caller`, {
            endpoint,
            cause: signal.reason,
          }),
        )
      }
      const key = `${request.headers['authorization'] === undefined ? 'public' : 'account'} ${request.path}`
      const lane = request.lane ?? 'rest'
      const entry =
        inFlight.get(key)?.find((flight) => flight.granted || flight.lane === lane) ??
        start(key, request)
      entry.waiters += 1
      if (signal === undefined) return entry.response
      return new Promise<TransportResponse>((resolve, reject) => {
        let left = false
        const leave = () => {
          if (left) return
          left = true
          signal.removeEventListener('abort', onAbort)
          entry.waiters -= 1
        }
        const onAbort = () => {
          leave()
          if (entry.waiters === 0) {
            forget(key, entry)
            entry.signal.abort(signal.reason)
          }
          reject(
            new VenueAbortError(`${endpoint}: aborted by the caller`, {
              endpoint,
              cause: signal.reason,
            }),
          )
        }
        signal.addEventListener('abort', onAbort, { once: true })
        entry.response.then(
          (response) => {
            leave()
            resolve(response)
          },
          (error: unknown) => {
            leave()
            reject(error)
          },
        )
      })
    },
    close: () => inner.close(),
  }
}

/** A budget error names no endpoint; the caller's error should. */
function withEndpoint(error: unknown, endpoint: string): unknown {
  if (error instanceof VenueAbortError && error.endpoint === undefined) {
    return new VenueAbortError(`${endpoint}: ${error.message}`, { endpoint, cause: error.cause })
  }
  return error
}
