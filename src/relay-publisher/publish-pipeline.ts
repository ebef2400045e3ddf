import type { RedisClient as Redis, RelayKeys } from '../redis/redis.js'
import { isNoScript, runPublish, sendPublish } from './scripts.js'
import type { Outgoing } from './stream-sources.js'

/** What a {@link PublishPipeline} tells its session. */
export interface PipelineHooks {
  /** A publish was written: the entries it added, the id of the last one (`''` for none). */
  written(added: number, last: string): void
  /** The lease is not this session's any more (nothing more is written). */
  lost(): void
  /** A publish failed (nothing after it is written). */
  failed(error: unknown): void
}

/** Who publishes: the lease's owner, the session's id, and the stream's settings. */
export interface PipelineSession {
  readonly redis: Redis
  readonly keys: RelayKeys
  /** The lease's owner (relay id and nonce). */
  readonly owner: string
  /** Unique to the session: its publishes are fenced by it (see `PUBLISH`). */
  readonly session: string
  readonly maxLen: number
}

/**
 * The publishes of one stream in one session, pipelined: each one is sent at once (one
 * EVALSHA of `PUBLISH`, fenced by the lease and by the publish before it) without waiting
 * for the replies of those before it; on the one connection Redis runs them in the order
 * sent. Their replies are handled in that order: a publish that Redis did not know the
 * script of (a restarted server, `SCRIPT FLUSH`), or that the fence kept out because one
 * before it was not written yet when it ran, is sent again in its turn (EVAL when the
 * script is unknown), once every publish before it is written. After a failure or a lost
 * lease nothing more is written: the fence, or the lease check, keeps every later publish
 * out, and the session ends.
 *
 * @example
 * ```ts
 * const pipeline = new PublishPipeline({ redis, keys, owner, session: `${owner}/1`, maxLen }, hooks)
 * void pipeline.publish([{ id: '*', event: { a: 1 }, state: '' }])
 * void pipeline.publish([{ id: '*', event: { a: 2 }, state: '' }]) // sent before the first's reply
 * await pipeline.settled()
 * ```
 */
export class PublishPipeline {
  readonly #session: PipelineSession
  readonly #hooks: PipelineHooks
  /** Publishes sent (the number of the last one, from 1). */
  #sent = 0
  /** Whether every publish sent was written, once their replies are handled. */
  #replies: Promise<boolean> = Promise.resolve(true)

  constructor(session: PipelineSession, hooks: PipelineHooks) {
    this.#session = session
    this.#hooks = hooks
  }

  /**
   * Sends the events of one publish (in order, in one call) at once. Resolves true when
   * written (an explicit id at or before the last entry is skipped: already there); false
   * when the lease is lost (`lost`), when this publish failed (`failed` with the error) or
   * when one before it was not written. Never rejects.
   */
  publish(entries: readonly Outgoing[]): Promise<boolean> {
    if (entries.length === 0) return Promise.resolve(true)
    this.#sent += 1
    const { redis, keys, owner, session, maxLen } = this.#session
    const args: (string | number)[] = [
      keys.stream,
      keys.state,
      keys.lease,
      keys.floor,
      keys.fence,
      owner,
      maxLen,
      session,
      this.#sent,
    ]
    for (const { id, event, state } of entries) args.push(id, JSON.stringify(event), state)
    const reply = sendPublish(redis, args)
    // Handled below, after the replies before it.
    reply.catch(() => undefined)
    const handled = this.#replies.then(async (before) => {
      // One before it failed, or the lease was lost: the fence kept this one out.
      if (!before) return false
      try {
        return this.#written(await this.#answer(reply, args))
      } catch (error) {
        this.#hooks.failed(error)
        return false
      }
    })
    this.#replies = handled
    return handled
  }

  /** Resolves once every publish sent is answered: true when all were written. */
  settled(): Promise<boolean> {
    return this.#replies
  }

  /** What Redis made of a publish, once every publish before it is written. */
  async #answer(reply: Promise<unknown>, args: readonly (string | number)[]): Promise<unknown> {
    try {
      const result = await reply
      if (result !== 'gap') return result
    } catch (error) {
      if (!isNoScript(error)) throw error
    }
    const again = await runPublish(this.#session.redis, args)
    if (again === 'gap') throw new Error('the publish before it is not in the stream')
    return again
  }

  /** Notes a publish's result; false when the lease was lost. */
  #written(result: unknown): boolean {
    if (result === 'lost') {
      this.#hooks.lost()
      return false
    }
    const [added, last] = Array.isArray(result) ? result : [0, '']
    this.#hooks.written(Number(added), typeof last === 'string' ? last : '')
    return true
  }
}
