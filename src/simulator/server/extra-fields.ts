/**
 * Name of the unknown field added by the `extraFields` fault.
 *
 * @example
 * ```ts
 * import { EXTRA_FIELD } from 'venue-rx/simulator'
 *
 * sim.faults.set({ extraFields: true })
 * const body = await (await fetch(`${sim.url}/api/v1/ping`)).json()
 * body[EXTRA_FIELD] // 'unknown field added by the simulator': a client must ignore it
 * ```
 */
export const EXTRA_FIELD = 'x_sim_extra'

/** Value of {@link EXTRA_FIELD}. */
export const EXTRA_FIELD_VALUE = 'unknown field added by the simulator'

/**
 * A deep copy of `value` with {@link EXTRA_FIELD} added to every plain object (arrays are
 * copied element by element, other values kept).
 *
 * @example
 * ```ts
 * withExtraFields({ data: [{ a: 1 }, ['1', '2']] })
 * // { data: [{ a: 1, x_sim_extra: '...' }, ['1', '2']], x_sim_extra: '...' }
 * ```
 */
export function withExtraFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withExtraFields)
  if (typeof value !== 'object' || value === null) return value
  const copy: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(value)) copy[key] = withExtraFields(field)
  copy[EXTRA_FIELD] = EXTRA_FIELD_VALUE
  return copy
}
