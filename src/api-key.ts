import { inspect } from 'node:util'
import type { Redactor } from './errors/venue-error.js'

const REDACTED = '[redacted]'

/**
 * Holds the API key so that it cannot leak by accident: `String()`, `JSON.stringify`
 * and `util.inspect` all show `[redacted]`. Only the transport header builder reads it.
 */
export class ApiKey implements Redactor {
  readonly #value: string

  constructor(value: string) {
    this.#value = value
  }

  /** The key itself, for the `Authorization` header only. */
  reveal(): string {
    return this.#value
  }

  /** Replaces every occurrence of the key in `text` (e.g. a message the venue echoed). */
  redact(text: string): string {
    return text.split(this.#value).join(REDACTED)
  }

  /** Whether `text` holds the key. */
  occursIn(text: string): boolean {
    return text.includes(this.#value)
  }

  toString(): string {
    return REDACTED
  }

  toJSON(): string {
    return REDACTED
  }

  [inspect.custom](): string {
    return `ApiKey(${REDACTED})`
  }
}
