/**
 * What one `watchOrder` subscription asks the venue, as observables: each request retried
 * with the venue's backoff (each retry reported `retrying` under the subscription's key,
 * each answer `ok`), aborted when unsubscribed. The state machine (order-watch.ts) says
 * when; these say how: the requests that find an order the feeds did not show
 * ({@link FindPlan}), an ask of the order's life, the venue's clock.
 *
 * @packageDocumentation
 */
import {
  catchError,
  defer,
  EMPTY,
  expand,
  map,
  type Observable,
  of,
  reduce,
  switchMap,
  tap,
} from 'rxjs'
import { fromRequest } from '../core/from-request.js'
import { type RetryBackoffOptions, retryBackoff } from '../core/retry-backoff.js'
import { compareDecimal, compareIds } from '../decimal.js'
import { VenueError } from '../errors/venue-error.js'
import { VenueNotFoundError } from '../errors/venue-not-found-error.js'
import type { VenueServerError } from '../errors/venue-server-error.js'
import type { OpenOrder, Order, OrderWithTrades } from '../schemas/order.js'
import { chainAccount, type Fill, fillsOf } from './fills.js'
import { addUpTo, isOrderFill, listsAll, liveFills, recordFills } from './order-fills.js'
import { isUnseen } from './order-unseen.js'
import { type FindPlan, isWanted, type Wanted, type WatchInput } from './order-watch.js'
import { recentFills } from './recent-fills.js'
import { endedInPages, findEnded } from './recent-orders.js'
import type { StreamContext } from './stream-context.js'
import { venueNow } from './venue-clock.js'

/** How far back a young order's fills are read at the start (ms of the venue's clock). */
export const RECENT_MS = 60_000

/** The venue's largest page of trades. */
const TRADES_PAGE = 100

/**
 * Transport trouble of a list or account request (`/trades`, `/history-orders`,
 * `/open-orders`, `/info`, `/ping`), retried like every stream's: a 5xx, the ambiguous 500
 * `service internal error` included (it means "not shown" only for one order's look-up).
 */
const transient = (error: unknown) => error instanceof VenueError && error.retryable

/**
 * Transport trouble of one order's look-up (`/orders/{id}`, `/orders/client-id/{cid}`):
 * as {@link transient}, but the ambiguous 500 says the venue does not show the order
 * ({@link isUnseen}), which the order's life counts, not the backoff.
 */
const transientLookUp = (error: unknown) => !isUnseen(error) && transient(error)

/** Whose requests: the method (errors name it), the health key, how long "not shown" lasts. */
export interface RequestsOf {
  /** The method's name: errors start with it; its requests go in its `#lookups` lane. */
  readonly method: string
  /** The subscription's health key: its retries are reported `retrying` there. */
  readonly key: string
  /** How long a fresh order the venue does not show yet is asked for, ms. */
  readonly visibleWithinMs: number
}

/** The requests of one subscription. */
export interface OrderRequests {
  /** The venue's clock now (epoch ms), asked once per venue. */
  venueNow(): Observable<number>
  /** Runs a plan of the `finding` phase: one `found` input, or the stream's error. */
  find(plan: FindPlan, whole: boolean): Observable<WatchInput>
  /**
   * One ask of the order's life: its ended record from fresh shared pages of ended orders
   * (every order asking in the same turn shares them; no fills: the feeds bring them), else
   * its look-up (`answer` with its record and trades, or `unanswered`).
   */
  ask(id: string, account: string | undefined): Observable<WatchInput>
}

/**
 * The requests of the subscription reported under health key `key`; a fresh order the
 * venue does not show yet is asked for `visibleWithinMs` before `VenueNotFoundError`
 * (its message starts with `method`).
 *
 * @example
 * ```ts
 * const requests = orderRequests(context, { method, key, visibleWithinMs: 10_000 })
 * requests.find({ type: 'look-up', id: '0-25-0' }, false) // { type: 'found', record, fills, ... }
 * ```
 */
export function orderRequests(
  context: StreamContext,
  { method, key, visibleWithinMs }: RequestsOf,
): OrderRequests {
  const rest = context.rest(`${method}#lookups`)
  const { health } = context
  const now = () => context.scheduler.now()

  /** The venue's backoff on its scheduler, for the errors `isRetryable` takes. */
  const backoff = (
    settings: Pick<RetryBackoffOptions, 'isRetryable' | 'waitAtMostMs' | 'onRetry'>,
  ): RetryBackoffOptions => {
    const { scheduler } = context
    return { ...context.backoff, ...settings, scheduler }
  }

  /** `request`, its transport trouble (`isRetryable`) retried and reported. */
  const retried = <R>(
    request: (signal: AbortSignal) => Promise<R>,
    isRetryable: (error: unknown) => boolean = transient,
  ): Observable<R> =>
    fromRequest(request).pipe(
      tap(() => health.ok(key)),
      retryBackoff<R>(
        backoff({
          isRetryable,
          onRetry: ({ attempt, delayMs, error }) => health.retrying(key, attempt, delayMs, error),
        }),
      ),
    )

  /**
   * `request` (one order's look-up) until the venue shows what it asks for: transport
   * trouble retried, and "not shown" ({@link isUnseen}) for `visibleWithinMs` from the
   * first ask, at least once a poll interval; then a `VenueNotFoundError` naming `what`.
   */
  const visible = <R>(
    request: (signal: AbortSignal) => Promise<R>,
    what: () => string,
  ): Observable<R> =>
    defer(() => {
      const started = now()
      const left = () => visibleWithinMs - (now() - started)
      return retried(request, transientLookUp).pipe(
        retryBackoff<R>(
          backoff({
            isRetryable: (error) => isUnseen(error) && left() > 0,
            // Asked again at least once a poll interval (a new order is found as soon as
            // the streams would see it anyway), and once more when the time is up.
            waitAtMostMs: () => Math.min(context.pollIntervalMs, left()),
          }),
        ),
        catchError((error: unknown) => {
          if (!isUnseen(error)) throw error
          throw new VenueNotFoundError(
            `${method}: the venue did not show ${what()} within ${visibleWithinMs} ms`,
            { status: (error as VenueNotFoundError | VenueServerError).status, cause: error },
          )
        }),
      )
    })

  const account = () => retried(() => chainAccount(context, rest))
  const found = (record: OpenOrder | Order, fills: readonly Fill[], known: string | undefined) =>
    ({ type: 'found', record, fills, account: known, now: now() }) as const

  /**
   * The fills of a record found at the start. When the venue lists only its newest trades,
   * the earlier ones are read from the account's trades (from the order's time, ascending),
   * so that an order of many fills is still followed whole.
   */
  const tradesOf = (record: OrderWithTrades, chain: string): Observable<Fill[]> =>
    defer(() => {
      const listed = recordFills(record, chain)
      if (listsAll(record, listed)) return of(listed)
      const firstListed = listed.reduce<string | undefined>(
        (low, fill) =>
          low === undefined || compareIds(fill.globalSeq, low) < 0 ? fill.globalSeq : low,
        undefined,
      )
      const page = (afterSeq: string | undefined) =>
        retried((signal) =>
          rest.trades(
            {
              poolId: record.pool_id,
              after: Math.floor(record.order_time / 1000) - 1,
              ...(afterSeq === undefined ? {} : { afterSeq }),
              sort: 'asc',
              limit: TRADES_PAGE,
            },
            { signal },
          ),
        )
      return page(undefined).pipe(
        expand((trades) => {
          const last = trades.at(-1)?.global_seq
          // The rest is in the record's own list: stop where it starts.
          if (last === undefined || trades.length < TRADES_PAGE) return EMPTY
          if (firstListed !== undefined && compareIds(last, firstListed) >= 0) return EMPTY
          return page(last)
        }),
        reduce(
          (fills, trades) => {
            for (const trade of trades) {
              for (const fill of fillsOf(trade, chain)) {
                if (isOrderFill(fill, record.id)) fills.set(fill.globalSeq, fill)
              }
            }
            return fills
          },
          new Map(listed.map((fill) => [fill.globalSeq, fill])),
        ),
        map((fills) => [...fills.values()]),
      )
    })

  /** The order's look-up until it shows, with every fill of it. */
  const lookUp = (id: string): Observable<WatchInput> =>
    account().pipe(
      switchMap((chain) =>
        visible(
          (signal) => rest.order(id, { signal }),
          () => `order ${id}`,
        ).pipe(
          switchMap((record) =>
            tradesOf(record, chain).pipe(map((fills) => found(record, fills, chain))),
          ),
        ),
      ),
    )

  /** The id of the newest order with the client id placed in time, once visible. */
  const idOfClientId = (wanted: Extract<Wanted, { clientId: string }>): Observable<string> => {
    let older: Order | undefined
    const placed = new Date(Math.floor(wanted.placedAfter / 1000) * 1000).toISOString()
    return visible(
      async (signal) => {
        const answer = await rest.orderByClientId(wanted.clientId, { signal })
        // The venue's answer for the client id: only its time is checked.
        if (isWanted(answer, { ...wanted, clientId: answer.order_cid })) return answer
        // Only an older order uses the client id: as good as not visible yet.
        older = answer
        throw new VenueNotFoundError(`${method}: only an older order uses the client id`, {
          status: 404,
        })
      },
      () =>
        `an order with client id ${JSON.stringify(wanted.clientId)} placed at or after ${placed}` +
        (older === undefined
          ? ''
          : ` (only order ${older.id}, placed ${new Date(older.order_time).toISOString()}, uses it)`),
    ).pipe(map((order) => order.id))
  }

  /**
   * An order the feeds did not show: the newest ended orders, then its look-up. Ended
   * without a fill, or (with the whole story) with the feeds' fills adding up: no look-up.
   */
  const onVenue = (
    plan: Extract<FindPlan, { type: 'venue' }>,
    whole: boolean,
  ): Observable<WatchInput> => {
    const { wanted, early } = plan
    // A venue that polls knows the account already (its fills tail reads it).
    const first: Observable<string | undefined> = whole ? of(undefined) : account()
    return first.pipe(
      switchMap((chain) =>
        retried(() =>
          findEnded(context, rest, (page) => page.find((order) => isWanted(order, wanted))),
        ).pipe(
          switchMap((ended): Observable<WatchInput> => {
            if (ended !== undefined) {
              const mine = early.filter((fill) => isOrderFill(fill, ended.id))
              if (unfilled(ended) || (whole && addUpTo(mine, ended.executed_amount))) {
                return of(found(ended, [], chain))
              }
              return lookUp(ended.id)
            }
            return 'id' in wanted
              ? lookUp(wanted.id)
              : idOfClientId(wanted).pipe(switchMap((id) => lookUp(id)))
          }),
        ),
      ),
    )
  }

  /**
   * An order listed without a fill, on a venue that polls: none known, unless it is young.
   * A young order may have filled after the list was read (or the list may lag) and before
   * the fills tail started: its fills are read from the account's trades of the last
   * minute, in one scan every young order starting with it shares.
   */
  const recent = (record: OpenOrder, readyAt: number): Observable<WatchInput> =>
    account().pipe(
      switchMap((chain) =>
        retried(() => venueNow(context, rest)).pipe(
          switchMap((venueMs) => {
            const since = venueMs - RECENT_MS
            if (record.order_time < since) return of([])
            return retried(() => recentFills(context, rest, since, readyAt)).pipe(
              map((fills) => fills.filter((fill) => isOrderFill(fill, record.id))),
            )
          }),
          map((fills) => found(record, fills, chain)),
        ),
      ),
    )

  return {
    venueNow: () => retried(() => venueNow(context, rest)),
    find: (plan, whole) => {
      switch (plan.type) {
        case 'recent-fills':
          return recent(plan.record, plan.readyAt)
        case 'look-up':
          return lookUp(plan.id)
        case 'venue':
          return onVenue(plan, whole)
      }
    },
    ask: (id, chain) =>
      retried(() => endedInPages(context, rest, id)).pipe(
        switchMap(
          (ended): Observable<WatchInput> =>
            ended === undefined
              ? retried((signal) => rest.order(id, { signal }), transientLookUp).pipe(
                  map(
                    (record): WatchInput => ({
                      type: 'answer',
                      record,
                      fills: liveFills(record, chain),
                      now: now(),
                    }),
                  ),
                  catchError((error: unknown) => {
                    if (isUnseen(error)) return of<WatchInput>({ type: 'unanswered', now: now() })
                    throw error
                  }),
                )
              : of<WatchInput>({ type: 'answer', record: ended, fills: [], now: now() }),
        ),
      ),
  }
}

/** Whether nothing of `order` executed. */
function unfilled(order: Order): boolean {
  return compareDecimal(order.executed_amount, '0') === 0
}
