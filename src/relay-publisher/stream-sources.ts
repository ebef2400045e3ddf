/**
 * What a relay publishes for each kind of stream: the venue's events, each with the state
 * a late reader replays, and how a relay that takes a stream over goes on from what the
 * last one published (read by {@link takeoverOf}).
 */

import { filter, type Observable, tap } from 'rxjs'
import { applyBookEvent } from '../book/apply-book-event.js'
import type { BookEvent } from '../book/book-event.js'
import type { OrderBook } from '../book/order-book.js'
import type { RedisClient as Redis, RelayKeys } from '../redis/redis.js'
import type { RelayStream } from '../redis/stream-names.js'
import {
  type BalancesEntry,
  balancesEntry,
  balancesState,
} from '../relay-reader/balances-entries.js'
import type { OpenOrder } from '../schemas/order.js'
import type { PublicTrade } from '../schemas/public-trade.js'
import { relayedEntry } from '../streams/catalogue.js'
import type { FeedRelay, RelaySpec, RelayStyle } from '../streams/catalogue-entry.js'
import type { Checkpoint } from '../streams/checkpoint.js'
import {
  balanceChanges,
  type OpenOrderEvent,
  orderOutcome,
  type PollBatch,
  type PublicTradeEvent,
  type RelaySources,
  tradesAfter,
} from '../streams/relay-sources.js'
import type { BalancesUpdate } from '../streams/watch-balances.js'
import type { KlineEvent } from '../streams/watch-klines.js'
import type { Venue } from '../venue.js'

/** One event to publish. */
export interface Outgoing {
  /** Its entry id: `*` (Redis numbers it), or explicit (a cursor feed's item). */
  readonly id: string
  readonly event: unknown
  /** What a late reader replays after this event, `''` to keep the state as it is. */
  readonly state: string
}

/**
 * Writes events in order in one round trip (and the state of the last one that has one),
 * sent at once, after every publish sent before it, without waiting for their replies
 * (pipelined on the relay's connection). Resolves true once written, false when not
 * written: the lease was lost, or this publish or one before it failed (either ends the
 * session; the publisher reports the failure). Never rejects.
 */
export type Publish = (entries: readonly Outgoing[]) => Promise<boolean>

/** Runs a step after the ones before it. */
export type InOrder = (step: () => Promise<unknown>) => void

/** Events of one publish at most (a feed's backfill sends a page after the other). */
const BATCH_MAX = 500

/**
 * Publishes of one stream sent and not answered yet, at most: beyond them, what is sent
 * gathers in the next publish until one is answered.
 */
export const IN_FLIGHT_MAX = 8

/** What {@link batcher} gives a stream's source. */
interface Sender {
  /**
   * Sends an event: it joins the publish that is gathering, written after every publish
   * before it. Resolves true once written, false when it was not (the lease was lost, or
   * the publish failed: either ends the session).
   */
  send(id: string, event: unknown, state: string): Promise<boolean>
  /** Events sent and not written yet. */
  backlog(): number
}

/**
 * One publish (one round trip) per run of events: what is sent from one poll's events,
 * which arrive together, up to the moment its publish starts (after the ones before it)
 * is written together, in order, up to {@link BATCH_MAX} events. A publish starts without
 * waiting for the replies of those before it, unless {@link IN_FLIGHT_MAX} of them are
 * unanswered: then it waits for one, gathering what is sent meanwhile.
 */
function batcher(inOrder: InOrder, publish: Publish): Sender {
  let gathering: Outgoing[] | undefined
  let written: Promise<boolean> = Promise.resolve(true)
  let backlog = 0
  let inFlight = 0
  /** Resolves the step waiting for room among the publishes in flight. */
  let room: (() => void) | undefined
  const send = (id: string, event: unknown, state: string): Promise<boolean> => {
    if (gathering === undefined || gathering.length >= BATCH_MAX) {
      const entries: Outgoing[] = []
      gathering = entries
      let settle: (ok: boolean) => void = () => undefined
      written = new Promise<boolean>((resolve) => {
        settle = resolve
      })
      inOrder(async () => {
        // Closed once its turn came: what is sent from now on is the next publish.
        if (gathering === entries) gathering = undefined
        inFlight += 1
        void publish(entries).then((ok) => {
          inFlight -= 1
          backlog -= entries.length
          settle(ok)
          room?.()
        })
        // The next publish starts at once, unless too many are unanswered.
        if (inFlight >= IN_FLIGHT_MAX) {
          await new Promise<void>((resolve) => {
            room = resolve
          })
          room = undefined
        }
      })
    }
    gathering.push({ id, event, state })
    backlog += 1
    return written
  }
  return { send, backlog: () => backlog }
}

/** A book's whole state is stored with its snapshots and every this many events. */
const BOOK_STATE_EVERY = 50

/** The last entry of a stream when a relay takes it over. */
interface Resume {
  readonly id: string
  readonly event: unknown
}

/** What a relay taking `stream` over reads of what the last relay published. */
export async function takeoverOf(
  redis: Redis,
  stream: RelayStream,
  keys: RelayKeys,
): Promise<Takeover> {
  const { style } = relayedEntry(stream.kind).relay
  const resume = await lastEntry(redis, keys.stream)
  return {
    resume,
    lastClosed: style === 'candles' ? await lastClosedCandle(redis, keys.stream) : undefined,
    published: style === 'trades' ? await lastTrades(redis, keys.stream) : [],
    state: resume === undefined ? undefined : await stateOf(redis, keys.state),
  }
}

/**
 * The venue's events of `stream`, each published as it comes, in order, the events of one
 * poll together in one publish (through `inOrder`, each sent after the one before); on a
 * takeover, going on from what the last relay published. How depends on the stream's
 * style in the catalogue ({@link PUBLISHERS}). Public trades and open orders come from
 * `sources` (the venue's streams one batch per poll): their first poll, flagged `initial`,
 * is what is sorted out against the last relay's entries.
 */
export function streamSource(
  stream: RelayStream,
  venue: Venue,
  sources: RelaySources,
  takeover: Takeover,
  publish: Publish,
  inOrder: InOrder,
): Observable<unknown> {
  const { method, relay } = relayedEntry(stream.kind)
  const named = stream as Readonly<Record<string, unknown>>
  return PUBLISHERS[relay.style]({
    params: relay.params.map((param) => named[param]),
    watch: (...args) => (venue[method] as (...args: unknown[]) => Observable<unknown>)(...args),
    venue,
    sources,
    takeover,
    sender: batcher(inOrder, publish),
    inOrder,
    relay,
  })
}

/** What the publisher of one stream works with. */
interface Publishing {
  /** The arguments the stream's name holds (`[poolId, interval]`), the first of its method's. */
  readonly params: readonly unknown[]
  /** The stream's method on the venue (errors cleaned of the key as the venue's are). */
  readonly watch: (...args: unknown[]) => Observable<unknown>
  readonly venue: Venue
  readonly sources: RelaySources
  readonly takeover: Takeover
  readonly sender: Sender
  readonly inOrder: InOrder
  readonly relay: RelaySpec
}

/** Runs `onEvent` on each event of `events`. */
const tapEach = <T>(events: Observable<unknown>, onEvent: (event: T) => void): Observable<T> =>
  (events as Observable<T>).pipe(tap(onEvent))

/** How a relay publishes a stream, by its style (catalogue-entry.ts says what each is). */
const PUBLISHERS: { readonly [S in RelayStyle]: (publishing: Publishing) => Observable<unknown> } =
  {
    book: ({ params, watch, takeover: { resume }, sender: { send } }) => {
      // The chain of seq goes on from the last entry: the new poll starts with a snapshot.
      const offset = seqOf(resume?.event)
      let book: OrderBook | undefined
      let sinceState = 0
      return tapEach(watch(...params), (event: BookEvent) => {
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
        void send('*', shifted, state)
      })
    },
    trades: ({ params, sources, takeover: { published }, sender: { send } }) => {
      // A new poller's first window holds trades published already: what follows the
      // last ones published is new (as between two polls), and no overlap is a gap.
      const poolId = params[0] as number
      return tapEach(sources.trades(poolId), ({ initial, events }: PollBatch<PublicTradeEvent>) => {
        const fresh =
          initial && published.length > 0
            ? tradesAfter(published, tradesOf(events), poolId)
            : events
        for (const event of fresh) void send('*', event, '')
      })
    },
    candles: ({ params, watch, takeover: { lastClosed, state: left }, sender: { send } }) => {
      // After a failover, every candle closed since the last one published is published
      // (`since` backfills them), and none twice; with none closed yet, from the candle
      // the last relay left open (it may have closed since).
      const open =
        left?.length === 1
          ? (left[0] as { type?: unknown; candle?: { timestamp?: unknown } })
          : undefined
      const openedAt = open?.type === 'update' ? open.candle?.timestamp : undefined
      const since =
        lastClosed !== undefined
          ? lastClosed + 1
          : typeof openedAt === 'number'
            ? openedAt
            : undefined
      const options = since === undefined ? {} : { since }
      const candles = (watch(...params, options) as Observable<KlineEvent>).pipe(
        filter(
          (event) =>
            event.type === 'update' ||
            lastClosed === undefined ||
            event.candle.timestamp > lastClosed,
        ),
      )
      // The open candle as the last relay left it is not published again.
      let leftOpen = left?.length === 1 ? JSON.stringify(left[0]) : undefined
      return tapEach(candles, (event: KlineEvent) => {
        const text = JSON.stringify(event)
        if (text === leftOpen) return
        leftOpen = undefined
        const state = event.type === 'update' ? `[${text}]` : '[]'
        void send('*', event, state)
      })
    },
    latest: ({ params, watch, takeover: { state: left }, sender: { send } }) => {
      // The value the last relay published is not published again.
      let last = JSON.stringify(left?.[0])
      return tapEach(watch(...params), (value: unknown) => {
        const text = JSON.stringify(value)
        if (text === last) return
        last = text
        void send('*', value, `[${text}]`)
      })
    },
    balances: ({ params, watch, takeover: { state: left }, sender: { send } }) => {
      // Against the balances the last relay published: only what changed since (a new
      // poller's first update calls every coin added). Each entry holds the changes, the
      // state the whole list (balances-entries.ts).
      const leftState = left?.[0] as BalancesEntry | undefined
      let last = leftState?.balances
      let count = typeof leftState?.n === 'number' ? leftState.n : 0
      let first = true
      return tapEach(watch(...params), ({ balances, changes }: BalancesUpdate) => {
        const since = first && last !== undefined ? balanceChanges(last, balances) : changes
        first = false
        if (since.length === 0) return
        count += 1
        const entry = balancesEntry(count, last, balances, since)
        last = balances
        void send('*', entry, balancesState(count, balances))
      })
    },
    'open-orders': ({ venue, sources, takeover: { state: left }, inOrder, sender: { send } }) =>
      openOrdersSource(venue, sources, left, inOrder, send),
    feed: ({ params, watch, takeover: { resume }, sender, relay }) => {
      const { cursorOf, idOf } = (relay as FeedRelay).cursor
      return feed(resume, cursorOf, idOf, sender, (checkpoint) =>
        watch(...params, { checkpoint, order: 'ascending' }),
      )
    },
  }

/**
 * Open orders, going on from the open set the last relay left (`left`): a new poller's
 * first events call every open order `opened`; against that set, only the orders
 * opened or changed since are published, and each order that left it meanwhile is
 * looked up and published `closed` with how it ended. An order the venue does not
 * answer for is left out (it may never be reported closed).
 */
function openOrdersSource(
  venue: Venue,
  sources: RelaySources,
  left: readonly unknown[] | undefined,
  inOrder: InOrder,
  publish: Sender['send'],
): Observable<unknown> {
  const open = new Map<string, OpenOrder>()
  for (const event of (left ?? []) as OpenOrderEvent[]) open.set(event.order.id, event.order)
  const stateNow = () =>
    JSON.stringify([...open.values()].map((order) => ({ type: 'opened', order })))
  const send = (event: OpenOrderEvent) => {
    if (event.type === 'closed') open.delete(event.order.id)
    else open.set(event.order.id, event.order)
    void publish('*', event, stateNow())
  }
  // The first poll's events, sorted out against `left`.
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
        const final = await venue.rest.order(id)
        const status = orderOutcome(final)
        if (status !== undefined) send({ type: 'closed', order, status, final })
      } catch {
        // Not answered: left out (see above).
      }
    }
  }
  return sources.openOrders().pipe(
    tap(({ initial, events }) => {
      if (initial && left !== undefined) inOrder(() => settle(events))
      else for (const event of events) send(event)
    }),
  )
}

/**
 * A cursor feed published item by item, in cursor order (`order: 'ascending'`: a Redis
 * stream's ids only grow): the feed's checkpoint starts it after the last
 * published entry, and its `save` sends the item just delivered, under an id made from
 * its cursor. A page's items are sent together (one publish); the feed waits for Redis
 * only when {@link BATCH_MAX} items are not written yet. Its cursor may run ahead of
 * Redis meanwhile: if a publish fails or the lease is lost, the session ends, and the
 * next one starts after the last entry written.
 */
function feed(
  resume: Resume | undefined,
  cursorOfId: (id: string) => string,
  idOfCursor: (cursor: string) => string,
  sender: Sender,
  watch: (checkpoint: Checkpoint<string>) => Observable<unknown>,
): Observable<unknown> {
  let pending: unknown
  const checkpoint: Checkpoint<string> = {
    load: () => (resume === undefined ? undefined : cursorOfId(resume.id)),
    // In cursor order (a stream's ids only grow): the position is its cursor.
    save: ({ watermark }) => {
      const item = pending
      pending = undefined
      const written = sender.send(idOfCursor(watermark as string), item, '')
      if (sender.backlog() < BATCH_MAX) return
      return written.then((kept) => {
        if (!kept) throw new Error('the lease was lost')
      })
    },
  }
  return watch(checkpoint).pipe(
    tap((item) => {
      pending = item
    }),
  )
}

/** The trades among public trade events. */
function tradesOf(events: readonly PublicTradeEvent[]): PublicTrade[] {
  return events.flatMap((event) => (event.type === 'trade' ? [event.trade] : []))
}

/** The events of a stream's state (`<id> <JSON list>`), or undefined without one. */
async function stateOf(redis: Redis, key: string): Promise<unknown[] | undefined> {
  const state = await redis.get(key)
  if (state === null) return undefined
  const events = JSON.parse(state.slice(state.indexOf(' ') + 1)) as unknown
  return Array.isArray(events) ? events : undefined
}

/** What a relay knows of a stream it takes over, from the stream's last entries. */
export interface Takeover {
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
