import {
  connect,
  defer,
  distinctUntilChanged,
  EMPTY,
  endWith,
  filter,
  ignoreElements,
  map,
  merge,
  mergeMap,
  type Observable,
  Subject,
  scan,
  switchMap,
  take,
  takeUntil,
  takeWhile,
  tap,
  timer,
} from 'rxjs'
import { reportEnd } from '../core/health.js'
import { VenueInputError } from '../errors/venue-input-error.js'
import { checkPathSegment, checkText, failArgument, orderSegment } from '../rest/index.js'
import { clampDelay } from '../timers.js'
import { type OrderFeeds, polledOrderFeeds } from './order-feeds.js'
import type { OrderEvent, OrderLifeSettings } from './order-life.js'
import { type OrderRequests, orderRequests, RECENT_MS } from './order-requests.js'
import {
  startWatch,
  stepWatch,
  type Target,
  type WatchInput,
  type WatchSettings,
  type WatchStep,
} from './order-watch.js'
import type { StreamContext } from './stream-context.js'
import { streamKey } from './stream-key.js'
import { streamOptions } from './stream-options.js'
import { ownRunKey } from './stream-pipeline.js'

export type { OrderEvent, OrderProgress } from './order-life.js'

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
 * // a restarted bot following an order it placed an hour ago under a reused client id
 * venue.watchOrder({ clientId: 'bot-1' }, { placedAfter: Date.parse('2026-11-25T10:00:00Z') })
 * ```
 */
export interface WatchOrderOptions {
  /**
   * How long a fresh order the venue does not show yet (its 500 `service internal error`)
   * is asked for again before `VenueNotFoundError`, ms; default 10,000.
   */
  readonly visibleWithinMs?: number | undefined
  /**
   * With a client id: only an order placed at or after this time (epoch ms, the venue's
   * clock) is taken, so that a client id used again never follows an older order. Default:
   * one minute before the subscription (by the venue's clock). `0` takes any order.
   */
  readonly placedAfter?: number | undefined
  /**
   * How long `done` waits for the fills of an ended order to add up to its executed
   * amount, ms; default the venue's `fillGraceMs` (10,000).
   */
  readonly fillGraceMs?: number | undefined
}

const METHOD = 'watchOrder'

/** Polls between two look-ups of an order missing from the open list. */
const RECHECK_POLLS = 2

/** The order `ref` names, checked at the call. */
function target(ref: unknown, placedAfter: unknown): Target {
  if (typeof ref === 'object' && ref !== null && 'clientId' in ref) {
    streamOptions(METHOD, ref, ['clientId'])
    const clientId = (ref as { clientId: unknown }).clientId
    // The rule of the venue's client-id path segment: checked here, not at the first look-up.
    checkPathSegment(METHOD, 'clientId', checkText(METHOD, 'clientId', clientId))
    if (
      placedAfter !== undefined &&
      (typeof placedAfter !== 'number' || !Number.isSafeInteger(placedAfter) || placedAfter < 0)
    ) {
      failArgument(METHOD, 'placedAfter', 'must be epoch ms, a whole number 0 or more', placedAfter)
    }
    return { clientId: clientId as string, placedAfter: placedAfter as number | undefined }
  }
  if (placedAfter !== undefined) {
    failArgument(METHOD, 'placedAfter', 'applies to a client id only', placedAfter)
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

function wholeMs(name: string, value: unknown, fallback: number): number {
  // `null` is refused like any other wrong value, not taken as "the default".
  const ms = value === undefined ? fallback : value
  if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms < 0) {
    failArgument(METHOD, name, 'must be a whole number of ms, 0 or more', ms)
  }
  return ms
}

/**
 * One order's fills and end: `fill` once per fill (ascending `global_seq`; one the venue
 * showed after a later fill of the order comes when it shows, marked `late`), `update` when
 * the order changed without a fill, then one `done` (`filled`, `canceled`, `rejected`, or
 * `unknown` for an order the venue stopped answering for), then completion. `done` waits
 * up to `fillGraceMs` for the fills to add up to the executed amount; after that it comes
 * marked `reconciled: false` with the amount `missing`. An order that ended before the
 * subscription replays its fills, then `done`.
 *
 * It follows the venue's open orders and the account's fills (`feeds`): the venue's own
 * polls, or, on a venue reading from a relay, the relay's `open-orders` and `fills`
 * streams (see {@link OrderFeeds}).
 *
 * What it costs on a venue that polls: every `watchOrder` of a venue shares one tail of
 * the account's fills and one poll of the open orders. At the start, an order found in the
 * open list without fills costs nothing more; an ended one without fills is found in shared
 * pages of the newest ended orders; otherwise one look-up (`/orders/{id}`; a client id
 * first through the lists, then `/orders/client-id/...`). Orders that leave the open list
 * together (a mass cancel, many filled at once) end through shared pages of the newest
 * ended orders, their fills from the fills tail: no request of their own. An order missing
 * from the open list with no end known, or whose fills reach its amount while listed, is
 * asked for on its own clock (at once, then every 2 polls): the orders asked for in one
 * turn share fresh pages of ended orders, and one those pages do not show ended (or asked
 * for alone) is looked up; when the venue does not answer for it `orderLookups` times in a
 * row, it is `done` with `status: 'unknown'`. A fresh order the venue does not show yet is
 * asked for with the venue's backoff for `visibleWithinMs`, then the stream fails with a
 * `VenueNotFoundError` naming it. Every other request (the lists, the shared scans, account
 * info, the clock) is retried as every stream's: transport trouble and any 5xx, the
 * venue's ambiguous 500 included, with the venue's backoff, reported `retrying`.
 *
 * Through a relay: an order the relay lists, or one that shows there within two poll
 * intervals of the subscription, is followed to its end from the relayed streams alone,
 * with no request to the venue (its earlier fills are in the relay's fills). The venue is
 * asked only for what those streams cannot show: an order that ended before the
 * subscription (or never rested, so the relay never listed it), one the relay's list stops
 * showing without an end, and, for a client id without `placedAfter`, the venue's clock
 * (once per venue).
 *
 * Throws `VenueInputError` at once for a bad reference or option.
 */
export function watchOrder(
  context: StreamContext,
  ref: WatchOrderRef,
  options?: WatchOrderOptions,
  feeds: OrderFeeds = polledOrderFeeds(context),
): Observable<OrderEvent> {
  const given = streamOptions(METHOD, options, ['visibleWithinMs', 'placedAfter', 'fillGraceMs'])
  const wanted = target(ref, given['placedAfter'])
  const visibleWithinMs = wholeMs('visibleWithinMs', given['visibleWithinMs'], 10_000)
  const life: OrderLifeSettings = {
    lookups: context.orderLookups,
    recheckPolls: RECHECK_POLLS,
    fillGraceMs: wholeMs('fillGraceMs', given['fillGraceMs'], context.fillGraceMs),
    // With the whole story in the feeds, the list closes a filled order and the fills
    // feed brings every fill: the venue is not asked for either.
    fullAskPolls: feeds.whole ? RECHECK_POLLS : 0,
    askWhileEnding: !feeds.whole,
  }
  const settings: WatchSettings = { life, whole: feeds.whole, showWithinMs: feeds.showWithinMs }
  return defer(() => {
    // Each subscription reports its own requests: `retrying` while the venue is away,
    // `ok` once it answers, `failed` when the stream ends with an error.
    const key = ownRunKey(streamKey(METHOD, [ref]))
    const requests = orderRequests(context, { method: METHOD, key, visibleWithinMs })
    return followOrder(context, feeds, requests, settings, wanted).pipe(
      reportEnd(context.health, key),
    )
  })
}

/**
 * The I/O around the state machine of order-watch.ts: its inputs (the feeds, the venue's
 * clock, what its requests answer, its timer) go through {@link stepWatch} one at a time;
 * each step's events are emitted, and what the step asks for is run: the `finding` phase's
 * requests for as long as the phase lasts, each ask of the order's life, the latest
 * wake-up. The open orders are listened to once the fills feed is ready, so that the first
 * poll the order is looked for in is newer than where the fills start; with the whole
 * story (a relay's fills start with every fill it kept), from the subscription, their
 * views held until the fills are ready (order-watch.ts, `starting`).
 */
function followOrder(
  context: StreamContext,
  feeds: OrderFeeds,
  requests: OrderRequests,
  settings: WatchSettings,
  target: Target,
): Observable<OrderEvent> {
  const clock = context.scheduler
  const now = () => clock.now()
  return defer(() => {
    // What the machine's own requests and timer answer.
    const answers = new Subject<WatchInput>()
    const views = feeds.openOrders.pipe(
      map((view): WatchInput => ({ type: 'orders', view, now: now() })),
    )
    const fed = feeds.fills.pipe(
      connect((fills) =>
        merge(
          fills.pipe(
            map(
              (event): WatchInput =>
                event.type === 'ready' ? { type: 'ready', now: now() } : event,
            ),
          ),
          // With the whole story (a relay), from the subscription: an order listed then
          // that ends while the fills catch up still shows (its end), and is asked nothing.
          feeds.whole
            ? views
            : fills.pipe(
                filter((event) => event.type === 'ready'),
                take(1),
                switchMap(() => views),
              ),
        ),
      ),
      // A feed that ends (the venue closed) ends the stream.
      endWith<WatchInput>({ type: 'closed' }),
    )
    // A client id without `placedAfter`: orders from a minute before now, by the venue.
    const placed: Observable<WatchInput> =
      'clientId' in target && target.placedAfter === undefined
        ? requests.venueNow().pipe(map((ms) => ({ type: 'placed-after', at: ms - RECENT_MS })))
        : EMPTY
    return merge(fed, placed, answers).pipe(
      scan((step: WatchStep, input) => stepWatch(step.state, input, settings), startWatch(target)),
      takeWhile((step) => !step.complete, true),
      connect((steps) =>
        merge(
          steps.pipe(mergeMap((step) => step.events)),
          effects(steps).pipe(
            takeUntil(steps.pipe(ignoreElements(), endWith(true))),
            tap((input) => answers.next(input)),
            ignoreElements(),
          ),
        ),
      ),
    )
  })

  /** What the steps ask for, run; their answers are the machine's next inputs. */
  function effects(steps: Observable<WatchStep>): Observable<WatchInput> {
    return merge(
      // The requests of the `finding` phase, dropped when it ends.
      steps.pipe(
        map((step) => (step.state.phase === 'finding' ? step.state.plan : undefined)),
        distinctUntilChanged(),
        switchMap((plan) => (plan === undefined ? EMPTY : requests.find(plan, settings.whole))),
      ),
      // The order's clock: the latest wake-up asked for.
      steps.pipe(
        map((step) => step.wakeAt),
        filter((at): at is number => at !== undefined),
        switchMap((at) =>
          timer(clampDelay(at - now()), clock).pipe(
            map((): WatchInput => ({ type: 'time', now: Math.max(at, now()) })),
          ),
        ),
      ),
      // Each ask of the order's life.
      steps.pipe(
        mergeMap((step) =>
          step.ask && step.state.phase === 'following'
            ? requests.ask(step.state.life.id, step.state.account)
            : EMPTY,
        ),
      ),
    )
  }
}
