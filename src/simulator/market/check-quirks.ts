/**
 * The checks on a {@link VenueQuirks} spec, in the style of the fault spec's: the message
 * names the field and the value, so a typo in a test fails loudly instead of turning a
 * quirk off.
 *
 * @packageDocumentation
 */
import type { VenueQuirks } from './quirk-spec.js'

const KNOWN_FIELDS: ReadonlySet<string> = new Set([
  'purgeCanceledAfterMs',
  'purgeStatus',
  'tradesLagMs',
  'ordersLagMs',
  'openListLagMs',
  'orderTradesLimit',
])

/** A value for a message: numbers as written (NaN, Infinity too), the rest as JSON. */
function show(value: unknown): string {
  return typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value))
}

/** Simulated time is whole ms: a lag or delay is an integer >= 0. */
function isMs(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0
}

function checkMs(key: string, value: unknown, where: string): number {
  if (typeof value !== 'number') {
    throw new TypeError(`${where}: ${key} must be a number of ms (got ${show(value)})`)
  }
  if (!isMs(value)) {
    throw new RangeError(
      `${where}: ${key} must be an integer number of ms >= 0 (got ${show(value)})`,
    )
  }
  return value
}

function checkTradesLag(value: unknown, where: string): VenueQuirks['tradesLagMs'] {
  if (typeof value === 'number') return checkMs('tradesLagMs', value, where)
  if (!Array.isArray(value)) {
    throw new TypeError(
      `${where}: tradesLagMs must be a number of ms or [min, max] (got ${show(value)})`,
    )
  }
  const [min, max] = value as unknown[]
  if (value.length !== 2 || !isMs(min) || !isMs(max) || min > max) {
    throw new RangeError(
      `${where}: tradesLagMs as a range must be [min, max], integers with 0 <= min <= max (got ${show(value)})`,
    )
  }
  return Object.freeze([min, max] as const)
}

function checkField(key: string, value: unknown, where: string): unknown {
  switch (key) {
    case 'purgeStatus':
      if (typeof value !== 'number') {
        throw new TypeError(`${where}: purgeStatus must be 404 or 500 (got ${show(value)})`)
      }
      if (value !== 404 && value !== 500) {
        throw new RangeError(`${where}: purgeStatus must be 404 or 500 (got ${show(value)})`)
      }
      return value
    case 'tradesLagMs':
      return checkTradesLag(value, where)
    case 'orderTradesLimit':
      if (typeof value !== 'number') {
        throw new TypeError(`${where}: orderTradesLimit must be a number (got ${show(value)})`)
      }
      if (!Number.isSafeInteger(value) || value < 1) {
        throw new RangeError(
          `${where}: orderTradesLimit must be an integer >= 1 (got ${show(value)})`,
        )
      }
      return value
    default:
      return checkMs(key, value, where)
  }
}

/**
 * Checks a quirk spec and returns a frozen copy (fields left undefined are dropped). Throws a
 * `TypeError` for an unknown field or a value of the wrong type, a `RangeError` for a value
 * out of range; the message starts with `where` and names the field and the value.
 *
 * @example
 * ```ts
 * import { checkQuirks } from 'venue-rx/simulator'
 *
 * checkQuirks({ tradesLagMs: [0, 1000] }, 'quirks') // { tradesLagMs: [0, 1000] }, frozen
 * checkQuirks({ ordersLagMs: -5 }, 'quirks')
 * // RangeError: quirks: ordersLagMs must be an integer number of ms >= 0 (got -5)
 * checkQuirks({ purgeStatus: 410 }, 'quirks')
 * // RangeError: quirks: purgeStatus must be 404 or 500 (got 410)
 * ```
 */
export function checkQuirks(spec: unknown, where: string): VenueQuirks {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
    throw new TypeError(`${where}: a quirk spec must be an object (got ${show(spec)})`)
  }
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(spec as Record<string, unknown>)) {
    if (!KNOWN_FIELDS.has(key)) {
      throw new TypeError(
        `${where}: unknown quirk field ${JSON.stringify(key)} (known: ${[...KNOWN_FIELDS].join(', ')})`,
      )
    }
    if (value === undefined) continue
    out[key] = checkField(key, value, where)
  }
  return Object.freeze(out) as VenueQuirks
}
