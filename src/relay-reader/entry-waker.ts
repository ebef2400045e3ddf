import { race, type SchedulerLike, type Subscription, timer } from 'rxjs'
import type { HealthBoard } from '../core/health.js'
import { hashTag, isCluster, type RelayRedis } from '../redis/redis.js'
import { RedisConnection, sharedConnection } from '../redis/redis-connection.js'
import { compareEntryIds } from './entry-ids.js'

/** How long one blocking read waits for an entry, ms (under the command timeout). */
export const BLOCK_MS = 1_000

/** The first pause after a blocking read failed, ms; doubled up to {@link RETRY_MAX_MS}. */
const RETRY_MS = 100
const RETRY_MAX_MS = 2_000

/** Why a blocking read failed, and when it is tried again. */
export interface WakeFailure {
  readonly error: unknown
  /** Failures in a row, from 1. */
  readonly attempt: number
  /** The pause before the next try, ms. */
  readonly nextDelayMs: number
}

/**
 * Hears how the blocking read behind a watch fares: each failure, then `undefined` once
 * it reads again (or the watch closes while it fails).
 */
export type WakeReport = (failure: WakeFailure | undefined) => void

/** A stream the waker watches. */
interface Watched {
  /** The newest entry id known to be in the stream (`''` before the reader's first read). */
  known: string
  /** The open {@link EntryWatch} handles on it. */
  handles: number
  /** The clock of each open handle (its venue's scheduler), one entry per handle. */
  readonly clocks: SchedulerLike[]
  readonly waiters: Set<Waiter>
  /** Who hears of the blocking read's failures, one per handle that asked. */
  readonly reports: Set<WakeReport>
}

interface Waiter {
  readonly after: string
  readonly wake: () => void
}

/** The streams one blocking read covers (one hash tag on a cluster), on a connection of its own. */
interface Group {
  readonly connection: RedisConnection
  readonly streams: Map<string, Watched>
  running: boolean
  /** Ends the loop's pause after a failure early (the last watch closed). */
  endPause: (() => void) | undefined
  /** The latest failure, until a read succeeds. */
  failure: WakeFailure | undefined
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
 * blocking `XREAD` (`BLOCK` {@link BLOCK_MS}, `COUNT 1`) over the streams readers hold,
 * from the newest entry each is known to have, on a connection of its own (a blocked
 * connection can serve nothing else), held while a stream is watched. On one server one
 * read covers every stream; on a cluster (a connection per hash tag, given as a function
 * of the tag) one read per hash tag, since a command's keys must share a slot. Each reply
 * wakes the readers waiting for an entry after theirs, and the next read is sent at once.
 * A stream whose reader starts while a read is blocked joins at the next one (within
 * {@link BLOCK_MS}, sooner once an entry comes); a reader keeps its own timed reads
 * meanwhile, and whenever the waker fails (it retries after a pause, and tells each
 * watch's {@link WakeReport}): a wake is never needed for an entry to be read, it only
 * comes first. The pause runs on the clock of the readers it serves (each watch names its
 * venue's scheduler): it ends when the first of their clocks says so, and at once when
 * the last watch closes.
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
  readonly #connectionOf: (tag: string) => RedisConnection
  /** Whether streams are read per hash tag (a cluster) or all in one read. */
  readonly #perTag: boolean
  readonly #groups = new Map<string, Group>()

  constructor(connection: RedisConnection | ((tag: string) => RedisConnection)) {
    this.#perTag = typeof connection === 'function'
    this.#connectionOf = typeof connection === 'function' ? connection : () => connection
  }

  /**
   * Watches `stream` until the returned handle is closed, for a reader whose clock is
   * `scheduler` (its venue's); `report` hears how its blocking read fares.
   */
  watch(stream: string, scheduler: SchedulerLike, report?: WakeReport): EntryWatch {
    const tag = this.#perTag ? hashTag(stream) : ''
    let group = this.#groups.get(tag)
    if (group === undefined) {
      group = {
        connection: this.#connectionOf(tag),
        streams: new Map(),
        running: false,
        endPause: undefined,
        failure: undefined,
      }
      this.#groups.set(tag, group)
    }
    const mine = group
    let watched = mine.streams.get(stream)
    if (watched === undefined) {
      watched = { known: '', handles: 0, clocks: [], waiters: new Set(), reports: new Set() }
      mine.streams.set(stream, watched)
    }
    const held = watched
    held.handles += 1
    held.clocks.push(scheduler)
    // A function of its own per watch: one report given twice is two handles.
    const reporting: WakeReport | undefined = report && ((failure) => report(failure))
    if (reporting !== undefined) {
      held.reports.add(reporting)
      if (mine.failure !== undefined) reporting(mine.failure)
    }
    const release = mine.connection.hold()
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
        this.#run(mine)
        return () => held.waiters.delete(waiter)
      },
      close: () => {
        if (closed) return
        closed = true
        held.handles -= 1
        held.clocks.splice(held.clocks.indexOf(scheduler), 1)
        if (reporting !== undefined) {
          held.reports.delete(reporting)
          if (mine.failure !== undefined) reporting(undefined)
        }
        if (held.handles === 0 && mine.streams.get(stream) === held) mine.streams.delete(stream)
        if (mine.streams.size === 0) {
          mine.endPause?.()
          if (this.#groups.get(tag) === mine) this.#groups.delete(tag)
        }
        release()
      },
    }
  }

  /** The streams of `group` to read (those whose reader has read), each from its newest known entry. */
  #reading(group: Group): [string, Watched][] {
    return [...group.streams].filter(([, watched]) => watched.known !== '')
  }

  /** Reads while a stream of `group` is watched; one loop per group at a time. */
  #run(group: Group): void {
    if (group.running) return
    group.running = true
    void this.#loop(group).finally(() => {
      group.running = false
    })
  }

  async #loop(group: Group): Promise<void> {
    let failures = 0
    for (let reading = this.#reading(group); reading.length > 0; reading = this.#reading(group)) {
      let reply: unknown
      try {
        reply = await group.connection.run((redis) =>
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
        if (group.failure !== undefined) this.#tell(group, undefined)
      } catch (error) {
        // Let go of meanwhile (the connection closed under the read): nothing to retry.
        if (this.#reading(group).length === 0) return
        failures += 1
        const nextDelayMs = Math.min(RETRY_MS * 2 ** (failures - 1), RETRY_MAX_MS)
        this.#tell(group, { error, attempt: failures, nextDelayMs })
        await this.#pause(group, nextDelayMs)
        continue
      }
      for (const [stream, entries] of (reply ?? []) as [string, [string, unknown][]][]) {
        const id = entries.at(-1)?.[0]
        const watched = group.streams.get(stream)
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

  /** Records `failure` (or its end) and tells every watch of `group` that asked. */
  #tell(group: Group, failure: WakeFailure | undefined): void {
    group.failure = failure
    for (const watched of [...group.streams.values()]) {
      for (const report of [...watched.reports]) report(failure)
    }
  }

  /**
   * Waits `ms` on the clocks of `group`'s readers: until the first of them reaches it, or
   * its last watch closes.
   */
  #pause(group: Group, ms: number): Promise<void> {
    const clocks = new Set([...group.streams.values()].flatMap((watched) => watched.clocks))
    if (clocks.size === 0) return Promise.resolve()
    return new Promise<void>((resolve) => {
      let waiting: Subscription | undefined
      let ended = false
      const end = () => {
        if (ended) return
        ended = true
        waiting?.unsubscribe()
        group.endPause = undefined
        resolve()
      }
      group.endPause = end
      waiting = race([...clocks].map((clock) => timer(ms, clock))).subscribe(end)
      if (ended) waiting.unsubscribe()
    })
  }
}

/**
 * A {@link WakeReport} that shows a failing blocking read on a venue's health board under
 * `<key> wake` (`relay depth:1 wake`): `retrying` with its reason while it fails; once it
 * reads again (or the stream stops), `ok`, then gone (one who follows each key's changes
 * sees it end). The stream's own reads go on meanwhile (and report under `key`).
 */
export function wakeHealth(health: HealthBoard, key: string): WakeReport {
  const wakeKey = `${key} wake`
  return (failure) => {
    if (failure === undefined) {
      health.ok(wakeKey)
      health.stopped(wakeKey)
    } else health.retrying(wakeKey, failure.attempt, failure.nextDelayMs, failure.error)
  }
}

/** The wakers of this process, by Redis URL. */
const wakers = new Map<string, EntryWaker>()

/**
 * The waker of `redis` for this process: every venue of the process that reads relayed
 * streams from the same Redis URL shares one (one blocking read, on one connection named
 * `venue-rx-reader-wait`, for all of them); given ioredis options, a venue has its own. On
 * a cluster, a venue has its own too, with a cluster connection per hash tag its streams
 * have (an account's, a pool's, the other public streams'). A waker holds its connections
 * only while a stream is watched.
 */
export function wakerFor(redis: RelayRedis): EntryWaker {
  if (isCluster(redis)) {
    return new EntryWaker(
      () => new RedisConnection(redis, 'venue-rx-reader-wait', { oneSlot: true }),
    )
  }
  const connection = () => sharedConnection(redis, 'venue-rx-reader-wait')
  if (typeof redis !== 'string') return new EntryWaker(connection())
  let waker = wakers.get(redis)
  if (waker === undefined) {
    waker = new EntryWaker(connection())
    wakers.set(redis, waker)
  }
  return waker
}
