import { inspect } from 'node:util'

const kErrorCode = Symbol.for('venue-rx.error.code')

/**
 * Removes a secret (the API key) from text. `redact` replaces every occurrence inside a
 * value; `occursIn` tells whether a text holds it at all.
 */
export interface Redactor {
  redact(text: string): string
  occursIn(text: string): boolean
  /** What the secret is, for the error that replaces a foreign one. Default `the API key`. */
  readonly what?: string
}

/**
 * Fields every {@link VenueError} can be built with.
 *
 * @example
 * ```ts
 * import { VenueNetworkError, type VenueErrorOptions } from 'venue-rx'
 *
 * // a test double failing as a dropped connection does
 * const options: VenueErrorOptions = { endpoint: 'balances', cause: new Error('socket hang up') }
 * const error = new VenueNetworkError('balances: connection reset', {
 *   ...options,
 *   causeCode: 'ECONNRESET',
 * })
 * error.endpoint // 'balances'
 * error.cause    // Error: socket hang up
 * ```
 */
export interface VenueErrorOptions {
  /** The underlying error or value, kept in the standard `cause`. */
  readonly cause?: unknown
  /** Name of the REST method whose request failed. */
  readonly endpoint?: string | undefined
}

/**
 * Base class of every error venue-rx throws or emits.
 *
 * Match on the stable string {@link VenueError.code} (or on the subclass), and ask
 * {@link VenueError.retryable} whether trying the same request again can succeed.
 * `instanceof` works across duplicate copies of the package: it checks a marker
 * registered with `Symbol.for`, not the prototype chain.
 *
 * Messages never contain the API key, and neither does anything reachable from the error.
 *
 * @example
 * ```ts
 * try {
 *   await venue.rest.balances()
 * } catch (error) {
 *   if (error instanceof VenueError && error.retryable) scheduleRetry()
 *   else throw error
 * }
 * ```
 */
export abstract class VenueError extends Error {
  /** The stable code of every error of this class. */
  static readonly code: string = 'VENUE_ERROR'

  /** A stable string to match on, e.g. `'VENUE_RATE_LIMITED'`. */
  abstract readonly code: string

  /** Whether the same request may succeed if tried again later. */
  abstract readonly retryable: boolean

  override name = 'VenueError'

  /** Name of the REST method (e.g. `'balances'`) whose request failed, when there was one. */
  readonly endpoint: string | undefined

  constructor(message: string, options: VenueErrorOptions = {}) {
    super(message, 'cause' in options ? { cause: options.cause } : undefined)
    this.endpoint = options.endpoint
    Object.defineProperty(this, kErrorCode, { value: (new.target as { code: string }).code })
  }

  /** Lets `instanceof` work across copies of the package (see the class doc). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== 'object' || value === null) return false
    const code = (value as { [kErrorCode]?: unknown })[kErrorCode]
    if (typeof code !== 'string') return false
    // `this` is the class `instanceof` was asked about: VenueError itself or a subclass.
    // biome-ignore lint/complexity/noThisInStatic: dispatch on the subclass is the point
    return this === VenueError || code === this.code
  }

  /**
   * Removes `redactor`'s secret from this error: quoted values are rendered again, and a
   * foreign `cause` that holds the secret anywhere is replaced by a plain error saying so.
   * Called by every entry point of a venue before an error reaches the caller.
   * @internal
   */
  redactWith(redactor: Redactor): void {
    // A message built with the secret in it (a second secret, after the first was rendered
    // away): cleaned as text.
    if (redactor.occursIn(this.message)) this.replaceMessage(redactor.redact(this.message))
    const cause = this.cause
    if (cause === undefined) return
    const clean = redactError(cause, redactor)
    if (clean !== cause) {
      Object.defineProperty(this, 'cause', {
        value: clean,
        writable: true,
        configurable: true,
        enumerable: false,
      })
    }
  }

  /** Sets the message, and the stack's copy of it. */
  protected replaceMessage(message: string): void {
    const old = this.message
    this.message = message
    if (this.stack !== undefined) {
      const head = `${this.name}: ${old}`
      this.stack = this.stack.startsWith(head)
        ? `${this.name}: ${message}${this.stack.slice(head.length)}`
        : `${this.name}: ${message}\n${this.stack.split('\n').slice(1).join('\n')}`
    }
  }

  /** A plain object for logs: name, code, retryable, message and the subclass's own fields. */
  toJSON(): Record<string, unknown> {
    const { stack: _stack, cause: _cause, ...own } = this as unknown as Record<string, unknown>
    return { ...own, name: this.name, code: this.code, message: this.message }
  }
}

/**
 * `error` with `redactor`'s secret removed. A {@link VenueError} is cleaned in place (its
 * quoted values rendered again). Anything else (an undici parser error holding the raw
 * bytes, a caller's error) is returned as it is when no rendering of it holds the secret,
 * and otherwise replaced by a plain `Error` of the same name and code that says so.
 */
export function redactError(error: unknown, redactor: Redactor): unknown {
  if (error instanceof VenueError) {
    error.redactWith(redactor)
    return error
  }
  if (!holdsSecret(error, redactor)) return error
  const name = error instanceof Error ? error.name : typeof error
  const withheld = new Error(
    `${redactor.redact(name)} withheld: it contained ${redactor.what ?? 'the API key'}`,
  )
  withheld.name = redactor.redact(name)
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code === 'string' && !redactor.occursIn(code)) {
    Object.defineProperty(withheld, 'code', { value: code, enumerable: true })
  }
  return withheld
}

function holdsSecret(value: unknown, redactor: Redactor): boolean {
  const seen = new Set<unknown>()
  const visit = (item: unknown, depth: number): boolean => {
    if (typeof item === 'string') return redactor.occursIn(item)
    if (typeof item === 'number' || typeof item === 'bigint' || typeof item === 'boolean') {
      return redactor.occursIn(String(item))
    }
    if (typeof item !== 'object' || item === null || seen.has(item) || depth > 10) return false
    seen.add(item)
    // Raw bytes (a parser error keeps what the server sent) are read as text.
    if (ArrayBuffer.isView(item)) {
      const bytes = Buffer.from(item.buffer, item.byteOffset, item.byteLength)
      return redactor.occursIn(bytes.toString('latin1'))
    }
    if (item instanceof Error && (visit(item.message, depth) || visit(item.stack, depth))) {
      return true
    }
    for (const key of Reflect.ownKeys(item)) {
      if (typeof key === 'string' && redactor.occursIn(key)) return true
      const descriptor = Object.getOwnPropertyDescriptor(item, key)
      if (descriptor !== undefined && 'value' in descriptor && visit(descriptor.value, depth + 1)) {
        return true
      }
    }
    return false
  }
  if (visit(value, 0)) return true
  return redactor.occursIn(inspect(value, { depth: 10, showHidden: true, maxStringLength: null }))
}
