import { VenueAbortError } from '../errors/venue-abort-error.js'
import type { TokenBucket } from './token-bucket.js'
import type { Transport } from './transport.js'

/**
 * Makes every request wait for a token of `bucket` (in its lane) before it is sent.
 * The request's signal also cancels the wait.
 */
export function rateLimitTransport(inner: Transport, bucket: TokenBucket): Transport {
  return {
    request: async (request) => {
      try {
        await bucket.acquire(request.lane ?? 'rest', request.signal)
      } catch (error) {
        if (error instanceof VenueAbortError && error.endpoint === undefined) {
          throw new VenueAbortError(`${request.endpoint}: ${error.message}`, {
            endpoint: request.endpoint,
            cause: error.cause,
          })
        }
        throw error
      }
      return inner.request(request)
    },
    close: () => inner.close(),
  }
}
