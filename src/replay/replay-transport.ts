import { VenueAbortError } from '../errors/venue-abort-error.js'
import type { VenueError } from '../errors/venue-error.js'
import { VenueJournalError } from '../errors/venue-journal-error.js'
import { VenueNetworkError } from '../errors/venue-network-error.js'
import { VenueResponseError } from '../errors/venue-response-error.js'
import { VenueTimeoutError } from '../errors/venue-timeout-error.js'
import type { Transport, TransportRequest, TransportResponse } from '../transport/transport.js'
import {
  indexJournal,
  type JournalAnswer,
  type JournalFailure,
  type JournalIndex,
  type JournalReader,
  openJournalReader,
} from './journal.js'
import type { ReplayClock } from './replay-clock.js'

/**
 * A transport that answers every request from a journal: each request gets the next
 * answer recorded for the same path and query, on the replay's clock: held until the
 * recorded send time when it comes earlier, then answered as long after as it took when
 * recorded. A request the journal never saw rejects with {@link VenueJournalError}
 * `unseen-request`; one whose recorded answers are all used, `exhausted` (a stream ends
 * there). The journal is read as far ahead as the requests ask, no further.
 *
 * @example
 * ```ts
 * const clock = new ReplayClock(readJournalHeader(file).startedAt, 'max')
 * const transport = replayTransport(file, clock)
 * await transport.request({ path: '/api/v1/pools', headers: {}, timeoutMs: 10_000, endpoint: 'pools' })
 * ```
 */
export function replayTransport(file: string, clock: ReplayClock): Transport {
  const journal = new JournalQueues(file, clock)
  const pending = new Set<(error: VenueError) => void>()
  let closed = false
  return {
    request: (request) => {
      const { signal, endpoint } = request
      if (closed) return Promise.reject(new VenueAbortError(`${endpoint}: the venue is closed`))
      if (signal?.aborted) return Promise.reject(abortError(request))
      return new Promise<TransportResponse>((resolve, reject) => {
        let timer: { unsubscribe(): void } | undefined
        const fail = (error: VenueError) => {
          pending.delete(fail)
          signal?.removeEventListener('abort', onAbort)
          timer?.unsubscribe()
          reject(error)
        }
        const onAbort = () => fail(abortError(request))
        signal?.addEventListener('abort', onAbort, { once: true })
        pending.add(fail)
        journal.next(request.path).then(
          (answer) => {
            if (!pending.has(fail)) return
            // The recorded send time when the replay asks earlier; the recorded round trip.
            const took = answer.answeredAt - answer.sentAt
            const due = Math.max(clock.now(), answer.sentAt) + took
            timer = clock.schedule(() => {
              pending.delete(fail)
              signal?.removeEventListener('abort', onAbort)
              if (answer.type === 'failure') reject(failureOf(answer, request))
              else resolve({ status: answer.status, headers: answer.headers, body: answer.body })
            }, due - clock.now())
          },
          (error: unknown) => {
            if (pending.has(fail)) fail(error as VenueError)
          },
        )
      })
    },
    close: async () => {
      if (closed) return
      closed = true
      for (const fail of [...pending]) fail(new VenueAbortError('the venue is closed'))
      clock.stop()
      await journal.close()
    },
  }
}

/**
 * The journal's answers by request, read in recorded order as far as the replay asks: an
 * answer for another request than the one asked is kept for it. The index (counts per
 * request, read once before) tells an unseen or exhausted request without reading ahead.
 */
class JournalQueues {
  readonly #file: string
  readonly #clock: ReplayClock
  readonly #ready: Promise<{ index: JournalIndex; reader: JournalReader }>
  readonly #queues = new Map<string, JournalAnswer[]>()
  readonly #taken = new Map<string, number>()
  #iterator: AsyncIterator<JournalAnswer> | undefined
  /** The read under way: one at a time, in recorded order. */
  #reading: Promise<boolean> | undefined

  constructor(file: string, clock: ReplayClock) {
    this.#file = file
    this.#clock = clock
    // The clock waits for the index: no timer fires before the journal can answer.
    const release = clock.busy()
    this.#ready = (async () => {
      const index = await indexJournal(file)
      const reader = await openJournalReader(file)
      this.#iterator = reader[Symbol.asyncIterator]()
      return { index, reader }
    })()
    this.#ready.then(release, release)
  }

  /** The next answer recorded for `request`. */
  async next(request: string): Promise<JournalAnswer> {
    const { index } = await this.#ready
    const count = index.byRequest.get(request)
    if (count === undefined) {
      throw new VenueJournalError(`the journal has no answer for ${request}: it never saw it`, {
        problem: 'unseen-request',
        file: this.#file,
        request,
      })
    }
    const taken = this.#taken.get(request) ?? 0
    if (taken >= count) {
      throw new VenueJournalError(
        `the journal has no answer left for ${request} (all ${count} used: the recording ended)`,
        { problem: 'exhausted', file: this.#file, request },
      )
    }
    this.#taken.set(request, taken + 1)
    for (;;) {
      const queue = this.#queues.get(request)
      const answer = queue?.shift()
      if (answer !== undefined) {
        if (queue?.length === 0) this.#queues.delete(request)
        return answer
      }
      if (!(await this.#readOne())) {
        throw new VenueJournalError(`the journal ended before the answers its index counts`, {
          problem: 'truncated',
          file: this.#file,
          request,
        })
      }
    }
  }

  /** Reads the next answer into its request's queue; false at the journal's end. */
  #readOne(): Promise<boolean> {
    this.#reading ??= (async () => {
      const release = this.#clock.busy()
      try {
        const next = await (this.#iterator as AsyncIterator<JournalAnswer>).next()
        if (next.done === true) return false
        const answer = next.value
        const queue = this.#queues.get(answer.request)
        if (queue === undefined) this.#queues.set(answer.request, [answer])
        else queue.push(answer)
        return true
      } finally {
        this.#reading = undefined
        release()
      }
    })()
    return this.#reading
  }

  async close(): Promise<void> {
    try {
      const { reader } = await this.#ready
      await reader.close()
    } catch {
      // A journal that could not be opened has nothing to close.
    }
  }
}

function abortError(request: TransportRequest): VenueAbortError {
  return new VenueAbortError(`${request.endpoint}: aborted by the caller`, {
    endpoint: request.endpoint,
    cause: request.signal?.reason,
  })
}

/** The error a recorded failure stands for: the same venue-rx class, retryable as it was. */
function failureOf(answer: JournalFailure, request: TransportRequest): VenueError {
  const { name, message, causeCode } = answer.error
  const endpoint = request.endpoint
  switch (name) {
    case 'VenueTimeoutError':
      return new VenueTimeoutError(message, { endpoint, timeoutMs: request.timeoutMs })
    case 'VenueAbortError':
      return new VenueAbortError(message, { endpoint })
    case 'VenueResponseError':
      return new VenueResponseError('size', message, { endpoint, status: 0 })
    default:
      return new VenueNetworkError(message, { endpoint, causeCode })
  }
}
