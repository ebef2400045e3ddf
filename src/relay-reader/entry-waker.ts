import { race, type SchedulerLike, type Subscription, timer } from 'rxjs'
import type { RelayRedis } from '../redis/redis.js'
import { type RedisConnection, sharedConnection } from '../redis/redis-connection.js'
import { compareEntryIds } from './entry-ids.js'

/** How long one blocking read waits for an entry, ms (under the command timeout). */
export const BLOCK_MS = 1_000

/** The first pause after a blocking read failed, ms; doubled up to {@link RETRY_MAX_MS}. */
const RETRY_MS = 100
const RETRY_MAX_MS = 2_000

/** A stream the waker watches. */
interface Watched {
  /** The newest entry id known to be in the stream (`''` before the reader's first read). */
  known: string
  /** The open {@link EntryWatch} handles on it. */
  handles: number
  /** The clock of each open handle (its venue's scheduler), one entry per handle. */
  readonly clocks: SchedulerLike[]
  readonly waiters: Set<Waiter>
}

interface Waiter {
  readonly after: string
  readonly wake: () => void
}

/** One reader's hold on a stream the waker watches. */
export interface EntryWatch {
  /**
   * Calls `wake` (once) when the stream holds an entry after `after` (it may already),
   * unless cancelled first by the returned function. `after` is where the reader's read
   * ended: the watch goes on from there.
   */
  wait(after: string, wake: () => void): () => void
  /** Lets go of the stream (once). */
  close(): void
}

/**
 * Wakes the readers of one venue's relayed streams as soon as an entry is added: one
 * blocking `XREAD` (`BLOCK` {@link BLOCK_MS}, `COUNT 1`) over every stream a reader holds,
 * from the newest entry each is known to have, on a connection of its own (a blocked
 * connection can serve nothing else), held while a stream is watched. Each reply wakes the
 * readers waiting for an entry after theirs, and the next read is sent at once. A stream
 * whose reader starts while a read is blocked joins at the next one (within
 * {@link BLOCK_MS}, sooner once an entry comes); a reader keeps its own timed reads
 * meanwhile, and whenever the waker fails (it retries after a pause): a wake is never
 * needed for an entry to be read, it only comes first. The pause runs on the clock of the
 * readers it serves (each watch names its venue's scheduler): it ends when the first of
 * their clocks says so, and at once when the last watch closes.
 *
 * @example
 * ```ts
 * const waker = new EntryWaker(new RedisConnection(redis, 'venue-rx-reader-wait'))
 * const watch = waker.watch(keys.stream, context.scheduler)
 * const cancel = watch.wait(lastRead, () => readAgain())
 * // ...
 * watch.close()
 * ```
 */
export class EntryWaker {
  readonly #connection: RedisConnection
  readonly #streams = new Map<string, Watched>()
  #running = false
  /** Ends the loop's pause after a failure early (the last watch closed). */
  #endPause: (() => void) | undefined

  constructor(connection: RedisConnection) {
    this.#connection = connection
  }

  /**
   * Watches `stream` until the returned handle is closed, for a reader whose clock is
   * `scheduler` (its venue's).
   */
  watch(stream: string, scheduler: SchedulerLike): EntryWatch {
    let watched = this.#streams.get(stream)
    if (watched === undefined) {
      watched = { known: '', handles: 0, clocks: [], waiters: new Set() }
      this.#streams.set(stream, watched)
    }
    const held = watched
    held.handles += 1
    held.clocks.push(scheduler)
    const release = this.#connection.hold()
    let closed = false
    return {
      wait: (after, wake) => {
        if (closed) return () => undefined
        if (held.known !== '' && compareEntryIds(held.known, after) > 0) {
          // Seen already: an entry after `after` is there.
          wake()
          return () => undefined
        }
        held.known = after
        const waiter = { after, wake }
        held.waiters.add(waiter)
        this.#run()
        return () => held.waiters.delete(waiter)
      },
      close: () => {
        if (closed) return
        closed = true
        held.handles -= 1
        held.clocks.splice(held.clocks.indexOf(scheduler), 1)
        if (held.handles === 0 && this.#streams.get(stream) === held) this.#streams.delete(stream)
        if (this.#streams.size === 0) this.#endPause?.()
        release()
      },
    }
  }

  /** The streams to read (those whose reader has read), each from its newest known entry. */
  #reading(): [string, Watched][] {
    return [...this.#streams].filter(([, watched]) => watched.known !== '')
  }

  /** Reads while a stream is watched; one loop at a time. */
  #run(): void {
    if (this.#running) return
    this.#running = true
    void this.#loop().finally(() => {
      this.#running = false
    })
  }

  async #loop(): Promise<void> {
    let failures = 0
    for (let reading = this.#reading(); reading.length > 0; reading = this.#reading()) {
      let reply: unknown
      try {
        reply = await this.#connection.run((redis) =>
          redis.xread(
            'COUNT',
            1,
            'BLOCK',
            BLOCK_MS,
            'STREAMS',
            ...reading.map(([stream]) => stream),
            ...reading.map(([, watched]) => watched.known),
          ),
        )
        failures = 0
      } catch {
        // Let go of meanwhile (the connection closed under the read): nothing to retry.
        if (this.#reading().length === 0) return
        failures += 1
        await this.#pause(Math.min(RETRY_MS * 2 ** (failures - 1), RETRY_MAX_MS))
        continue
      }
      for (const [stream, entries] of (reply ?? []) as [string, [string, unknown][]][]) {
        const id = entries.at(-1)?.[0]
        const watched = this.#streams.get(stream)
        if (id === undefined || watched === undefined) continue
        if (compareEntryIds(id, watched.known) > 0) watched.known = id
        for (const waiter of watched.waiters) {
          if (compareEntryIds(id, waiter.after) <= 0) continue
          watched.waiters.delete(waiter)
          waiter.wake()
        }
      }
    }
  }

  /**
   * Waits `ms` on the readers' clocks: until the first of them reaches it, or the last
   * watch closes.
   */
  #pause(ms: number): Promise<void> {
    const clocks = new Set([...this.#streams.values()].flatMap((watched) => watched.clocks))
    if (clocks.size === 0) return Promise.resolve()
    return new Promise<void>((resolve) => {
      let waiting: Subscription | undefined
      let ended = false
      const end = () => {
        if (ended) return
        ended = true
        waiting?.unsubscribe()
        this.#endPause = undefined
        resolve()
      }
      this.#endPause = end
      waiting = race([...clocks].map((clock) => timer(ms, clock))).subscribe(end)
      if (ended) waiting.unsubscribe()
    })
  }
}

/** The wakers of this process, by Redis URL. */
const wakers = new Map<string, EntryWaker>()

/**
 * The waker of `redis` for this process: every venue of the process that reads relayed
 * streams from the same Redis URL shares one (one blocking read, on one connection named
 * `venue-rx-reader-wait`, for all of them); given ioredis options, a venue has its own. A
 * waker holds its connection only while a stream is watched.
 */
export function wakerFor(redis: RelayRedis): EntryWaker {
  const connection = () => sharedConnection(redis, 'venue-rx-reader-wait')
  if (typeof redis !== 'string') return new EntryWaker(connection())
  let waker = wakers.get(redis)
  if (waker === undefined) {
    waker = new EntryWaker(connection())
    wakers.set(redis, waker)
  }
  return waker
}
