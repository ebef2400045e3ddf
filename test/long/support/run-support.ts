/**
 * Small helpers of the long runs (chaos and soak): a seeded generator, a tracker of unhandled
 * rejections and uncaught exceptions, error text, polling for a condition, and the command
 * line (run `main` when this is the script node started, with its `--name value` flags).
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { isMainThread } from 'node:worker_threads'
import { mulberry32 } from '../../helpers/random.js'

/** A seeded generator of numbers in [0, 1) (mulberry32). */
export const seededRandom = mulberry32

/** Counts of unhandled rejections and uncaught exceptions, and their first messages. */
export interface UnhandledTracker {
  readonly rejections: () => number
  readonly exceptions: () => number
  readonly messages: string[]
  stop(): void
}

/**
 * What both runs start with: the generator of the run's own choices, seeded, and a tracker
 * of unhandled rejections and uncaught exceptions (stop it at the end).
 */
export function startRun(seed: number): {
  readonly random: () => number
  readonly unhandled: UnhandledTracker
} {
  return { unhandled: trackUnhandled(), random: seededRandom(seed) }
}

/** Counts unhandled rejections and uncaught exceptions until `stop()`. */
export function trackUnhandled(): UnhandledTracker {
  let rejections = 0
  let exceptions = 0
  const messages: string[] = []
  const onRejection = (reason: unknown) => {
    rejections += 1
    if (messages.length < 5) messages.push(`unhandled rejection: ${describeError(reason)}`)
  }
  const onException = (error: unknown) => {
    exceptions += 1
    if (messages.length < 5) messages.push(`uncaught exception: ${describeError(error)}`)
  }
  process.on('unhandledRejection', onRejection)
  process.on('uncaughtException', onException)
  return {
    rejections: () => rejections,
    exceptions: () => exceptions,
    messages,
    stop: () => {
      process.off('unhandledRejection', onRejection)
      process.off('uncaughtException', onException)
    },
  }
}

/** An error's class, code and message on one line. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const code = (error as { code?: unknown }).code
  return `${error.name}${typeof code === 'string' ? ` ${code}` : ''}: ${error.message}`
}

/**
 * Resolves true once `condition()` holds (checked every `everyMs`), false after `timeoutMs`.
 */
export function waitUntil(
  condition: () => boolean,
  timeoutMs: number,
  everyMs = 5,
): Promise<boolean> {
  return new Promise((done) => {
    const started = performance.now()
    const check = () => {
      if (condition()) return done(true)
      if (performance.now() - started >= timeoutMs) return done(false)
      setTimeout(check, everyMs)
    }
    check()
  })
}

/** Whether this module is the script node was started with (in the main thread). */
function isMainModule(moduleUrl: string): boolean {
  const script = process.argv[1]
  return isMainThread && script !== undefined && pathToFileURL(resolve(script)).href === moduleUrl
}

/** The `--name value` flags of a command line. */
export interface Flags {
  has(name: string): boolean
  /** The flag's value as a finite number, or `fallback` when it is not given. */
  number(name: string, fallback: number): number
}

/** `--name value` pairs of argv; throws on anything else. */
function parseFlags(argv: readonly string[], known: readonly string[]): Flags {
  const flags = new Map<string, string>()
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i] ?? ''
    const value = argv[i + 1]
    if (!name.startsWith('--') || !known.includes(name.slice(2)) || value === undefined) {
      throw new Error(
        `unknown or incomplete argument ${JSON.stringify(name)} (known: ${known.map((k) => `--${k} N`).join(', ')})`,
      )
    }
    flags.set(name.slice(2), value)
  }
  return {
    has: (name) => flags.has(name),
    number: (name, fallback) => {
      const text = flags.get(name)
      if (text === undefined) return fallback
      const value = Number(text)
      if (!Number.isFinite(value))
        throw new Error(`--${name} must be a number (got ${JSON.stringify(text)})`)
      return value
    },
  }
}

/**
 * When `moduleUrl` is the script node started, runs `main` with the command line's flags
 * (those in `known`) and exits with the code it resolves to, or 2 when it fails.
 */
export function runScript(
  moduleUrl: string,
  known: readonly string[],
  main: (flags: Flags) => Promise<number>,
): void {
  if (!isMainModule(moduleUrl)) return
  const run = async () => main(parseFlags(process.argv.slice(2), known))
  run().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error)
      process.exit(2)
    },
  )
}
