import type { z } from 'zod'
import { VenueApiError } from '../errors/venue-api-error.js'
import { VenueAuthError } from '../errors/venue-auth-error.js'
import type { VenueError } from '../errors/venue-error.js'
import { VenueNotFoundError } from '../errors/venue-not-found-error.js'
import { VenueRateLimitError } from '../errors/venue-rate-limit-error.js'
import { VenueRejectedError } from '../errors/venue-rejected-error.js'
import { VenueResponseError, type VenueResponseIssue } from '../errors/venue-response-error.js'
import { VenueServerError } from '../errors/venue-server-error.js'
import { envelopeSchema } from '../schemas/envelope.js'
import { fastEnvelope } from '../schemas/fast-paths.js'
import { JsonTally } from '../schemas/json-tally.js'
import type { TransportResponse } from '../transport/transport.js'
import { mayHoldInexactNumber, parseJsonExact } from './parse-json-exact.js'

/** The validated payload of a successful answer. */
export interface VenueResult<T> {
  readonly data: T
  /** The envelope's `meta` (e.g. `total` on list endpoints). */
  readonly meta: Readonly<Record<string, unknown>>
}

/** What {@link interpretResponse} needs besides the response. */
export interface InterpretContext {
  /** REST method name, for messages. */
  readonly endpoint: string
  /** What the messages name instead of the method: `order 1-42-0` names the order. */
  readonly subject?: string | undefined
  /** Removes secrets from text the venue sent back before it goes into an error. */
  readonly redact: (text: string) => string
  /** Current time in ms, for `Retry-After` HTTP dates. */
  readonly now: () => number
  /**
   * What the message of an HTTP 404 adds after the status: the likely mistake, when the
   * request names nothing the venue could have failed to find (a `baseUrl` one level too
   * deep answers 404 to everything).
   */
  readonly notFoundHint?: string | undefined
}

/**
 * Turns a complete HTTP answer into validated data or the matching typed error.
 * Classification uses the status *and* the envelope message, as the live service
 * answers some auth failures with 400 and "not found" orders with 500.
 */
export function interpretResponse<S extends z.ZodType>(
  response: TransportResponse,
  schema: S,
  context: InterpretContext,
  fast?: (data: unknown, tally: JsonTally) => z.output<S> | undefined,
): VenueResult<z.output<S>> {
  const { status } = response
  const { endpoint } = context
  const label = context.subject ?? endpoint
  const quick = fast === undefined ? undefined : plainAnswer(response, fast)
  if (quick !== undefined) return quick
  let json: unknown
  let jsonError: unknown
  try {
    json = parseJsonExact(response.body)
  } catch (error) {
    jsonError = error
  }
  const plain = jsonError === undefined ? fastEnvelope(json) : undefined
  const envelope =
    plain !== undefined
      ? ({ success: true, data: plain } as const)
      : jsonError === undefined
        ? envelopeSchema.safeParse(json)
        : undefined
  const venueCode = envelope?.success ? envelope.data.code : undefined
  const venueMessage = envelope?.success ? context.redact(envelope.data.message) : undefined

  if (status < 200 || status > 299) {
    throw errorForStatus(response, { endpoint, status, venueCode, venueMessage }, context)
  }
  if (jsonError !== undefined) {
    throw new VenueResponseError(
      'json',
      `${label}: HTTP ${status} body is not valid JSON (${describeBody(response.body)})`,
      {
        status,
        endpoint,
      },
    )
  }
  if (envelope === undefined || !envelope.success) {
    throw new VenueResponseError(
      'envelope',
      `${label}: HTTP ${status} body is not a {code, message, data} envelope`,
      {
        status,
        endpoint,
        issues: redactIssues(envelope?.error.issues ?? [], context.redact),
      },
    )
  }
  if (envelope.data.code !== 0) {
    throw new VenueApiError(
      `${label}: the venue answered code ${envelope.data.code}${venueMessage ? ` "${venueMessage}"` : ''}`,
      { status, endpoint, venueCode: envelope.data.code, venueMessage },
    )
  }
  const plainData = fast?.(envelope.data.data, new JsonTally())
  if (plainData !== undefined) return { data: plainData, meta: envelope.data.meta }
  // `reportInput` keeps the offending value in each issue, to be shown redacted.
  const parsed = schema.safeParse(envelope.data.data, { reportInput: true })
  if (!parsed.success) {
    // zod's messages quote the offending input, which is venue text: redact it, and keep
    // only the redacted issues (not the ZodError itself, whose message repeats the input).
    const issues = redactIssues(parsed.error.issues, context.redact)
    const first = issues[0]
    const where =
      first === undefined
        ? ''
        : ` at data${first.path.map((p) => `[${JSON.stringify(p)}]`).join('')}: ${first.message}`
    throw new VenueResponseError(
      'schema',
      `${label}: response does not match the expected shape${where}`,
      {
        status,
        endpoint,
        issues,
      },
    )
  }
  return { data: parsed.data, meta: envelope.data.meta }
}

/**
 * The answer read the fast way, or `undefined` to read it the careful way: a successful
 * answer in the plain form, parsed by `JSON.parse` alone when that is proven to have read
 * every number exactly. The proof is the answer's length (see {@link JsonTally}); when it
 * fails (whitespace, escapes, a round number that could be written shorter), the scan
 * for numbers a double cannot hold decides, and the exact parse runs if it finds one.
 */
function plainAnswer<T>(
  response: TransportResponse,
  fast: (data: unknown, tally: JsonTally) => T | undefined,
): VenueResult<T> | undefined {
  const { status, body } = response
  if (status < 200 || status > 299) return undefined
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch {
    return undefined
  }
  const envelope = fastEnvelope(json)
  if (envelope === undefined || envelope.code !== 0) return undefined
  const tally = new JsonTally()
  const data = fast(envelope.data, tally)
  if (data === undefined) return undefined
  // The envelope around the data, which the fast path counted.
  let keys = 0
  for (const key in json as Record<string, unknown>) {
    keys += 1
    tally.string(key)
    if (key !== 'data') tally.value((json as Record<string, unknown>)[key], key)
  }
  tally.objectFrame(keys)
  if (!tally.provesExact(body) && mayHoldInexactNumber(body)) return undefined
  return { data, meta: envelope.meta }
}

interface StatusInfo {
  readonly endpoint: string
  readonly status: number
  readonly venueCode: number | undefined
  readonly venueMessage: string | undefined
}

function errorForStatus(
  response: TransportResponse,
  info: StatusInfo,
  context: InterpretContext,
): VenueError {
  const { endpoint, status, venueMessage } = info
  const label = context.subject ?? endpoint
  const said = venueMessage ? ` "${venueMessage}"` : ''
  const message = `${label}: HTTP ${status}${said}`
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(header(response, 'retry-after'), context.now())
    return new VenueRateLimitError(
      `${label}: rate limited (HTTP 429${retryAfterMs === undefined ? '' : `, retry after ${retryAfterMs} ms`})`,
      {
        ...info,
        retryAfterMs,
      },
    )
  }
  const lower = venueMessage?.toLowerCase() ?? ''
  if (status === 400 && lower.includes('api key')) {
    const reason = lower.includes('missing') ? 'missing-key' : 'invalid-key'
    return new VenueAuthError(reason, `${label}: the venue refused the API key${said}`, info)
  }
  if (status === 401) return new VenueAuthError('unauthorized', message, info)
  if (status === 403) return new VenueAuthError('forbidden', message, info)
  if (status === 404) {
    const hint = context.notFoundHint
    return new VenueNotFoundError(hint === undefined ? message : `${message}: ${hint}`, info)
  }
  if (status >= 500) return new VenueServerError(message, info)
  if (status >= 400) return new VenueRejectedError(message, info)
  return new VenueResponseError('status', `${message}: venue-rx expects 2xx, 4xx or 5xx`, {
    status,
    endpoint,
  })
}

function redactIssues(
  issues: readonly {
    readonly path: readonly PropertyKey[]
    readonly message: string
    readonly code?: string
    readonly input?: unknown
  }[],
  redact: (text: string) => string,
): VenueResponseIssue[] {
  return issues.map((issue) => ({
    // Paths are made of the schema's own keys and array indices, never of venue text.
    path: [...issue.path],
    // The venue's value is redacted here. The library's own words (and path) are kept,
    // unless the key occurs in them (a key of one character, say): the error's own
    // redaction removes it there with the rest (`VenueResponseError.redactWith`).
    message: `${issue.message}${received(issue.input, redact)}`,
    code: issue.code,
  }))
}

/** `, received "..."` for a scalar input the venue sent (redacted, cut after 40 characters). */
function received(input: unknown, redact: (text: string) => string): string {
  if (typeof input !== 'string' && typeof input !== 'number') return ''
  const text = redact(String(input))
  const cut = text.length > 40 ? `${text.slice(0, 40)}…` : text
  return `, received ${typeof input === 'string' ? JSON.stringify(cut) : cut}`
}

function header(response: TransportResponse, name: string): string | undefined {
  const value = response.headers[name]
  return Array.isArray(value) ? value[0] : value
}

/**
 * `Retry-After` as milliseconds from now: delay-seconds or an HTTP date. Undefined when
 * absent or unreadable; never negative.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined
  const trimmed = value.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) {
    // Kept as the venue said it (a huge value stays huge, never Infinity); the retry
    // operator clamps the wait it really makes.
    return Math.min(Number.MAX_SAFE_INTEGER, Math.round(Number(trimmed) * 1000))
  }
  const date = Date.parse(trimmed)
  if (Number.isNaN(date)) return undefined
  return Math.max(0, date - now)
}

function describeBody(body: string): string {
  if (body.length === 0) return 'empty body'
  return `${body.length} bytes`
}
