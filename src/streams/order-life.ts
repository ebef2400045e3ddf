/**
 * The life of one order as `watchOrder` follows it, as a pure reducer: what the venue
 * showed goes in (fills, polls of the open list, look-ups, the clock), the next state and
 * the events to emit come out, with what to do next (look the order up, wake at a time,
 * complete). No I/O and no timers here: `watch-order.ts` does those.
 *
 * @packageDocumentation
 */
import {
  addDecimal,
  compareDecimal,
  compareIds,
  divideDecimal,
  isZeroDecimal,
  multiplyDecimal,
  subtractDecimal,
} from '../decimal.js'
import type { OpenOrder, Order } from '../schemas/order.js'
import type { Fill } from './fills.js'
import { type OrderOutcome, orderOutcome } from './order-outcome.js'

/**
 * How an order ended as venue-rx reports it: the venue's outcome, or `'unknown'` for an
 * order that left the open list and that the venue no longer answers for (venues purge
 * canceled orders that never filled).
 *
 * @example
 * ```ts
 * import type { OrderEndStatus } from 'venue-rx'
 *
 * venue.watchOrder('0-25-0').subscribe((event) => {
 *   if (event.type !== 'done') return
 *   const status: OrderEndStatus = event.status // 'filled', 'canceled', 'rejected' or 'unknown'
 *   if (status === 'unknown') console.warn(event.order.id, 'gone from the venue; last seen', event.order.record)
 * })
 * ```
 */
export type OrderEndStatus = OrderOutcome | 'unknown'

/**
 * An order as `watchOrder` follows it: the venue's record and exact progress.
 *
 * @example
 * ```ts
 * import type { OrderProgress } from 'venue-rx'
 *
 * venue.watchOrder({ clientId: 'bot-1' }).subscribe((event) => {
 *   const progress: OrderProgress = event.order
 *   console.log(progress.id, progress.filled, progress.remaining, progress.avgPrice)
 *   // '0-25-0' '20' '30' '1.04'
 * })
 * ```
 */
export interface OrderProgress {
  /** Composite id `{pool_id}-{order_id}-{side}`. */
  readonly id: string
  /** The venue's latest record of the order (for `status: 'unknown'`, the last one seen). */
  readonly record: OpenOrder | Order
  /** Base quantity filled so far: the sum of the fills emitted, exact. */
  readonly filled: string
  /** `order_amount - filled`, exact (never below 0). */
  readonly remaining: string
  /**
   * Σ price × quantity / Σ quantity over the fills, rounded half to even at 18 decimals
   * (exact whenever it has no more); `'0'` before the first fill.
   */
  readonly avgPrice: string
}

/**
 * What `watchOrder` emits: each fill once, `update` when the order changed without a fill,
 * then one `done`.
 *
 * The fills come in `global_seq` order; one the venue showed only after a later fill of the
 * order had been emitted comes when it shows, with `fill.late: true` (only such a fill
 * carries the mark).
 *
 * `done` says how the order ended (`status`), and whether the fills emitted add up to the
 * executed amount of its final record (`reconciled`); when the venue did not show them all
 * within the fill grace period, `reconciled` is false and `missing` is the base quantity
 * not accounted for (`'0'` when reconciled).
 *
 * @example
 * ```ts
 * import type { OrderEvent } from 'venue-rx'
 *
 * venue.watchOrder('0-25-0').subscribe((event: OrderEvent) => {
 *   if (event.type === 'fill') console.log('fill', event.fill.quantity, '@', event.fill.price)
 *   else if (event.type === 'done') {
 *     console.log(event.status, event.order.avgPrice) // 'filled' '1.04'
 *     if (!event.reconciled) console.warn('fills missing:', event.missing)
 *   }
 * })
 * ```
 */
export type OrderEvent =
  | { readonly type: 'fill'; readonly fill: Fill; readonly order: OrderProgress }
  | { readonly type: 'update'; readonly order: OrderProgress }
  | {
      readonly type: 'done'
      readonly status: OrderEndStatus
      readonly order: OrderProgress
      /** Whether the fills emitted add up to the final record's executed amount. */
      readonly reconciled: boolean
      /** Executed amount not covered by the fills emitted; `'0'` when reconciled. */
      readonly missing: string
    }

/** Settings of an order's life. */
export interface OrderLifeSettings {
  /** Look-ups the venue does not answer (404, ambiguous 500) before the end is `unknown`. */
  readonly lookups: number
  /** Polls between two look-ups of an order missing from the open list. */
  readonly recheckPolls: number
  /** How long an ended order waits for its fills to add up, ms. */
  readonly fillGraceMs: number
  /**
   * Polls an order whose fills reach its amount may stay listed before it is asked for:
   * `0` (default) asks at once (a list that lags is not waited for); a source whose list
   * closes each order it listed (a relay's) is given a few polls to close it first.
   */
  readonly fullAskPolls?: number | undefined
  /**
   * Whether an ended order waiting for its fills is asked for every few polls (its trades,
   * in case the fills feed lags). Default true; false when the fills feed brings every fill
   * in order (a relay's).
   */
  readonly askWhileEnding?: boolean | undefined
}

/** Where an order is in its life. */
export interface OrderLife {
  readonly id: string
  readonly record: OpenOrder | Order
  /** `global_seq`s of the fills emitted (one order has one fill per trade). */
  readonly seqs: ReadonlySet<string>
  /** The greatest `global_seq` emitted; a fill below it is emitted marked `late`. */
  readonly newest: string | undefined
  readonly filled: string
  readonly notional: string
  /** `working` until the venue shows an end; `ending` while its fills are awaited; `done`. */
  readonly phase: 'working' | 'ending' | 'done'
  /** The end the venue showed, and until when its fills are awaited (ms). */
  readonly ending:
    | {
        readonly status: OrderEndStatus
        readonly record: OpenOrder | Order
        readonly until: number
      }
    | undefined
  /** A look-up is under way. */
  readonly asking: boolean
  /** Poll number when the last look-up was asked for; `undefined` while the list shows it. */
  readonly askedAt: number | undefined
  /** Whether the fills reaching the order amount already asked for a look-up. */
  readonly askedWhenFull: boolean
  /** Poll number when the fills reached the order amount while it was working. */
  readonly fullAt: number | undefined
  /** Look-ups in a row the venue did not answer. */
  readonly misses: number
  /** The number of the latest poll seen (0 before the first). */
  readonly poll: number
}

/** What happened to the order (or to time). */
export type OrderInput =
  /** Fills of this order (from the account's fills feed, or a look-up's trades). */
  | { readonly type: 'fills'; readonly fills: readonly Fill[] }
  /**
   * One poll of the open orders: the order as listed (`open`), or how it ended when the
   * shared poll looked it up (`end`, with the fills of its trades), or neither.
   */
  | {
      readonly type: 'poll'
      readonly poll: number
      readonly now: number
      readonly open?: OpenOrder | undefined
      readonly end?:
        | {
            readonly status: OrderEndStatus
            readonly record: OpenOrder | Order
            readonly fills: readonly Fill[]
          }
        | undefined
    }
  /**
   * An ask answered: the order's record and the fills of its trades (from its look-up), or
   * its ended record from a shared page of ended orders (no fills: the fills tail brings
   * them).
   */
  | {
      readonly type: 'answer'
      readonly record: Order
      readonly fills: readonly Fill[]
      readonly now: number
    }
  /** A look-up the venue did not answer for the order (404, or its ambiguous 500). */
  | { readonly type: 'unanswered'; readonly now: number }
  /** The clock passed a time asked for with `wakeAt`. */
  | { readonly type: 'time'; readonly now: number }

/** The reducer's answer: the next state, what to emit, and what to do next. */
export interface OrderStep {
  readonly life: OrderLife
  readonly events: readonly OrderEvent[]
  /**
   * Ask for the order now: its ended record from fresh shared pages of ended orders when
   * they show it (every order asking in the same turn shares them), else its look-up (its
   * record and trades).
   */
  readonly ask: boolean
  /** Wake the reducer with a `time` input at this time (ms), if set. */
  readonly wakeAt: number | undefined
  /** The stream is over: complete after emitting `events`. */
  readonly complete: boolean
}

/**
 * The first step of an order found working or ended: its record, and the fills known so
 * far (a look-up's trades; none for an order found in a list without fills).
 *
 * @example
 * ```ts
 * const first = startOrder(record, fills, { lookups: 5, recheckPolls: 2, fillGraceMs: 10_000 }, now)
 * first.events // a fill event per fill (ascending), then done if the record is final
 * ```
 */
export function startOrder(
  record: OpenOrder | Order,
  fills: readonly Fill[],
  settings: OrderLifeSettings,
  now: number,
): OrderStep {
  const life: OrderLife = {
    id: record.id,
    record,
    seqs: new Set(),
    newest: undefined,
    filled: '0',
    notional: '0',
    phase: 'working',
    ending: undefined,
    asking: false,
    askedAt: undefined,
    askedWhenFull: false,
    fullAt: undefined,
    misses: 0,
    poll: 0,
  }
  return stepOrder(life, { type: 'answer', record: record as Order, fills, now }, settings)
}

/**
 * The reducer: the order's next state and emissions for one input.
 *
 * @example
 * ```ts
 * let step = startOrder(record, [], settings, now)
 * step = stepOrder(step.life, { type: 'fills', fills: [fill] }, settings)
 * step.events // [{ type: 'fill', fill, order: { filled: fill.quantity, ... } }]
 * ```
 */
export function stepOrder(
  life: OrderLife,
  input: OrderInput,
  settings: OrderLifeSettings,
): OrderStep {
  const out = new Emitter(life, settings)
  if (life.phase !== 'done') out.apply(input)
  return out.step()
}

/** One step under way: the state as it changes, and what it emits. */
class Emitter {
  #life: OrderLife
  readonly #settings: OrderLifeSettings
  readonly #events: OrderEvent[] = []
  #ask = false
  #wakeAt: number | undefined
  #complete = false

  constructor(life: OrderLife, settings: OrderLifeSettings) {
    this.#life = life
    this.#settings = settings
  }

  step(): OrderStep {
    return {
      life: this.#life,
      events: this.#events,
      ask: this.#ask,
      wakeAt: this.#wakeAt,
      complete: this.#complete,
    }
  }

  apply(input: OrderInput): void {
    switch (input.type) {
      case 'fills':
        this.#fills(input.fills)
        this.#afterFills()
        return
      case 'answer':
        this.#set({ asking: false })
        this.#fills(input.fills)
        this.#answer(input.record, input.now)
        return
      case 'unanswered':
        this.#unanswered(input.now)
        return
      case 'poll':
        this.#poll(input)
        return
      case 'time':
        this.#checkDeadline(input.now)
        return
    }
  }

  #set(change: Partial<OrderLife>): void {
    this.#life = { ...this.#life, ...change }
  }

  /**
   * Emits the fills not emitted yet, ascending by `global_seq`; one below a fill emitted
   * before (the venue showed it late) is marked `late: true`, and only such a one.
   */
  #fills(fills: readonly Fill[]): void {
    const fresh = fills.filter((fill) => !this.#life.seqs.has(fill.globalSeq))
    if (fresh.length === 0) return
    fresh.sort((a, b) => compareIds(a.globalSeq, b.globalSeq))
    const seqs = new Set(this.#life.seqs)
    for (const fill of fresh) {
      if (seqs.has(fill.globalSeq)) continue
      seqs.add(fill.globalSeq)
      const { newest } = this.#life
      const late = newest !== undefined && compareIds(fill.globalSeq, newest) < 0
      this.#set({
        seqs,
        newest: late ? newest : fill.globalSeq,
        filled: addDecimal(this.#life.filled, fill.quantity),
        notional: addDecimal(this.#life.notional, multiplyDecimal(fill.price, fill.quantity)),
      })
      this.#events.push({ type: 'fill', fill: lateIf(fill, late), order: this.#progress() })
    }
  }

  /**
   * After new fills or a listed record: an ending may now add up; a working order filled in
   * full is asked for (at once, or after `fullAskPolls` polls still listed).
   */
  #afterFills(): void {
    const life = this.#life
    if (life.phase === 'ending') {
      this.#reconcile()
      return
    }
    if (
      life.phase !== 'working' ||
      life.askedWhenFull ||
      compareDecimal(life.filled, life.record.order_amount) < 0
    ) {
      return
    }
    const fullAt = life.fullAt ?? life.poll
    if (life.fullAt === undefined) this.#set({ fullAt })
    if (life.poll - fullAt < (this.#settings.fullAskPolls ?? 0)) return
    this.#set({ askedWhenFull: true })
    this.#askNow(life.askedAt)
  }

  /** A look-up's record: an end, or the order still working (the list may have missed it). */
  #answer(record: Order, now: number): void {
    const status = orderOutcome(record as Order)
    const life = this.#life
    if (status !== undefined) {
      if (life.phase === 'working') this.#end(status, record, now)
      else if (life.ending !== undefined) {
        this.#set({ ending: { ...life.ending, record } })
        this.#reconcile()
      }
      return
    }
    this.#set({ misses: 0 })
    if (life.phase === 'working') this.#record(record)
    this.#afterFills()
  }

  /** The venue did not answer a look-up: after `lookups` in a row, the end is unknown. */
  #unanswered(now: number): void {
    const misses = this.#life.misses + 1
    this.#set({ asking: false, misses })
    if (this.#life.phase === 'working' && misses >= this.#settings.lookups) {
      this.#end('unknown', this.#life.record, now)
    }
  }

  #poll(input: Extract<OrderInput, { type: 'poll' }>): void {
    this.#set({ poll: input.poll })
    const life = this.#life
    if (input.end !== undefined) {
      this.#fills(input.end.fills)
      if (life.phase === 'working') this.#end(input.end.status, input.end.record, input.now)
      else this.#reconcile()
      return
    }
    if (input.open !== undefined && life.phase === 'working') {
      this.#set({ askedAt: undefined, misses: 0 })
      this.#record(input.open)
      this.#afterFills()
      return
    }
    // Not listed and no end known: asked on this order's own clock, every few polls
    // (on the first such poll at once), also while an end waits for its fills (unless the
    // fills feed brings them all).
    const asks = this.#life.phase === 'working' || (this.#settings.askWhileEnding ?? true)
    if (asks && !this.#life.asking) {
      const asked = this.#life.askedAt
      if (asked === undefined || input.poll - asked >= this.#settings.recheckPolls) {
        this.#askNow(input.poll)
      }
    }
    this.#checkDeadline(input.now)
  }

  #askNow(poll: number | undefined): void {
    if (this.#life.asking) return
    this.#set({ asking: true, askedAt: poll ?? this.#life.poll })
    this.#ask = true
  }

  /** A newer working record: `update` when it changed beyond what its fills explain. */
  #record(record: OpenOrder | Order): void {
    const before = this.#life.record
    this.#set({ record })
    if (changedBesideFills(before, record)) {
      this.#events.push({ type: 'update', order: this.#progress() })
    }
  }

  /** The venue showed the order's end: `done` once its fills add up, or the grace is over. */
  #end(status: OrderEndStatus, record: OpenOrder | Order, now: number): void {
    this.#set({
      phase: 'ending',
      ending: { status, record, until: now + this.#settings.fillGraceMs },
      // The end was just read: the next look-up (for late trades) is a full period away.
      askedAt: this.#life.poll,
    })
    this.#reconcile()
    if (this.#life.phase === 'ending') {
      this.#wakeAt = this.#life.ending?.until
      this.#checkDeadline(now)
    }
  }

  #reconcile(): void {
    const ending = this.#life.ending
    if (ending === undefined || this.#life.phase !== 'ending') return
    if (compareDecimal(this.#life.filled, ending.record.executed_amount) >= 0) this.#done(true)
  }

  #checkDeadline(now: number): void {
    const ending = this.#life.ending
    if (this.#life.phase === 'ending' && ending !== undefined && now >= ending.until) {
      this.#done(false)
    }
  }

  #done(reconciled: boolean): void {
    const ending = this.#life.ending
    if (ending === undefined) return
    this.#set({ phase: 'done', record: ending.record })
    const missing = subtractDecimal(ending.record.executed_amount, this.#life.filled)
    this.#events.push({
      type: 'done',
      status: ending.status,
      order: this.#progress(),
      reconciled,
      missing: reconciled || compareDecimal(missing, '0') <= 0 ? '0' : missing,
    })
    this.#complete = true
    this.#ask = false
    this.#wakeAt = undefined
  }

  #progress(): OrderProgress {
    const { id, record, filled, notional } = this.#life
    const remaining = subtractDecimal(record.order_amount, filled)
    return {
      id,
      record,
      filled,
      remaining: compareDecimal(remaining, '0') < 0 ? '0' : remaining,
      avgPrice: isZeroDecimal(filled) ? '0' : divideDecimal(notional, filled, 18),
    }
  }
}

/**
 * `fill` marked `late: true` when `late`, else without the mark: in an order's stream a
 * fill is late only against the order's own fills (the account's fills feed may have
 * marked it late against another order's).
 */
function lateIf(fill: Fill, late: boolean): Fill {
  if (late) return fill.late === true ? fill : { ...fill, late: true }
  if (fill.late === undefined) return fill
  const { late: _mark, ...inOrder } = fill
  return inOrder
}

/** Fields of an order that its fills change. */
const FILL_FIELDS = new Set(['executed_amount', 'avg_price', 'filled_total', 'status'])

/**
 * Whether `after` differs from `before` in a field both records have that a fill does not
 * change (an open record lacks the history-only fields: those are not compared).
 */
function changedBesideFills(before: OpenOrder | Order, after: OpenOrder | Order): boolean {
  const a = before as Record<string, unknown>
  const b = after as Record<string, unknown>
  return Object.keys(b).some(
    (name) =>
      !FILL_FIELDS.has(name) && name in a && JSON.stringify(a[name]) !== JSON.stringify(b[name]),
  )
}
