import type { ServerResponse } from 'node:http'
import { withExtraFields } from './extra-fields.js'
import type { FaultPlan } from './fault-plan.js'
import type { Reply } from './reply.js'

/** The body of a `malformed` answer: starts like an envelope, is not JSON. */
export const MALFORMED_BODY = '{"code":0,"message":"","data":{"sim":<<not json>>'

/**
 * Serialises `reply` and writes it, applying the body faults of `plan`: unknown extra
 * fields, a non-JSON body (status 200), or the real body cut in the middle (status 200,
 * `Content-Length` of the cut body).
 */
export function writeReply(
  response: ServerResponse,
  reply: Reply,
  plan: Pick<FaultPlan, 'body' | 'extraFields'>,
): void {
  const envelope = plan.extraFields ? withExtraFields(reply.body) : reply.body
  let body = Buffer.from(JSON.stringify(envelope), 'utf8')
  let status = reply.status
  if (plan.body === 'malformed') {
    body = Buffer.from(MALFORMED_BODY, 'utf8')
    status = 200
  } else if (plan.body === 'truncate') {
    body = body.subarray(0, Math.floor(body.length / 2))
    status = 200
  }
  response.writeHead(status, {
    ...reply.headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(body.length),
  })
  response.end(body)
}
