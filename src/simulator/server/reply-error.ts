import type { Reply } from './reply.js'

/**
 * Thrown by a route or a query reader to answer with `reply` instead of a success, so
 * handlers read as straight-line code.
 *
 * @example
 * ```ts
 * throw new ReplyError(invalidParameter('limit'))
 * ```
 */
export class ReplyError extends Error {
  override name = 'ReplyError' as const
  /** The answer to send. */
  readonly reply: Reply

  constructor(reply: Reply) {
    super(reply.body.message)
    this.reply = reply
  }
}
