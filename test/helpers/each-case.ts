import { it } from 'vitest'

/** Like `it.each`, but names each test in full (`$field` names are quoted and cut short). */
export function eachCase<T>(
  rows: readonly T[],
  name: (row: T) => string,
  test: (row: T) => Promise<void> | void,
): void {
  for (const row of rows) it(name(row), () => test(row))
}
