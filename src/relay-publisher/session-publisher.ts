import type { Subscription } from 'rxjs'
import type { HealthBoard } from '../core/health.js'
import { VenueError } from '../errors/venue-error.js'
import { type RedisClient as Redis, type RelayKeys, relayError } from '../redis/redis.js'
import type { RedisConnection } from '../redis/redis-connection.js'
import { type RelayStream, relayStreamName } from '../redis/stream-names.js'
import type { RelaySources } from '../streams/relay-sources.js'
import type { TimerProvider } from '../timers.js'
import type { Venue } from '../venue.js'
import { PublishPipeline } from './publish-pipeline.js'
import type { RelayMetrics } from './relay-metrics.js'
import { ACQUIRE, RELEASE, RENEW } from './scripts.js'
import {
  IDLE,
  type SessionEffect,
  type SessionEvent,
  type SessionLife,
  type SessionSettings,
  statusOf,
  stepSession,
} from './session-life.js'
import {
  type InOrder,
  type Publish,
  streamSource,
  type Takeover,
  takeoverOf,
} from './stream-sources.js'

/**
 * Where a relay is with one stream: `active` (it holds the lease and publishes), `standby`
 * (another relay holds it, or it has not asked yet) or `retrying` (Redis fails it:
 * unreachable, a write refused when full; it keeps trying).
 *
 * @example
 * ```ts
 * const publishing = Object.values(relay.status()).filter((s) => s.state === 'active').length
 * ```
 */
export type RelayStreamState = 'active' | 'standby' | 'retrying'

/**
 * One stream's {@link RelayStreamState}, and while `retrying`, Redis's reason (never a
 * credential).
 *
 * @example
 * ```ts
 * for (const [stream, { state, reason }] of Object.entries(relay.status()))
 *   console.log(stream, state, reason ?? '')
 * // my-trades retrying Redis at 127.0.0.1:6379: OOM command not allowed when used memory > 'maxmemory'.
 * ```
 */
export interface RelayStreamStatus {
  readonly state: RelayStreamState
  /** Why Redis fails the stream, while `retrying`. */
  readonly reason?: string
}

/** What every stream publisher of a relay shares. */
export interface PublisherSettings {
  readonly leaseMs: number
  readonly maxLen: number
  readonly id: string
  /**
   * What this relay writes in a lease: its id and a nonce of this process, so that two
   * relays started with one `relayId` (a supervisor restarting a hung one) never both
   * hold a stream.
   */
  readonly owner: string
  readonly health: HealthBoard
  readonly timers: TimerProvider
  readonly metrics: RelayMetrics
  /** Called when the publisher turns active or standby. */
  readonly onStateChange: () => void
}

/** The I/O of one session: its connection, its publishes, its subscription. */
interface LiveSession {
  readonly session: number
  readonly redis: Redis
  readonly pipeline: PublishPipeline
  /** Where the last relay left the stream (read once the lease is taken). */
  takeover: Takeover | undefined
  subscription: Subscription | undefined
  /** The session's publish steps, each run after the one before. */
  steps: Promise<unknown>
}

/**
 * Publishes one stream while this relay holds its lease; waits as a standby otherwise.
 * Its life is a state machine ({@link stepSession}): every change goes through
 * `#dispatch`, and this class only runs the effects the reducer asks for (Redis, the
 * venue's timers, the stream's subscription, health and metrics) and feeds their outcomes
 * back as events.
 */
export class StreamPublisher {
  readonly name: string
  readonly #stream: RelayStream
  readonly #keys: RelayKeys
  readonly #venue: Venue
  readonly #sources: RelaySources
  readonly #connection: RedisConnection
  readonly #settings: PublisherSettings
  readonly #lifeSettings: SessionSettings
  #state: SessionLife = IDLE
  /** Events dispatched while an event's effects run: stepped after them, in order. */
  readonly #queue: SessionEvent[] = []
  #dispatching = false
  #live: LiveSession | undefined
  #wait: unknown
  #renewal: unknown
  /** Why Redis failed the stream last (credentials-free), until it answers again. */
  #reason: string | undefined
  readonly #closed: Promise<void>
  #resolveClosed: () => void = () => undefined

  constructor(
    stream: RelayStream,
    keys: RelayKeys,
    { venue, sources }: { readonly venue: Venue; readonly sources: RelaySources },
    connection: RedisConnection,
    settings: PublisherSettings,
  ) {
    this.#stream = stream
    this.name = relayStreamName(stream)
    this.#keys = keys
    this.#venue = venue
    this.#sources = sources
    this.#connection = connection
    this.#settings = settings
    this.#lifeSettings = { name: this.name, leaseMs: settings.leaseMs }
    this.#closed = new Promise((resolve) => {
      this.#resolveClosed = resolve
    })
  }

  /** `active` while this relay holds the stream's lease and publishes it. */
  get state(): RelayStreamState {
    return statusOf(this.#state)
  }

  /** The state, and while `retrying`, why. */
  get status(): RelayStreamStatus {
    const state = this.state
    return state === 'retrying' && this.#reason !== undefined
      ? { state, reason: this.#reason }
      : { state }
  }

  start(): void {
    this.#dispatch({ type: 'start' })
  }

  /** Stops publishing, and gives the lease up if this relay took it. */
  stop(): Promise<void> {
    this.#dispatch({ type: 'stop' })
    return this.#closed
  }

  /** The one place the state changes: steps the reducer, then runs its effects. */
  #dispatch(event: SessionEvent): void {
    this.#queue.push(event)
    if (this.#dispatching) return
    this.#dispatching = true
    try {
      // The venue requests the effects make (the stream's polls) count for this stream.
      this.#settings.metrics.within(this.name, () => {
        for (let next = this.#queue.shift(); next !== undefined; next = this.#queue.shift()) {
          const before = statusOf(this.#state)
          const step = stepSession(this.#state, next, this.#lifeSettings)
          this.#state = step.life
          if (statusOf(step.life) !== before) this.#settings.onStateChange()
          for (const effect of step.effects) this.#run(effect)
        }
      })
    } finally {
      this.#dispatching = false
    }
  }

  #run(effect: SessionEffect): void {
    const { health, metrics, timers, owner } = this.#settings
    const { lease } = this.#keys
    const key = `publish ${this.name}`
    switch (effect.type) {
      case 'acquire':
        this.#connection
          .run((redis) => redis.eval(ACQUIRE, 1, lease, owner, effect.ttlMs))
          .then(
            (held) => this.#dispatch({ type: 'lease-answered', held: held === 1 }),
            (error: unknown) => this.#dispatch({ type: 'lease-failed', error }),
          )
        return
      case 'report-ok':
        this.#reason = undefined
        health.ok(key)
        return
      case 'count-failure':
        metrics.failed(this.name, effect.error)
        return
      case 'report-retrying': {
        const error =
          effect.error instanceof VenueError
            ? effect.error
            : relayError(`relay: ${this.name}`, effect.error)
        this.#reason = error.message
        health.retrying(key, effect.attempt, effect.delayMs, error)
        return
      }
      case 'wait':
        this.#wait = timers.setTimeout(() => this.#dispatch({ type: 'wait-over' }), effect.ms)
        return
      case 'cancel-wait':
        timers.clearTimeout(this.#wait)
        return
      case 'catch-up':
        void this.#catchUp(effect.session)
        return
      case 'count-acquired':
        metrics.leaseAcquired(this.name)
        return
      case 'subscribe':
        this.#subscribe(effect.session)
        return
      case 'renew-after': {
        const { session } = effect
        this.#renewal = timers.setTimeout(
          () => this.#dispatch({ type: 'renew-due', session }),
          effect.ms,
        )
        return
      }
      case 'renew':
        this.#renew(effect)
        return
      case 'count-published':
        metrics.published(this.name, effect.added)
        return
      case 'cancel-renewal':
        timers.clearTimeout(this.#renewal)
        return
      case 'unsubscribe':
        this.#live?.subscription?.unsubscribe()
        return
      case 'drain':
        this.#drain(effect.session)
        return
      case 'count-lost':
        metrics.leaseLost(this.name)
        return
      case 'release':
        this.#connection
          .client()
          .then((redis) => redis.eval(RELEASE, 1, lease, owner))
          // Redis is away: the lease runs out by itself.
          .catch(() => undefined)
          .then(() => this.#dispatch({ type: 'released' }))
        return
      case 'closed':
        this.#resolveClosed()
        return
    }
  }

  /** Reads where the last relay left the stream, on the connection the session uses. */
  async #catchUp(session: number): Promise<void> {
    const failed = (error: unknown) => this.#dispatch({ type: 'session-failed', session, error })
    let live: LiveSession
    try {
      const redis = await this.#connection.client()
      const pipeline = new PublishPipeline(
        {
          redis,
          keys: this.#keys,
          owner: this.#settings.owner,
          session: `${this.#settings.owner}/${session}`,
          maxLen: this.#settings.maxLen,
        },
        {
          written: (added, last) => this.#dispatch({ type: 'written', session, added, last }),
          lost: () => this.#dispatch({ type: 'lease-lost', session }),
          failed: (error) => failed(relayError(`relay: cannot publish ${this.name}`, error)),
        },
      )
      live = {
        session,
        redis,
        pipeline,
        takeover: undefined,
        subscription: undefined,
        steps: Promise.resolve(),
      }
      this.#live = live
      live.takeover = await takeoverOf(redis, this.#stream, this.#keys)
    } catch (error) {
      failed(error)
      return
    }
    this.#dispatch({ type: 'caught-up', session })
  }

  /** Subscribes to the stream: each of its events is published in the session. */
  #subscribe(session: number): void {
    const failed = (error: unknown) => this.#dispatch({ type: 'session-failed', session, error })
    const live = this.#live
    if (live?.session !== session || live.takeover === undefined) {
      failed(new Error(`relay: no session ${session} of ${this.name} to publish in`))
      return
    }
    const publish: Publish = (entries) => live.pipeline.publish(entries)
    const inOrder: InOrder = (step) => {
      live.steps = live.steps.then(step)
      live.steps.catch(failed)
    }
    try {
      const events = streamSource(
        this.#stream,
        this.#venue,
        this.#sources,
        live.takeover,
        publish,
        inOrder,
      )
      live.subscription = events.subscribe({
        error: failed,
        complete: () => this.#dispatch({ type: 'stream-completed', session }),
      })
    } catch (error) {
      failed(error)
    }
  }

  /** Renews the lease; the answer says whether it still is the session's. */
  #renew({ session, ttlMs, lastPublished }: Extract<SessionEffect, { type: 'renew' }>): void {
    const live = this.#live
    if (live?.session !== session) return
    const { lease, stream } = this.#keys
    live.redis.eval(RENEW, 2, lease, stream, this.#settings.owner, ttlMs, lastPublished).then(
      (renewed) =>
        this.#dispatch({
          type:
            renewed === 'gone' ? 'history-lost' : renewed === 1 ? 'lease-renewed' : 'lease-lost',
          session,
        }),
      (error: unknown) =>
        this.#dispatch({
          type: 'session-failed',
          session,
          error: relayError(`relay: cannot renew ${this.name}`, error),
        }),
    )
  }

  /** A publish still under way lands before the next session reads where to go on from. */
  #drain(session: number): void {
    const live = this.#live?.session === session ? this.#live : undefined
    this.#live = undefined
    const settled = live?.steps.catch(() => undefined).then(() => live.pipeline.settled())
    void Promise.resolve(settled).then(() => this.#dispatch({ type: 'drained', session }))
  }
}
