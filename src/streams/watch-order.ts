import { asyncScheduler, Observable, type Subscription, timer } from 'rxjs'
import {
  addDecimal,
  compareDecimal,
  divideDecimal,
  isZeroDecimal,
  multiplyDecimal,
  subtractDecimal,
} from '../decimal.js'
import { VenueError } from '../errors/venue-error.js'
import { VenueInputError } from '../errors/venue-input-error.js'
import { VenueNotFoundError } from '../errors/venue-not-found-error.js'
import { VenueRateLimitError } from '../errors/venue-rate-limit-error.js'
import { VenueResponseError } from '../errors/venue-response-error.js'
import { VenueServerError } from '../errors/venue-server-error.js'
import { failArgument, orderSegment } from '../rest/index.js'
import type { OpenOrder, Order, OrderWithTrades } from '../schemas/order.js'
import { clampDelay } from '../timers.js'
import { sharedTail } from './cursor-feed.js'
import { chainAccount, type Fill, fillsOf } from './fills.js'
import { type OrderOutcome, orderOutcome } from './order-outcome.js'
import type { StreamContext } from './stream-context.js'
import { streamOptions } from './stream-options.js'
import { fillsSpec } from './watch-fills.js'
import { openOrdersState } from './watch-open-orders.js'

/**
 * Which order `watchOrder` follows: its composite id, its parts, or its client id.
 *
 * @example
 * ```ts
 * venue.watchOrder('0-25-0')                              // composite id
 * venue.watchOrder({ poolId: 0, orderId: '25', side: 0 }) // its parts
 * venue.watchOrder({ clientId: 'bot-1' })                 // client id
 * ```
 */
export type WatchOrderRef =
  | string
  | { readonly poolId: number; readonly orderId: string | number; readonly side: 0 | 1 }
  | { readonly clientId: string }

/**
 * Options of `watchOrder`.
 *
 * @example
 * ```ts
 * // a slow venue: wait up to 30 s for a new order to show before VenueNotFoundError
 * venue.watchOrder({ clientId: 'bot-1' }, { visibleWithinMs: 30_000 })
 * ```
 */
export interface WatchOrderOptions {
  /**
   * How long a fresh order the venue does not show yet (its 500 `service internal error`)
   * is asked for again before `VenueNotFoundError`, ms; default 10,000.
   */
  readonly visibleWithinMs?: number | undefined
}

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
  /** The venue's latest record of the order. */
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
 * What `watchOrder` emits.
 *
 * @example
 * ```ts
 * import type { OrderEvent } from 'venue-rx'
 *
 * venue.watchOrder('0-25-0').subscribe((event: OrderEvent) => {
 *   if (event.type === 'fill') console.log('fill', event.fill.quantity, '@', event.fill.price)
 *   else if (event.type === 'done') console.log(event.status, event.order.avgPrice) // 'filled' '1.04'
 * })
 * ```
 */
export type OrderEvent =
  | { readonly type: 'fill'; readonly fill: Fill; readonly order: OrderProgress }
  | { readonly type: 'update'; readonly order: OrderProgress }
  | { readonly type: 'done'; readonly status: OrderOutcome; readonly order: OrderProgress }

const METHOD = 'watchOrder'

/** How one order is asked for: by composite id, or by client id first. */
type Target = { readonly id: string } | { readonly clientId: string }

function target(ref: unknown): Target {
  if (typeof ref === 'object' && ref !== null && 'clientId' in ref) {
    streamOptions(METHOD, ref, ['clientId'])
    const clientId = (ref as { clientId: unknown }).clientId
    if (typeof clientId !== 'string' || clientId === '') {
      failArgument(METHOD, 'clientId', 'must be a non-empty string', clientId)
    }
    return { clientId }
  }
  try {
    return { id: orderSegment(ref as never) }
  } catch (error) {
    if (!(error instanceof VenueInputError)) throw error
    throw new VenueInputError(
      'ref',
      `${METHOD}: ref must be "{poolId}-{orderId}-{side}", { poolId, orderId, side } or { clientId }`,
    )
  }
}

/** Fields of an order that its fills change. */
const FILL_FIELDS = new Set(['executed_amount', 'avg_price'])

/** Whether `open` differs from `before` in a field of the open record a fill does not change. */
function changedBesideFills(before: OpenOrder | Order, open: OpenOrder): boolean {
  return Object.keys(open).some(
    (name) =>
      !FILL_FIELDS.has(name) &&
      JSON.stringify((before as Record<string, unknown>)[name]) !==
        JSON.stringify((open as Record<string, unknown>)[name]),
  )
}

/** The venue does not show the order (yet or at all): not found, or its ambiguous 500. */
const unseen = (error: unknown) =>
  error instanceof VenueNotFoundError || (error instanceof VenueServerError && error.ambiguous)

/**
 * One order's fills and end: `fill` once per fill in `global_seq` order, `update` when the
 * order changed without a fill, then `done` (`filled`, `canceled` or `rejected`) once every
 * fill is out (they add up to the order's executed amount), then completion. An order that
 * ended before the subscription replays its fills, then `done`.
 *
 * Every `watchOrder` of a venue shares one tail of the account's fills and one poll of the
 * open orders; each order costs one look-up at its start (two for a client id: the id
 * first) and, when it leaves the open set, the one the open-orders poll makes. A fresh
 * order the venue does not show yet is asked for again with the venue's backoff for
 * `visibleWithinMs`, then the stream fails with `VenueNotFoundError`.
 * Throws `VenueInputError` at once for a bad reference or option.
 */
export function watchOrder(
  context: StreamContext,
  ref: WatchOrderRef,
  options?: WatchOrderOptions,
): Observable<OrderEvent> {
  const wanted = target(ref)
  const given = streamOptions(METHOD, options, ['visibleWithinMs'])
  const visibleWithinMs = given['visibleWithinMs'] ?? 10_000
  if (
    typeof visibleWithinMs !== 'number' ||
    !Number.isSafeInteger(visibleWithinMs) ||
    visibleWithinMs < 0
  ) {
    failArgument(
      METHOD,
      'visibleWithinMs',
      'must be a whole number of ms, 0 or more',
      visibleWithinMs,
    )
  }
  const tail = sharedTail(context, fillsSpec(context, undefined))
  return new Observable<OrderEvent>((subscriber) => {
    const rest = context.rest(`${METHOD}#lookups`)
    const abort = new AbortController()
    const subscriptions: Subscription[] = []
    const queued: Fill[] = []
    let joined = false
    let id: string | undefined
    let record: OpenOrder | Order | undefined
    let ending: { status: OrderOutcome; final: OrderWithTrades } | undefined
    const seqs = new Set<string>()
    let filled = '0'
    let notional = '0'
    let absentPolls = 0
    let asking = false

    const progress = (): OrderProgress => {
      const current = record as OpenOrder | Order
      const remaining = subtractDecimal(current.order_amount, filled)
      return {
        id: id as string,
        record: current,
        filled,
        remaining: compareDecimal(remaining, '0') < 0 ? '0' : remaining,
        avgPrice: isZeroDecimal(filled) ? '0' : divideDecimal(notional, filled, 18),
      }
    }
    const mine = (fill: Fill) => {
      const [pool, order, side] = (id ?? (wanted as { id: string }).id).split('-')
      return (
        String(fill.poolId) === pool &&
        fill.orderId === order &&
        (fill.side === 'buy' ? '0' : '1') === side
      )
    }
    const emitFill = (fill: Fill) => {
      if (!mine(fill) || seqs.has(fill.globalSeq)) return
      seqs.add(fill.globalSeq)
      filled = addDecimal(filled, fill.quantity)
      notional = addDecimal(notional, multiplyDecimal(fill.price, fill.quantity))
      subscriber.next({ type: 'fill', fill, order: progress() })
    }
    /** Emits the fills of a record's trades not emitted yet, ascending. */
    const emitTrades = async (order: OrderWithTrades) => {
      const account = await lookUp(() => chainAccount(context, rest))
      for (const trade of order.trades) for (const fill of fillsOf(trade, account)) emitFill(fill)
    }
    const end = async (final: OrderWithTrades, status: OrderOutcome) => {
      if (ending !== undefined) return
      ending = { status, final }
      for (const fill of queued.splice(0)) emitFill(fill)
      await emitTrades(final)
      if (compareDecimal(filled, final.executed_amount) < 0) {
        subscriber.error(
          new VenueResponseError(
            'schema',
            `${METHOD}: the fills of order ${id} add up to ${filled}, its executed amount is ${final.executed_amount}`,
            { status: 200 },
          ),
        )
        return
      }
      record = final
      subscriber.next({ type: 'done', status, order: progress() })
      subscriber.complete()
    }

    /** Asks for the order until the venue shows it, for `visibleWithinMs` at most. */
    const lookUp = async <R = OrderWithTrades>(ask?: () => Promise<R>): Promise<R> => {
      const started = (context.scheduler ?? asyncScheduler).now()
      for (let attempt = 1; ; attempt += 1) {
        try {
          if (ask !== undefined) return await ask()
          if (id === undefined && 'clientId' in wanted) {
            id = (await rest.orderByClientId(wanted.clientId, { signal: abort.signal })).id
          }
          return (await rest.order(id ?? (wanted as { id: string }).id, {
            signal: abort.signal,
          })) as R
        } catch (error) {
          const waited = (context.scheduler ?? asyncScheduler).now() - started
          // Transport trouble (network, timeout, 5xx, 429) is retried like every stream's.
          const transient = !unseen(error) && error instanceof VenueError && error.retryable
          if (!transient && (!unseen(error) || waited >= visibleWithinMs)) {
            if (unseen(error)) {
              throw new VenueNotFoundError(
                `${METHOD}: the venue did not show the order within ${visibleWithinMs} ms`,
                { status: 500, cause: error },
              )
            }
            throw error
          }
          const { initialMs, maxMs, factor } = context.backoff
          const retryAfter = error instanceof VenueRateLimitError ? (error.retryAfterMs ?? 0) : 0
          const backoff = Math.min(maxMs, initialMs * factor ** (attempt - 1))
          const delay = clampDelay(
            transient ? Math.max(backoff, retryAfter) : Math.min(backoff, visibleWithinMs - waited),
          )
          await new Promise<void>((resolve) => {
            subscriptions.push(
              timer(delay, context.scheduler ?? undefined).subscribe(() => resolve()),
            )
          })
        }
      }
    }

    const start = async () => {
      const snapshot = await lookUp()
      id = snapshot.id
      record = snapshot
      await emitTrades(snapshot)
      const status = orderOutcome(snapshot)
      if (status !== undefined) {
        await end(snapshot, status)
        return
      }
      joined = true
      for (const fill of queued.splice(0)) emitFill(fill)
      subscriptions.push(
        openOrdersState(context).subscribe({
          next: (state) => {
            if (ending !== undefined) return
            const open = state.orders.find((order) => order.id === id)
            if (open !== undefined) {
              absentPolls = 0
              const before = record
              record = open
              // A change the fills explain (executed amount, average price) is no update.
              if (before !== undefined && changedBesideFills(before, open)) {
                subscriber.next({ type: 'update', order: progress() })
              }
              return
            }
            const ended = state.endings.find((each) => each.id === id)
            if (ended !== undefined) {
              void end(ended.final, ended.status).catch((error: unknown) => subscriber.error(error))
            } else if (!asking && (++absentPolls === 1 || absentPolls % 5 === 0)) {
              // Not in the list and not ended there: it ended before the shared poll saw it
              // open, or the list missed it. Ask (on the first such poll, then every fifth).
              asking = true
              void lookUp()
                .then(async (final) => {
                  asking = false
                  const outcome = orderOutcome(final)
                  if (outcome !== undefined) await end(final, outcome)
                })
                .catch((error: unknown) => subscriber.error(error))
            }
          },
          error: (error: unknown) => subscriber.error(error),
          complete: () => subscriber.complete(),
        }),
      )
    }

    // Listen to the fills first, so that none between the look-up and the tail is missed:
    // the look-up happens once the tail knows where it starts.
    // Only this order's fills are held (by id, or by client id until the id is known).
    const relevant = (fill: Fill) =>
      id !== undefined
        ? mine(fill)
        : 'clientId' in wanted
          ? fill.clientId === wanted.clientId
          : true
    let started = false
    subscriptions.push(
      tail.subscribe({
        next: (event) => {
          if (!started) {
            started = true
            start().catch((error: unknown) => subscriber.error(error))
          }
          if (event.type !== 'item' || ending !== undefined || !relevant(event.item)) return
          if (joined) emitFill(event.item)
          else queued.push(event.item)
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      }),
    )
    return () => {
      abort.abort()
      for (const subscription of subscriptions) subscription.unsubscribe()
    }
  })
}
