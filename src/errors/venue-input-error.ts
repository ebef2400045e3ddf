import { VenueError, type VenueErrorOptions } from './venue-error.js'

/**
 * An argument or option is invalid. Thrown synchronously by `createVenue` and before
 * any request by REST methods; never retried.
 *
 * @example
 * ```ts
 * await venue.rest.latestTrades({ poolId: 1, limit: 500 })
 * // VenueInputError: latestTrades: limit must be an integer from 1 to 100 (got 500)
 * // error.argument === 'limit'
 * ```
 */
export class VenueInputError extends VenueError {
  static override readonly code = 'VENUE_INPUT'
  override readonly code = 'VENUE_INPUT'
  override readonly retryable = false
  override name = 'VenueInputError'
  /** The argument or option that is wrong, e.g. `'limit'` or `'baseUrl'`. */
  readonly argument: string

  constructor(argument: string, message: string, options: VenueErrorOptions = {}) {
    super(message, options)
    this.argument = argument
  }
}
