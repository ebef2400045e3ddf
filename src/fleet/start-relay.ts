import { randomBytes } from 'node:crypto'
import type { Redis } from 'ioredis'
import { filter, type Observable, type Subscription, tap } from 'rxjs'
import { applyBookEvent } from '../book/apply-book-event.js'
import type { BookEvent } from '../book/book-event.js'
import type { OrderBook } from '../book/order-book.js'
import { newInWindow } from '../core/new-in-window.js'
import { VenueInputError } from '../errors/venue-input-error.js'
import type { VenueOptions } from '../options.js'
import {
  checkRedis,
  connectRedis,
  DEFAULT_PREFIX,
  type RelayKeys,
  type RelayRedis,
  relayError,
  relayKeys,
} from '../relay/redis.js'
import { feedIds } from '../relay/relay-streams.js'
import { ACQUIRE, PUBLISH, RELEASE } from '../relay/scripts.js'
import { parseRelayStream, type RelayStream, relayStreamName } from '../relay/stream-names.js'
import type { Balance } from '../schemas/balance.js'
import type { OpenOrder } from '../schemas/order.js'
import type { PublicTrade } from '../schemas/public-trade.js'
import type { Checkpoint } from '../streams/checkpoint.js'
import { orderOutcome } from '../streams/order-outcome.js'
import { balanceChanges } from '../streams/watch-balances.js'
import type { OpenOrderEvent } from '../streams/watch-open-orders.js'
import { sameTrade } from '../streams/watch-trades.js'
import { createVenue, type Venue } from '../venue.js'

/**
 * Settings of {@link startRelay}: the venue's options (the relay polls with them, under
 * one request budget) and where and what to publish.
 *
 * @example
 * ```ts
 * import type { RelayOptions } from 'venue-rx/relay'
 *
 * const options: RelayOptions = {
 *   baseUrl: 'http://127.0.0.1:8787',
 *   apiKey: process.env.VENUE_API_KEY,
 *   redis: 'redis://127.0.0.1:6379',
 *   streams: ['depth:1', 'my-trades', 'balances'],
 * }
 * ```
 */
export interface RelayOptions extends VenueOptions {
  /** Where Redis is. */
  readonly redis: RelayRedis
  /** The streams to publish, by name (see {@link parseRelayStream}). */
  readonly streams: readonly string[]
  /** First part of every Redis key. Default `venue-rx`; consumers must use the same. */
  readonly prefix?: string
  /**
   * A standby takes a stream over at most this long after its relay died, ms. The lease in
   * Redis lasts three quarters of it and is renewed every quarter (two renewals may fail
   * before it runs out); a standby tries for it every tenth. Default 5,000.
   */
  readonly leaseMs?: number
  /**
   * Entries kept per Redis stream: once it holds a tenth more, the oldest are trimmed.
   * Default 10,000.
   */
  readonly maxLen?: number
  /** This relay's id in the leases. Default a random one. */
  readonly relayId?: string
}

/**
 * A running relay.
 *
 * @example
 * ```ts
 * import { startRelay } from 'venue-rx/relay'
 *
 * const relay = await startRelay({ baseUrl, apiKey, redis: 'redis://127.0.0.1:6379', streams: ['my-trades'] })
 * console.log(relay.status()) // { 'my-trades': 'active' } once it holds the lease
 * await relay.close()
 * ```
 */
export interface Relay {
  /** This relay's id in the leases. */
  readonly id: string
  /** Per stream name: `active` (this relay publishes it) or `standby`. */
  status(): Readonly<Record<string, 'active' | 'standby'>>
  /** The venue the relay polls through (its `health` shows the polled streams). */
  readonly venue: Venue
  /** Stops publishing, gives the leases up (a standby takes over at once) and closes. */
  close(): Promise<void>
}

const DEFAULT_LEASE_MS = 5_000
const DEFAULT_MAX_LEN = 10_000
/** A book's whole state is stored with its snapshots and every this many events. */
const BOOK_STATE_EVERY = 50

/**
 * Starts a relay: for each stream, it waits for the stream's lease in Redis, then polls the
 * venue once for the whole fleet and publishes each event to a Redis stream (XADD, trimmed
 * to about `maxLen` entries), fenced by the lease so that only one relay ever publishes a stream. A
 * standby relay takes a stream over when its lease runs out (its relay died) and goes on
 * from the last entry published: feeds lose and repeat nothing, books keep their `seq`
 * chain (a snapshot first). Consumers read the streams with `createVenue({ relay })`.
 *
 * @example
 * ```ts
 * import { startRelay } from 'venue-rx/relay'
 *
 * const relay = await startRelay({
 *   baseUrl: 'http://127.0.0.1:8787',
 *   apiKey: process.env.VENUE_API_KEY,
 *   redis: 'redis://127.0.0.1:6379',
 *   streams: ['depth:1', 'trades:1', 'my-trades', 'fills', 'balances'],
 * })
 * process.once('SIGTERM', () => void relay.close())
 * ```
 */
export async function startRelay(options: RelayOptions): Promise<Relay> {
  if (typeof options !== 'object' || options === null) {
    throw new VenueInputError('options', 'startRelay: options must be an object')
  }
  const { redis, streams, prefix, leaseMs, maxLen, relayId, ...venueOptions } = options
  const where = checkRedis('redis', redis)
  if (!Array.isArray(streams) || streams.length === 0) {
    throw new VenueInputError('streams', 'startRelay: streams must name at least one stream')
  }
  const parsed = streams.map(parseRelayStream)
  const names = parsed.map(relayStreamName)
  const twice = names.find((name, i) => names.indexOf(name) !== i)
  if (twice !== undefined) {
    throw new VenueInputError('streams', `startRelay: the stream ${twice} is named twice`)
  }
  const settings = {
    prefix: checkPrefix(prefix),
    leaseMs: positiveInteger('leaseMs', leaseMs, DEFAULT_LEASE_MS, 100),
    maxLen: positiveInteger('maxLen', maxLen, DEFAULT_MAX_LEN, 100),
    id: relayId === undefined ? randomBytes(8).toString('hex') : checkId(relayId),
  }
  const venue = createVenue(venueOptions)
  const scope = {
    prefix: settings.prefix,
    baseUrl: venue.settings.baseUrl,
    marketData: venue.settings.marketData,
    apiKey: venueOptions.apiKey,
  }
  // Keys first: an account stream without an API key is refused before anything starts.
  const keyed = parsed.map((stream) => ({ stream, keys: relayKeys(scope, stream) }))
  const connection = new SharedConnection(where)
  const publishers = keyed.map(
    ({ stream, keys }) => new StreamPublisher(stream, keys, venue, connection, settings),
  )
  for (const publisher of publishers) publisher.start()
  let closing: Promise<void> | undefined
  return {
    id: settings.id,
    venue,
    status: () =>
      Object.freeze(Object.fromEntries(publishers.map((p) => [p.name, p.state] as const))),
    close: () => {
      closing ??= (async () => {
        await Promise.all(publishers.map((publisher) => publisher.stop()))
        connection.close()
        await venue.close()
      })()
      return closing
    },
  }
}

/** One command connection for every publisher of a relay, made again when Redis is back. */
class SharedConnection {
  readonly #where: RelayRedis
  #client: Promise<Redis> | undefined
  #closed = false

  constructor(where: RelayRedis) {
    this.#where = where
  }

  get(): Promise<Redis> {
    if (this.#closed) return Promise.reject(new Error('the relay is closed'))
    this.#client ??= connectRedis(this.#where, 'venue-rx-relay').catch((error: unknown) => {
      this.#client = undefined
      throw error
    })
    return this.#client
  }

  close(): void {
    this.#closed = true
    void this.#client?.then((client) => client.disconnect()).catch(() => undefined)
  }
}

interface PublisherSettings {
  readonly leaseMs: number
  readonly maxLen: number
  readonly id: string
}

/** The last entry of a stream when a relay takes it over. */
interface Resume {
  readonly id: string
  readonly event: unknown
}

/** Publishes one stream while this relay holds its lease; waits as a standby otherwise. */
class StreamPublisher {
  readonly name: string
  state: 'active' | 'standby' = 'standby'
  readonly #stream: RelayStream
  readonly #keys: RelayKeys
  readonly #venue: Venue
  readonly #connection: SharedConnection
  readonly #settings: PublisherSettings
  #stopped = false
  #running: Promise<void> | undefined
  /** Ends the current session (lease lost, failure, stop). */
  #endSession: ((error?: unknown) => void) | undefined
  #wake: (() => void) | undefined
  /** Whether this relay took the lease last time it tried (it gives it up on stop). */
  #holding = false
  /** The publishes of the session, one after the other. */
  #publishing: Promise<unknown> = Promise.resolve()

  constructor(
    stream: RelayStream,
    keys: RelayKeys,
    venue: Venue,
    connection: SharedConnection,
    settings: PublisherSettings,
  ) {
    this.#stream = stream
    this.name = relayStreamName(stream)
    this.#keys = keys
    this.#venue = venue
    this.#connection = connection
    this.#settings = settings
  }

  start(): void {
    this.#running = this.#loop()
  }

  async stop(): Promise<void> {
    this.#stopped = true
    this.#wake?.()
    this.#endSession?.()
    await this.#running
    if (this.state === 'active' || this.#holding) {
      try {
        const redis = await this.#connection.get()
        await redis.eval(RELEASE, 1, this.#keys.lease, this.#settings.id)
      } catch {
        // Redis is away: the lease runs out by itself.
      }
    }
    this.state = 'standby'
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms)
      this.#wake = () => {
        clearTimeout(timer)
        resolve()
      }
    })
  }

  async #loop(): Promise<void> {
    const { leaseMs, id } = this.#settings
    let failures = 0
    while (!this.#stopped) {
      try {
        const redis = await this.#connection.get()
        const held = await redis.eval(ACQUIRE, 1, this.#keys.lease, id, leaseTtl(leaseMs))
        if (held !== 1) {
          this.#holding = false
          await this.#sleep(Math.max(10, Math.floor(leaseMs / 10)))
          continue
        }
        this.#holding = true
        failures = 0
        await this.#session(redis)
        // The lease was lost, or the stream ended: a pause before trying again.
        if (!this.#stopped) await this.#sleep(Math.max(10, Math.floor(leaseMs / 10)))
      } catch {
        if (this.#stopped) break
        failures += 1
        this.state = 'standby'
        await this.#sleep(Math.min(100 * 2 ** (failures - 1), 2_000, leaseMs))
      }
    }
  }

  /** Publishes while the lease holds; resolves when it is lost, rejects on a failure. */
  async #session(redis: Redis): Promise<void> {
    const { leaseMs, id } = this.#settings
    const resume = await lastEntry(redis, this.#keys.stream)
    // Candles: where the closed ones published so far end, to go on from there.
    const lastClosed =
      this.#stream.kind === 'klines' ? await lastClosedCandle(redis, this.#keys.stream) : undefined
    // Public trades: the last ones published, to tell apart what the first poll repeats.
    const published =
      this.#stream.kind === 'trades' ? await lastTrades(redis, this.#keys.stream) : []
    // The state the last relay left (what a late reader replays), to go on from.
    const state = resume === undefined ? undefined : await stateOf(redis, this.#keys.state)
    this.state = 'active'
    let subscription: Subscription | undefined
    let renewal: NodeJS.Timeout | undefined
    const ended = new Promise<void>((resolve, reject) => {
      this.#endSession = (error) => (error === undefined ? resolve() : reject(error))
    })
    try {
      renewal = setInterval(
        () => {
          redis.eval(ACQUIRE, 1, this.#keys.lease, id, leaseTtl(leaseMs)).then(
            (held) => {
              if (held !== 1) this.#endSession?.()
            },
            (error: unknown) => this.#endSession?.(error),
          )
        },
        Math.max(10, Math.floor(leaseMs / 4)),
      )
      const publish = (entryId: string, event: unknown, state: string): Promise<boolean> =>
        this.#publish(redis, entryId, event, state)
      subscription = this.#source({ resume, lastClosed, published, state }, publish).subscribe({
        error: (error: unknown) => this.#endSession?.(error),
        complete: () => this.#endSession?.(),
      })
      await ended
    } finally {
      clearInterval(renewal)
      subscription?.unsubscribe()
      this.#endSession = undefined
      // A publish still under way lands before the next session reads where to go on from.
      await this.#publishing.catch(() => undefined)
      this.#publishing = Promise.resolve()
      this.state = 'standby'
    }
  }

  /**
   * Open orders, going on from the open set the last relay left (`left`): a new poller's
   * first events call every open order `opened`; against that set, only the orders
   * opened or changed since are published, and each order that left it meanwhile is
   * looked up and published `closed` with how it ended. An order the venue does not
   * answer for is left out (it may never be reported closed).
   */
  #openOrders(
    left: readonly unknown[] | undefined,
    inOrder: (step: () => Promise<unknown>) => void,
    publish: (entryId: string, event: unknown, state: string) => Promise<boolean>,
  ): Observable<OpenOrderEvent> {
    const open = new Map<string, OpenOrder>()
    for (const event of (left ?? []) as OpenOrderEvent[]) open.set(event.order.id, event.order)
    const stateNow = () =>
      JSON.stringify([...open.values()].map((order) => ({ type: 'opened', order })))
    const send = (event: OpenOrderEvent) => {
      if (event.type === 'closed') open.delete(event.order.id)
      else open.set(event.order.id, event.order)
      const state = stateNow()
      inOrder(() => publish('*', event, state))
    }
    // The first poll's events, sorted out against `left` once they are all in.
    let first: OpenOrderEvent[] | undefined = left === undefined ? undefined : []
    const settle = async (events: readonly OpenOrderEvent[]) => {
      const listed = new Set(events.map((event) => event.order.id))
      for (const event of events) {
        const before = open.get(event.order.id)
        if (before === undefined) send(event)
        else if (JSON.stringify(before) !== JSON.stringify(event.order)) {
          send({ type: 'changed', order: event.order, previous: before })
        }
      }
      for (const [id, order] of [...open]) {
        if (listed.has(id)) continue
        try {
          const final = await this.#venue.rest.order(id)
          const status = orderOutcome(final)
          if (status !== undefined) send({ type: 'closed', order, status, final })
        } catch {
          // Not answered: left out (see above).
        }
      }
    }
    return this.#venue.watchOpenOrders().pipe(
      tap((event) => {
        if (first === undefined) {
          send(event)
          return
        }
        if (first.length === 0) {
          queueMicrotask(() => {
            const events = first ?? []
            first = undefined
            inOrder(() => settle(events))
          })
        }
        first.push(event)
      }),
    )
  }

  /**
   * Publishes an event (fenced by the lease). Resolves true when written or already there
   * (an explicit id at or before the last entry); false when the lease is lost, which
   * ends the session.
   */
  async #publish(redis: Redis, entryId: string, event: unknown, state: string): Promise<boolean> {
    const keys = this.#keys
    let result: unknown
    try {
      result = await redis.eval(
        PUBLISH,
        4,
        keys.stream,
        keys.state,
        keys.lease,
        keys.floor,
        this.#settings.id,
        entryId,
        this.#settings.maxLen,
        JSON.stringify(event),
        state,
      )
    } catch (error) {
      throw relayError(`relay: cannot publish ${this.name}`, error)
    }
    if (result === 'lost') {
      this.#endSession?.()
      return false
    }
    return true
  }

  /**
   * The venue stream of this relay's stream, published event by event in order. Each
   * publish finishes before the next starts (a feed's cursor moves only once its item is
   * in Redis).
   */
  #source(
    { resume, lastClosed, published, state: left }: Takeover,
    publish: (entryId: string, event: unknown, state: string) => Promise<boolean>,
  ): Observable<unknown> {
    const venue = this.#venue
    const stream = this.#stream
    const inOrder = (step: () => Promise<unknown>) => {
      this.#publishing = this.#publishing.then(step)
      this.#publishing.catch((error: unknown) => this.#endSession?.(error))
    }
    const tapEach = <T>(events: Observable<T>, onEvent: (event: T) => void): Observable<T> =>
      events.pipe(tap(onEvent))
    switch (stream.kind) {
      case 'depth': {
        // The chain of seq goes on from the last entry: the new poll starts with a snapshot.
        const offset = seqOf(resume?.event)
        let book: OrderBook | undefined
        let sinceState = 0
        return tapEach(venue.watchDepth(stream.poolId), (event: BookEvent) => {
          const shifted: BookEvent =
            event.type === 'snapshot'
              ? { ...event, seq: event.seq + offset, reason: offset > 0 ? 'resync' : event.reason }
              : { ...event, seq: event.seq + offset, prevSeq: event.prevSeq + offset }
          book = applyBookEvent(book, shifted)
          sinceState += 1
          let state = ''
          if (shifted.type === 'snapshot' || sinceState >= BOOK_STATE_EVERY) {
            sinceState = 0
            state = JSON.stringify([snapshotOf(book, shifted.timestamp)])
          }
          inOrder(() => publish('*', shifted, state))
        })
      }
      case 'trades': {
        // A new poller's first window holds trades published already: what follows the
        // last ones published is new (as between two polls), and no overlap is a gap.
        let firstWindow: PublicTrade[] | undefined = published.length === 0 ? undefined : []
        const poolId = stream.poolId
        return tapEach(venue.watchTrades(poolId), (event) => {
          if (firstWindow === undefined) {
            inOrder(() => publish('*', event, ''))
            return
          }
          // The first window's trades come in one go: they are sorted out after it.
          if (firstWindow.length === 0) {
            queueMicrotask(() => {
              const window = firstWindow ?? []
              firstWindow = undefined
              const { added, gap } = newInWindow(published, window, sameTrade)
              if (gap) {
                const since = published.at(-1)?.traded_at ?? 0
                const until = window[0]?.traded_at ?? since
                inOrder(() => publish('*', { type: 'gap', poolId, since, until }, ''))
              }
              for (const trade of added) inOrder(() => publish('*', { type: 'trade', trade }, ''))
            })
          }
          if (event.type === 'trade') firstWindow.push(event.trade)
        })
      }
      case 'klines': {
        // After a failover, every candle closed since the last one published is published
        // (`since` backfills them), and none twice.
        const options = lastClosed === undefined ? {} : { since: lastClosed + 1 }
        const candles = venue
          .watchKlines(stream.poolId, stream.interval, options)
          .pipe(
            filter(
              (event) =>
                event.type === 'update' ||
                lastClosed === undefined ||
                event.candle.timestamp > lastClosed,
            ),
          )
        // The open candle as the last relay left it is not published again.
        let leftOpen = left?.length === 1 ? JSON.stringify(left[0]) : undefined
        return tapEach(candles, (event) => {
          const text = JSON.stringify(event)
          if (text === leftOpen) return
          leftOpen = undefined
          const state = event.type === 'update' ? `[${text}]` : '[]'
          inOrder(() => publish('*', event, state))
        })
      }
      case 'pools': {
        // The list the last relay published is not published again.
        let last = JSON.stringify(left?.[0])
        return tapEach(venue.watchPools(), (pools) => {
          const text = JSON.stringify(pools)
          if (text === last) return
          last = text
          inOrder(() => publish('*', pools, `[${text}]`))
        })
      }
      case 'balances': {
        // Against the balances the last relay published: only what changed since (a new
        // poller's first update calls every coin added).
        let previous = (left?.[0] as { balances?: Balance[] } | undefined)?.balances
        return tapEach(venue.watchBalances(), ({ balances, changes }) => {
          const since = previous === undefined ? changes : balanceChanges(previous, balances)
          previous = undefined
          const late = {
            balances,
            changes: balances.map((current) => ({ type: 'added', coin: current.coin, current })),
          }
          if (since.length === 0) return
          inOrder(() => publish('*', { balances, changes: since }, JSON.stringify([late])))
        })
      }
      case 'open-orders':
        return this.#openOrders(left, inOrder, publish)
      case 'my-trades':
        return feed(resume, feedIds.cursorOf, feedIds.ofCursor, publish, (checkpoint) =>
          venue.watchMyTrades({ checkpoint }),
        )
      case 'transfers':
        return feed(resume, feedIds.cursorOf, feedIds.ofCursor, publish, (checkpoint) =>
          venue.watchTransfers({ checkpoint }),
        )
      case 'fills':
        return feed(resume, feedIds.fillCursorOf, feedIds.ofFillCursor, publish, (checkpoint) =>
          venue.watchFills({ checkpoint }),
        )
    }
  }
}

/**
 * A cursor feed published item by item: the feed's checkpoint starts it after the last
 * published entry, and its `save` (which the feed awaits before the next item) is the
 * publish of the item just delivered, under an id made from its cursor.
 */
function feed<T>(
  resume: Resume | undefined,
  cursorOfId: (id: string) => string,
  idOfCursor: (cursor: string) => string,
  publish: (entryId: string, event: unknown, state: string) => Promise<boolean>,
  watch: (checkpoint: Checkpoint<string>) => Observable<T>,
): Observable<T> {
  let pending: T | undefined
  const checkpoint: Checkpoint<string> = {
    load: () => (resume === undefined ? undefined : cursorOfId(resume.id)),
    save: async (cursor) => {
      const item = pending
      pending = undefined
      const kept = await publish(idOfCursor(cursor), item, '')
      if (!kept) throw new Error('the lease was lost')
    },
  }
  return watch(checkpoint).pipe(
    tap((item) => {
      pending = item
    }),
  )
}

/** How long the lease key lives: a standby trying every tenth of `leaseMs` is in time. */
const leaseTtl = (leaseMs: number) => Math.floor(leaseMs * 0.75)

/** The events of a stream's state (`<id> <JSON list>`), or undefined without one. */
async function stateOf(redis: Redis, key: string): Promise<unknown[] | undefined> {
  const state = await redis.get(key)
  if (state === null) return undefined
  const events = JSON.parse(state.slice(state.indexOf(' ') + 1)) as unknown
  return Array.isArray(events) ? events : undefined
}

/** What a relay knows of a stream it takes over, from the stream's last entries. */
interface Takeover {
  /** What a late reader would replay now (the last relay's view). */
  readonly state: readonly unknown[] | undefined
  readonly resume: Resume | undefined
  /** Start of the last closed candle published (klines). */
  readonly lastClosed: number | undefined
  /** The last public trades published, oldest first (trades). */
  readonly published: readonly PublicTrade[]
}

/** The public trades among the last 100 entries of `stream`, oldest first. */
async function lastTrades(redis: Redis, stream: string): Promise<PublicTrade[]> {
  const entries = await redis.xrevrange(stream, '+', '-', 'COUNT', 100)
  const trades: PublicTrade[] = []
  for (const [, fields] of entries) {
    const event = JSON.parse(fields[fields.indexOf('e') + 1] ?? 'null') as {
      type?: unknown
      trade?: PublicTrade
    } | null
    if (event?.type === 'trade' && event.trade !== undefined) trades.push(event.trade)
  }
  return trades.reverse()
}

/** The last entry of a stream, its event parsed; undefined when it has none. */
async function lastEntry(redis: Redis, stream: string): Promise<Resume | undefined> {
  const [entry] = await redis.xrevrange(stream, '+', '-', 'COUNT', 1)
  if (entry === undefined) return undefined
  const [id, fields] = entry
  const at = fields.indexOf('e')
  return { id, event: at === -1 ? undefined : JSON.parse(fields[at + 1] ?? 'null') }
}

/**
 * The start time of the last `closed` candle published to `stream` (looked for back from
 * the end, a few hundred entries at a time), or undefined when there is none.
 */
async function lastClosedCandle(redis: Redis, stream: string): Promise<number | undefined> {
  let end = '+'
  for (;;) {
    const entries = await redis.xrevrange(stream, end, '-', 'COUNT', 200)
    for (const [, fields] of entries) {
      const at = fields.indexOf('e')
      const event = JSON.parse(fields[at + 1] ?? 'null') as {
        type?: unknown
        candle?: { timestamp?: unknown }
      } | null
      const start = event?.candle?.timestamp
      if (event?.type === 'closed' && typeof start === 'number') return start
    }
    const oldest = entries.at(-1)
    if (entries.length < 200 || oldest === undefined) return undefined
    end = `(${oldest[0]}`
  }
}

/** The `seq` of a published book event, 0 when there is none. */
function seqOf(event: unknown): number {
  const seq = (event as { seq?: unknown } | undefined)?.seq
  return typeof seq === 'number' && Number.isSafeInteger(seq) ? seq : 0
}

/** A snapshot event of `book` as it stands (what a late reader starts from). */
function snapshotOf(book: OrderBook, timestamp: number): BookEvent {
  return {
    type: 'snapshot',
    poolId: book.poolId,
    seq: book.seq,
    timestamp,
    bids: book.bids,
    asks: book.asks,
    reason: 'initial',
  }
}

function checkPrefix(prefix: unknown): string {
  if (prefix === undefined) return DEFAULT_PREFIX
  if (typeof prefix !== 'string' || !/^[\w.-]{1,64}$/.test(prefix)) {
    throw new VenueInputError('prefix', 'startRelay: prefix must be 1-64 letters, digits, _ . -')
  }
  return prefix
}

function checkId(id: unknown): string {
  if (typeof id !== 'string' || !/^[\w.-]{1,64}$/.test(id)) {
    throw new VenueInputError('relayId', 'startRelay: relayId must be 1-64 letters, digits, _ . -')
  }
  return id
}

function positiveInteger(name: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new VenueInputError(name, `startRelay: ${name} must be an integer of at least ${min}`)
  }
  return value
}
