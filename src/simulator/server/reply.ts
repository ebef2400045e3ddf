/**
 * What a route answers before faults and serialisation: an HTTP status, extra headers and
 * the venue's envelope.
 *
 * @packageDocumentation
 */

/** The venue's response envelope (docs/venue-interface.md). */
export interface Envelope {
  code: number
  message: string
  data: unknown
  meta: Record<string, unknown>
}

/** One answer of the simulator: status, headers and envelope. */
export interface Reply {
  readonly status: number
  readonly headers?: Readonly<Record<string, string>>
  readonly body: Envelope
}

/**
 * A success reply: HTTP 200, code 0, empty message.
 *
 * @example
 * ```ts
 * ok([1, 2], { total: 2 }).body
 * // { code: 0, message: '', data: [1, 2], meta: { total: 2 } }
 * ```
 */
export function ok(data: unknown, meta: Record<string, unknown> = {}): Reply {
  return { status: 200, body: { code: 0, message: '', data, meta } }
}

/**
 * An error reply: the given HTTP status, envelope code and message, `data: null`.
 *
 * @example
 * ```ts
 * fail(404, 404, 'not found').body
 * // { code: 404, message: 'not found', data: null, meta: {} }
 * ```
 */
export function fail(
  status: number,
  code: number,
  message: string,
  headers?: Readonly<Record<string, string>>,
): Reply {
  return {
    status,
    body: { code, message, data: null, meta: {} },
    ...(headers === undefined ? {} : { headers }),
  }
}
