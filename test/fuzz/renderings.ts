/**
 * Every way an error is commonly turned into text (logs, `console.log`, JSON), for the
 * error and each `cause` below it: the redaction oracle.
 */
import { inspect } from 'node:util'

function safely(render: () => string | undefined): string {
  try {
    return render() ?? ''
  } catch (error) {
    return `<cannot render: ${error instanceof Error ? error.message : typeof error}>`
  }
}

/**
 * The renderings of `error` and of every `cause` in its chain (at most 10 deep), by name:
 * `message`, `stack`, `String()`, `util.inspect(…, { depth: 10 })`, `JSON.stringify()` and,
 * when present, `argument`.
 */
export function renderings(error: unknown): Record<string, string> {
  const out: Record<string, string> = {}
  const seen = new Set<unknown>()
  let current: unknown = error
  for (let depth = 0; depth < 10; depth += 1) {
    if (current === undefined || current === null || seen.has(current)) break
    seen.add(current)
    const at = `error${'.cause'.repeat(depth)}`
    const value = current
    out[`String(${at})`] = safely(() => String(value))
    out[`inspect(${at})`] = safely(() => inspect(value, { depth: 10 }))
    out[`JSON.stringify(${at})`] = safely(() => JSON.stringify(value))
    if (value instanceof Error) {
      out[`${at}.message`] = value.message
      out[`${at}.stack`] = value.stack ?? ''
    }
    if (typeof value === 'object') {
      const argument = (value as { argument?: unknown }).argument
      if (typeof argument === 'string') out[`${at}.argument`] = argument
      current = (value as { cause?: unknown }).cause
    } else {
      break
    }
  }
  return out
}

/** Names of the renderings of `error` (and its causes) that contain `secret`. */
export function leaksIn(error: unknown, secret: string): string[] {
  return Object.entries(renderings(error))
    .filter(([, text]) => text.includes(secret))
    .map(([name]) => name)
}

/**
 * Renderings of any value that is no error (a venue, its settings, a health report):
 * `String()`, `util.inspect(…, { depth: 10 })` and `JSON.stringify()`.
 */
export function valueRenderings(label: string, value: unknown): Record<string, string> {
  return {
    [`String(${label})`]: safely(() => String(value)),
    [`inspect(${label})`]: safely(() => inspect(value, { depth: 10 })),
    [`JSON.stringify(${label})`]: safely(() => JSON.stringify(value)),
  }
}
