import { VenueError } from '../errors/venue-error.js'

/**
 * A runtime failure of a command: `main` prints it as one line (the message, then the
 * hint after a colon) and exits with 1. Never a stack trace.
 */
export class CliError extends Error {
  override name = 'CliError'
  readonly hint: string | undefined

  constructor(message: string, hint?: string) {
    super(message)
    this.hint = hint
  }

  /** `message: hint`, on one line. */
  line(): string {
    const text = this.hint === undefined ? this.message : `${this.message}: ${this.hint}`
    return text.replace(/\s*\n\s*/g, ' ')
  }
}

/** What is known of the command that failed, for the hint. */
export interface FailureContext {
  readonly baseUrl: string
}

/**
 * Turns any error of a command into a {@link CliError} with a hint: a refused or
 * unreachable venue, a refused API key, a rejection of the venue, a file problem.
 */
export function toCliError(error: unknown, context: FailureContext): CliError {
  if (error instanceof CliError) return error
  const url = context.baseUrl
  if (error instanceof VenueError) {
    switch (error.code) {
      case 'VENUE_NETWORK':
      case 'VENUE_TIMEOUT':
        return new CliError(
          `cannot reach the venue (${error.message})`,
          `is the venue running at ${url}? (venue-rx simulate starts one)`,
        )
      case 'VENUE_AUTH':
        return new CliError(error.message, 'check VENUE_API_KEY (venue-rx simulate prints a key)')
      case 'VENUE_NOT_FOUND':
        // The library's message already says to check the base URL when that is the cause.
        return error.message.includes('check baseUrl')
          ? new CliError(error.message, 'the base URL is --base-url or VENUE_URL')
          : new CliError(error.message, 'check the id or pool')
      default:
        return new CliError(`${error.message} (${error.code})`)
    }
  }
  const code = (error as { code?: unknown } | null)?.code
  const message = error instanceof Error ? error.message : String(error)
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
    return new CliError(message, 'check the path and its permissions')
  }
  return new CliError(message)
}
