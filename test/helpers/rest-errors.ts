import { expect } from 'vitest'
import * as api from '../../src/index.js'
import { VenueError } from '../../src/index.js'

type Exports = typeof api

/** The stable code of each concrete error class the package exports, e.g. `'VENUE_AUTH'`. */
export type VenueErrorCode = {
  [K in keyof Exports]: Exports[K] extends {
    readonly code: infer C extends string
    readonly prototype: VenueError
  }
    ? string extends C
      ? never
      : C
    : never
}[keyof Exports]

/** The instance type of the exported error class whose code is `C`. */
export type VenueErrorOf<C extends VenueErrorCode> = {
  [K in keyof Exports]: Exports[K] extends { readonly code: C; readonly prototype: infer E }
    ? E
    : never
}[keyof Exports]

/** A class the package exports that extends VenueError. */
export type ErrorClass = (abstract new (...args: never[]) => VenueError) & { readonly code: string }

/** Every class the package exports that extends VenueError, with its export name. */
export function exportedErrorClasses(): [name: string, Class: ErrorClass][] {
  return Object.entries(api as Record<string, unknown>).filter(
    (entry): entry is [string, ErrorClass] =>
      typeof entry[1] === 'function' &&
      entry[1] !== VenueError &&
      Object.prototype.isPrototypeOf.call(VenueError.prototype, entry[1].prototype),
  )
}

/** The exported error class whose static code is `code`. */
function classWithCode(code: string): ErrorClass {
  const found = exportedErrorClasses().filter(([, Class]) => Class.code === code)
  expect(
    found.map(([name]) => name),
    `exported error classes with the code ${code}`,
  ).toHaveLength(1)
  return (found[0] as [string, ErrorClass])[1]
}

/**
 * Checks that `error` is an instance of the error class whose stable code is `code`, and
 * that it carries that code and every field of `fields`. Returns it typed as that class.
 */
export function expectVenueError<C extends VenueErrorCode>(
  error: unknown,
  code: C,
  fields: { readonly [F in keyof VenueErrorOf<C>]?: unknown } = {},
): VenueErrorOf<C> {
  expect(error).toBeInstanceOf(classWithCode(code))
  expect(error).toMatchObject({ code, ...fields })
  return error as VenueErrorOf<C>
}
