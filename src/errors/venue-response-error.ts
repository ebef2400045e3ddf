import type { Redactor, VenueErrorOptions } from './venue-error.js'
import { VenueError } from './venue-error.js'

/**
 * What was wrong with the response body.
 *
 * @example
 * ```ts
 * import { VenueResponseError, type VenueResponseProblem } from 'venue-rx'
 *
 * if (error instanceof VenueResponseError) {
 *   const problem: VenueResponseProblem = error.problem
 *   if (problem === 'size') console.error('too large: ask for less or raise maxResponseBytes')
 * }
 * ```
 */
export type VenueResponseProblem =
  | 'json'
  | 'envelope'
  | 'schema'
  | 'status'
  | 'size'
  | 'inconsistent'

/**
 * One validation issue, as zod reports it (path into the envelope's `data`).
 *
 * @example
 * ```ts
 * import { VenueResponseError, type VenueResponseIssue } from 'venue-rx'
 *
 * if (error instanceof VenueResponseError) {
 *   const show = (issue: VenueResponseIssue) => `${issue.path.join('.')}: ${issue.message}`
 *   console.error(error.issues.map(show)) // ['3.price: Expected a decimal number such as "12.5"']
 * }
 * ```
 */
export interface VenueResponseIssue {
  readonly path: readonly PropertyKey[]
  readonly message: string
  readonly code?: string | undefined
}

/**
 * The venue's answer is unusable: a 2xx whose body cannot be read or does not fit the
 * account, or an unexpected status.
 *
 * - `problem: 'json'`: not valid JSON (e.g. truncated). Retryable: usually a transport fault.
 * - `problem: 'envelope'`: JSON, but not the `{ code, message, data }` envelope. Retryable.
 * - `problem: 'schema'`: `data` does not match the documented shape (shape drift); the
 *   zod issues are in {@link VenueResponseError.issues}. Not retryable.
 * - `problem: 'status'`: an HTTP status outside 2xx/4xx/5xx (e.g. a proxy's redirect).
 *   Not retryable.
 * - `problem: 'size'`: the body is larger than the venue's `maxResponseBytes`; it was not
 *   read to the end. Not retryable (ask for less, e.g. a smaller depth `limit`, or raise
 *   the bound).
 * - `problem: 'inconsistent'`: the answer is well-formed, but does not fit the account it
 *   was asked for (an own trade that names neither side as the account's chain account).
 *   Not retryable.
 *
 * @example
 * ```ts
 * import { VenueResponseError } from 'venue-rx'
 *
 * try {
 *   await venue.rest.pools()
 * } catch (error) {
 *   if (error instanceof VenueResponseError && error.problem === 'schema') {
 *     // the venue changed a field's shape: not retryable
 *     for (const issue of error.issues) console.error(issue.path.join('.'), issue.message)
 *   } else throw error
 * }
 * ```
 */
export class VenueResponseError extends VenueError {
  static override readonly code = 'VENUE_RESPONSE'
  override readonly code = 'VENUE_RESPONSE'
  override name = 'VenueResponseError'
  override readonly retryable: boolean
  /** What was wrong. */
  readonly problem: VenueResponseProblem
  /** HTTP status of the response. */
  readonly status: number
  /** Validation issues (empty for `problem: 'json'`). */
  readonly issues: readonly VenueResponseIssue[]

  constructor(
    problem: VenueResponseProblem,
    message: string,
    info: VenueErrorOptions & { status: number; issues?: readonly VenueResponseIssue[] },
  ) {
    super(message, info)
    this.problem = problem
    this.retryable = problem === 'json' || problem === 'envelope'
    this.status = info.status
    this.issues = info.issues ?? []
  }

  /**
   * Also removes the secret from the issues: their messages and the names in their paths,
   * the library's words included (a key of one character may be a character of them).
   * @internal
   */
  override redactWith(redactor: Redactor): void {
    super.redactWith(redactor)
    const holds = (issue: VenueResponseIssue) =>
      redactor.occursIn(issue.message) ||
      issue.path.some((part) => typeof part === 'string' && redactor.occursIn(part))
    if (!this.issues.some(holds)) return
    // Rewritten in place, as the message is: the error stays the one that was thrown.
    const writable = this as { issues: readonly VenueResponseIssue[] }
    writable.issues = this.issues.map((issue) => ({
      ...issue,
      path: issue.path.map((part) => (typeof part === 'string' ? redactor.redact(part) : part)),
      message: redactor.redact(issue.message),
    }))
  }
}
