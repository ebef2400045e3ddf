import { isPlainObject } from '../plain-object.js'
import { type Redactor, VenueError, type VenueErrorOptions } from './venue-error.js'

/**
 * How an input error quotes what the caller passed. The message is rendered from these
 * parts, so that a redactor can rewrite the quoted value (the API key pasted into the
 * wrong argument) without touching the library's own words.
 */
export interface QuotedInput {
  /** The argument's name as the caller wrote it (an unknown key may be anything). */
  readonly argument: string
  /** The offending value, when the message shows it. */
  readonly value?: unknown
  /**
   * Shows a string value whole instead of cut after 40 characters: what the caller wrote
   * as configuration (a file path, a URL, an option of `createVenue`, a relay stream name).
   */
  readonly whole?: boolean
  /** Builds the message from the (possibly redacted) argument name and shown value. */
  readonly render: (argument: string, shown: string) => string
}

/** Longest quoted string in a message, after redaction. */
const MAX_QUOTED = 40

/**
 * A value as an input error shows it: strings quoted (cut after 40 characters, once
 * redacted), objects by kind, anything else by `String`.
 */
function show(value: unknown, redactor: Redactor | undefined, whole = false): string {
  if (typeof value === 'string') {
    const text = redactor === undefined ? value : redactor.redact(value)
    return JSON.stringify(
      !whole && text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text,
    )
  }
  if (typeof value === 'object' && value !== null) {
    // A tag is the object's own word (Symbol.toStringTag): redacted as a quote is.
    const kind = objectKind(value)
    return redactor === undefined ? kind : redactor.redact(kind)
  }
  if (typeof value === 'function') return 'a function'
  if (typeof value === 'symbol') return 'a symbol'
  const text = String(value)
  return redactor === undefined ? text : redactor.redact(text)
}

/** An object by kind: `an array`, `an object` (a plain one), `a RegExp`, `an object of a class`. */
function objectKind(value: object): string {
  if (Array.isArray(value)) return 'an array'
  if (isPlainObject(value)) return 'an object'
  // The built-in kinds by their tag (`[object RegExp]`); a class's own name is not shown.
  const tag = /^\[object ([A-Za-z]+)\]$/.exec(Object.prototype.toString.call(value))?.[1]
  if (tag === undefined || tag === 'Object') return 'an object of a class'
  return `${/^[AEIOU]/.test(tag) ? 'an' : 'a'} ${tag}`
}

/**
 * An argument or option is invalid. Thrown synchronously by `createVenue`, by every
 * `watch...` method and operator at the call, and before any request by REST methods;
 * never retried.
 *
 * @example
 * ```ts
 * await venue.rest.latestTrades({ poolId: 1, limit: 500 })
 * // VenueInputError: latestTrades: limit must be an integer from 1 to 100 (got 500)
 * // error.argument === 'limit'
 * ```
 */
export class VenueInputError extends VenueError {
  static override readonly code = 'VENUE_INPUT'
  override readonly code = 'VENUE_INPUT'
  override readonly retryable = false
  override name = 'VenueInputError'
  #argument: string
  #quoted: QuotedInput | undefined

  constructor(argument: string, message: string, options: VenueErrorOptions = {}) {
    super(message, options)
    this.#argument = argument
  }

  /**
   * An input error whose message quotes the caller's argument name or value.
   * @internal
   */
  static quoting(quoted: QuotedInput, options: VenueErrorOptions = {}): VenueInputError {
    const error = new VenueInputError(
      quoted.argument,
      quoted.render(
        quoted.argument,
        'value' in quoted ? show(quoted.value, undefined, quoted.whole) : '',
      ),
      options,
    )
    error.#quoted = quoted
    return error
  }

  /** The argument or option that is wrong, e.g. `'limit'` or `'baseUrl'`. */
  get argument(): string {
    return this.#argument
  }

  /**
   * Renders the quoted parts again through `redactor`; message and stack follow.
   * @internal
   */
  override redactWith(redactor: Redactor): void {
    super.redactWith(redactor)
    const quoted = this.#quoted
    if (quoted === undefined) {
      this.#argument = redactor.redact(this.#argument)
      return
    }
    const argument = redactor.redact(quoted.argument)
    const message = quoted.render(
      argument,
      'value' in quoted ? show(quoted.value, redactor, quoted.whole) : '',
    )
    this.#argument = argument
    // The raw value (maybe the key itself) is not kept once the message no longer needs it.
    this.#quoted = undefined
    this.replaceMessage(message)
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), argument: this.argument }
  }
}
