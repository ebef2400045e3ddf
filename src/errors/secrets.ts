import type { Redactor } from './venue-error.js'

const REDACTED = '[redacted]'

/**
 * Several secrets at once (the API key and Redis's password, as `startRelay` holds them),
 * removed from text as {@link ApiKey} removes the key: every occurrence of any of them.
 * Empty strings are no secret and are left out.
 *
 * @example
 * ```ts
 * const secrets = new Secrets(['k-123', 'hunter2'])
 * secrets.redact('auth k-123 / hunter2') // 'auth [redacted] / [redacted]'
 * ```
 */
export class Secrets implements Redactor {
  readonly what = 'a secret (the API key or the Redis password)'
  readonly #values: readonly string[]

  constructor(values: Iterable<string | undefined>) {
    const kept = new Set<string>()
    for (const value of values) if (typeof value === 'string' && value !== '') kept.add(value)
    // The longest first: a secret that holds another is replaced whole.
    this.#values = [...kept].sort((a, b) => b.length - a.length)
  }

  /** Whether there is any secret to remove. */
  get empty(): boolean {
    return this.#values.length === 0
  }

  redact(text: string): string {
    let out = text
    for (const value of this.#values) out = out.split(value).join(REDACTED)
    return out
  }

  occursIn(text: string): boolean {
    return this.#values.some((value) => text.includes(value))
  }
}
