import { VenueError, type VenueErrorOptions } from './venue-error.js'

/**
 * What is wrong with a journal, or with a replay of one.
 *
 * @example
 * ```ts
 * import { VenueJournalError, type VenueJournalProblem } from 'venue-rx'
 *
 * const ended = (error: unknown): boolean =>
 *   error instanceof VenueJournalError && error.problem === ('exhausted' satisfies VenueJournalProblem)
 * ```
 */
export type VenueJournalProblem =
  /** The file is not a venue-rx journal (not compressed as one, or no header). */
  | 'not-a-journal'
  /** The journal was written by another version of its format. */
  | 'version'
  /** The file ends inside a record (a recording cut short, or a copy that is not whole). */
  | 'truncated'
  /** A record that does not parse as one. */
  | 'malformed'
  /** A replay asked for a request the journal never recorded. */
  | 'unseen-request'
  /**
   * A replay asked for a request whose recorded answers are all used: the recording ended
   * there. A replayed stream completes on it; a direct REST call rejects with it.
   */
  | 'exhausted'
  /** The journal could not be read or written (the file system's error is the cause). */
  | 'io'

/**
 * A journal of a recorded session (`record: { file }`, `replay: { file }`) that cannot be
 * read or written, or a replay asking for what the journal does not hold. Names the file
 * and, where it applies, the line (the record's number, 1 for the header) and the request.
 * Never retryable: the journal will not change by asking again.
 *
 * @example
 * ```ts
 * import { createVenue, VenueJournalError } from 'venue-rx'
 *
 * const venue = createVenue({ baseUrl, replay: { file: 'session.journal' } })
 * venue.watchDepth(0).subscribe({
 *   error: (error) => {
 *     if (error instanceof VenueJournalError) console.error(error.file, error.line, error.problem)
 *   },
 * })
 * ```
 */
export class VenueJournalError extends VenueError {
  static override readonly code = 'VENUE_JOURNAL'
  override readonly code = 'VENUE_JOURNAL'
  override readonly retryable = false
  override name = 'VenueJournalError'
  readonly problem: VenueJournalProblem
  /** The journal's path. */
  readonly file: string
  /** The record's line in the journal (1: the header), when the problem is in one. */
  readonly line: number | undefined
  /** The request (path and query) a replay asked for, for `unseen-request` and `exhausted`. */
  readonly request: string | undefined

  constructor(
    message: string,
    options: VenueErrorOptions & {
      readonly problem: VenueJournalProblem
      readonly file: string
      readonly line?: number | undefined
      readonly request?: string | undefined
    },
  ) {
    super(message, options)
    this.problem = options.problem
    this.file = options.file
    this.line = options.line
    this.request = options.request
  }
}
