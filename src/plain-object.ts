/**
 * Whether `value` is a plain object: `{ ... }` or one without a prototype, of any realm
 * (an object literal of a `vm` context has that context's `Object.prototype`). Arguments
 * and options are read by name, and an object of a class brings names of its prototype
 * (a RegExp's `source`, say) that its own keys do not show; what `JSON.parse` makes is
 * always plain.
 *
 * @example
 * ```ts
 * isPlainObject({ source: 'v1' }) // true
 * isPlainObject(/x/) // false
 * ```
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false
  const prototype: unknown = Object.getPrototypeOf(value)
  return (
    prototype === Object.prototype ||
    prototype === null ||
    Object.getPrototypeOf(prototype) === null
  )
}
