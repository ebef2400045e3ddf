import { VenueAbortError } from '../errors/venue-abort-error.js'
import type { Transport, TransportRequest, TransportResponse } from './transport.js'

interface InFlight {
  readonly response: Promise<TransportResponse>
  readonly controller: AbortController
  waiters: number
}

/**
 * Identical GETs in flight at the same moment share one request: the same path and
 * query, with or without the `authorization` header. Each caller keeps its own signal:
 * one caller aborting rejects only that caller; the shared request is aborted when the
 * last caller has gone.
 */
export function dedupeTransport(inner: Transport): Transport {
  const inFlight = new Map<string, InFlight>()

  const start = (key: string, request: TransportRequest): InFlight => {
    const controller = new AbortController()
    const entry: InFlight = {
      controller,
      waiters: 0,
      response: inner.request({ ...request, signal: controller.signal }).finally(() => {
        if (inFlight.get(key) === entry) inFlight.delete(key)
      }),
    }
    inFlight.set(key, entry)
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
      const entry = inFlight.get(key) ?? start(key, request)
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
            if (inFlight.get(key) === entry) inFlight.delete(key)
            entry.controller.abort(signal.reason)
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
