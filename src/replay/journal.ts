/**
 * The journal of a recorded session: every answer a venue received, in the order they
 * came, as a venue writes it with `record: { file }` and reads it back with
 * `replay: { file }`. This file fixes the shapes both sides share; the writer and the
 * reader are implemented below them.
 *
 * @packageDocumentation
 */

/** The journal format's version: a journal of another version is refused. */
export const JOURNAL_VERSION = 1

/** The first record of a journal: what was recorded, and when. */
export interface JournalHeader {
  readonly format: 'venue-rx-journal'
  readonly version: typeof JOURNAL_VERSION
  /** The venue's base URL (never its credentials). */
  readonly baseUrl: string
  /** When the recording started, by the recording venue's clock (epoch ms). */
  readonly startedAt: number
}

/** What one request got: an HTTP answer (any status), or a transport failure. */
export type JournalAnswer = JournalResponse | JournalFailure

interface JournalRequest {
  /** Path plus query string, as the transport sent it: `/api/v1/depth?pool_id=1`. */
  readonly request: string
  /** When the request was sent, by the venue's clock (epoch ms). */
  readonly sentAt: number
  /** When the answer (or the failure) came, by the venue's clock (epoch ms). */
  readonly answeredAt: number
}

/** An HTTP answer, body in full. */
export interface JournalResponse extends JournalRequest {
  readonly type: 'response'
  readonly status: number
  /** The response headers venue-rx reads (`retry-after`, `content-type`, ...). */
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** A request that got no answer: the transport's error, by class name, code and message. */
export interface JournalFailure extends JournalRequest {
  readonly type: 'failure'
  readonly error: {
    /** The venue-rx error class (`VenueTimeoutError`, `VenueNetworkError`, ...). */
    readonly name: string
    readonly message: string
    /** The network cause's code (`ECONNRESET`), when there was one. */
    readonly causeCode?: string
  }
}
