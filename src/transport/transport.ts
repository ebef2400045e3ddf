/**
 * The seam between venue-rx and HTTP. Everything above this folder talks to a
 * {@link Transport}; only `undici-transport.ts` imports undici.
 */

/** One GET request, already encoded. */
export interface TransportRequest {
  /** Path plus query string, starting with `/`, e.g. `/api/v1/depth?pool_id=1`. */
  readonly path: string
  /** Request headers. The `authorization` header is present only on account endpoints. */
  readonly headers: Readonly<Record<string, string>>
  /** Aborts the request (and releases its socket) when it fires. */
  readonly signal?: AbortSignal | undefined
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
