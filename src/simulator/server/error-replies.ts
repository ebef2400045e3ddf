/**
 * The error answers of the simulator, in the forms the live service uses
 * (docs/venue-interface.md#envelope).
 *
 * @packageDocumentation
 */
import { fail, type Reply } from './reply.js'

/** HTTP 400, code 400, `invalid parameter: <name>`: a query parameter is missing or bad. */
export function invalidParameter(name: string): Reply {
  return fail(400, 400, `invalid parameter: ${name}`)
}

/** HTTP 400, code 0, `missing API key`: an account endpoint called without a key. */
export function missingApiKey(): Reply {
  return fail(400, 0, 'missing API key')
}

/** HTTP 400, code 0, `invalid API key`: an account endpoint called with an unknown key. */
export function invalidApiKey(): Reply {
  return fail(400, 0, 'invalid API key')
}

/**
 * HTTP 500, code 500, `service internal error`: what the live service answers for an
 * unknown order, someone else's order, an unknown client id and a bad kline interval.
 */
export function serviceInternalError(): Reply {
  return fail(500, 500, 'service internal error')
}

/** HTTP 404, code 404, `not found`: unknown path or unknown token. */
export function notFound(): Reply {
  return fail(404, 404, 'not found')
}

/** HTTP 405, code 405, `method not allowed`: the venue is read-only (GET). */
export function methodNotAllowed(): Reply {
  return fail(405, 405, 'method not allowed', { allow: 'GET' })
}

/** HTTP 429, code 429, `too many requests`, with `Retry-After` in seconds. */
export function tooManyRequests(retryAfterSeconds: number): Reply {
  return fail(429, 429, 'too many requests', { 'retry-after': String(retryAfterSeconds) })
}

/** Message of an injected 5xx, by status. */
const SERVER_ERROR_MESSAGES: Readonly<Record<number, string>> = {
  500: 'service internal error',
  502: 'bad gateway',
  503: 'service unavailable',
  504: 'gateway timeout',
}

/** An injected server error: HTTP and envelope code `status` (500..599). */
export function serverError(status: number): Reply {
  return fail(status, status, SERVER_ERROR_MESSAGES[status] ?? 'service unavailable')
}
