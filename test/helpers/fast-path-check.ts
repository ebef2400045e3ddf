/**
 * The check every fast path of an answer (src/schemas/fast-paths.ts) is held to against
 * the schema it stands in for.
 */
import { expect } from 'vitest'
import type { z } from 'zod'

/** What `schema` makes of `input`: its output, or `undefined` when it refuses it. */
export function schemaOutput(schema: z.ZodType, input: unknown): unknown {
  const parsed = schema.safeParse(input)
  return parsed.success ? parsed.data : undefined
}

/**
 * `fast(input)` is `undefined` or exactly the schema's output: the same values, with the
 * same keys in the same order at every depth (unknown keys dropped); `input` is left as
 * it was.
 */
export function expectFastAgrees(
  schema: z.ZodType,
  fast: (input: unknown) => unknown,
  input: unknown,
): void {
  const before = structuredClone(input)
  const output = fast(input)
  // toEqual: an own `constructor` key would make toStrictEqual compare by identity.
  expect(input).toEqual(before)
  if (output === undefined) return
  const expected = schemaOutput(schema, input)
  expect(expected).toBeDefined()
  expect(output).toStrictEqual(expected)
  // The key order too (toStrictEqual does not look at it): JSON keeps it.
  expect(JSON.stringify(output)).toBe(JSON.stringify(expected))
}
