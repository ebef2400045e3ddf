import { VenueAbortError } from '../errors/venue-abort-error.js'
import type { Transport } from './transport.js'

/**
 * `inner`, closed for good by the first `close()`: from that moment every request is
 * refused with `VenueAbortError` (also one made while `onClose` runs), `onClose` runs
 * once, and `inner` is closed after it. Later `close()` calls return the same promise.
 *
 * @example
 * ```ts
 * const transport = closingTransport(pool, () => streamsEnd.next())
 * await transport.close()
 * await transport.request(req) // rejects: VenueAbortError "ping: the venue is closed"
 * ```
 */
export function closingTransport(inner: Transport, onClose: () => void): Transport {
  let closing: Promise<void> | undefined
  return {
    request: (request) => {
      if (closing !== undefined) {
        return Promise.reject(
          new VenueAbortError(`${request.endpoint}: the venue is closed`, {
            endpoint: request.endpoint,
          }),
        )
      }
      return inner.request(request)
    },
    close: () => {
      if (closing === undefined) {
        // Marked closed first: a request made while `onClose` ends the streams is refused.
        closing = Promise.resolve().then(() => inner.close())
        onClose()
      }
      return closing
    },
  }
}

/** `transport` with every request queued in `lane` of the request budget. */
export function laneTransport(transport: Transport, lane: string): Transport {
  return {
    request: (request) => transport.request({ ...request, lane }),
    close: () => transport.close(),
  }
}
