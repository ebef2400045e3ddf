import { parseArgs } from 'node:util'

/**
 * Thrown for a command line that cannot be run. `main` prints it as one line, the problem
 * and where to read the command's options (`see \`venue-rx watch --help\``), and exits 2:
 * a whole usage page would bury the one line that matters.
 */
export class UsageError extends Error {
  override name = 'UsageError'
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

/**
 * Parses `argv` for a command whose options are `--name value` strings or flags, plus
 * `-h, --help`, returning the positional arguments too.
 */
export function parseWithPositionals(
  argv: readonly string[],
  strings: readonly string[],
  flags: readonly string[],
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
    throw new UsageError(parseProblem(error))
  }
}

/**
 * `node:util`'s parse error in a few words: its messages run to two sentences of advice
 * on `--` that a mistyped flag does not need.
 */
function parseProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  const unknown = /^Unknown option '([^']+)'/.exec(message)
  if (unknown !== null) return `unknown option ${unknown[1]}`
  const missing = /^Option '([^' ]+)(?: <value>)?' argument missing/.exec(message)
  if (missing !== null) return `${missing[1]} needs a value`
  const extra = /^Option '([^' ]+)' does not take an argument/.exec(message)
  if (extra !== null) return `${extra[1]} takes no value`
  const first = message.split(/\.\s/)[0] ?? message
  return first.charAt(0).toLowerCase() + first.slice(1)
}
