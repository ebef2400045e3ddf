import { defer, NEVER, Observable, of, retry, type Subscription, throwError } from 'rxjs'
import { backfillThenJoin } from '../core/backfill-then-join.js'
import { retryBackoff } from '../core/retry-backoff.js'
import { VenueRelayError } from '../errors/venue-relay-error.js'
import type { RedisClient as Redis, RelayKeys } from '../redis/redis.js'
import type { RedisConnection } from '../redis/redis-connection.js'
import { MAX_QUEUED } from '../streams/cursor-feed.js'
import type { StreamContext } from '../streams/stream-context.js'
import { type StreamLane, streamPipeline } from '../streams/stream-pipeline.js'
import { compareEntryIds } from './entry-ids.js'
import { type EntryWaker, type WakeReport, wakeHealth } from './entry-waker.js'

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
  /**
   * Every entry the stream still holds: from its floor, and past any entries trimmed while
   * the reader reads (for a reader that wants what is kept, not everything ever published).
   */
  | { readonly from: 'kept' }

/** How one subscription reads a relayed stream. */
export interface FollowSpec<T> {
  /** Health and registry key of the stream (`relay depth:0`). */
  readonly key: string
  readonly keys: RelayKeys
  readonly start: FollowStart
  /**
   * The values to emit for an entry's event, or for each event of the replayed state (a
   * list of events, stored under the id of the entry it is current at).
   */
  readonly decode: (entry: RelayEntry) => readonly T[]
  /** Called after each entry's values were emitted; the next entry waits for its promise. */
  readonly afterEntry?: ((entry: RelayEntry) => Promise<void> | void) | undefined
  /** After each read that delivered entries: whether it reached the stream's end. */
  readonly afterBatch?: ((caughtUp: boolean) => void) | undefined
  /**
   * What a subscription does when entries it has not read were trimmed from the stream
   * (the relay keeps its last `maxLen`; a reader paused or saving slowly falls behind):
   * `resync` from the stream's state (a book: its stored snapshot, then what follows), or
   * `fail` with a non-retryable `VenueRelayError` (a feed, whose items would be missing).
   */
  readonly onTrimmed: 'resync' | 'fail'
  /** Names the stream in errors (`watchMyTrades`). */
  readonly method: string
}

/** What the readers of one venue share: its streams' context and its one connection. */
export interface RelayReader {
  readonly context: StreamContext
  readonly connection: RedisConnection
  /**
   * How long a stream that read everything waits before its next read, ms, unless the
   * waker wakes it sooner.
   */
  readonly readIntervalMs: number
  /**
   * Wakes a stream's shared tail as soon as an entry is added (a blocking read on a
   * connection of its own); without it, the tail reads every `readIntervalMs` only.
   */
  readonly waker?: EntryWaker | undefined
}

/**
 * One value of a relayed stream's shared tail: where it started reading, each entry with
 * the id it followed, and the end of each read that brought entries.
 */
export type TailValue =
  | { readonly type: 'start'; readonly after: string }
  | { readonly type: 'entry'; readonly after: string; readonly entry: RelayEntry }
  | { readonly type: 'read'; readonly after: string; readonly caughtUp: boolean }
  /** Entries after `after` up to `floor` were trimmed before the tail read them. */
  | { readonly type: 'trimmed'; readonly after: string; readonly floor: string }

/** Entries per read. */
const BATCH = 500

/**
 * A relayed stream, read like a polled one. The stream's tail (every entry from where it
 * started) is read once for all the venue's subscribers, through the venue's stream
 * registry: shared, kept `lingerMs` after its last subscriber left, retried with the
 * venue's backoff and reported to its health board (`retrying`, `ok`, `failed`) under
 * `spec.key`. Each subscription first catches up on its own, from the stream's state (a
 * book's last snapshot and the events after it) or from its cursor, then joins the tail
 * ({@link backfillThenJoin}), with nothing lost or repeated. Reads never block: each one
 * takes what is there, so every reader of the venue shares one Redis connection; one that
 * reached the end waits `readIntervalMs` (default 100) on the venue's scheduler, or, for
 * the shared tail, until the reader's waker sees an entry added after what it read
 * (a blocking read of every tail at once, on a second connection), whichever comes first.
 *
 * @example
 * ```ts
 * followRelay(reader, {
 *   key: 'relay depth:0',
 *   keys: relayKeys(scope, { kind: 'depth', poolId: 0 }),
 *   start: { from: 'state' },
 *   decode: (entry) => [entry.event as BookEvent],
 * })
 * ```
 */
export function followRelay<T>(reader: RelayReader, spec: FollowSpec<T>): Observable<T> {
  const { context } = reader
  const tail = streamPipeline<TailValue>(context, spec.key, (lane) =>
    readTail(reader, spec.keys, lane),
  )
  const subscription = defer(() => {
    // Per subscription, across attempts: the id of the last entry delivered.
    const at: { delivered: string | undefined } = { delivered: undefined }
    const deliver = (entry: RelayEntry, emit: (value: T) => void) => {
      for (const value of spec.decode(entry)) emit(value)
      at.delivered = entry.id
    }
    const fromTail = (value: TailValue, emit: (value: T) => void) => {
      if (value.type === 'trimmed') {
        if (at.delivered !== undefined && compareEntryIds(value.floor, at.delivered) > 0) {
          if (spec.start.from === 'kept') at.delivered = value.floor
          else throw trimmed(spec, at.delivered, value.floor)
        }
        return
      }
      if (value.type !== 'entry') {
        at.delivered ??= value.after
        if (value.type === 'read') spec.afterBatch?.(value.caughtUp)
        return
      }
      // From the end: the join point is published already; what follows it is new.
      if (at.delivered === undefined) {
        at.delivered = value.entry.id
        return
      }
      if (compareEntryIds(value.entry.id, at.delivered) <= 0) return
      deliver(value.entry, emit)
      return spec.afterEntry?.(value.entry)
    }
    if (spec.start.from === 'end') {
      return backfillThenJoin<never, TailValue, T>(() => ({
        backfill: (join) =>
          defer(() => {
            join.listen()
            return NEVER
          }),
        shared: tail,
        fromBackfill: () => undefined,
        fromShared: fromTail,
        covers: () => true,
        hold: MAX_QUEUED,
        handOver: 'when-covered',
      }))
    }
    const start = spec.start
    return backfillThenJoin<RelayEntry, TailValue, T>(() => ({
      backfill: (join) => {
        // Held from the start: the tail replays where it is, so a subscriber that caught
        // up joins at once (and a Redis that is away shows under the stream's own key).
        join.listen()
        return streamPipeline<RelayEntry>(
          context,
          spec.key,
          (lane) =>
            defer(() => catchUp(reader, spec, start, lane, at, join)).pipe(
              retryBackoff<RelayEntry>(lane.retry()),
            ),
          { sharing: 'own' },
        )
      },
      shared: tail,
      fromBackfill: deliver,
      fromShared: fromTail,
      // The tail's first value follows `after`: delivered up to there, nothing is missed.
      covers: (point) =>
        at.delivered !== undefined && compareEntryIds(at.delivered, point.after) >= 0,
      hold: MAX_QUEUED,
      handOver: 'when-backfill-ends',
    }))
  })
  // A subscription that fell behind the trim point of a stream that resyncs starts again
  // from the stream's state.
  return subscription.pipe(
    retry({
      delay: (error: unknown) => (error instanceof Resync ? of(true) : throwError(() => error)),
    }),
  )
}

/** A subscription to a stream that resyncs fell behind its trim point. */
class Resync extends Error {}

/** What a subscription that fell behind the trim point gets: a resync, or the error. */
function trimmed(spec: FollowSpec<unknown>, after: string, floor: string): Error {
  if (spec.onTrimmed === 'resync') return new Resync(`${spec.key}: trimmed after ${after}`)
  return new VenueRelayError(
    `${spec.method}: the relay's stream no longer holds the items after the cursor (entry ${after}; trimmed up to ${floor}); ` +
      "resume without the relay, or raise the relay's maxLen (the reader fell behind it)",
    { retryable: false },
  )
}

/**
 * The shared tail of a stream: from its newest entry (or, after a failure, from the last
 * entry read), every later entry in order.
 */
function readTail(reader: RelayReader, keys: RelayKeys, lane: StreamLane): Observable<TailValue> {
  let last: string | undefined
  const wakeOn = {
    stream: keys.stream,
    after: () => last,
    onFailure: wakeHealth(reader.context.health, lane.key),
  }
  return defer(() =>
    readLoop<TailValue>(reader, wakeOn, async (emit) => {
      if (last === undefined) {
        last = await reader.connection.run((redis) => newestId(redis, keys.stream))
        emit({ type: 'start', after: last })
      }
      const { entries, trimmedTo } = await readFrom(reader, keys, last)
      lane.ok()
      let after = last
      if (trimmedTo !== undefined) {
        emit({ type: 'trimmed', after, floor: trimmedTo })
        after = trimmedTo
      }
      for (const entry of entries) {
        emit({ type: 'entry', after, entry })
        after = entry.id
      }
      last = after
      if (entries.length > 0) emit({ type: 'read', after, caughtUp: entries.length < BATCH })
      return entries.length < BATCH
    }),
  ).pipe(retryBackoff<TailValue>(lane.retry()))
}

/**
 * One subscription catching up (listening to the tail already): it replays the start
 * (the state, or the cursor), then reads the entries after it, a read at a time, each
 * entry's `afterEntry` awaited. It ends at the first read that reached the
 * stream's end with what it delivered covering where the tail is (else it reads on).
 */
function catchUp<T>(
  reader: RelayReader,
  spec: FollowSpec<T>,
  start: Exclude<FollowStart, { from: 'end' }>,
  lane: StreamLane,
  at: { delivered: string | undefined },
  join: { listen(): void; covered(): boolean | undefined },
): Observable<RelayEntry> {
  return readLoop<RelayEntry>(reader, undefined, async (emit, stopped) => {
    if (at.delivered === undefined) {
      if (start.from === 'after') at.delivered = start.id
      else if (start.from === 'kept') {
        const floor = await reader.connection.run((redis) => redis.get(spec.keys.floor))
        at.delivered = floor ?? '0-0'
      } else {
        const state = await reader.connection.run((redis) => redis.get(spec.keys.state))
        if (state === null) at.delivered = '0-0'
        else {
          const { id, entries } = stateEntries(state)
          for (const entry of entries) emit(entry)
          at.delivered = id
        }
      }
    }
    const after = at.delivered
    const { entries, trimmedTo } = await readFrom(reader, spec.keys, after)
    lane.ok()
    if (trimmedTo !== undefined) {
      if (start.from === 'kept') {
        // Trimmed while it read: what is kept starts later now.
        at.delivered = trimmedTo
        return false
      }
      const error = trimmed(spec, after, trimmedTo)
      if (!(error instanceof Resync)) throw error
      // The state again, then what follows it.
      at.delivered = undefined
      return false
    }
    for (const entry of entries) {
      emit(entry)
      await spec.afterEntry?.(entry)
      if (stopped()) return false
    }
    const caughtUp = entries.length < BATCH
    spec.afterBatch?.(caughtUp)
    if (!caughtUp) return false
    if (join.covered() === true) return 'done'
    return true
  })
}

/**
 * Runs `step` on the venue's Redis connection until it says `'done'` (the observable
 * completes) or fails (it errors), waiting `readIntervalMs` on the venue's scheduler after
 * a step that says it reached the end of the stream (`true`); with `wakeOn` and the
 * reader's waker, only until an entry is added to `wakeOn.stream` after `wakeOn.after()`,
 * if that comes first (the wake too through the venue's scheduler). The connection (and
 * the waker's watch) is held while subscribed.
 */
function readLoop<V>(
  reader: RelayReader,
  wakeOn:
    | {
        readonly stream: string
        readonly after: () => string | undefined
        readonly onFailure?: WakeReport
      }
    | undefined,
  step: (emit: (value: V) => void, stopped: () => boolean) => Promise<boolean | 'done'>,
): Observable<V> {
  return new Observable<V>((subscriber) => {
    const release = reader.connection.hold()
    const { scheduler } = reader.context
    const watch =
      wakeOn === undefined
        ? undefined
        : reader.waker?.watch(wakeOn.stream, scheduler, wakeOn.onFailure)
    let stopped = false
    const isStopped = () => stopped || subscriber.closed
    const emit = (value: V) => subscriber.next(value)
    let waiting: Subscription | undefined
    let unwake: (() => void) | undefined
    const wait = () =>
      new Promise<void>((resolve) => {
        let done = false
        const end = () => {
          if (done) return
          done = true
          waiting?.unsubscribe()
          unwake?.()
          resolve()
        }
        waiting = scheduler.schedule(end, reader.readIntervalMs)
        const after = wakeOn?.after()
        // The wake too goes through the venue's clock (a virtual clock that is held holds
        // the reader).
        const wake = () => {
          waiting?.unsubscribe()
          waiting = scheduler.schedule(end, 0)
        }
        unwake = after === undefined ? undefined : watch?.wait(after, wake)
      })
    const loop = async () => {
      while (!isStopped()) {
        const outcome = await step(emit, isStopped)
        if (outcome === 'done') return
        if (outcome && !isStopped()) await wait()
      }
    }
    loop().then(
      () => subscriber.complete(),
      (error: unknown) => subscriber.error(error),
    )
    return () => {
      stopped = true
      waiting?.unsubscribe()
      unwake?.()
      watch?.close()
      release()
    }
  })
}

/** The id of a stream's newest entry, `0-0` when it has none. */
async function newestId(redis: Redis, stream: string): Promise<string> {
  const newest = (await redis.xrevrange(stream, '+', '-', 'COUNT', 1))[0]
  return newest === undefined ? '0-0' : newest[0]
}

/** What one read of a stream brought: its entries (fields unparsed) and its floor. */
type RawRead = readonly [[string, [string, string[]][]][] | null | undefined, string | null]

/**
 * The reads under way on each connection, by stream and id: readers of one stream at one
 * place (the tails of the venues of a process sharing the connection, woken together by
 * one entry) share one round trip.
 */
const reading = new WeakMap<RedisConnection, Map<string, Promise<RawRead>>>()

/**
 * Up to a batch of entries after `id`, without waiting for any, and the stream's floor
 * (the last entry trimmed) read in the same transaction: `trimmedTo` is that floor when
 * entries after `id` were trimmed unread. A read of the same stream from the same id
 * under way on the connection is shared (its reply; each reader parses the entries).
 * A Redis failure is retryable; a malformed entry (parsed after the call) is not.
 */
async function readFrom(
  reader: RelayReader,
  keys: RelayKeys,
  id: string,
): Promise<{ readonly entries: RelayEntry[]; readonly trimmedTo: string | undefined }> {
  const { connection } = reader
  let underWay = reading.get(connection)
  if (underWay === undefined) {
    underWay = new Map()
    reading.set(connection, underWay)
  }
  const at = `${keys.stream}\n${id}`
  let read = underWay.get(at)
  if (read === undefined) {
    const started = readRaw(connection, keys, id)
    const current = underWay
    current.set(at, started)
    const done = () => current.delete(at)
    started.then(done, done)
    read = started
  }
  const [replied, floor] = await read
  return {
    entries: (replied?.[0]?.[1] ?? []).map(([entryId, fields]) => ({
      id: entryId,
      event: parseEvent(entryId, eventOf(fields)),
    })),
    trimmedTo: floor !== null && compareEntryIds(floor, id) > 0 ? floor : undefined,
  }
}

/** Reads of one stream in a row whose floor moved under them before one is taken as is. */
const FLOOR_TRIES = 3

/**
 * One read of {@link readFrom}: one round trip of the floor, the entries, and the floor
 * again (a pipeline, not a transaction: Redis refuses to queue a `MULTI` while it is full,
 * and a reader must go on reading what Redis holds). The floor only grows, so when it did
 * not move the entries were read under it; when it moved (a trim landed between), the read
 * is made again, and after {@link FLOOR_TRIES} the later floor is taken (a reader may then
 * see a trim it did not need to).
 */
function readRaw(connection: RedisConnection, keys: RelayKeys, id: string): Promise<RawRead> {
  return connection.run(async (redis) => {
    for (let attempt = 1; ; attempt += 1) {
      const replies = await redis
        .pipeline()
        .get(keys.floor)
        .xread('COUNT', BATCH, 'STREAMS', keys.stream, id)
        .get(keys.floor)
        .exec()
      const failed = replies?.find(([error]) => error !== null)?.[0]
      if (replies === null || failed !== undefined)
        throw failed ?? new Error('the read was aborted')
      const before = replies[0]?.[1] as string | null
      const after = replies[2]?.[1] as string | null
      if (before !== after && attempt < FLOOR_TRIES) continue
      return [replies[1]?.[1] as [string, [string, string[]][]][] | null, after] as const
    }
  })
}

/** The replayed state `<id> <JSON array of events>`, as entries under its id. */
function stateEntries(state: string): { readonly id: string; readonly entries: RelayEntry[] } {
  const space = state.indexOf(' ')
  const id = state.slice(0, space)
  const events = parseEvent(`state ${id}`, state.slice(space + 1))
  if (!Array.isArray(events)) throw malformed(`state ${id}`)
  return { id, entries: events.map((event) => ({ id, event })) }
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
