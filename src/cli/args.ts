import { parseArgs } from 'node:util'
import { isWholeNumber } from '../checks.js'
import { didYouMean } from './did-you-mean.js'

/**
 * Thrown for a command line that cannot be run. `main` prints it as one line, the problem
 * and where to read the command's options (`see \`venue-rx watch --help\``), and exits 2:
 * a whole usage page would bury the one line that matters.
 */
export class UsageError extends Error {
  override name = 'UsageError'
}

/**
 * The words of a command line a message names, each quoted whole: `"now"`, or
 * `"now", "please"` (every stray word, not only the first).
 */
export function quotedWords(words: readonly string[]): string {
  return words.map((word) => JSON.stringify(word)).join(', ')
}

/** `unexpected argument "x"` or `unexpected arguments "x", "y"`. */
export function unexpectedArguments(words: readonly string[]): string {
  return `unexpected argument${words.length === 1 ? '' : 's'} ${quotedWords(words)}`
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
  if (!isWholeNumber(value, min, max)) {
    throw new UsageError(
      `--${name} must be a whole number from ${min} to ${max} (got ${String(raw)})`,
    )
  }
  return value
}

/**
 * Parses `argv` for a command whose options are `--name value` strings or flags, plus
 * `-h, --help`, returning the positional arguments too. A negative number is a value
 * (`--pool -1`), so that the option's own check says what is wrong with it; a misspelt
 * option is named with the closest known one (`unknown option --pol (did you mean --pool?)`).
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
      args: negativeValuesJoined(argv, strings),
      options,
      allowPositionals: true,
      strict: true,
    })
    return { values, positionals }
  } catch (error) {
    throw new UsageError(parseProblem(error, argv, Object.keys(options)))
  }
}

/** A negative number, as a value: `-1`, `-0.5`, `-.5`. */
const NEGATIVE = /^-\.?\d/

/**
 * `argv` with each `--name <negative number>` of a string option written `--name=<number>`:
 * `node:util` takes a value that starts with `-` only after `=`, and calls the option's
 * value missing ("ambiguous") otherwise.
 */
function negativeValuesJoined(argv: readonly string[], strings: readonly string[]): string[] {
  const joined: string[] = []
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string
    // After `--` every word is a positional argument, as parseArgs reads them.
    if (arg === '--') return [...joined, ...argv.slice(i)]
    const next = argv[i + 1]
    if (arg.startsWith('--') && strings.includes(arg.slice(2)) && NEGATIVE.test(next ?? '')) {
      joined.push(`${arg}=${next}`)
      i += 1
    } else {
      joined.push(arg)
    }
  }
  return joined
}

/**
 * `node:util`'s parse error in a few words: its messages run to two sentences of advice
 * on `--` that a mistyped flag does not need. `known`: the command's option names, for
 * the "did you mean" of an unknown one.
 */
function parseProblem(error: unknown, argv: readonly string[], known: readonly string[]): string {
  const message = error instanceof Error ? error.message : String(error)
  const unknown = /^Unknown option '([^']+)'/.exec(message)
  if (unknown !== null) {
    const option = unknown[1] as string
    const hint = option.startsWith('--') ? didYouMean(option.slice(2), known, '--') : ''
    return `unknown option ${option}${hint}`
  }
  const missing = /^Option '([^' ]+)(?: <value>)?' argument missing/.exec(message)
  if (missing !== null) return `${missing[1]} needs a value`
  // `--pool --seed 1` (no value), or `--prefix -x` (a value that starts with '-').
  const ambiguous = /^Option '([^' ]+)' argument is ambiguous/.exec(message)
  if (ambiguous !== null) {
    const option = ambiguous[1] as string
    const next = argv[argv.indexOf(option) + 1] ?? ''
    return next.startsWith('--')
      ? `${option} needs a value`
      : `${option} needs a value (one that starts with "-" is written ${option}=VALUE)`
  }
  const extra = /^Option '([^' ]+)' does not take an argument/.exec(message)
  if (extra !== null) return `${extra[1]} takes no value`
  const first = message.split(/\.\s/)[0] ?? message
  return first.charAt(0).toLowerCase() + first.slice(1)
}
