import { inspect } from 'node:util'
import { VenueAbortError } from './errors/venue-abort-error.js'
import { type ResolvedVenueOptions, resolveOptions, type VenueOptions } from './options.js'
import { createRestClient, type RestClient } from './rest/rest-client.js'
import type { Transport } from './transport/transport.js'
import { createUndiciTransport } from './transport/undici-transport.js'

/** What a venue shows of its options: everything but the key itself. */
export interface VenueSettings extends Omit<ResolvedVenueOptions, 'apiKey' | 'dispatcher'> {
  /** Whether an API key was given (the key itself is never exposed). */
  readonly hasApiKey: boolean
  /** Whether a caller-supplied dispatcher is in use. */
  readonly customDispatcher: boolean
}

/** A connection to one venue: REST methods now, streams as they land. */
export interface Venue {
  /** One promise method per endpoint. */
  readonly rest: RestClient
  /** The validated options, with the key left out. */
  readonly settings: VenueSettings
  /** Closes the connection pool. Calls made after `close()` reject. */
  close(): Promise<void>
}

/**
 * Creates a venue client. Options are validated at once: a wrong one throws
 * `VenueInputError` naming it.
 *
 * @example
 * ```ts
 * import { createVenue } from 'venue-rx'
 *
 * const venue = createVenue({ baseUrl: 'http://127.0.0.1:8787', apiKey: process.env.VENUE_KEY })
 * const book = await venue.rest.depth({ poolId: 1, limit: 5 })
 * console.log(book.bids[0]) // [ '1.0452', '310.5' ]
 * await venue.close()
 * ```
 */
export function createVenue(options: VenueOptions): Venue {
  const resolved = resolveOptions(options)
  const pool = createUndiciTransport({
    baseUrl: resolved.baseUrl,
    dispatcher: resolved.dispatcher,
    connections: resolved.connections,
  })
  let closing: Promise<void> | undefined
  const transport: Transport = {
    request: (request) => {
      if (closing !== undefined) {
        return Promise.reject(
          new VenueAbortError(`${request.endpoint}: the venue is closed`, {
            endpoint: request.endpoint,
          }),
        )
      }
      return pool.request(request)
    },
    close: () => {
      closing ??= pool.close()
      return closing
    },
  }
  const { apiKey, dispatcher, ...visible } = resolved
  const settings: VenueSettings = Object.freeze({
    ...visible,
    hasApiKey: apiKey !== undefined,
    customDispatcher: dispatcher !== undefined,
  })
  const rest = createRestClient({ transport, options: resolved })

  const venue: Venue = {
    rest,
    settings,
    close: () => transport.close(),
  }
  Object.defineProperties(venue, {
    toJSON: { value: () => ({ settings }), enumerable: false },
    [inspect.custom]: { value: () => `Venue ${inspect(settings)}`, enumerable: false },
  })
  return Object.freeze(venue)
}
