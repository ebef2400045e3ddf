/**
 * The seam between venue-rx and HTTP. Everything above this folder talks to a
 * {@link Transport}; only `undici-transport.ts` imports undici.
 */

/**
 * What the transports read of an abort signal: an `AbortSignal`, or the request-sharing
 * layer's {@link FlightSignal}.
 */
export interface AbortSignalLike {
  readonly aborted: boolean
  readonly reason: unknown
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void
  removeEventListener(type: 'abort', listener: () => void): void
}

/**
 * A signal fired by its owner's {@link FlightSignal.abort}, for requests made inside the
 * transport: a listener runs once, in the order added, and an error one throws is
 * reported as an uncaught exception (as `EventTarget` does) without stopping the others.
 * One is made per shared request, where an `AbortController`'s signal costs a noticeable
 * part of a poll to make and to listen to (bench/stream-path.ts).
 *
 * @example
 * ```ts
 * const flight = new FlightSignal()
 * flight.addEventListener('abort', () => console.log('stopped', flight.reason))
 * flight.abort('gone') // stopped gone
 * ```
 */
export class FlightSignal implements AbortSignalLike {
  #aborted = false
  #reason: unknown
  #listeners: (() => void)[] = []

  get aborted(): boolean {
    return this.#aborted
  }

  get reason(): unknown {
    return this.#reason
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.#aborted) this.#listeners.push(listener)
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const index = this.#listeners.indexOf(listener)
    if (index !== -1) this.#listeners.splice(index, 1)
  }

  /** Fires the signal with `reason` (once: later calls do nothing). */
  abort(reason: unknown): void {
    if (this.#aborted) return
    this.#aborted = true
    this.#reason = reason
    const listeners = this.#listeners
    this.#listeners = []
    for (const listener of listeners) {
      try {
        listener()
      } catch (error) {
        queueMicrotask(() => {
          throw error
        })
      }
    }
  }
}

/** One GET request, already encoded. */
export interface TransportRequest {
  /** Path plus query string, starting with `/`, e.g. `/api/v1/depth?pool_id=1`. */
  readonly path: string
  /** Request headers. The `authorization` header is present only on account endpoints. */
  readonly headers: Readonly<Record<string, string>>
  /** Aborts the request (and releases its socket) when it fires. */
  readonly signal?: AbortSignalLike | undefined
  /** Total time allowed for the status line, headers and the whole body. */
  readonly timeoutMs: number
  /** Name of the REST method, for error messages. */
  readonly endpoint: string
  /**
   * Who is asking, for fair sharing of the request budget: the stream's key, or
   * `'rest'` for direct calls. Default `'rest'`.
   */
  readonly lane?: string | undefined
}

/** A complete HTTP answer, body read in full. */
export interface TransportResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string | string[] | undefined>>
  readonly body: string
}

/**
 * Sends requests. Rejects only with `VenueNetworkError`, `VenueTimeoutError`,
 * `VenueAbortError`, or `VenueResponseError` (`problem: 'size'`) for a body over the
 * size bound; any HTTP status resolves.
 */
export interface Transport {
  request(request: TransportRequest): Promise<TransportResponse>
  /** Closes pooled connections this transport opened (not a caller-supplied dispatcher). */
  close(): Promise<void>
}
