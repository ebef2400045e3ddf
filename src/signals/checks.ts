import { isDecimal, numberToDecimalString } from '../decimal.js'
import { VenueInputError } from '../errors/venue-input-error.js'
import type { PublicTrade } from '../schemas/public-trade.js'
import type { PublicTradeEvent } from '../streams/watch-trades.js'

/**
 * Argument checks of the signal operators, run at the call: each failure is a
 * {@link VenueInputError} naming the operator, the argument and what is allowed.
 */

/** Default number of decimals of every division in the signals. */
export const DEFAULT_PLACES = 18

/** Most decimals a division may be asked for. */
const MAX_PLACES = 1000

/**
 * A decimal as a signal takes it: a decimal string or a finite number.
 *
 * @example
 * ```ts
 * import { of } from 'rxjs'
 * import { type DecimalLike, threshold } from 'venue-rx/signals'
 *
 * const mids: DecimalLike[] = ['1.0450', 1.05] // decimal strings or finite numbers
 * of(...mids).pipe(threshold({ above: '1.049' }))
 * // { type: 'above', value: '1.05', level: '1.049' }
 * ```
 */
export type DecimalLike = string | number

/** Throws the {@link VenueInputError} of a check: `method: argument rule (got value)`. */
export function fail(method: string, argument: string, rule: string, value: unknown): never {
  throw VenueInputError.quoting({
    argument,
    value,
    render: (name, shown) => `${method}: ${name} ${rule} (got ${shown})`,
  })
}

/**
 * An options object: absent, or an object whose keys are all in `allowed` (the check of
 * the `watch...` options, so a misspelt option fails the same way everywhere).
 */
export { streamOptions as optionsObject } from '../streams/stream-options.js'

/** An integer from `min` up (safe integer). */
export function integerFrom(method: string, argument: string, value: unknown, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    fail(method, argument, `must be an integer >= ${min}`, value)
  }
  return value
}

/** `places`: absent (18) or an integer from 0 to 1000. */
export function placesOption(method: string, options: Record<string, unknown>): number {
  const value = options['places']
  if (value === undefined) return DEFAULT_PLACES
  if (
    typeof value !== 'number' ||
    !Number.isSafeInteger(value) ||
    value < 0 ||
    value > MAX_PLACES
  ) {
    fail(method, 'places', `must be an integer from 0 to ${MAX_PLACES}`, value)
  }
  return value
}

/** A decimal argument (string or finite number) as decimal text, or `undefined` if not one. */
export function toDecimal(value: unknown): string | undefined {
  if (typeof value === 'string') return isDecimal(value) ? value : undefined
  if (typeof value === 'number' && Number.isFinite(value)) return numberToDecimalString(value)
  return undefined
}

/** A non-negative decimal argument (string or finite number), as decimal text. */
export function nonNegativeDecimal(method: string, argument: string, value: unknown): string {
  const text = toDecimal(value)
  if (text === undefined || text.startsWith('-')) {
    fail(method, argument, 'must be a non-negative decimal string or number', value)
  }
  return text
}

/** A value of a series as decimal text; a value that is no decimal is a `TypeError` in the stream. */
export function seriesValue(method: string, value: unknown): string {
  const text = toDecimal(value)
  if (text === undefined) {
    throw new TypeError(`${method}: not a decimal string or finite number: ${String(value)}`)
  }
  return text
}

/**
 * A trade as the trade signals take it: a `PublicTrade` or an event of `watchTrades`.
 *
 * @example
 * ```ts
 * import { from } from 'rxjs'
 * import { vwap } from 'venue-rx/signals'
 *
 * venue.watchTrades(0).pipe(vwap(60_000)) // PublicTradeEvents: gap events are skipped
 * const latest = await venue.rest.latestTrades({ poolId: 0, limit: 100 })
 * from(latest.reverse()).pipe(vwap(60_000)) // PublicTrades, oldest first
 * ```
 */
export type TradeInput = PublicTrade | PublicTradeEvent

/** The trade of an input, or `undefined` for a `gap` event (skipped by the trade signals). */
export function tradeOf(input: TradeInput): PublicTrade | undefined {
  if ('type' in input) return input.type === 'trade' ? input.trade : undefined
  return input
}
