import type { Redis } from 'ioredis'
import { Observable } from 'rxjs'
import type { HealthBoard } from '../core/health.js'
import { VenueRelayError } from '../errors/venue-relay-error.js'
import { connectRedis, type RelayKeys, type RelayRedis, relayError } from '../redis/redis.js'

/** One entry of a relayed stream: its id and its event, parsed. */
export interface RelayEntry {
  readonly id: string
  readonly event: unknown
}

/** Where a reader starts. */
export type FollowStart =
  /** Replay the stream's state (what a late reader needs first), then what follows it. */
  | { readonly from: 'state' }
  /** Only what is published after the reader started. */
  | { readonly from: 'end' }
  /** Every entry after this id. */
  | { readonly from: 'after'; readonly id: string }

/** How a reader delivers: `onEntry` may return a promise (a save) to wait for. */
export interface FollowSpec<T> {
  /** Health key of the stream. */
  readonly key: string
  readonly keys: RelayKeys
  readonly start: FollowStart
  /**
   * The values to emit for an entry's event, or for each event of the replayed state (a
   * list of events, stored under the id of the entry it is current at).
   */
  readonly decode: (entry: RelayEntry) => readonly T[]
  /** Called after each entry's events were emitted; the next entry waits for its promise. */
  readonly afterEntry?: ((entry: RelayEntry) => Promise<void> | void) | undefined
  /** After each batch read: whether the reader had caught up with the stream. */
  readonly afterBatch?: ((caughtUp: boolean) => void) | undefined
  /**
   * Checks the start against what Redis still holds (a cursor feed's items may have been
   * trimmed); throws to end the stream.
   */
  readonly checkStart?: ((redis: Redis, id: string) => Promise<void>) | undefined
}

/** The settings every reader of a venue shares. */
export interface FollowContext {
  readonly redis: RelayRedis
  readonly health: HealthBoard
  /** Retry waits: the venue's backoff. */
  readonly backoff: { readonly initialMs: number; readonly maxMs: number; readonly factor: number }
}

/** Entries per XREAD, and how long one waits for new entries. */
const BATCH = 500
const BLOCK_MS = 2_000

/**
 * Follows a relayed stream with its own Redis connection (a blocking XREAD holds it):
 * replays the start, then every new entry in order. A Redis failure is reported as
 * `retrying` in health and retried with the venue's backoff from the last entry read, so
 * nothing published is missed or repeated; unsubscribing closes the connection. Every
 * subscription to one stream reports under the same health key; the key leaves the
 * report when the last of them ends.
 */
export function followRelay<T>(context: FollowContext, spec: FollowSpec<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    let stopped = false
    let redis: Redis | undefined
    let wake: (() => void) | undefined
    const { health, backoff } = context
    health.join(spec.key)

    const pause = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms)
        wake = () => {
          clearTimeout(timer)
          resolve()
        }
      })

    const run = async () => {
      let last: string | undefined
      let attempt = 0
      while (!stopped) {
        let entries: [string, string[]][]
        try {
          redis ??= await connectRedis(context.redis, 'venue-rx-reader')
          if (stopped) break
          if (last === undefined) last = await begin(redis)
          if (stopped) break
          const reply = (await redis.xread(
            'COUNT',
            BATCH,
            'BLOCK',
            BLOCK_MS,
            'STREAMS',
            spec.keys.stream,
            last,
          )) as [string, [string, string[]][]][] | null
          if (attempt > 0 || health.current[spec.key]?.state !== 'ok') health.ok(spec.key)
          attempt = 0
          entries = reply?.[0]?.[1] ?? []
        } catch (error) {
          if (stopped) return
          if (error instanceof VenueRelayError && !error.retryable) throw error
          attempt += 1
          const delay = Math.min(backoff.initialMs * backoff.factor ** (attempt - 1), backoff.maxMs)
          health.retrying(
            spec.key,
            attempt,
            delay,
            error instanceof VenueRelayError ? error : relayError('Redis', error),
          )
          await pause(delay)
          continue
        }
        // Outside the retry: a save that fails ends the stream (the item would come again),
        // as a malformed entry does (it would fail again).
        for (const [id, fields] of entries) {
          if (stopped) return
          const entry = { id, event: parseEvent(id, eventOf(fields)) }
          for (const value of spec.decode(entry)) {
            subscriber.next(value)
            if (stopped) break
          }
          // Even when the consumer stops on this entry: it was delivered.
          await spec.afterEntry?.(entry)
          last = id
        }
        if (!stopped) spec.afterBatch?.(entries.length < BATCH)
      }
    }

    /** The id to read after, having emitted the replay of the start. */
    const begin = async (client: Redis): Promise<string> => {
      const { start } = spec
      if (start.from === 'after') {
        await spec.checkStart?.(client, start.id)
        return start.id
      }
      if (start.from === 'state') {
        const state = await client.get(spec.keys.state)
        if (state !== null) {
          const space = state.indexOf(' ')
          const id = state.slice(0, space)
          const events = parseEvent(`state ${id}`, state.slice(space + 1))
          if (!Array.isArray(events)) throw malformed(`state ${id}`)
          for (const event of events) {
            for (const value of spec.decode({ id, event })) subscriber.next(value)
          }
          return id
        }
      }
      // The stream's last entry (or its start when it has none).
      const lastEntry = (await client.xrevrange(spec.keys.stream, '+', '-', 'COUNT', 1))[0]
      return start.from === 'state' || lastEntry === undefined ? '0-0' : lastEntry[0]
    }

    run().then(
      () => subscriber.complete(),
      (error: unknown) => subscriber.error(error),
    )
    return () => {
      stopped = true
      wake?.()
      // Ends a blocked XREAD at once.
      redis?.disconnect()
      health.leave(spec.key)
    }
  })
}

/** An entry's event, parsed; a non-retryable `VenueRelayError` when it is not JSON. */
function parseEvent(what: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw malformed(what)
  }
}

function malformed(what: string): VenueRelayError {
  return new VenueRelayError(`the relay's ${what} is not an event venue-rx wrote`, {
    retryable: false,
  })
}

/** The event JSON of an entry's fields (`e <json>`). */
function eventOf(fields: readonly string[]): string {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === 'e') return fields[i + 1] ?? ''
  return ''
}
