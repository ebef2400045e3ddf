import { VenueInputError } from '../errors/venue-input-error.js'

/**
 * Wire names of the filters that the venue's reference describes without naming. These are
 * venue-rx's best reading (see docs/venue-interface.md#paging); override any of them with the
 * `paramNames` option of `createVenue` if the venue turns out to use another.
 *
 * @example
 * ```ts
 * import { DEFAULT_PARAM_NAMES } from 'venue-rx'
 *
 * DEFAULT_PARAM_NAMES.trades.afterSeq   // 'global_seq'
 * DEFAULT_PARAM_NAMES.transfers.afterId // 'id'
 * DEFAULT_PARAM_NAMES.orders.poolId     // 'pool_id'
 * ```
 */
export const DEFAULT_PARAM_NAMES = deepFreeze({
  trades: {
    poolId: 'pool_id',
    limit: 'limit',
    after: 'after',
    before: 'before',
    afterSeq: 'global_seq',
    sort: 'sort',
  },
  transfers: {
    limit: 'limit',
    start: 'start',
    end: 'end',
    afterId: 'id',
    sort: 'sort',
  },
  orders: {
    poolId: 'pool_id',
    side: 'side',
    type: 'type',
    status: 'status',
    limit: 'limit',
    offset: 'offset',
  },
} as const)

function deepFreeze<T extends Record<string, object>>(table: T): T {
  for (const group of Object.values(table)) Object.freeze(group)
  return Object.freeze(table)
}

type Widen<T> = { readonly [K in keyof T]: string }

/**
 * The full table of filter wire names, per group.
 *
 * @example
 * ```ts
 * import type { ParamNames } from 'venue-rx'
 *
 * const names: ParamNames = venue.settings.paramNames // the defaults with the venue's overrides
 * names.trades.afterSeq // 'global_seq'
 * ```
 */
export interface ParamNames {
  /** `rest.trades` filters. */
  readonly trades: Widen<(typeof DEFAULT_PARAM_NAMES)['trades']>
  /** `rest.transfers` filters. */
  readonly transfers: Widen<(typeof DEFAULT_PARAM_NAMES)['transfers']>
  /** `rest.historyOrders` and `rest.openOrders` filters. */
  readonly orders: Widen<(typeof DEFAULT_PARAM_NAMES)['orders']>
}

/**
 * Overrides for {@link ParamNames}: any group, any subset of its arguments.
 *
 * @example
 * ```ts
 * import { createVenue, type ParamNamesOverride } from 'venue-rx'
 *
 * // the venue turned out to page trades by `seq` and transfers by `after_id`
 * const paramNames: ParamNamesOverride = {
 *   trades: { afterSeq: 'seq' },
 *   transfers: { afterId: 'after_id' },
 * }
 * const venue = createVenue({ baseUrl: 'http://127.0.0.1:8787', apiKey, paramNames })
 * venue.settings.paramNames.trades.afterSeq // 'seq'
 * ```
 */
export type ParamNamesOverride = {
  readonly [G in keyof ParamNames]?: Partial<ParamNames[G]>
}

/**
 * {@link DEFAULT_PARAM_NAMES} with `override` applied: own keys only (`__proto__` can never
 * reach a prototype), known groups and filters only, names that can go in a query.
 * Throws `VenueInputError` naming the bad entry; `caller` starts its message.
 *
 * @example
 * ```ts
 * mergeParamNames({ trades: { afterSeq: 'seq' } }, 'createVenue').trades.afterSeq // 'seq'
 * ```
 */
export function mergeParamNames(override: object, caller: string): ParamNames {
  const result: Record<string, Record<string, string>> = {}
  for (const [group, defaults] of Object.entries(DEFAULT_PARAM_NAMES)) {
    result[group] = { ...defaults }
  }
  for (const [group, names] of Object.entries(override)) {
    // Own keys only: `__proto__`, `constructor` or `toString` must never reach a prototype.
    const target = Object.hasOwn(result, group) ? result[group] : undefined
    if (target === undefined) {
      throw VenueInputError.quoting({
        argument: `paramNames.${group}`,
        render: (name) => `${caller}: unknown paramNames group ${JSON.stringify(name.slice(11))}`,
      })
    }
    if (typeof names !== 'object' || names === null || Array.isArray(names)) {
      throw VenueInputError.quoting({
        argument: `paramNames.${group}`,
        render: (name) => `${caller}: ${name} must be an object`,
      })
    }
    for (const [argument, wire] of Object.entries(names)) {
      const path = `paramNames.${group}.${argument}`
      if (!Object.hasOwn(target, argument)) {
        throw VenueInputError.quoting({
          argument: path,
          render: (name) => `${caller}: unknown filter ${name}`,
        })
      }
      if (typeof wire !== 'string' || !/^[A-Za-z0-9_.-]+$/.test(wire)) {
        throw VenueInputError.quoting({
          argument: path,
          render: (name) => `${caller}: ${name} must be a non-empty query name`,
        })
      }
      target[argument] = wire
    }
  }
  for (const group of Object.values(result)) Object.freeze(group)
  return Object.freeze(result) as unknown as ParamNames
}
