import type { VenueErrorOptions } from './venue-error.js'
import { VenueError } from './venue-error.js'

/** What was wrong with the response body. */
export type VenueResponseProblem = 'json' | 'envelope' | 'schema'

/** One validation issue, as zod reports it (path into the envelope's `data`). */
export interface VenueResponseIssue {
  readonly path: readonly PropertyKey[]
  readonly message: string
  readonly code?: string | undefined
}

/**
 * The venue answered HTTP 2xx but the body is unusable.
 *
 * - `problem: 'json'`: not valid JSON (e.g. truncated). Retryable: usually a transport fault.
 * - `problem: 'envelope'`: JSON, but not the `{ code, message, data }` envelope. Retryable.
 * - `problem: 'schema'`: `data` does not match the documented shape (shape drift); the
 *   zod issues are in {@link VenueResponseError.issues}. Not retryable.
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
    this.retryable = problem !== 'schema'
    this.status = info.status
    this.issues = info.issues ?? []
  }
}
