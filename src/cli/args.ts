import { parseArgs } from 'node:util'

/** Thrown for a command line that cannot be run; `main` prints it with the usage. */
export class UsageError extends Error {
  override name = 'UsageError'
  /** The usage text of the command at fault; `main` prints its own when absent. */
  readonly usage: string | undefined

  constructor(message: string, usage?: string) {
    super(message)
    this.usage = usage
  }
}

/** A whole number option within `min..max`, or `fallback` when absent. */
export function integerOption(
  values: Record<string, string | boolean | undefined>,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = values[name]
  if (raw === undefined) return fallback
  const value = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : Number.NaN
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(
      `--${name} must be a whole number from ${min} to ${max} (got ${String(raw)})`,
    )
  }
  return value
}

/** Parses `argv` for a command whose options are all `--name value` strings or flags. */
export function parseCommand(
  argv: readonly string[],
  strings: readonly string[],
  flags: readonly string[] = [],
): Record<string, string | boolean | undefined> {
  const options: Record<string, { type: 'string' | 'boolean' }> = {}
  for (const name of strings) options[name] = { type: 'string' }
  for (const name of flags) options[name] = { type: 'boolean' }
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: false, strict: true }).values
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
}

/** Like {@link parseCommand}, also returning the positional arguments. */
export function parseWithPositionals(
  argv: readonly string[],
  strings: readonly string[],
  flags: readonly string[],
  usage: string,
): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {}
  for (const name of strings) options[name] = { type: 'string' }
  for (const name of flags) options[name] = { type: 'boolean' }
  options['help'] = { type: 'boolean', short: 'h' }
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options,
      allowPositionals: true,
      strict: true,
    })
    return { values, positionals }
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error), usage)
  }
}
