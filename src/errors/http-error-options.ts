import type { VenueErrorOptions } from './venue-error.js'

/** What the venue answered, carried by the errors built from a response. */
export interface VenueResponseInfo extends VenueErrorOptions {
  /** HTTP status of the response. */
  readonly status: number
  /** The envelope's `code`, when the body had one. */
  readonly venueCode?: number | undefined
  /** The envelope's `message`, when the body had one. */
  readonly venueMessage?: string | undefined
}
