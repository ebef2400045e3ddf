const kErrorCode = Symbol.for('venue-rx.error.code')

/** Fields every {@link VenueError} can be built with. */
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

  /** A plain object for logs: name, code, retryable, message and the subclass's own fields. */
  toJSON(): Record<string, unknown> {
    const { stack: _stack, cause: _cause, ...own } = this as unknown as Record<string, unknown>
    return { ...own, name: this.name, code: this.code, message: this.message }
  }
}
