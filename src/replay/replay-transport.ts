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
  type JournalRecord,
  openJournalReader,
} from './journal.js'
import type { ReplayClock } from './replay-clock.js'

/**
 * A transport that answers every request from a journal, on the replay's clock: in the
 * journal's order while the replay follows it ({@link Sequence}), else each request gets
 * the next answer recorded for the same path and query, held until the recorded send time
 * when it comes earlier, then answered as long after as it took when recorded. A request
 * of a path the journal never saw rejects at once with {@link VenueJournalError}
 * `unseen-request`; one with no recorded answer left rejects `exhausted` (a stream ends
 * there), once the journal's end is reached while the replay follows its order. The
 * journal is read as far ahead as the requests ask, no further.
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
  const sequence = new Sequence(journal, clock)
  let closed = false
  return {
    request: (request) => {
      const { signal, endpoint } = request
      if (closed) return Promise.reject(new VenueAbortError(`${endpoint}: the venue is closed`))
      if (signal?.aborted) return Promise.reject(abortError(request))
      return new Promise<TransportResponse>((resolve, reject) => {
        let timer: { unsubscribe(): void } | undefined
        /** Out of the journal's order, with an answer of its path counted as its own. */
        let taken = false
        const fail = (error: VenueError) => {
          // Aborted before its answer: the answer is the next request's.
          if (taken && pending.has(fail)) journal.untake(request.path)
          taken = false
          pending.delete(fail)
          signal?.removeEventListener('abort', onAbort)
          timer?.unsubscribe()
          reject(error)
        }
        const onAbort = () => fail(abortError(request))
        signal?.addEventListener('abort', onAbort, { once: true })
        pending.add(fail)
        const settle = (answer: JournalAnswer) => {
          if (!pending.has(fail)) return
          pending.delete(fail)
          signal?.removeEventListener('abort', onAbort)
          if (answer.type === 'failure') reject(failureOf(answer, request))
          else resolve({ status: answer.status, headers: answer.headers, body: answer.body })
        }
        // Free: the next answer of its path and query, at its recorded send time and
        // round trip on the replay's clock.
        const freely = () => {
          const asked = journal.take(request.path)
          if (asked !== undefined) {
            fail(asked)
            return
          }
          taken = true
          void journal.next(request.path).then(
            (answer) => {
              if (!pending.has(fail)) return
              const took = answer.answeredAt - answer.sentAt
              const due = Math.max(clock.now(), answer.sentAt) + took
              timer = clock.schedule(() => settle(answer), due - clock.now())
            },
            (error: unknown) => {
              if (pending.has(fail)) fail(error as VenueError)
            },
          )
        }
        journal.ready().then(
          () => {
            if (!pending.has(fail)) return
            const unseen = journal.unseen(request.path)
            if (unseen !== undefined) {
              fail(unseen)
              return
            }
            // While the replay does what the recording did, the journal says when it
            // answers: a request it holds no answer for waits as the live one did, until it
            // is aborted as it was live, or the recording ends (then, free, exhausted).
            const sequenced = sequence.wait(request.path, {
              settle: (answer) => {
                journal.given(request.path)
                settle(answer)
              },
              live: () => pending.has(fail),
              freely,
            })
            if (!sequenced) freely()
          },
          (error: unknown) => fail(error as VenueError),
        )
      })
    },
    close: async () => {
      if (closed) return
      closed = true
      sequence.stop()
      for (const fail of [...pending]) fail(new VenueAbortError('the venue is closed'))
      clock.stop()
      await journal.close()
    },
  }
}

/** A request waiting for its answer in the journal's order. */
interface Waiter {
  readonly settle: (answer: JournalAnswer) => void
  /** Whether it still waits (not aborted). */
  readonly live: () => boolean
  /** Answers it without the journal's order (the replay left it). */
  readonly freely: () => void
}

/**
 * The journal replayed in its recorded order: each tick runs the timer the recording ran
 * (the same number among the timers set), each answer settles the request waiting for its
 * path and query that got it live (the oldest, unless the record names another), each at
 * its recorded time, so every `now()` the venue reads and
 * every event it emits are the recording's. When the replay does something the recording
 * did not (another set of streams, other options: a tick's timer is not set, an answer's
 * request not sent), it leaves the journal's order for good: from there timers run by their
 * due time and each request takes the next answer of its path and query, as it comes.
 */
class Sequence {
  readonly #journal: JournalQueues
  readonly #clock: ReplayClock
  readonly #waiting = new Map<string, Waiter[]>()
  #on = true
  #reading = false
  #cancelWait: () => void = () => undefined

  constructor(journal: JournalQueues, clock: ReplayClock) {
    this.#journal = journal
    this.#clock = clock
    clock.drive(() => this.#step())
  }

  /** Queues `waiter` for the journal's next answer of `request`; false once the order is left. */
  wait(request: string, waiter: Waiter): boolean {
    if (!this.#on) return false
    const queue = this.#waiting.get(request)
    if (queue === undefined) this.#waiting.set(request, [waiter])
    else queue.push(waiter)
    return true
  }

  stop(): void {
    this.#on = false
    this.#cancelWait()
    this.#waiting.clear()
  }

  /** The next record, once nothing else is pending and real time has caught up with it. */
  #step(): void {
    if (!this.#on || this.#reading) return
    this.#reading = true
    const release = this.#clock.busy()
    this.#journal.record().then(
      (record) => {
        if (!this.#on) return release()
        if (record === undefined) {
          this.#reading = false
          this.#leave()
          return release()
        }
        const at = record.type === 'tick' ? record.at : record.answeredAt
        this.#cancelWait = this.#clock.whenDue(at, () => {
          this.#reading = false
          if (this.#on) this.#apply(record)
          release()
        })
      },
      () => {
        // The journal cannot be read on: the requests meet its error as they ask.
        this.#reading = false
        this.#leave()
        release()
      },
    )
  }

  #apply(record: JournalRecord): void {
    if (record.type === 'tick') {
      if (!this.#clock.fire(record.action, record.at)) this.#leave()
      return
    }
    // An aborted request stopped waiting live too (the recording keeps answers only); the
    // answer is the oldest waiting one's, or the one's the record names.
    const queue = (this.#waiting.get(record.request) ?? []).filter((waiter) => waiter.live())
    const [waiter] = queue.splice(record.nth ?? 0, 1)
    if (queue.length === 0) this.#waiting.delete(record.request)
    else this.#waiting.set(record.request, queue)
    if (waiter === undefined) {
      this.#journal.keep(record)
      this.#leave()
      return
    }
    this.#clock.advance(record.answeredAt)
    waiter.settle(record)
  }

  /** Timers by due time and answers as they come from here on; the waiting ones too. */
  #leave(): void {
    if (!this.#on) return
    this.#on = false
    this.#clock.release()
    const waiting = [...this.#waiting.values()].flat()
    this.#waiting.clear()
    for (const waiter of waiting) if (waiter.live()) waiter.freely()
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
  #index: JournalIndex | undefined
  /** The paths the journal holds answers of (made when first asked). */
  #paths: Set<string | undefined> | undefined
  /** Whether every record has been read. */
  #ended = false
  readonly #queues = new Map<string, JournalAnswer[]>()
  readonly #taken = new Map<string, number>()
  #iterator: AsyncIterator<JournalRecord> | undefined
  /** The reads under way end here: one at a time, in recorded order. */
  #reading: Promise<undefined> | undefined

  constructor(file: string, clock: ReplayClock) {
    this.#file = file
    this.#clock = clock
    // The clock waits for the index: no timer fires before the journal can answer.
    const release = clock.busy()
    this.#ready = (async () => {
      const index = await indexJournal(file)
      const reader = await openJournalReader(file)
      this.#iterator = reader.records()
      this.#index = index
      return { index, reader }
    })()
    this.#ready.then(release, release)
  }

  /** Resolves once the index is read (before that, {@link JournalQueues.take} cannot answer). */
  ready(): Promise<void> {
    return this.#ready.then(() => undefined)
  }

  /**
   * The error for a request of a path the journal holds no answer of, whatever the query
   * (undefined for any other): no live request of it was ever answered.
   */
  unseen(request: string): VenueJournalError | undefined {
    return this.#pathSeen(request) ? undefined : this.#unseenError(request)
  }

  /**
   * Counts one answer of `request` as taken; the error when the journal never saw it or
   * has none left (undefined: there is one). The index is read before the clock first runs.
   */
  take(request: string): VenueJournalError | undefined {
    const index = this.#index as JournalIndex
    const count = index.byRequest.get(request)
    if (count === undefined) {
      // Past the recording's end, a request of a path it holds (a feed's next cursor, say)
      // is one the live session had not made yet when it stopped.
      return this.#ended && this.#pathSeen(request)
        ? new VenueJournalError(
            `the journal has no answer left for ${request} (the recording ended before it)`,
            { problem: 'exhausted', file: this.#file, request },
          )
        : this.#unseenError(request)
    }
    const taken = this.#taken.get(request) ?? 0
    if (taken >= count) {
      return new VenueJournalError(
        `the journal has no answer left for ${request} (all ${count} used: the recording ended)`,
        { problem: 'exhausted', file: this.#file, request },
      )
    }
    this.#taken.set(request, taken + 1)
    return undefined
  }

  #unseenError(request: string): VenueJournalError {
    return new VenueJournalError(`the journal has no answer for ${request}: it never saw it`, {
      problem: 'unseen-request',
      file: this.#file,
      request,
    })
  }

  /** Whether the journal holds answers of `request`'s path, whatever their query. */
  #pathSeen(request: string): boolean {
    this.#paths ??= new Set(
      [...(this.#index as JournalIndex).byRequest.keys()].map((seen) => seen.split('?')[0]),
    )
    return this.#paths.has(request.split('?')[0])
  }

  /** Counts an answer of `request` as taken: the journal's order gave it to its request. */
  given(request: string): void {
    this.#taken.set(request, (this.#taken.get(request) ?? 0) + 1)
  }

  /** Gives back an answer of `request` counted as taken (its request was aborted first). */
  untake(request: string): void {
    const taken = this.#taken.get(request) ?? 0
    if (taken > 0) this.#taken.set(request, taken - 1)
  }

  /** The next answer recorded for `request` (taken already), read ahead as far as needed. */
  async next(request: string): Promise<JournalAnswer> {
    await this.#ready
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

  /** Reads the next answer into its request's queue (ticks skipped); false at the journal's end. */
  async #readOne(): Promise<boolean> {
    for (;;) {
      const record = await this.record()
      if (record === undefined) return false
      if (record.type === 'tick') continue
      this.keep(record)
      return true
    }
  }

  /** Keeps `answer` for the next request of its path and query. */
  keep(answer: JournalAnswer): void {
    const queue = this.#queues.get(answer.request)
    if (queue === undefined) this.#queues.set(answer.request, [answer])
    else queue.push(answer)
  }

  /** The journal's next record (the clock held while it is read); undefined at its end. */
  record(): Promise<JournalRecord | undefined> {
    const reading = (this.#reading ?? Promise.resolve(undefined)).then(async () => {
      await this.#ready
      const release = this.#clock.busy()
      try {
        const next = await (this.#iterator as AsyncIterator<JournalRecord>).next()
        if (next.done === true) this.#ended = true
        return next.done === true ? undefined : next.value
      } finally {
        release()
      }
    })
    this.#reading = reading.then(
      () => undefined,
      () => undefined,
    )
    return reading
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
