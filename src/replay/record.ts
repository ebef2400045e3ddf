import type { ApiKey } from '../api-key.js'
import { VenueAbortError } from '../errors/venue-abort-error.js'
import { VenueJournalError } from '../errors/venue-journal-error.js'
import type { AbortSignalLike, Transport, TransportResponse } from '../transport/transport.js'
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
  const waiting = new WaitingRequests()
  const send = (
    request: Parameters<Transport['request']>[0],
    asked: Asked,
  ): Promise<TransportResponse> => {
    if (failure !== undefined) {
      asked.over()
      return Promise.reject(failure)
    }
    const sentAt = clock.now()
    return inner.request(request).then(
      (response) => {
        // Aborted before its answer came: the venue had dropped it already, as a replay does.
        const order = asked.over()
        if (order === undefined) return response
        append({
          type: 'response',
          request: request.path,
          sentAt,
          answeredAt: clock.advance(),
          ...order,
          status: response.status,
          headers: keptHeaders(response),
          body: redact(response.body),
        })
        return response
      },
      (error: unknown) => {
        // An abort is this process's doing (a stream gone, the venue closed), not an answer.
        const order = asked.over()
        if (error instanceof VenueAbortError || order === undefined) throw error
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
          ...order,
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
    request: (request) => {
      // Waiting from the moment the venue asks, as a replay counts it.
      const asked = waiting.add(request.path, request.signal)
      return writer !== undefined || failure !== undefined
        ? send(request, asked)
        : opened.then(() => send(request, asked))
    },
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

/** A request of {@link WaitingRequests}; `over()` once it is answered or aborted. */
interface Asked {
  /**
   * Ends its wait: `{ nth }`, its place among those of its path waiting, when not the first;
   * `{}` when the first; undefined when it had stopped waiting already (aborted).
   */
  over(): { nth?: number } | undefined
}

/**
 * The requests of each path and query waiting for their answers, oldest first. Two
 * connections of the pool may answer two requests of the same path the other way round: the
 * journal then says which of the waiting ones an answer is for, so that a replay gives it to
 * the request that got it live. A request stops waiting when answered, or as soon as its
 * signal aborts (a replay drops an aborted request at once too).
 */
class WaitingRequests {
  readonly #byPath = new Map<string, object[]>()

  add(path: string, signal: AbortSignalLike | undefined): Asked {
    const token = {}
    const list = this.#byPath.get(path)
    if (list === undefined) this.#byPath.set(path, [token])
    else list.push(token)
    const over = (): { nth?: number } | undefined => {
      signal?.removeEventListener('abort', onAbort)
      const waiting = this.#byPath.get(path)
      const at = waiting?.indexOf(token) ?? -1
      if (waiting === undefined || at === -1) return undefined
      waiting.splice(at, 1)
      if (waiting.length === 0) this.#byPath.delete(path)
      return at > 0 ? { nth: at } : {}
    }
    const onAbort = () => over()
    signal?.addEventListener('abort', onAbort, { once: true })
    if (signal?.aborted === true) over()
    return { over }
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
