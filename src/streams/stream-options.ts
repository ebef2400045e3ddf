import type { StreamPriority } from '../core/poll-pacer.js'
import { VenueInputError } from '../errors/venue-input-error.js'
import { isPlainObject } from '../plain-object.js'
import {
  checkSource,
  failArgument as fail,
  knownKeys,
  type MarketDataSource,
} from '../rest/index.js'

/**
 * Checks of the options objects of the `watch...` methods, run at the call: each failure
 * is a {@link VenueInputError} naming the option, thrown before any request.
 */

/**
 * The options object of `method`: absent, or a plain object whose keys are all in
 * `allowed` (a misspelt `pool_id` must not silently follow every pool).
 */
export function streamOptions(
  method: string,
  value: unknown,
  allowed: readonly string[],
): Record<string, unknown> {
  if (value === undefined) return {}
  if (!isPlainObject(value)) {
    return fail(method, 'options', `must be an object ({ ... }) with ${allowed.join(', ')}`, value)
  }
  knownKeys(method, value, allowed)
  return value
}

/** `checkpoint`: absent, or an object with `load()` and `save(cursor)` functions. */
export function checkpointOption(method: string, value: unknown): void {
  if (value === undefined) return
  const store = value as { load?: unknown; save?: unknown } | null
  if (
    typeof value !== 'object' ||
    store === null ||
    typeof store.load !== 'function' ||
    typeof store.save !== 'function'
  ) {
    throw new VenueInputError(
      'checkpoint',
      `${method}: checkpoint must be an object with load() and save(cursor) functions`,
    )
  }
}

/** `onProgress`: absent, or a function. */
export function onProgressOption(method: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'function') {
    fail(method, 'onProgress', 'must be a function', value)
  }
}

/**
 * `priority`: absent, `'high'`, `'normal'` or `'low'`: this subscriber's weight in the
 * venue's pacing (a shared stream runs at the highest any subscriber asked for).
 */
export function priorityOption(method: string, value: unknown): StreamPriority | undefined {
  if (value === undefined || value === 'high' || value === 'normal' || value === 'low') {
    return value
  }
  return fail(method, 'priority', "must be 'high', 'normal' or 'low'", value)
}

/** A method that takes no argument was given one. */
export function noArguments(method: string, args: readonly unknown[]): void {
  if (args.some((arg) => arg !== undefined)) {
    throw new VenueInputError('arguments', `${method}: takes no arguments`)
  }
}

/**
 * The options of a relayed stream: only those of the polled stream that it honours
 * (`honoured`), checked, then left to the relay (a relayed stream spends no request
 * budget); `source` only as the market data the relay publishes (`marketData`). Any other
 * option given is a `VenueInputError`: the relay publishes each stream one way for the
 * whole fleet.
 *
 * @example
 * ```ts
 * relayedOptions('watchDepth', { limit: 5 }, ['source', 'priority'], 'v2')
 * // VenueInputError: watchDepth: a relayed stream takes no limit (...)
 * ```
 */
export function relayedOptions(
  method: string,
  options: unknown,
  honoured: readonly string[],
  marketData: MarketDataSource,
): void {
  if (options === undefined) return
  if (!isPlainObject(options)) {
    const what = honoured.length > 0 ? ` with ${honoured.join(', ')}` : ''
    throw new VenueInputError('options', `${method}: options must be an object${what}`)
  }
  const given = options as Record<string, unknown>
  for (const name of Object.keys(given)) {
    if (!honoured.includes(name) && given[name] !== undefined) {
      throw new VenueInputError(
        name,
        `${method}: a relayed stream takes no ${name} (the relay publishes it one way for the whole fleet)`,
      )
    }
  }
  priorityOption(method, given['priority'])
  if (given['source'] !== undefined) {
    const source = checkSource(method, given['source'], marketData)
    if (source !== marketData) {
      throw new VenueInputError(
        'source',
        `${method}: the relay publishes the ${marketData} market data, not ${source}`,
      )
    }
  }
}
