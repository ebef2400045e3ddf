import type { ApiKey } from '../api-key.js'
import { VenueAbortError } from '../errors/venue-abort-error.js'
import { VenueJournalError } from '../errors/venue-journal-error.js'
import type { Transport, TransportResponse } from '../transport/transport.js'
import { JOURNAL_HEADERS, type JournalWriter, openJournalWriter } from './journal.js'
import type { RecordingClock } from './recording-clock.js'

/** What {@link recordingTransport} needs of the venue. */
export interface RecordingSettings {
  /** The journal's path. */
  readonly file: string
  /** The venue's base URL, for the journal's header. */
  readonly baseUrl: string
  /** The venue's clock: the answers are journaled with its ticks, in the order they came. */
  readonly clock: RecordingClock
  /** The venue's API key: removed from anything recorded (a failure's message, a body). */
  readonly apiKey: ApiKey | undefined
}

/**
 * `inner` (the HTTP pool), each request and what it got (an answer, or the transport's
 * rejection; not an abort, which is this process's own doing) appended to the journal at `settings.file` as it comes: path and query,
 * the times by the venue's clock, the status, the response headers venue-rx reads and the
 * body; never a request header. The journal opens at once; when it cannot, every request
 * and `close()` reject with its {@link VenueJournalError} (`problem: 'io'`). `close()`
 * closes `inner`, then the journal, everything written.
 *
 * @example
 * ```ts
 * const pool = recordingTransport(undici, { file: 'session.journal', baseUrl, clock: new RecordingClock(asyncScheduler), apiKey: undefined })
 * await pool.request({ path: '/api/v1/ping', headers: {}, timeoutMs: 5_000, endpoint: 'ping' })
 * await pool.close() // the journal holds the ping's answer
 * ```
 */
export function recordingTransport(inner: Transport, settings: RecordingSettings): Transport {
  const { file, clock, apiKey } = settings
  const redact = (text: string) => (apiKey === undefined ? text : apiKey.redact(text))
  let writer: JournalWriter | undefined
  let failure: VenueJournalError | undefined
  let closed = false
  const opened = openJournalWriter(file, {
    baseUrl: settings.baseUrl,
    startedAt: clock.startedAt,
  }).then(
    (opened) => {
      writer = opened
      clock.attach((record) => {
        if (!closed) opened.append(record)
      })
    },
    (error: unknown) => {
      clock.detach()
      failure =
        error instanceof VenueJournalError
          ? error
          : new VenueJournalError(`journal ${file} cannot be created`, {
              problem: 'io',
              file,
              cause: error,
            })
    },
  )
  // Answers that come after close (a request aborted by it) are not the venue's: dropped.
  const append = (record: Parameters<JournalWriter['append']>[0]) => {
    if (!closed) clock.log(record)
  }
  const send = (request: Parameters<Transport['request']>[0]): Promise<TransportResponse> => {
    if (failure !== undefined) return Promise.reject(failure)
    const sentAt = clock.now()
    return inner.request(request).then(
      (response) => {
        append({
          type: 'response',
          request: request.path,
          sentAt,
          answeredAt: clock.advance(),
          status: response.status,
          headers: keptHeaders(response),
          body: redact(response.body),
        })
        return response
      },
      (error: unknown) => {
        // An abort is this process's doing (a stream gone, the venue closed), not an answer.
        if (error instanceof VenueAbortError) throw error
        const { name, message, causeCode } = error as {
          name?: unknown
          message?: unknown
          causeCode?: unknown
        }
        append({
          type: 'failure',
          request: request.path,
          sentAt,
          answeredAt: clock.advance(),
          error: {
            name: typeof name === 'string' ? name : 'Error',
            message: redact(typeof message === 'string' ? message : String(error)),
            ...(typeof causeCode === 'string' ? { causeCode } : {}),
          },
        })
        throw error
      },
    )
  }
  let closing: Promise<void> | undefined
  return {
    request: (request) =>
      writer !== undefined || failure !== undefined
        ? send(request)
        : opened.then(() => send(request)),
    close: () => {
      closing ??= (async () => {
        await opened
        try {
          await inner.close()
        } finally {
          closed = true
          clock.detach()
          await writer?.close()
        }
        if (failure !== undefined) throw failure
      })()
      return closing
    },
  }
}

/** The response headers venue-rx reads, as text (the first of a repeated one). */
function keptHeaders(response: TransportResponse): Record<string, string> {
  const kept: Record<string, string> = {}
  for (const name of JOURNAL_HEADERS) {
    const value = response.headers[name]
    const text = Array.isArray(value) ? value[0] : value
    if (text !== undefined) kept[name] = text
  }
  return kept
}
